"""Every naming rule in one place: case conversion and reserved words.

Targets never invent names; lowering asks this module, so a collision is
detected once, with a location, instead of being numbered away.
"""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata

_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_IDENTIFIER = re.compile(r"[^0-9a-zA-Z_]+")

PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"self", "cls"}
# Names a generated dataclass module uses for its own purposes.
PYTHON_MEMBER_RESERVED = frozenset(
    {"extra", "to_dict", "from_dict", "to_json", "from_json", "_present"}
)
PYTHON_BUILTINS = frozenset(dir(builtins))

ELIXIR_RESERVED = frozenset(
    {
        "do", "end", "fn", "nil", "true", "false", "when", "and", "or", "not", "in",
        "catch", "rescue", "after", "else", "__MODULE__", "__struct__", "__ENV__",
        "__DIR__", "__CALLER__", "__STACKTRACE__",
    }
)  # fmt: skip


def ascii_identifier(text: str) -> str:
    """Fold `text` to an ASCII identifier fragment (accents dropped, other characters to `_`)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NOT_IDENTIFIER.sub("_", folded)


def snake_case(name: str) -> str:
    """`toolCallId` → `tool_call_id`, `HTTPServer` → `http_server`, `_TrimState` → `_trim_state`."""
    leading = "_" if name.startswith("_") else ""
    words = _WORD_BOUNDARY.sub("_", ascii_identifier(name)).strip("_")
    snake = re.sub(r"_+", "_", words).lower()
    if not snake:
        snake = "field"
    if snake[0].isdigit():
        snake = f"n{snake}"
    return leading + snake


def pascal_case(name: str) -> str:
    """`tool_call` → `ToolCall`; keeps existing capitals (`ToolCall` stays)."""
    parts = [p for p in re.split(r"[_\W]+", ascii_identifier(name)) if p]
    result = "".join(p[0].upper() + (p[1:].lower() if p.isupper() else p[1:]) for p in parts)
    result = result or "Type"
    if result[0].isdigit():
        result = f"T{result}"
    return result


def python_field_name(json_key: str) -> str:
    """A safe Python attribute for a JSON key: snake_case, keywords and reserved names get `_`."""
    name = snake_case(json_key)
    if name.startswith("__"):
        name = name.lstrip("_") or "field"
    if name in PYTHON_RESERVED or name in PYTHON_MEMBER_RESERVED:
        name += "_"
    return name


def python_enum_member(value: str) -> str:
    """`in_progress` → `IN_PROGRESS`, `acceptEdits` → `ACCEPT_EDITS`."""
    name = snake_case(value).lstrip("_").upper() or "EMPTY"
    if name in {"NAME", "VALUE"} or name.startswith("_"):
        name += "_"
    return name


def elixir_field_name(json_key: str) -> str:
    """A safe Elixir struct key: snake_case; reserved words get a trailing `_`."""
    name = snake_case(json_key)
    if name.startswith("__") or name in ELIXIR_RESERVED:
        name = name.strip("_") + "_"
    return name


def elixir_atom(value: str) -> str:
    """`acceptEdits` → `accept_edits`: the atom an enum value decodes to (as `:accept_edits`)."""
    name = snake_case(value).lstrip("_") or "empty"
    if name in ELIXIR_RESERVED:
        name += "_"
    return name


def elixir_module_segment(name: str) -> str:
    """`_TrimState` → `TrimState`: a valid Elixir alias segment."""
    return pascal_case(name)
