"""The allOf pass: an `allOf`'s parts (and keywords beside `$ref`) merged into one schema.

A referenced base is inlined, so `allOf: [{$ref: Base}, {properties: ...}]` becomes a
record with the base's fields and its own; unions among the parts distribute over
the rest. Parts that contradict each other are a located error; parts that do not
merge are kept as schema checks beside the merged ones.
"""

from __future__ import annotations

from typing import Any

from polytype.diagnostics import join_pointer
from polytype.dialect.keywords import CHECKS_KEY, matching_nothing
from polytype.frontend import checks
from polytype.frontend.schema_merge import (
    ANNOTATIONS,
    CannotMerge,
    Contradiction,
    annotations_only,
    merge,
    never,
    without,
)
from polytype.frontend.shaping_state import ShapingState
from polytype.frontend.union_rewrites import union_keyword

# Members an allOf of unions may multiply into before it is left to approximation.
MAX_PRODUCT = 16

# Definitions inlined into one check at most deep (they come from one schema's inline
# unions, so deeper means a cycle).
_MAX_INLINED = 20


class AllOfMerging(ShapingState):
    """Merging an `allOf`'s parts (and keywords beside `$ref`) into one schema."""

    def _merge_all_of(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        parts = node.get("allOf")
        ref_siblings = "$ref" in node and any(
            key not in ANNOTATIONS and key != "$ref" and not key.startswith("x-") for key in node
        )
        if not isinstance(parts, list) and not ref_siblings:
            return node
        rest = {key: value for key, value in node.items() if key not in ("allOf", "$ref")}
        only_reference = _only_reference(node)
        if only_reference is not None and annotations_only(rest):
            # `allOf: [{$ref: X}]` plus a description is X itself: keep the reference, so
            # the property is typed X instead of a copy of X under the property's name
            return {**rest, "$ref": only_reference}
        pieces = [(pointer, rest)]
        if "$ref" in node:
            pieces.append((join_pointer(pointer, "$ref"), {"$ref": node["$ref"]}))
        if isinstance(parts, list):
            base = join_pointer(pointer, "allOf")
            pieces.extend((join_pointer(base, index), part) for index, part in enumerate(parts))
        try:
            try:
                merged = self._merge_pieces([self._resolved(piece) for _, piece in pieces])
            except CannotMerge:
                merged = self._merge_some(node, pieces)
            return merged if merged is node else self._reshape_properties(merged, pointer)
        except Contradiction as error:
            # every validator rejects every value here: so does the generated code
            where = join_pointer(pointer, "allOf" if "allOf" in node else "$ref")
            self.warnings.append(
                self.document.warning(
                    where,
                    f"the parts contradict each other, so no value matches: {error}; "
                    "the decoders reject every value here",
                )
            )
            kept = {key: node[key] for key in ("title", "description") if key in node}
            return matching_nothing(self.document.locate(where)[2], "allOf", **kept)

    def _reshape_properties(self, merged: dict[str, Any], pointer: str) -> dict[str, Any]:
        """`merged` with its properties reshaped again: merging two parts' property schemas
        can put keywords beside a union (`id: {oneOf: [...]}` and `id: {type: string}`),
        which only reshaping distributes over the members."""
        properties = merged.get("properties")
        if not isinstance(properties, dict):
            return merged
        base = join_pointer(pointer, "properties")
        reshaped = {
            name: (
                self._reshape_node(child, join_pointer(base, name))
                if isinstance(child, dict) and union_keyword(child) is not None
                else child
            )
            for name, child in properties.items()
        }
        return {**merged, "properties": reshaped}

    def _check_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A reshaped schema as a check's JSON Schema: its check entries expanded, and its
        references to definitions that reshaping added (hoisted unions and their members,
        which the document as written does not have: checks resolve references there)
        replaced by what they name."""

        def inline(value: Any, depth: int) -> Any:
            if isinstance(value, list):
                return [inline(item, depth) for item in value]
            if not isinstance(value, dict):
                return value
            out = {key: inline(item, depth) for key, item in value.items()}
            name = str(value.get("$ref", "")).removeprefix("#/$defs/")
            if name in self.added and depth < _MAX_INLINED:
                del out["$ref"]
                target = inline(checks.expanded(self.added[name]), depth + 1)
                out["allOf"] = [*out.get("allOf", []), target]
            return out

        result: dict[str, Any] = inline(checks.expanded(schema), 0)
        return result

    def _merge_some(self, node: dict[str, Any], pieces: list[tuple[str, Any]]) -> dict[str, Any]:
        """The merge of the pieces that merge (in order), the others checked as schemas: a
        value must still match every part, but only the merged ones give the type. `node`
        itself when nothing merges."""
        kept: list[dict[str, Any]] = []
        entries: list[dict[str, Any]] = []
        for pointer, piece in pieces:
            try:
                candidate = [*kept, self._resolved(piece)]
                self._merge_pieces(candidate)
            except CannotMerge:
                written = self.document.locate(pointer)[2]
                schema = self._check_schema(piece) if isinstance(piece, dict) else {"not": {}}
                entries.append({"schema": schema, "keywords": ["allOf"], "pointer": written})
                continue
            kept = candidate
        if not kept or not entries:
            return node
        merged = self._merge_pieces(kept)
        return {**merged, CHECKS_KEY: checks.merged(merged.get(CHECKS_KEY), entries)}

    def _merge_pieces(self, pieces: list[dict[str, Any]]) -> dict[str, Any]:
        """The merge of every piece. Pieces that are unions distribute over the rest:
        `allOf: [X, oneOf: [A, B]]` is `oneOf: [X∧A, X∧B]`, and two unions of one kind
        give every pair (up to MAX_PRODUCT members)."""
        base: dict[str, Any] = {}
        unions: list[tuple[str, list[Any]]] = []
        for piece in pieces:
            keyword = union_keyword(piece)
            if keyword is not None:
                unions.append((keyword, piece[keyword]))
                piece = {key: value for key, value in piece.items() if key != keyword}
            base = merge(base, piece, self._resolved)
        if not unions:
            return base
        keywords = {keyword for keyword, _ in unions}
        if len(keywords) > 1:
            raise CannotMerge("unions of different kinds")
        members: list[dict[str, Any]] = [{}]
        for _, union_members in unions:
            # a combination that contradicts itself accepts nothing: it is left out, so
            # unions split by JSON type multiply into one member per type
            members = [
                combined
                for done in members
                for member in union_members
                for combined in [self._combined(done, member)]
                if combined is not None
            ]
            if len(members) > MAX_PRODUCT:
                raise CannotMerge("too many combinations")
        if not members:
            raise Contradiction("no combination of the unions' members accepts a value")
        # annotations and checks hold for the whole union, the rest for each member
        whole = (*ANNOTATIONS, CHECKS_KEY)
        shared = {key: value for key, value in base.items() if key in whole}
        siblings = {key: value for key, value in base.items() if key not in whole}
        merged_members = [merge(dict(siblings), member, self._resolved) for member in members]
        return {**shared, keywords.pop(): [m for m in merged_members if not never(m)]}

    def _combined(self, done: dict[str, Any], member: Any) -> dict[str, Any] | None:
        """`done` merged with one more union member, or None when no value is both."""
        try:
            combined = merge(done, self._resolved(member), self._resolved)
        except Contradiction:
            return None
        return None if never(combined) else combined

    def _resolved(self, piece: Any, depth: int = 0) -> dict[str, Any]:
        """A part with its reference inlined (the base's fields, then the part's own)."""
        if depth > 20:
            raise CannotMerge("references too deep")
        if piece is True:
            return {}
        if not isinstance(piece, dict):
            raise CannotMerge("false")
        if "$ref" not in piece:
            return piece
        name = str(piece["$ref"]).rsplit("/", 1)[-1]
        if name not in self.defs:
            raise CannotMerge(name)
        base = self._merged_def(name)
        if not isinstance(base, dict) or "allOf" in base:
            raise CannotMerge(name)
        if "$ref" in base:
            base = self._resolved(base, depth + 1)
        own = {key: value for key, value in piece.items() if key != "$ref"}
        return merge(without(base, ("title",)), own, self._resolved)


def _only_reference(node: dict[str, Any]) -> str | None:
    """The one `$ref` a node's `allOf` (or its own `$ref`) amounts to, when it holds nothing else."""
    parts = node.get("allOf", [])
    references = [node["$ref"]] if "$ref" in node else []
    if not isinstance(parts, list):
        return None
    for part in parts:
        if not isinstance(part, dict) or not isinstance(part.get("$ref"), str):
            return None
        if not annotations_only({key: value for key, value in part.items() if key != "$ref"}):
            return None
        references.append(part["$ref"])
    if len(set(references)) != 1 or not isinstance(references[0], str):
        return None
    return references[0]
