"""Rewrites of one node into a plainer union, needing nothing but the node.

A `type` list mixing `object` with other types (and object keywords) becomes an
`anyOf` with one member per type; anyOf members that a plain member of their JSON
type already accepts are dropped. A union of schemas without `type` that all constrain
one JSON type says which values of other types it takes. Also which union keyword a
node uses.
"""

from __future__ import annotations

from typing import Any

from polytype.diagnostics import json_type_name
from polytype.dialect.keywords import CHECKS_KEY, implied_type
from polytype.frontend.schema_merge import ANNOTATIONS


def union_keyword(node: dict[str, Any]) -> str | None:
    for keyword in ("oneOf", "anyOf"):
        if isinstance(node.get(keyword), list) and node[keyword]:
            return keyword
    return None


# Keywords that make a schema without `type` more than its object or array keywords.
_NOT_OPEN = frozenset(
    {"type", "$ref", "enum", "const", "oneOf", "anyOf", "allOf", "nullable", CHECKS_KEY}
)
_JSON_TYPES = ("object", "array", "string", "number", "boolean", "null")


def close_untyped_members(node: dict[str, Any]) -> dict[str, Any]:
    """A union whose members are all schemas without `type` constraining one JSON type T
    (`oneOf: [{properties: .., required: [a]}, {properties: .., required: [b]}]`). Each
    member accepts every value that is not a T, so under `oneOf` (two members or more)
    such a value matches them all and is rejected: the members are of type T; under
    `anyOf` every such value is accepted: the members are of type T, beside one member
    of every other type. (Lowering would otherwise type each member as T or anything
    else, and find members it cannot tell apart.)"""
    keyword = union_keyword(node)
    if keyword is None:
        return node
    members = node[keyword]
    kinds = {
        implied_type(member) if isinstance(member, dict) and not _NOT_OPEN & set(member) else None
        for member in members
    }
    if len(kinds) != 1 or None in kinds or keyword == "oneOf" and len(members) < 2:
        return node
    [kind] = kinds
    closed = [{**member, "type": kind} for member in members]
    if keyword == "anyOf":
        closed.append({"type": [other for other in _JSON_TYPES if other != kind]})
    return {**node, keyword: closed}


def drop_subsumed(node: dict[str, Any]) -> dict[str, Any]:
    """anyOf members of one JSON type that an unconstrained member of that type accepts."""
    members = node.get("anyOf")
    if not isinstance(members, list) or len(members) < 2:
        return node
    plain = {
        member["type"]
        for member in members
        if isinstance(member, dict)
        and set(member) - ANNOTATIONS == {"type"}
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
            and set(member) - ANNOTATIONS != {"type"}
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


def split_mixed_types(node: dict[str, Any]) -> dict[str, Any]:
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
        and key not in ANNOTATIONS
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
    kept = {key: value for key, value in node.items() if key in ANNOTATIONS or key.startswith("x-")}
    return {**kept, "anyOf": members}
