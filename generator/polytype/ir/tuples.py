"""The questions every later stage asks about a tuple's items, answered once (the lowering
of `prefixItems` is `polytype.lowering.tuples`)."""

from __future__ import annotations

from collections.abc import Callable

from polytype import ir


def map_items(node: ir.TupleOf, change: Callable[[ir.TypeRef], ir.TypeRef]) -> ir.TupleOf:
    """`node` with `change` applied to every item type (renaming, for one)."""
    rest = None if node.rest is None else change(node.rest)
    return ir.TupleOf(tuple(change(item) for item in node.prefix), rest, node.constraints)


def required_items(node: ir.TupleOf) -> tuple[ir.TypeRef, ...]:
    """The item types of the shortest array the tuple accepts (a value must be built
    of them: what decides whether a recursive type can have a finite value)."""
    count = node.constraints.min_items or 0
    found: list[ir.TypeRef] = []
    for index in range(count):
        item = node.item(index)
        if item is None:
            break
        found.append(item)
        if index >= len(node.prefix):  # the rest's type stands for every item past the prefix
            break
    return tuple(found)


# At most this many lengths are typed as a union of fixed-length Python tuples.
MAX_SHAPES = 4


def fixed_shapes(node: ir.TupleOf) -> tuple[tuple[ir.TypeRef, ...], ...] | None:
    """The item types of each array length the tuple allows, longest first, when there
    are at most `MAX_SHAPES` lengths (a Python type can then say exactly which items
    each has: `tuple[float, float] | tuple[float]`); None when there are more or no
    upper bound (the Python type is then a tuple of the union of the item types)."""
    lengths = node.lengths()
    if lengths is None or not 0 < len(lengths) <= MAX_SHAPES:
        return None
    shapes: list[tuple[ir.TypeRef, ...]] = []
    for length in reversed(lengths):
        items = [node.item(index) for index in range(length)]
        if any(item is None for item in items):
            return None
        shapes.append(tuple(item for item in items if item is not None))
    return tuple(shapes)
