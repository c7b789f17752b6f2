"""Checks the stdlib flavors write in place instead of calling a runtime helper: an
unconstrained scalar's type test, and a string-tagged union's table lookup."""

from __future__ import annotations

from polytype import ir
from polytype.targets.base.render import py_str

# Scalars checked in place: (test that the value is NOT of the type, expected type name)
SCALAR_CHECKS = {
    "str": ("type({v}) is not str", "string"),
    # an int past Python's json limit (4,300 digits) could not be written back
    "int": ("(type({v}) is not int or not -_INT_BOUND < {v} < _INT_BOUND)", "integer"),
    "bool": ("type({v}) is not bool", "boolean"),
    # `v - v` is 0.0 (false) for a finite float, NaN (true) for NaN and infinity
    "float": (
        "(type({v}) is not int or not -_INT_BOUND < {v} < _INT_BOUND)"
        " and (type({v}) is not float or {v} - {v})",
        "number",
    ),
}


def scalar_check(type_ref: ir.TypeRef, variable: str) -> tuple[str, str] | None:
    """(the test that `variable` is NOT of the type, the JSON type named in the error)
    for an unconstrained scalar, optionally nullable; None for any other type."""
    nullable = isinstance(type_ref, ir.Nullable)
    if isinstance(type_ref, ir.Nullable):
        type_ref = type_ref.inner
    if not isinstance(type_ref, ir.Prim) or not type_ref.constraints.is_empty():
        return None
    template, expected = SCALAR_CHECKS[type_ref.kind]
    wrong = template.format(v=variable)
    return (f"{variable} is not None and {wrong}" if nullable else wrong), expected


def tag_lookup(union: ir.UnionType, table_name: str) -> tuple[str, ...]:
    """For a union tagged with strings: one table lookup, no calls, before the checked path."""
    if union.tag is None or not all(isinstance(value, str) for value, _ in union.tag_values):
        return ()
    return (
        "if type(data) is dict:",
        f"    tag = data.get({py_str(union.tag)})",
        "    if type(tag) is str:",
        f"        decode = {table_name}.get(tag)",
        "        if decode is not None:",
        "            return decode(data)",
    )
