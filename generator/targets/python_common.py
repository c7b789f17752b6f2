"""Python naming and literal rendering shared by the Python targets."""

from __future__ import annotations

import json
import keyword
import re

from generator import ir, naming

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def function_suffix(type_name: str) -> str:
    """`ContentBlock` → `content_block`; `_TrimState` → `trim_state`."""
    return naming.snake_case(type_name).lstrip("_")


def path_segment(key: str | int) -> str:
    """How a key appears in a `$.a.b[0]` error path."""
    if isinstance(key, int):
        return f"[{key}]"
    if _IDENTIFIER.match(key) and not keyword.iskeyword(key):
        return f".{key}"
    return f"[{json.dumps(key, ensure_ascii=False)}]"


def py_literal(value: ir.JSONData) -> str:
    """A Python expression for an IR JSON value."""
    if isinstance(value, ir.FrozenJSONObject):
        return "{" + ", ".join(f"{json.dumps(k)}: {py_literal(v)}" for k, v in value.items) + "}"
    if isinstance(value, tuple):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=True)


def thaw(value: ir.JSONData) -> object:
    """IR JSON back to plain Python JSON."""
    if isinstance(value, ir.FrozenJSONObject):
        return {k: thaw(v) for k, v in value.items}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value
