"""What lowering asks of a schema dict: its declared types, its union's options,
whether it is a record, its description."""

from __future__ import annotations

from typing import Any


def union_options(schema: dict[str, Any]) -> list[Any] | None:
    for union_keyword in ("oneOf", "anyOf"):
        options = schema.get(union_keyword)
        if isinstance(options, list):
            return options
    return None


def is_record_schema(schema: dict[str, Any]) -> bool:
    """An object with declared properties, or one that allows no keys at all (a record with no fields)."""
    return "properties" in schema or (
        schema.get("additionalProperties") is False and not schema.get("patternProperties")
    )


def type_list(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if declared is None:
        return []
    return [declared] if isinstance(declared, str) else list(declared)


def types_of(schema: dict[str, Any]) -> set[str]:
    return set(type_list(schema)) or {"object"}


def schema_doc(schema: dict[str, Any]) -> str:
    return str(schema.get("description", "")).strip()
