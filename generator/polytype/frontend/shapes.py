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
from dataclasses import dataclass, field
from typing import Any

from polytype import naming
from polytype.diagnostics import Diagnostic, InputError, join_pointer, json_type_name
from polytype.dialect.keywords import CHECKS_KEY
from polytype.frontend import checks
from polytype.frontend.drafts import (
    POINTER_KEYWORDS,
    SCHEMA_LISTS,
    SCHEMA_MAPS,
    SINGLE_SCHEMA,
    name_key,
)
from polytype.reading.loader import Document

_ANNOTATIONS = frozenset(
    {"title", "description", "$comment", "default", "examples", "deprecated", "readOnly",
     "writeOnly", "format", "contentEncoding", "contentMediaType"}
)  # fmt: skip
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems")
_JSON_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")
# Members an allOf of unions may multiply into before it is left to approximation.
MAX_PRODUCT = 16


class _CannotMerge(Exception):
    """Parts this merge cannot combine exactly (left for approximation)."""


class _Contradiction(Exception):
    """Parts no value can satisfy together."""


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


@dataclass
class _Shaper:
    document: Document
    defs: dict[str, Any]
    problems: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    merged: dict[str, Any] = field(default_factory=dict)
    visiting: set[str] = field(default_factory=set)
    added: dict[str, Any] = field(default_factory=dict)
    # new definition pointer -> the data pointer it was moved from
    moved: dict[str, str] = field(default_factory=dict)
    # id of a member schema -> the definition it was made from (a name for it)
    preferred: dict[int, str] = field(default_factory=dict)

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

    # -- allOf ---------------------------------------------------------------

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
        node = _split_mixed_types(node)
        node = self._distribute_union_siblings(node, pointer)
        node = _drop_subsumed(node)
        return self._hoist_inline_union(node, pointer)

    def _merge_all_of(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        parts = node.get("allOf")
        ref_siblings = "$ref" in node and any(
            key not in _ANNOTATIONS and key != "$ref" and not key.startswith("x-") for key in node
        )
        if not isinstance(parts, list) and not ref_siblings:
            return node
        rest = {key: value for key, value in node.items() if key not in ("allOf", "$ref")}
        only_reference = _only_reference(node)
        if only_reference is not None and _annotations_only(rest):
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
            except _CannotMerge:
                merged = self._merge_some(node, pieces)
            return merged if merged is node else self._reshape_properties(merged, pointer)
        except _Contradiction as error:
            self.problems.append(
                self.document.diagnostic(
                    join_pointer(pointer, "allOf" if "allOf" in node else "$ref"),
                    f"the parts contradict each other, so no value matches: {error}",
                )
            )
            return node

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
                if isinstance(child, dict) and _union_keyword(child) is not None
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
            except _CannotMerge:
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
            keyword = _union_keyword(piece)
            if keyword is not None:
                unions.append((keyword, piece[keyword]))
                piece = {key: value for key, value in piece.items() if key != keyword}
            base = _merge(base, piece, self._resolved)
        if not unions:
            return base
        keywords = {keyword for keyword, _ in unions}
        if len(keywords) > 1:
            raise _CannotMerge("unions of different kinds")
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
                raise _CannotMerge("too many combinations")
        if not members:
            raise _Contradiction("no combination of the unions' members accepts a value")
        # annotations and checks hold for the whole union, the rest for each member
        whole = (*_ANNOTATIONS, CHECKS_KEY)
        shared = {key: value for key, value in base.items() if key in whole}
        siblings = {key: value for key, value in base.items() if key not in whole}
        merged_members = [_merge(dict(siblings), member, self._resolved) for member in members]
        return {**shared, keywords.pop(): [m for m in merged_members if not _never(m)]}

    def _combined(self, done: dict[str, Any], member: Any) -> dict[str, Any] | None:
        """`done` merged with one more union member, or None when no value is both."""
        try:
            combined = _merge(done, self._resolved(member), self._resolved)
        except _Contradiction:
            return None
        return None if _never(combined) else combined

    def _resolved(self, piece: Any, depth: int = 0) -> dict[str, Any]:
        """A part with its reference inlined (the base's fields, then the part's own)."""
        if depth > 20:
            raise _CannotMerge("references too deep")
        if piece is True:
            return {}
        if not isinstance(piece, dict):
            raise _CannotMerge("false")
        if "$ref" not in piece:
            return piece
        name = str(piece["$ref"]).rsplit("/", 1)[-1]
        if name not in self.defs:
            raise _CannotMerge(name)
        base = self._merged_def(name)
        if not isinstance(base, dict) or "allOf" in base:
            raise _CannotMerge(name)
        if "$ref" in base:
            base = self._resolved(base, depth + 1)
        own = {key: value for key, value in piece.items() if key != "$ref"}
        return _merge(_without(base, ("title",)), own, self._resolved)

    # -- unions --------------------------------------------------------------

    def _distribute_union_siblings(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        keyword = _union_keyword(node)
        if keyword is None or "allOf" in node or "$ref" in node:
            return node
        siblings = {
            key: value
            for key, value in node.items()
            if key not in _ANNOTATIONS
            and key not in (keyword, "nullable")
            and not key.startswith("x-")
        }
        if not siblings:
            return node
        members = node[keyword]
        if set(siblings) == {"type"}:
            allowed = _type_set(siblings["type"])
            member_types = [self._json_types(member) for member in members]
            if all(kinds is not None and kinds <= allowed for kinds in member_types):
                return {key: value for key, value in node.items() if key != "type"}
        try:
            distributed = [
                _merge(dict(siblings), self._resolved(member), self._resolved) for member in members
            ]
        except (_CannotMerge, _Contradiction):
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
        kept[keyword] = [member for member in distributed if not _never(member)]
        return kept

    def _json_types(self, schema: Any, depth: int = 0) -> set[str] | None:
        """The JSON types a schema's values can have, when the schema says."""
        if not isinstance(schema, dict) or depth > 20:
            return None
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return self._json_types(self.defs.get(name), depth + 1)
        if "type" in schema:
            return _type_set(schema["type"])
        keyword = _union_keyword(schema)
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

    def _hoist_inline_union(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        """An inline union whose members share a JSON type becomes a named union."""
        keyword = _union_keyword(node)
        if keyword is None or _is_definition(pointer) or not self._members_clash(node[keyword]):
            return node
        base = self._unique(_given_name(node) or self._place_name(pointer))
        union = dict(node)
        nullable = [m for m in node[keyword] if isinstance(m, dict) and m.get("type") == "null"]
        union[keyword] = [m for m in node[keyword] if m not in nullable]
        self.added[base] = self._name_union_members(base, union, pointer)
        self.moved[f"/$defs/{base}"] = pointer
        reference = {"$ref": f"#/$defs/{base}"}
        if nullable:
            return {"anyOf": [reference, {"type": "null"}]}
        return reference

    def _members_clash(self, members: list[Any]) -> bool:
        """Whether two members may share a JSON type (a member whose types the schema
        does not say may share any): then only a named union can tell them apart."""
        seen: set[str] = set()
        for member in members:
            kinds = self._json_types(member)
            if kinds is None:
                return True
            kinds = {"number" if kind == "integer" else kind for kind in kinds}
            if kinds & seen:
                return True
            seen |= kinds
        return False

    def _name_union_members(self, name: str, schema: Any, pointer: str | None = None) -> Any:
        """A named union's members that are not references become definitions."""
        keyword = _union_keyword(schema) if isinstance(schema, dict) else None
        if keyword is None:
            return schema
        members = schema[keyword]
        if all(isinstance(m, dict) and "$ref" in m for m in members):
            return schema
        where = pointer if pointer is not None else f"/$defs/{name}"
        named: list[Any] = []
        for index, member in enumerate(members):
            if isinstance(member, dict) and "$ref" in member and len(member) == 1:
                named.append(member)
                continue
            if isinstance(member, dict) and member.get("type") == "null" and len(member) == 1:
                named.append(member)
                continue
            preferred = self.preferred.get(id(member))
            member_name = self._unique(
                name + preferred if preferred else _member_name(name, members, index)
            )
            self.added[member_name] = member
            self.moved[f"/$defs/{member_name}"] = join_pointer(join_pointer(where, keyword), index)
            named.append({"$ref": f"#/$defs/{member_name}"})
        return {**schema, keyword: named}

    def _place_name(self, pointer: str) -> str:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
        owner = ""
        if len(tokens) >= 2 and tokens[0] == "$defs":
            owner, tokens = tokens[1], tokens[2:]
        words = [t for t in tokens if t not in POINTER_KEYWORDS and not t.isdigit()]
        return owner + "".join(naming.pascal_case(word) for word in words) or "Union"

    def _unique(self, wanted: str) -> str:
        taken = {name_key(name) for name in (*self.defs, *self.added)}
        name, number = wanted, 1
        while name_key(name) in taken:
            number += 1
            name = f"{wanted}{number}"
        return name


def _given_name(schema: dict[str, Any]) -> str | None:
    """The name a schema asks for: `x-name`, else its `title` in PascalCase."""
    name = schema.get("x-name")
    if isinstance(name, str) and name:
        return name
    title = schema.get("title")
    if isinstance(title, str) and naming.ascii_identifier(title).strip("_"):
        return naming.pascal_case(title)
    return None


def _member_name(union: str, members: list[Any], index: int) -> str:
    """A member's name: its own (`x-name`, `title`), else the union's and its constant
    tag (`EventStart`), else its JSON type when no other member has it (`SchemaBoolean`),
    else its place (`EventOption2`)."""
    member = members[index]
    if isinstance(member, dict):
        given = _given_name(member)
        if given is not None:
            return given
        tag = _tag_value(member)
        if tag is not None:
            return union + naming.pascal_case(tag)
        kind = member.get("type")
        kinds = [other.get("type") if isinstance(other, dict) else None for other in members]
        if isinstance(kind, str) and kind != "null" and kinds.count(kind) == 1:
            return union + naming.pascal_case(kind)
    return f"{union}Option{index + 1}"


def _tag_value(member: dict[str, Any]) -> str | None:
    """The value of a required property that holds one string constant."""
    properties = member.get("properties")
    if not isinstance(properties, dict):
        return None
    required = member.get("required")
    for key in required if isinstance(required, list) else []:
        schema = properties.get(key) if isinstance(key, str) else None
        if not isinstance(schema, dict):
            continue
        value = schema.get("const")
        if value is None and isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1:
            value = schema["enum"][0]
        if isinstance(value, str) and naming.ascii_identifier(value).strip("_"):
            return value
    return None


def _is_definition(pointer: str) -> bool:
    return pointer.count("/") == 2 and pointer.startswith("/$defs/")


def _union_keyword(node: dict[str, Any]) -> str | None:
    for keyword in ("oneOf", "anyOf"):
        if isinstance(node.get(keyword), list) and node[keyword]:
            return keyword
    return None


def _drop_subsumed(node: dict[str, Any]) -> dict[str, Any]:
    """anyOf members of one JSON type that an unconstrained member of that type accepts."""
    members = node.get("anyOf")
    if not isinstance(members, list) or len(members) < 2:
        return node
    plain = {
        member["type"]
        for member in members
        if isinstance(member, dict)
        and set(member) - _ANNOTATIONS == {"type"}
        and isinstance(member["type"], str)
        and member["type"] not in ("object", "array")
    }
    if not plain:
        return node
    kept = [
        member
        for member in members
        if not (
            isinstance(member, dict)
            and set(member) - _ANNOTATIONS != {"type"}
            and _scalar_type(member) in plain
        )
    ]
    return {**node, "anyOf": kept} if len(kept) != len(members) else node


def _scalar_type(member: dict[str, Any]) -> str | None:
    if isinstance(member.get("type"), str):
        return str(member["type"])
    values = member.get("enum", [member["const"]] if "const" in member else None)
    if isinstance(values, list) and values:
        kinds = {json_type_name(value) for value in values}
        if len(kinds) == 1:
            return kinds.pop()
    return None


def _type_set(value: Any) -> set[str]:
    kinds = {
        kind for kind in (value if isinstance(value, list) else [value]) if isinstance(kind, str)
    }
    if "number" in kinds:
        kinds.add("integer")
    return kinds


def _never(schema: dict[str, Any]) -> bool:
    return schema.get("type") == []


def _without(schema: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key not in keys}


# -- merging two schemas ------------------------------------------------------

# Definitions inlined into one check at most deep (they come from one schema's inline
# unions, so deeper means a cycle).
_MAX_INLINED = 20


Resolver = Callable[[dict[str, Any]], dict[str, Any]]


def _merge(
    first: dict[str, Any], second: dict[str, Any], resolve: Resolver | None = None
) -> dict[str, Any]:
    """One schema that accepts what both accept (raises when that cannot be said exactly).
    `resolve` inlines a schema's `$ref` where the other side says more than annotations.
    The schema checks of both apply to the merge."""
    if CHECKS_KEY not in first and CHECKS_KEY not in second:
        return _merge_typed(first, second, resolve)
    entries = checks.merged(first.get(CHECKS_KEY), second.get(CHECKS_KEY))
    merged = _merge_typed(_without(first, (CHECKS_KEY,)), _without(second, (CHECKS_KEY,)), resolve)
    return {**merged, CHECKS_KEY: checks.merged(merged.get(CHECKS_KEY), entries)}


def _merge_typed(
    first: dict[str, Any], second: dict[str, Any], resolve: Resolver | None = None
) -> dict[str, Any]:
    if _annotations_only(first) or _annotations_only(second):
        plain, other = (first, second) if _annotations_only(first) else (second, first)
        return {**other, **{k: v for k, v in plain.items() if k not in other}}
    if resolve is not None:
        first = resolve(first) if "$ref" in first else first
        second = resolve(second) if "$ref" in second else second
    if "allOf" in second or "$ref" in second or "$ref" in first:
        raise _CannotMerge("nested allOf or reference")
    if ("prefixItems" in first) != ("prefixItems" in second) and (
        "items" in first or "items" in second
    ):  # `items` means "past the prefix" only beside its own `prefixItems`
        raise _CannotMerge("items and prefixItems in different parts")
    merged = dict(first)
    for key, value in second.items():
        if key not in merged:
            merged[key] = value
        elif merged[key] == value or key in _ANNOTATIONS or key.startswith("x-"):
            continue
        else:
            merged[key] = _merge_keyword(key, merged[key], value, resolve)
    if "additionalProperties" in first or "additionalProperties" in second:
        _extra_on_other_properties(first, second, merged, resolve)
        merged["additionalProperties"] = _merge_closed(first, second)
    return merged


def _extra_on_other_properties(
    first: dict[str, Any], second: dict[str, Any], merged: dict[str, Any], resolve: Resolver | None
) -> None:
    """A part's `additionalProperties` schema also applies to the properties only the other
    part declares: to that part they are additional (it never looks into its siblings).
    Merged into those properties of `merged`; `false` is `_merge_closed`'s."""
    for part, other in ((first, second), (second, first)):
        extra = part.get("additionalProperties", True)
        if extra is True or extra is False:
            continue
        own = part.get("properties") or {}
        foreign = [key for key in other.get("properties") or {} if key not in own]
        if not foreign and not other.get("patternProperties"):
            continue
        if part.get("patternProperties") or other.get("patternProperties"):
            raise _CannotMerge("additionalProperties beside another part's keys and patterns")
        if not isinstance(extra, dict):
            raise _CannotMerge("additionalProperties")
        properties = dict(merged["properties"])
        for key in foreign:
            declared = properties[key]
            properties[key] = _merge(declared if isinstance(declared, dict) else {}, extra, resolve)
        merged["properties"] = properties


# The keywords that apply to one JSON type only; the rest apply to every type.
_TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "object": frozenset(
        {"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
         "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
         "unevaluatedProperties"}
    ),
    "array": frozenset(
        {"items", "prefixItems", "contains", "minContains", "maxContains", "minItems",
         "maxItems", "uniqueItems", "unevaluatedItems"}
    ),
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType",
         "contentSchema"}
    ),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
}  # fmt: skip
_TYPE_KEYWORDS["integer"] = _TYPE_KEYWORDS["number"]


