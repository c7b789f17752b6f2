"""How the Python flavors name what the schema names: enum members (and, for each
record, its fields).

The IR holds the schema's names (JSON keys, enum values, `x-field`); the three Python
flavors ask here for the Python spelling, by `polytype.naming`'s rules. Lowering refuses
an owned schema whose names would collide once converted, and a consumed schema's
collisions are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`), the same way here as there.
"""

from __future__ import annotations

from functools import cache

from polytype import ir, naming


@cache
def enum_members(enum: ir.EnumType) -> tuple[str, ...]:
    """The Python member of each value of `enum`, in order: `in_progress` → `IN_PROGRESS`."""
    return tuple(
        naming.numbered_in_turn([naming.python_enum_member(value.value) for value in enum.values])
    )


def enum_member(enum: ir.EnumType, value: str) -> str:
    """The Python member of the value `value` of `enum`."""
    members = enum_members(enum)
    return next(
        member for item, member in zip(enum.values, members, strict=True) if item.value == value
    )
