"""A polytype schema as the plain JSON Schema its wire format obeys.

Strips the `x-` vocabulary and spells out what it means on the wire: a key
with `x-aliases` may arrive under any one of its spellings (never two at
once), and a required key is satisfied by any spelling. jsonschema (fixture
checks) and hypothesis-jsonschema (property tests) work on this export.
"""

from __future__ import annotations

import copy
from typing import Any


def wire_schema(data: dict[str, Any], type_name: str | None = None) -> dict[str, Any]:
    """The exported document; with `type_name`, a document whose root is that type."""
    exported = _export(copy.deepcopy(data))
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
