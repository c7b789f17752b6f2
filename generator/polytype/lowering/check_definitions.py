"""The schemas a module's checks reach: the `$defs` entries a schema check refers to, kept raw
on `ir.Module.check_defs` so that the evaluators resolve them (an IR pass after lowering)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from polytype import ir
from polytype.dialect.keywords import defs_refs
from polytype.ir.json_types import freeze_json

_DEFS_PREFIX = "#/$defs/"


def definitions(bundled: Any, module: ir.Module) -> tuple[tuple[str, ir.JSONData], ...]:
    """The bundled document's definitions that `module`'s checks refer to, directly or
    through each other, by name in document order."""
    if not isinstance(bundled, dict):
        return ()
    defs = {
        name: defs_refs(schema)
        for key in ("definitions", "$defs")  # (a bundled document has `$defs` only)
        if isinstance(bundled.get(key), dict)
        for name, schema in bundled[key].items()
    }
    wanted: set[str] = set()
    pending = [name for check in ir.schema_checks(module) for name in _references(check.schema)]
    while pending:
        name = pending.pop()
        if name in wanted or name not in defs:
            continue
        wanted.add(name)
        pending.extend(_references(freeze_json(defs[name])))
    return tuple((name, freeze_json(schema)) for name, schema in defs.items() if name in wanted)


def _references(value: ir.JSONData) -> Iterator[str]:
    """The definition names of every `$ref` in a frozen JSON value."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.FrozenJSONObject):
            for key, item in node.items:
                if key == "$ref" and isinstance(item, str) and item.startswith(_DEFS_PREFIX):
                    yield item[len(_DEFS_PREFIX) :].replace("~1", "/").replace("~0", "~")
                else:
                    stack.append(item)
        elif isinstance(node, tuple):
            stack.extend(node)