def _split_mixed_types(node: dict[str, Any]) -> dict[str, Any]:
    """`type: [object, boolean]` with `properties` is a union of a record and a boolean.

    A value of each JSON type meets only the keywords of its type, so the node is an
    `anyOf` with one member per type, each with its own keywords (meta-schemas say
    `type: [object, boolean]` for "a schema"); members are named after the union and
    their type (`SchemaObject`). Nodes with `enum`, `const` or applicators stay as
    they are."""
    types = node.get("type")
    if not isinstance(types, list) or "object" not in types:
        return node
    kinds = [kind for kind in dict.fromkeys(types) if isinstance(kind, str) and kind != "null"]
    if len(kinds) < 2 or not any(key in _TYPE_KEYWORDS["object"] for key in node):
        return node
    typed = set().union(*_TYPE_KEYWORDS.values())
    general = [
        key
        for key in node
        if key not in typed
        and key != "type"
        and key not in _ANNOTATIONS
        and not key.startswith("x-")
    ]
    if general:
        return node
    members: list[dict[str, Any]] = []
    for kind in kinds:
        member: dict[str, Any] = {"type": kind}
        member.update(
            (key, value) for key, value in node.items() if key in _TYPE_KEYWORDS.get(kind, ())
        )
        members.append(member)
    if "null" in types:
        members.append({"type": "null"})
    kept = {
        key: value for key, value in node.items() if key in _ANNOTATIONS or key.startswith("x-")
    }
    return {**kept, "anyOf": members}


