"""Keywords whose values are not what JSON Schema says they are: dropped, with a warning.

Published schemas hold mistakes that validators shrug off (continue-config has
description strings among its `properties`); the passes after this one (and
`referencing`, which resolves references) rely on every schema keyword holding the
right kind of value. So a keyword that should hold a schema, a list or a map of them,
or a string (`$ref`, `$id`, ..., and the text annotations `title`, `description`,
`$comment`), or a `type` that is not a name or a list of names, but holds something else is removed
here, and a map entry that is not a schema likewise, each with a located warning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from polytype.diagnostics import join_pointer
from polytype.frontend.drafts import SCHEMA_LISTS, SCHEMA_MAPS, SINGLE_SCHEMA

_STRINGS = ("$ref", "$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor", "$schema")
# Annotations that hold text: any other value (`description: null`) says nothing.
_TEXTS = ("title", "description", "$comment")


def _is_type(value: Any) -> bool:
    """A type name or a list of them (what `type` may hold). A name JSON Schema does not
    define (`str`) stays: it matches nothing, as the later passes read it."""
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, str)


def _is_schema(value: Any) -> bool:
    return isinstance(value, (dict, bool))


@dataclass
class Sanitised:
    data: Any
    # (pointer in the normalised data, message)
    dropped: list[tuple[str, str]] = field(default_factory=list)


def sanitise(data: Any) -> Sanitised:
    """`data` (normalised) without malformed keyword values."""
    result = Sanitised(None)
    result.data = _schema(data, "", result.dropped.append)
    return result


def _schema(node: Any, pointer: str, drop: Callable[[tuple[str, str]], None]) -> Any:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        here = join_pointer(pointer, key)
        if key in _STRINGS and not isinstance(value, str):
            drop((here, f"{key!r} must be a string; ignored"))
        elif key in _TEXTS and not isinstance(value, str):
            drop((here, f"{key!r} must be a string; the annotation is ignored"))
        elif key == "type" and not _is_type(value):
            drop((here, "'type' must be a type name or a list of them; ignored"))
        elif key in SINGLE_SCHEMA and not _is_schema(value):
            drop((here, f"{key!r} must be a schema; ignored"))
        elif key in SCHEMA_LISTS and not (
            isinstance(value, list) and value and all(_is_schema(item) for item in value)
        ):
            drop((here, f"{key!r} must be a non-empty list of schemas; ignored"))
        elif key in SCHEMA_MAPS and not isinstance(value, dict):
            drop((here, f"{key!r} must be an object of schemas; ignored"))
        elif key in SINGLE_SCHEMA:
            out[key] = _schema(value, here, drop)
        elif key in SCHEMA_LISTS:
            out[key] = [_schema(item, join_pointer(here, i), drop) for i, item in enumerate(value)]
        elif key in SCHEMA_MAPS:
            entries: dict[str, Any] = {}
            for name, child in value.items():
                if _is_schema(child):
                    entries[name] = _schema(child, join_pointer(here, name), drop)
                else:
                    drop(
                        (
                            join_pointer(here, name),
                            f"{name!r} under {key!r} is not a schema; ignored",
                        )
                    )
            out[key] = entries
        else:
            out[key] = value
    return out
