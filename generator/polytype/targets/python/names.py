"""How the Python flavors name what the schema names: record fields and enum members.

The IR holds the schema's names (JSON keys, enum values, `x-field`); the three Python
flavors ask here for the Python spelling, by `polytype.naming`'s rules. Lowering refuses
an owned schema whose names would collide once converted, and a consumed schema's
collisions are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`), the same way here as there.
"""

from __future__ import annotations

from collections.abc import Container
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


def field_names(record: ir.Record, type_names: Container[str]) -> tuple[str, ...]:
    """The Python attribute of each field of `record`, in order. `type_names`: the
    module's type names (`ir.Module.types_by_name`).

    The schema's `x-field`, else the key in snake_case, never private or shadowing
    (`naming.python_field_name`); keys of a consumed schema that spell one name are
    numbered (`foo_bar`, `foo_bar_2`); a name that is also a type's gets a trailing `_`,
    since it would hide the type in the class body (lowering refuses the fields where
    that cannot be done).
    """
    names = naming.numbered_repeats(
        [naming.python_field(item.json_key, item.x_field) for item in record.fields]
    )
    return tuple(name + "_" if name in type_names else name for name in names)


def field_name(record: ir.Record, item: ir.Field, type_names: Container[str]) -> str:
    """The Python attribute of the field `item` of `record`."""
    return field_names(record, type_names)[record.fields.index(item)]
