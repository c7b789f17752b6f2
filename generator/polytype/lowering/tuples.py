"""Lowering of positional arrays: `prefixItems` (+ `items`) becomes an `ir.TupleOf`.

JSON Schema 2020-12: item i < len(prefixItems) must match prefixItems[i]; the items
past the prefix must match `items` (absent: any JSON value; `false`: there may be
none); an array shorter than the prefix is valid unless `minItems` says otherwise.
The draft-04..2019-09 array-form `items` and `additionalItems` reach this module as
`prefixItems` and `items` (`polytype.frontend.drafts`).

Also the few questions every later stage asks about a tuple's items, so that they
are answered once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from polytype import ir
from polytype.diagnostics import join_pointer

# lower_type(schema, pointer, hoist_name) -> the item's type (lowering's `_lower_type`)
LowerType = Callable[[Any, str, str], ir.TypeRef]


def is_tuple_schema(schema: dict[str, Any]) -> bool:
    """Whether an array schema checks its items by position."""
    return isinstance(schema.get("prefixItems"), list)


def lower_tuple(
    schema: dict[str, Any],
    pointer: str,
    hoist_name: str,
    lower_type: LowerType,
    constraints: ir.Constraints,
) -> ir.TupleOf:
    """The `TupleOf` of an array schema with `prefixItems`; inline item types are
    named after the tuple and their position (`PointItem1`), the rest's `PointRest`."""
    prefix = tuple(
        lower_type(
            item,
            join_pointer(join_pointer(pointer, "prefixItems"), index),
            f"{hoist_name}Item{index + 1}",
        )
        for index, item in enumerate(schema["prefixItems"])
    )
    items = schema.get("items", True)
    rest = (
        None
        if items is False
        else lower_type(items, join_pointer(pointer, "items"), hoist_name + "Rest")
    )
    return ir.TupleOf(prefix, rest, constraints)
