"""The pass for keywords beside `oneOf`/`anyOf`: they apply to every member.

Dropped when the members already say them (`type: object` beside object members),
else merged into each member, else kept as a schema check on the whole value.
"""

from __future__ import annotations

from typing import Any

from polytype.diagnostics import json_type_name
from polytype.dialect.keywords import CHECKS_KEY
from polytype.frontend import checks
from polytype.frontend.schema_merge import (
    ANNOTATIONS,
    CannotMerge,
    Contradiction,
    merge,
    never,
    type_set,
)
from polytype.frontend.shaping_state import ShapingState
from polytype.frontend.union_rewrites import union_keyword


class UnionSiblings(ShapingState):
    """Keywords beside a union, applied to its members (or checked on the whole value)."""

    def _distribute_union_siblings(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        keyword = union_keyword(node)
        if keyword is None or "allOf" in node or "$ref" in node:
            return node
        siblings = {
            key: value
            for key, value in node.items()
            if key not in ANNOTATIONS
            and key not in (keyword, "nullable")
            and not key.startswith("x-")
        }
        if not siblings:
            return node
        members = node[keyword]
        if set(siblings) == {"type"}:
            allowed = type_set(siblings["type"])
            member_types = [self._json_types(member) for member in members]
            if all(kinds is not None and kinds <= allowed for kinds in member_types):
                return {key: value for key, value in node.items() if key != "type"}
        try:
            distributed = [
                merge(dict(siblings), self._resolved(member), self._resolved) for member in members
            ]
        except (CannotMerge, Contradiction):
            # the keywords beside the union still hold for the whole value: checked as a
            # schema, where the members give the type
            kept = {key: value for key, value in node.items() if key not in siblings}
            entry = {
                "schema": self._check_schema(siblings),
                "keywords": list(siblings),
                "pointer": self.document.locate(pointer)[2],
            }
            return {**kept, CHECKS_KEY: checks.merged(kept.get(CHECKS_KEY), [entry])}
        for member, result in zip(members, distributed, strict=True):
            if isinstance(member, dict) and "$ref" in member:
                self.preferred[id(result)] = str(member["$ref"]).rsplit("/", 1)[-1]
        kept = {key: value for key, value in node.items() if key not in siblings}
        kept[keyword] = [member for member in distributed if not never(member)]
        return kept

    def _json_types(self, schema: Any, depth: int = 0) -> set[str] | None:
        """The JSON types a schema's values can have, when the schema says."""
        if not isinstance(schema, dict) or depth > 20:
            return None
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return self._json_types(self.defs.get(name), depth + 1)
        if "type" in schema:
            return type_set(schema["type"])
        keyword = union_keyword(schema)
        if keyword is not None:
            found: set[str] = set()
            for member in schema[keyword]:
                kinds = self._json_types(member, depth + 1)
                if kinds is None:
                    return None
                found |= kinds
            return found
        if "properties" in schema:
            return {"object"}
        values = schema.get("enum", [schema["const"]] if "const" in schema else None)
        if isinstance(values, list):
            return {json_type_name(value) for value in values}
        return None
