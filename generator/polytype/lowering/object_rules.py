"""Lowering of the object keywords beside a record's `properties`.

`patternProperties`, an `additionalProperties` schema, `propertyNames`,
`dependentRequired` and `minProperties`/`maxProperties` say what an object's keys
(declared or not) and the values of its undeclared keys must be. They become one
`ir.ObjectRules`, which every flavor checks on the JSON object as it arrives; the
undeclared keys are kept as they were, so the round trip stays exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from polytype import ir
from polytype.diagnostics import join_pointer
from polytype.dialect.keywords import MAP_RULES
from polytype.ir.object_rules import count_of

# (schema, pointer, hoist name) -> the type of a value there; lowering's `_lower_type`.
LowerType = Callable[[Any, str, str], ir.TypeRef]


def object_rules(
    schema: dict[str, Any], pointer: str, hoist_name: str, lower_type: LowerType
) -> ir.ObjectRules:
    """The rules of the record `schema` (at `pointer`); value types named after `hoist_name`."""
    patterns: list[tuple[str, ir.TypeRef]] = []
    written = schema.get("patternProperties")
    if isinstance(written, dict):
        where = join_pointer(pointer, "patternProperties")
        for index, (pattern, value_schema) in enumerate(written.items()):
            suffix = "Pattern" if len(written) == 1 else f"Pattern{index + 1}"
            patterns.append(
                (
                    pattern,
                    lower_type(value_schema, join_pointer(where, pattern), hoist_name + suffix),
                )
            )
    additional_schema = schema.get("additionalProperties")
    additional: ir.TypeRef | None = None
    if isinstance(additional_schema, dict) and additional_schema:
        additional = lower_type(
            additional_schema,
            join_pointer(pointer, "additionalProperties"),
            hoist_name + "Extra",
        )
    names_schema = schema.get("propertyNames")
    names: ir.TypeRef | None = None
    if isinstance(names_schema, dict) and names_schema:
        names = lower_type(
            {"type": "string", **names_schema},
            join_pointer(pointer, "propertyNames"),
            hoist_name + "Key",
        )
    elif names_schema is False:  # no key at all: only the empty object
        names = ir.JsonLiterals(())
    dependent = schema.get("dependentRequired")
    required: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(dependent, dict):
        for key, keys in dependent.items():
            if isinstance(keys, list) and keys:
                required.append((key, tuple(str(item) for item in keys)))
    return ir.ObjectRules(
        pattern_properties=tuple(patterns),
        additional=additional,
        closed=bool(patterns) and additional_schema is False,
        property_names=names,
        dependent_required=tuple(required),
        min_properties=count_of(schema.get("minProperties")),
        max_properties=count_of(schema.get("maxProperties")),
    )


def map_rules(
    schema: dict[str, Any], pointer: str, hoist_name: str, lower_type: LowerType
) -> ir.ObjectRules:
    """The rules of a map or free-form object: `propertyNames` and `dependentRequired`
    (its counts are the map's `Constraints`)."""
    rules = object_rules(
        {key: schema[key] for key in MAP_RULES if key in schema}, pointer, hoist_name, lower_type
    )
    return rules


def pattern_map(
    schema: dict[str, Any], pointer: str, hoist_name: str, lower_type: LowerType
) -> ir.MapOf:
    """An object with `patternProperties` and no `properties`: a map whose rules check
    every key and value. Its values are typed as the one pattern's when no other key is
    allowed (`{patternProperties: {"^x-": X}, additionalProperties: false}`), else as JSON."""
    rules = object_rules(schema, pointer, hoist_name, lower_type)
    value: ir.TypeRef = ir.AnyJSON()
    if rules.closed and len(rules.pattern_properties) == 1:
        value = rules.pattern_properties[0][1]
    counts = ir.Constraints(
        min_properties=rules.min_properties, max_properties=rules.max_properties
    )
    rules = replace(rules, min_properties=None, max_properties=None)  # the map counts them
    return ir.MapOf(value, counts if not counts.is_empty() else ir.NO_CONSTRAINTS, rules)
