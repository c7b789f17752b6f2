"""Normalise a schema of any draft (04, 06, 07, 2019-09, 2020-12) to the 2020-12 form.

Later stages see one dialect. The rewrites, each only where the document's draft
means it:

- draft-04 `id` → `$id`; draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` →
  the numeric form (the bound moves out of `minimum`/`maximum`);
- array-form `items` → `prefixItems`, and `additionalItems` → `items` (up to 2019-09);
- `dependencies` → `dependentRequired` (lists) and `dependentSchemas` (schemas);
- up to draft-07, everything beside `$ref` is ignored by JSON Schema: dropped here too
  (`title` and `description` are kept, for documentation, and `definitions`/`$defs`, which assert
  nothing but hold schemas that pointers reach: every validator resolves
  `{"$ref": "#/definitions/X", "definitions": {...}}`);
- `$recursiveRef` (2019-09) → `$ref` (resolved statically, like `$dynamicRef`);
- a `#/…` reference into a renamed place follows it (`items/0` → `prefixItems/0`).

The rewrite is functional (the input is not changed); `moves` records every renamed
schema location (new pointer → old pointer) so diagnostics point at what was written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from polytype import naming
from polytype.diagnostics import join_pointer

DRAFTS = ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
_SCHEMA_URIS = {
    "draft-04": "http://json-schema.org/draft-04/schema",
    "draft-06": "http://json-schema.org/draft-06/schema",
    "draft-07": "http://json-schema.org/draft-07/schema",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}

# Keywords whose value is one schema, a list of schemas, or a map of schemas.
SINGLE_SCHEMA = (
    "items", "additionalItems", "additionalProperties", "unevaluatedProperties",
    "unevaluatedItems", "propertyNames", "contains", "not", "if", "then", "else",
)  # fmt: skip
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAPS = ("$defs", "definitions", "properties", "patternProperties", "dependentSchemas")
# What survives beside `$ref` up to draft-07: the reference, documentation, and the
# definitions that pointers reach (they assert nothing).
_KEPT_BESIDE_REF = frozenset({"$ref", "title", "description", "definitions", "$defs"})
# Pointer tokens that are keywords, not names: skipped when a place names a type.
POINTER_KEYWORDS = frozenset({*SINGLE_SCHEMA, *SCHEMA_LISTS, *SCHEMA_MAPS})


def name_key(name: str) -> str:
    """Type names that would collide in some target (function suffix, Elixir module)
    share a key."""
    return naming.snake_case(name).lstrip("_").replace("_", "")


def draft_of(data: Any, default: str = "2020-12") -> str:
    """The draft a document declares with `$schema` (2020-12 when it declares none)."""
    uri = data.get("$schema") if isinstance(data, dict) else None
    if not isinstance(uri, str):
        return default
    for draft in DRAFTS:
        if draft in uri:
            return draft
    return default


def draft_uri(draft: str) -> str:
    return _SCHEMA_URIS[draft]


@dataclass
class Normalised:
    data: Any
    moves: dict[str, str] = field(default_factory=dict)


def normalise(data: Any, draft: str) -> Normalised:
    """`data` rewritten into the 2020-12 form (see the module docstring)."""
    result = Normalised(None)
    referenced = set(_local_refs(data))
    inside = {ref[:end] for ref in referenced for end, char in enumerate(ref) if char == "/"}
    normaliser = _Normaliser(
        DRAFTS.index(draft), result.moves, frozenset(referenced), frozenset(inside)
    )
    result.data = normaliser.schema(data, "", "")
    if result.moves:
        renamed = {old: new for new, old in result.moves.items()}
        result.data = _follow_moves(result.data, renamed)
    return result


def _follow_moves(node: Any, renamed: dict[str, str]) -> Any:
    """`node` with each `#/…` reference into a renamed place (`items/0` of an array-form
    `items`, now `prefixItems/0`) pointing where that place now is."""
    if isinstance(node, list):
        return [_follow_moves(value, renamed) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: _follow_moves(value, renamed) for key, value in node.items()}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        pointer = unquote(ref[1:])
        tokens = pointer.split("/")
        for end in range(len(tokens), 1, -1):
            moved = renamed.get("/".join(tokens[:end]))
            if moved is not None:
                rest = "/".join(tokens[end:])
                out["$ref"] = "#" + quote(moved + ("/" + rest if rest else ""), safe=_FRAGMENT)
                break
    return out


# what a URI fragment keeps unescaped (RFC 3986 pchar, and "/")
_FRAGMENT = "/~-._!$&'()*+,;=:@"


def _local_refs(node: Any) -> Iterator[str]:
    """The JSON pointers this document's `#/…` references name (percent-decoded)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            yield unquote(ref[1:])
        for value in node.values():
            yield from _local_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _local_refs(value)