def _only_reference(node: dict[str, Any]) -> str | None:
    """The one `$ref` a node's `allOf` (or its own `$ref`) amounts to, when it holds nothing else."""
    parts = node.get("allOf", [])
    references = [node["$ref"]] if "$ref" in node else []
    if not isinstance(parts, list):
        return None
    for part in parts:
        if not isinstance(part, dict) or not isinstance(part.get("$ref"), str):
            return None
        if not _annotations_only({key: value for key, value in part.items() if key != "$ref"}):
            return None
        references.append(part["$ref"])
    if len(set(references)) != 1 or not isinstance(references[0], str):
        return None
    return references[0]


def _annotations_only(schema: dict[str, Any]) -> bool:
    return all(key in _ANNOTATIONS or key.startswith("x-") for key in schema)


def _merge_keyword(key: str, first: Any, second: Any, resolve: Resolver | None) -> Any:
    if key == "properties" and isinstance(first, dict) and isinstance(second, dict):
        out = dict(first)
        for name, schema in second.items():
            if name not in out or out[name] == schema:
                out[name] = schema
            elif isinstance(out[name], dict) and isinstance(schema, dict):
                out[name] = _merge(out[name], schema, resolve)
            else:
                raise _CannotMerge(f"property {name!r}")
        return out
    if key == "required" and isinstance(first, list) and isinstance(second, list):
        return first + [item for item in second if item not in first]
    if key == "type":
        common = _type_set(first) & _type_set(second)
        if not common:
            raise _Contradiction(f"type {first!r} and type {second!r}")
        ordered = [kind for kind in _JSON_TYPES if kind in common]
        if "number" in ordered and "integer" in ordered:
            ordered.remove("integer")
        return ordered[0] if len(ordered) == 1 else ordered
    if key in _LOWER_BOUNDS and _numbers(first, second):
        return max(first, second)
    if key in _UPPER_BOUNDS and _numbers(first, second):
        return min(first, second)
    if key == "enum" and isinstance(first, list) and isinstance(second, list):
        common_values = [value for value in first if value in second]
        if not common_values:
            raise _Contradiction(f"enum {first!r} and enum {second!r} share no value")
        return common_values
    if key == "const":
        raise _Contradiction(f"const {first!r} and const {second!r}")
    if key in SINGLE_SCHEMA and isinstance(first, dict) and isinstance(second, dict):
        return _merge(first, second, resolve)
    raise _CannotMerge(key)


def _merge_closed(first: dict[str, Any], second: dict[str, Any]) -> Any:
    """additionalProperties of a merge: `false` holds only where the closed part declares
    every property of the other (else the merge would reject the other's keys)."""
    values = [part.get("additionalProperties", True) for part in (first, second)]
    if all(value is not False for value in values):
        if values[0] == values[1] or values[1] is True:
            return values[0]
        if values[0] is True:
            return values[1]
        raise _CannotMerge("additionalProperties")
    for part, other in ((first, second), (second, first)):
        if part.get("additionalProperties") is False:
            declared = set(part.get("properties") or {})
            if not set(other.get("properties") or {}) <= declared:
                raise _CannotMerge("additionalProperties: false beside other parts' properties")
    return False


def _numbers(first: Any, second: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (first, second))


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
