"""A polytype schema as the plain JSON Schema its wire format obeys.

Strips the `x-` vocabulary and spells out what it means on the wire: a key
with `x-aliases` may arrive under any one of its spellings (never two at
once), and a required key is satisfied by any spelling. jsonschema (fixture
checks) and hypothesis-jsonschema (property tests) work on this export.
"""

from __future__ import annotations

import copy
from typing import Any


def wire_schema(
    data: dict[str, Any],
    type_name: str | None = None,
    unknown_tags: str = "reject",
    unknown_enum_values: str = "reject",
) -> dict[str, Any]:
    """The exported document; with `type_name`, a document whose root is that type.

    `unknown_tags` is the project's default for tagged unions without `x-unknown`,
    `unknown_enum_values` for string enums without it.
    """
    copied = copy.deepcopy(data)
    _open_unions(copied, unknown_tags)
    _open_enums(copied, unknown_enum_values)
    exported = _export(copied)
    assert isinstance(exported, dict)
    if type_name is None:
        return exported
    definitions_key = "$defs" if type_name in exported.get("$defs", {}) else "definitions"
    return {
        "$schema": exported.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
        "$defs": exported.get("$defs", {}),
        **({"definitions": exported["definitions"]} if "definitions" in exported else {}),
        "$ref": f"#/{definitions_key}/{type_name}",
    }


def _export(node: Any) -> Any:
    if isinstance(node, list):
        return [_export(item) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key.startswith("x-"):
            continue
        if key in ("properties", "patternProperties", "$defs", "definitions", "dependentRequired"):
            result[key] = (
                {name: _export(child) for name, child in value.items()}
                if isinstance(value, dict)
                else value
            )
        elif key in ("default", "const", "enum", "examples"):
            result[key] = value
        else:
            result[key] = _export(value)
    if result.pop("nullable", False) is True and "type" in result:
        types = result["type"] if isinstance(result["type"], list) else [result["type"]]
        result["type"] = [*types, "null"] if "null" not in types else types
    _expand_aliases(node, result)
    return result


def _expand_aliases(original: dict[str, Any], result: dict[str, Any]) -> None:
    properties = original.get("properties")
    if not isinstance(properties, dict):
        return
    required = list(result.get("required", []))
    constraints: list[dict[str, Any]] = []
    for key, schema in properties.items():
        aliases = schema.get("x-aliases", []) if isinstance(schema, dict) else []
        if not aliases:
            continue
        spellings = [key, *aliases]
        for alias in aliases:
            result["properties"][alias] = copy.deepcopy(result["properties"][key])
        for index, first in enumerate(spellings):
            for second in spellings[index + 1 :]:
                constraints.append({"not": {"required": [first, second]}})
        if key in required:
            required.remove(key)
            constraints.append({"anyOf": [{"required": [spelling]} for spelling in spellings]})
    if constraints:
        result["required"] = required
        result["allOf"] = [*result.get("allOf", []), *constraints]


def _open_unions(data: dict[str, Any], unknown_tags: str) -> None:
    """Spell out `x-unknown: keep`: one more option, an object whose tag is any other string."""
    for key in ("$defs", "definitions"):
        definitions = data.get(key)
        if not isinstance(definitions, dict):
            continue
        for schema in definitions.values():
            if not isinstance(schema, dict) or schema.get("x-unknown", unknown_tags) != "keep":
                continue
            keyword = "oneOf" if "oneOf" in schema else "anyOf"
            options = schema.get(keyword)
            if not isinstance(options, list):
                continue
            tag = _tag_of(definitions, options)
            if tag is None:
                continue
            tag_key, values, untagged = tag
            kept: dict[str, Any] = {
                "type": "object",
                "required": [tag_key],
                "properties": {
                    tag_key: {
                        "type": "string",
                        "not": {"enum": [v for v in values if isinstance(v, str)] or [None]},
                    }
                },
            }
            # a nested union is reached through its parent's tag: every member shares it
            shared = _shared_consts(definitions, options, tag_key)
            kept["properties"].update({name: {"const": value} for name, value in shared.items()})
            kept["required"] = [tag_key, *shared]
            if untagged:  # a member recognised by a key of its own takes the value first
                prefix = "#/definitions/" if key == "definitions" else "#/$defs/"
                kept["not"] = {"anyOf": [{"$ref": prefix + name} for name in untagged]}
            options.append(kept)


_VALUES = ("const", "enum", "default", "examples")  # JSON values, not schemas


def _open_enums(node: Any, unknown_enum_values: str) -> None:
    """Spell out `x-unknown: keep` on a string enum: any other string is valid too
    (`anyOf: [{enum: [...]}, {type: string}]`, the listed values kept for readers)."""
    if isinstance(node, list):
        for item in node:
            _open_enums(item, unknown_enum_values)
        return
    if not isinstance(node, dict):
        return
    for key, child in node.items():
        if key not in _VALUES:
            _open_enums(child, unknown_enum_values)
    values = node.get("enum")
    if not isinstance(values, list) or node.get("x-unknown", unknown_enum_values) != "keep":
        return
    listed = [value for value in values if value is not None]
    if len(listed) > 1 and all(isinstance(value, str) for value in listed):
        node["anyOf"] = [{"enum": node.pop("enum")}, {"type": "string"}]


def _member_names(options: list[Any]) -> list[str] | None:
    names = []
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("$ref"), str):
            return None
        names.append(option["$ref"].rsplit("/", 1)[-1])
    return names