@dataclass
class _Normaliser:
    level: int  # index into DRAFTS
    moves: dict[str, str]
    # Places references name: a schema under a keyword that is not one (`definitions/x/full`,
    # `full` a mere container) is still a schema there, and is normalised as one.
    referenced: frozenset[str] = frozenset()
    inside: frozenset[str] = frozenset()  # the pointers that contain a referenced place

    def schema(self, node: Any, new: str, old: str) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        ref_only = "$ref" in node and self.level <= DRAFTS.index("draft-07")
        for key, value in node.items():
            if ref_only and key not in _KEPT_BESIDE_REF and not key.startswith("x-"):
                continue
            self._keyword(out, node, key, value, new, old)
        return out

    def _keyword(
        self, out: dict[str, Any], node: dict[str, Any], key: str, value: Any, new: str, old: str
    ) -> None:
        here_old = join_pointer(old, key)
        if key == "id" and self.level == 0 and isinstance(value, str):
            out["$id"] = value
        elif key == "$recursiveRef" and isinstance(value, str):
            out.setdefault("$ref", value)
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if value and isinstance(node.get(bound), (int, float)):
                out[key] = node[bound]
        elif key in ("minimum", "maximum") and node.get(f"exclusive{key.title()}") is True:
            pass  # moved into exclusiveMinimum/exclusiveMaximum above
        elif key == "items" and isinstance(value, list):
            out["prefixItems"] = self._list(value, join_pointer(new, "prefixItems"), here_old)
            if "additionalItems" in node:
                additional = node["additionalItems"]
                where = join_pointer(old, "additionalItems")
                self.moves[join_pointer(new, "items")] = where
                out["items"] = self.schema(additional, join_pointer(new, "items"), where)
        elif key == "additionalItems":
            pass  # meaningful only beside array-form items (handled there)
        elif key == "dependencies" and isinstance(value, dict):
            for name, dependency in value.items():
                target = "dependentRequired" if isinstance(dependency, list) else "dependentSchemas"
                new_pointer = join_pointer(join_pointer(new, target), name)
                self.moves[new_pointer] = join_pointer(here_old, name)
                out.setdefault(target, {})[name] = self.schema(
                    dependency, new_pointer, join_pointer(here_old, name)
                )
        elif key in SINGLE_SCHEMA:
            out[key] = self.schema(value, join_pointer(new, key), here_old)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = self._list(value, join_pointer(new, key), here_old)
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {
                name: self.schema(
                    child, join_pointer(join_pointer(new, key), name), join_pointer(here_old, name)
                )
                for name, child in value.items()
            }
        else:
            out[key] = self._beside(value, join_pointer(new, key), here_old)

    def _beside(self, value: Any, new: str, old: str) -> Any:
        """The value of a keyword that holds no schema: kept as written, except where a
        reference reaches into it (a container of schemas under a name of its own)."""
        if old in self.referenced:
            return self.schema(value, new, old)
        if old not in self.inside:
            return value
        if isinstance(value, dict):
            return {
                name: self._beside(child, join_pointer(new, name), join_pointer(old, name))
                for name, child in value.items()
            }
        if isinstance(value, list):
            return [
                self._beside(child, join_pointer(new, index), join_pointer(old, index))
                for index, child in enumerate(value)
            ]
        return value

    def _list(self, items: list[Any], new: str, old: str) -> list[Any]:
        if new != old:
            self.moves[new] = old
        return [
            self.schema(item, join_pointer(new, index), join_pointer(old, index))
            for index, item in enumerate(items)
        ]
