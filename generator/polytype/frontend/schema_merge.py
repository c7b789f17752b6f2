"""Merging two schemas into one that accepts what both accept (an `allOf`'s parts).

`merge` says it exactly or raises: `Contradiction` when no value can match both,
`CannotMerge` when this merge cannot combine them (left for the approximating
lowerer). Also the small questions about a schema node the reshaping passes share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from polytype.dialect.keywords import CHECKS_KEY
from polytype.frontend import checks
from polytype.frontend.drafts import SINGLE_SCHEMA

ANNOTATIONS = frozenset(
    {"title", "description", "$comment", "default", "examples", "deprecated", "readOnly",
     "writeOnly", "format", "contentEncoding", "contentMediaType"}
)  # fmt: skip
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems")
_UNIONS = ("anyOf", "oneOf")
_JSON_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")


class CannotMerge(Exception):
    """Parts this merge cannot combine exactly (left for approximation)."""


class Contradiction(Exception):
    """Parts no value can satisfy together."""


def type_set(value: Any) -> set[str]:
    kinds = {
        kind for kind in (value if isinstance(value, list) else [value]) if isinstance(kind, str)
    }
    if "number" in kinds:
        kinds.add("integer")
    return kinds


def never(schema: dict[str, Any]) -> bool:
    return schema.get("type") == []


def without(schema: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key not in keys}


Resolver = Callable[[dict[str, Any]], dict[str, Any]]


def merge(
    first: dict[str, Any], second: dict[str, Any], resolve: Resolver | None = None
) -> dict[str, Any]:
    """One schema that accepts what both accept (raises when that cannot be said exactly).
    `resolve` inlines a schema's `$ref` where the other side says more than annotations.
    The schema checks of both apply to the merge."""
    if CHECKS_KEY not in first and CHECKS_KEY not in second:
        return _merge_typed(first, second, resolve)
    entries = checks.merged(first.get(CHECKS_KEY), second.get(CHECKS_KEY))
    merged = _merge_typed(without(first, (CHECKS_KEY,)), without(second, (CHECKS_KEY,)), resolve)
    return {**merged, CHECKS_KEY: checks.merged(merged.get(CHECKS_KEY), entries)}


def _merge_typed(
    first: dict[str, Any], second: dict[str, Any], resolve: Resolver | None = None
) -> dict[str, Any]:
    if annotations_only(first) or annotations_only(second):
        plain, other = (first, second) if annotations_only(first) else (second, first)
        return {**other, **{k: v for k, v in plain.items() if k not in other}}
    if resolve is not None:
        first = resolve(first) if "$ref" in first else first
        second = resolve(second) if "$ref" in second else second
    if "allOf" in second or "$ref" in second or "$ref" in first:
        raise CannotMerge("nested allOf or reference")
    unions = [key for key in _UNIONS if key in first or key in second]
    if len(unions) == 1 and not (unions[0] in first and unions[0] in second):
        return _merge_into_members(unions[0], first, second, resolve)
    if ("prefixItems" in first) != ("prefixItems" in second) and (
        "items" in first or "items" in second
    ):  # `items` means "past the prefix" only beside its own `prefixItems`
        raise CannotMerge("items and prefixItems in different parts")
    merged = dict(first)
    for key, value in second.items():
        if key not in merged:
            merged[key] = value
        elif merged[key] == value or key in ANNOTATIONS or key.startswith("x-"):
            continue
        else:
            merged[key] = _merge_keyword(key, merged[key], value, resolve)
    if "additionalProperties" in first or "additionalProperties" in second:
        _extra_on_other_properties(first, second, merged, resolve)
        merged["additionalProperties"] = _merge_closed(first, second)
    if (
        "const" in merged
        and isinstance(merged.get("enum"), list)
        and merged["enum"] != [merged["const"]]
    ):  # one part's const among the other's enum: the const alone says it
        if not any(_json_equal(merged["const"], value) for value in merged["enum"]):
            raise Contradiction(f"const {merged['const']!r} is not in enum {merged['enum']!r}")
        del merged["enum"]
    return merged


def _json_equal(first: Any, second: Any) -> bool:
    """Equal as JSON values (`true` is not `1`; `1` is `1.0`)."""
    if isinstance(first, bool) or isinstance(second, bool):
        return first is second
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(
            _json_equal(value, second[key]) for key, value in first.items()
        )
    if isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)):
        return len(first) == len(second) and all(map(_json_equal, first, second))
    return bool(first == second)


def _merge_into_members(
    keyword: str, first: dict[str, Any], second: dict[str, Any], resolve: Resolver | None
) -> dict[str, Any]:
    """A union merged with a schema that is none (a property a union, narrowed to one
    `const` by an `anyOf` member of its object): the schema holds for every member, so it
    is merged into each (as keywords beside a union are), and the members it contradicts
    are dropped. Kept beside the union it would be ignored."""
    union, other = (first, second) if keyword in first else (second, first)
    rest = {key: value for key, value in other.items() if key not in ANNOTATIONS}
    members: list[Any] = []
    for member in union[keyword]:
        if not isinstance(member, dict):
            raise CannotMerge(keyword)
        try:
            merged = merge(dict(rest), member, resolve)
        except Contradiction:
            continue
        if not _values_fit_type(merged):
            continue
        members.append(merged)
    if not members:
        raise Contradiction(f"no member of the {keyword} matches beside it")
    out = {key: value for key, value in union.items() if key != keyword}
    out.update(
        (key, value) for key, value in other.items() if key in ANNOTATIONS and key not in out
    )
    out[keyword] = members
    return out


def _values_fit_type(schema: dict[str, Any]) -> bool:
    """False where `const`/`enum` name no value of the declared `type` (no value matches)."""
    if "type" not in schema:
        return True
    kinds = type_set(schema["type"])
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    if not isinstance(values, list):
        return True
    return any(_json_kind(value) in kinds for value in values)


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, (list, tuple)) else "object"


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
            raise CannotMerge("additionalProperties beside another part's keys and patterns")
        if not isinstance(extra, dict):
            raise CannotMerge("additionalProperties")
        properties = dict(merged["properties"])
        for key in foreign:
            declared = properties[key]
            properties[key] = merge(declared if isinstance(declared, dict) else {}, extra, resolve)
        merged["properties"] = properties


def annotations_only(schema: dict[str, Any]) -> bool:
    return all(key in ANNOTATIONS or key.startswith("x-") for key in schema)


def _merge_keyword(key: str, first: Any, second: Any, resolve: Resolver | None) -> Any:
    if key == "properties" and isinstance(first, dict) and isinstance(second, dict):
        out = dict(first)
        for name, schema in second.items():
            if name not in out or out[name] == schema:
                out[name] = schema
            elif isinstance(out[name], dict) and isinstance(schema, dict):
                out[name] = merge(out[name], schema, resolve)
            else:
                raise CannotMerge(f"property {name!r}")
        return out
    if key == "required" and isinstance(first, list) and isinstance(second, list):
        return first + [item for item in second if item not in first]
    if key == "type":
        common = type_set(first) & type_set(second)
        if not common:
            raise Contradiction(f"type {first!r} and type {second!r}")
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
            raise Contradiction(f"enum {first!r} and enum {second!r} share no value")
        return common_values
    if key == "const":
        raise Contradiction(f"const {first!r} and const {second!r}")
    if key in SINGLE_SCHEMA and isinstance(first, dict) and isinstance(second, dict):
        return merge(first, second, resolve)
    raise CannotMerge(key)


def _merge_closed(first: dict[str, Any], second: dict[str, Any]) -> Any:
    """additionalProperties of a merge: `false` holds only where the closed part declares
    every property of the other (else the merge would reject the other's keys)."""
    values = [part.get("additionalProperties", True) for part in (first, second)]
    if all(value is not False for value in values):
        if values[0] == values[1] or values[1] is True:
            return values[0]
        if values[0] is True:
            return values[1]
        raise CannotMerge("additionalProperties")
    for part, other in ((first, second), (second, first)):
        if part.get("additionalProperties") is False:
            declared = set(part.get("properties") or {})
            if not set(other.get("properties") or {}) <= declared:
                raise CannotMerge("additionalProperties: false beside other parts' properties")
    return False


def _numbers(first: Any, second: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (first, second))