def _leaves(definitions: dict[str, Any], name: str, seen: frozenset[str]) -> list[dict[str, Any]]:
    """The record schemas a union member stands for (a nested union's members, recursively)."""
    schema = definitions.get(name)
    if not isinstance(schema, dict) or name in seen:
        return []
    options = schema.get("oneOf", schema.get("anyOf"))
    names = _member_names(options) if isinstance(options, list) else None
    if names is None:
        return [schema]
    return [leaf for member in names for leaf in _leaves(definitions, member, seen | {name})]


def _tag_of(
    definitions: dict[str, Any], options: list[Any]
) -> tuple[str, list[Any], list[str]] | None:
    """The tag key the union dispatches on, its listed values, and the members without it.

    The first const key (in the members' order) whose values tell the members that
    have it apart; members without it (a structural union's key-recognised members)
    are returned so the kept option can exclude them.
    """
    names = _member_names(options)
    if not names:
        return None
    per_member = [_leaves(definitions, name, frozenset()) for name in names]
    candidates: list[str] = []
    for leaves in per_member:
        for leaf in leaves:
            for key, prop in (leaf.get("properties") or {}).items():
                if isinstance(prop, dict) and "const" in prop and key not in candidates:
                    candidates.append(key)
    for key in candidates:
        seen: list[Any] = []
        untagged: list[str] = []
        usable = True
        for name, leaves in zip(names, per_member, strict=True):
            props = [(leaf.get("properties") or {}).get(key) for leaf in leaves]
            values = [prop["const"] for prop in props if isinstance(prop, dict) and "const" in prop]
            if not values:
                untagged.append(name)
                continue
            if len(values) != len(leaves) or any(value in seen for value in values):
                usable = False
                break
            seen.extend(values)
        if usable and seen:
            return key, seen, untagged
    return None


def _shared_consts(definitions: dict[str, Any], options: list[Any], tag_key: str) -> dict[str, Any]:
    """Const keys other than the tag on which every record of the union agrees."""
    names = _member_names(options) or []
    leaves = [leaf for name in names for leaf in _leaves(definitions, name, frozenset())]
    if not leaves:
        return {}
    shared: dict[str, Any] = {}
    for key, prop in (leaves[0].get("properties") or {}).items():
        if key == tag_key or not isinstance(prop, dict) or "const" not in prop:
            continue
        if all(
            isinstance(other := (leaf.get("properties") or {}).get(key), dict)
            and "const" in other
            and other["const"] == prop["const"]
            and key in (leaf.get("required") or [])
            for leaf in leaves
        ):
            shared[key] = prop["const"]
    return shared
