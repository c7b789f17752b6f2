"""Reshape combinators into what lowering types: merged `allOf`s and named unions.

Runs on a bundled document (every reference is `#/$defs/Name`), after the cleaner:

- **allOf** parts (and, from 2019-09, keywords beside `$ref`) are merged into one
  schema: properties, required keys, types, bounds, enums. A referenced base is
  inlined, so `allOf: [{$ref: Base}, {properties: ...}]` becomes a record with the
  base's fields and its own. Parts that contradict each other (no value could match)
  are a located error; parts this merge cannot combine are left for the approximating
  lowerer.
- **Keywords beside `oneOf`/`anyOf`** apply to every member: they are dropped when the
  members already say them (`type: object` beside object members), else merged into
  each member.
- **Unions of schemas without `type`** that all constrain one JSON type (`oneOf` of
  `properties` schemas) are of that type (`oneOf`: a value of another type matches
  every member) or of it and every other (`anyOf`).
- **anyOf members subsumed by another** (`anyOf: [{enum: [a, b]}, {type: string}]`) are
  dropped: the plain `string` accepts them all.
- **Unions that cannot stay inline** (two members of one JSON type) and unions among
  the definitions whose members are not all references get their members named and
  defined: by `title`, by a constant tag (`SessionUpdate` + `plan` → `SessionUpdatePlan`),
  else by position (`...Option2`), and the inline union itself is named after its
  place (`SamplingMessage` + `content` → `SamplingMessageContent`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from polytype.diagnostics import Diagnostic, InputError, join_pointer
from polytype.frontend.all_of import AllOfMerging
from polytype.frontend.drafts import SCHEMA_LISTS, SCHEMA_MAPS, SINGLE_SCHEMA
from polytype.frontend.union_naming import UnionNaming
from polytype.frontend.union_rewrites import (
    close_untyped_members,
    drop_subsumed,
    split_mixed_types,
)
from polytype.frontend.union_siblings import UnionSiblings
from polytype.reading.loader import Document


@dataclass(frozen=True)
class Reshaped:
    document: Document
    warnings: tuple[Diagnostic, ...]


def reshape(document: Document) -> Reshaped:
    shaper = _Shaper(document, dict(document.data.get("$defs") or {}))
    data = shaper.run()
    if shaper.problems:
        raise InputError(shaper.problems)
    origins = dict(document.origins)
    for new, old in shaper.moved.items():
        origins[new] = document.origin_of(old)
    return Reshaped(
        Document(
            document.path,
            document.display_path,
            document.text,
            data,
            document.positions,
            origins,
        ),
        tuple(shaper.warnings),
    )


class _Shaper(AllOfMerging, UnionSiblings, UnionNaming):
    """The reshape of one document: every pass, on every schema, bottom-up."""

    def run(self) -> Any:
        data = dict(self.document.data)
        for name in list(self.defs):
            self._merged_def(name)
        defs: dict[str, Any] = {}
        for name in self.defs:
            defs[name] = self._name_union_members(name, self.merged[name])
        # inline unions, hoisted while the definitions were reshaped
        defs.update(self.added)
        data["$defs"] = defs
        return data

    def _merged_def(self, name: str) -> Any:
        if name in self.merged:
            return self.merged[name]
        if name in self.visiting:
            return None  # a cycle through allOf: cannot be inlined
        self.visiting.add(name)
        result = _map_schemas(self.defs[name], f"/$defs/{name}", self._reshape_node)
        self.visiting.discard(name)
        self.merged[name] = result
        return result

    def _reshape_node(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        node = self._merge_all_of(node, pointer)
        node = split_mixed_types(node)
        node = self._distribute_union_siblings(node, pointer)
        node = drop_subsumed(close_untyped_members(node))
        return self._hoist_inline_union(node, pointer)


# -- walking -------------------------------------------------------------------


def _map_schemas(
    node: Any, pointer: str, change: Callable[[dict[str, Any], str], dict[str, Any]]
) -> Any:
    """`node` rebuilt bottom-up: every schema's children first, then `change` on it."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        here = join_pointer(pointer, key)
        if key in SINGLE_SCHEMA:
            out[key] = _map_schemas(value, here, change)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [
                _map_schemas(item, join_pointer(here, index), change)
                for index, item in enumerate(value)
            ]
        elif key in SCHEMA_MAPS and key != "$defs" and isinstance(value, dict):
            out[key] = {
                name: _map_schemas(child, join_pointer(here, name), change)
                for name, child in value.items()
            }
        else:
            out[key] = value
    return change(out, pointer)
