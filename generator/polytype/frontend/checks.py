"""Schema checks: what no type can express, kept as the JSON Schema the file wrote.

`not`, `if`/`then`/`else` and `dependentSchemas` (beyond required keys) say which values
a schema accepts in terms no generated type can hold: `not: {required: [a]}` accepts
every string, every array and every object without `a`. Lowering them into types would
change their meaning (keywords apply to their own JSON type only), so they are not
lowered: the front end moves each into `CHECKS_KEY` on the schema that holds them, as a
fragment of the schema as written (after draft normalisation and bundling, before any
approximation), and lowering turns the entries into `ir.SchemaCheck`s that the decoders
evaluate on the JSON value with JSON Schema's own semantics.

An entry is `{"schema": fragment, "keywords": [...], "pointer": where}`. The fragment's
`$ref`s are `#/$defs/Name` of the bundled document; `definitions` collects the ones the
module's checks reach, raw, for `ir.Module.check_defs`.
"""

from __future__ import annotations

import copy
from typing import Any

from polytype.dialect.keywords import CHECKS_KEY, defs_refs, walk_schemas

__all__ = ["CHECKS_KEY", "expanded", "fragment", "merged", "moved", "unevaluated"]

# The keywords moved into a check, in the order a fragment lists them.
CONTAINS_KEYWORDS = ("contains", "minContains", "maxContains")
CHECK_KEYWORDS = ("not", "if", "then", "else", "dependentSchemas", *CONTAINS_KEYWORDS)


def fragment(
    node: dict[str, Any], dependent: dict[str, Any], pointer: str
) -> dict[str, Any] | None:
    """The check entry for `node`'s `not`, `if`/`then`/`else` and `contains` (with its
    counts), with `dependent` (the `dependentSchemas` entries that are more than required
    keys), or None when they assert nothing (`then` without `if`, `if` without `then` or
    `else`, counts without `contains`)."""
    schema: dict[str, Any] = {}
    if "not" in node:
        schema["not"] = node["not"]
    if "if" in node and ("then" in node or "else" in node):
        schema.update((key, node[key]) for key in ("if", "then", "else") if key in node)
    if "contains" in node:
        schema.update((key, node[key]) for key in CONTAINS_KEYWORDS if key in node)
    if dependent:
        schema["dependentSchemas"] = dependent
    if not schema:
        return None
    return {"schema": schema, "keywords": list(schema), "pointer": pointer}


# What `unevaluatedProperties`/`unevaluatedItems` read: every keyword of their schema
# object (its in-place applicators, `$ref` among them, say what was evaluated), but not
# what only names or places definitions.
UNEVALUATED_KEYWORDS = ("unevaluatedProperties", "unevaluatedItems")
_NOT_EVALUATED = frozenset(
    {"$defs", "definitions", "$id", "$schema", "$anchor", "$dynamicAnchor", "$comment",
     "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly"}
)  # fmt: skip


def unevaluated(node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """The check entry for `node`'s `unevaluatedProperties`/`unevaluatedItems`: the whole
    schema object as written, since which keys or items count as evaluated depends on
    every applicator beside them (the types check the rest again, which costs time only
    where the schema says this)."""
    schema = {
        key: value
        for key, value in node.items()
        if key not in _NOT_EVALUATED and not key.startswith("x-")
    }
    keywords = [key for key in UNEVALUATED_KEYWORDS if key in schema]
    return {"schema": schema, "keywords": keywords, "pointer": pointer}


def moved(data: Any) -> Any:
    """A schema a project owns with its check keywords moved into check entries (a copy;
    `data` itself when it has none). Its references are `#/$defs/Name` already (the
    dialect allows no other), so the fragments are taken as they stand."""
    if not any(key in node for _, node in walk_schemas(data) for key in CHECK_KEYWORDS):
        return data
    data = copy.deepcopy(data)
    for pointer, node in walk_schemas(data):  # a node's children are walked after it
        found = {key: defs_refs(node.pop(key)) for key in CHECK_KEYWORDS if key in node}
        if not found:
            continue
        dependent = found.pop("dependentSchemas", {})
        entry = fragment(found, dependent if isinstance(dependent, dict) else {}, pointer)
        if entry is not None:
            node[CHECKS_KEY] = merged(node.get(CHECKS_KEY), [entry])
    return data


def merged(first: Any, second: Any) -> list[Any]:
    """The check entries of two schemas merged by `allOf`: both lists, each entry once."""
    entries: list[Any] = []
    for entry in [*(first or []), *(second or [])]:
        if entry not in entries:
            entries.append(entry)
    return entries


def expanded(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema the front end has read (its checks moved into `CHECKS_KEY`, at any depth)
    as a JSON Schema again, for a check of its own: each schema's check entries become
    `allOf` parts beside its other keywords."""

    def walk(value: Any) -> Any:
        if isinstance(value, list):
            return [walk(item) for item in value]
        if not isinstance(value, dict):
            return value
        out = {key: walk(item) for key, item in value.items() if key != CHECKS_KEY}
        entries = value.get(CHECKS_KEY)
        if isinstance(entries, list) and entries:
            parts = [entry["schema"] for entry in entries if isinstance(entry, dict)]
            out["allOf"] = [*out.get("allOf", []), *parts]
        return out

    result: dict[str, Any] = walk(schema)
    return result
