"""`const` and `enum` of any JSON value in Python: their annotation, the tuple of
allowed values a check compares with, and the `isinstance` classes of their values."""

from __future__ import annotations

from polytype import ir
from polytype.ir import literals
from polytype.targets.base.render import py_str
from polytype.targets.python.common import py_literal


def literal_annotation(node: ir.JsonLiterals, json_value: str = "JSONValue") -> str:
    """The Python type of a `const`/`enum` of any JSON value: `Literal[...]` when every
    value is a string, integer or boolean (`None` for null), else the JSON value type
    (`json_value`, the flavor's name for it)."""
    if node.values == (None,):
        return "None"
    if not is_literal_type(node):
        return json_value
    return f"Literal[{', '.join(py_literal(value) for value in node.values)}]"


def is_literal_type(node: ir.JsonLiterals) -> bool:
    """Whether `literal_annotation(node)` is a `Literal[...]` (the module imports `Literal`)."""
    return bool(node.values) and node.scalar and node.values != (None,)


def literal_arguments(node: ir.JsonLiterals) -> tuple[str, str]:
    """The allowed values (a Python tuple) and what an error says was expected."""
    values = [py_literal(value) for value in node.values]
    allowed = "(" + ", ".join(values) + ("," if len(values) == 1 else "") + ")"
    return allowed, py_str(literals.expected(node))


def literal_classes(node: ir.JsonLiterals) -> list[str]:
    """The `isinstance` classes of the values a `JsonLiterals` decodes to."""
    if not node.values:
        return ["object"]
    classes: list[str] = []
    for value in node.values:
        if value is None:
            classes.append("type(None)")
        elif isinstance(value, bool):
            classes.append("bool")
        elif isinstance(value, (int, float)):
            classes += ["int", "float"]
        elif isinstance(value, str):
            classes.append("str")
        else:
            classes.append("list" if isinstance(value, tuple) else "dict")
    return classes
