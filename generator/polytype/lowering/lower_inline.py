"""Lowering of anonymous schemas: the type written in a field, an alias or an item.

Primitives with their constraints, lists, tuples, maps, references, constants,
nullable types, and the hoisting of an inline record or enum into a named type
after its place (`Owner` + `key`).
"""

from __future__ import annotations

from typing import Any

from polytype import ir
from polytype.diagnostics import join_pointer
from polytype.dialect import keywords
from polytype.ir import formats, literals
from polytype.ir.json_types import freeze_json
from polytype.lowering import schema_checks, tuples, untyped
from polytype.lowering.lowering_state import LoweringState
from polytype.lowering.object_rules import map_rules, pattern_map
from polytype.lowering.schema_facts import is_record_schema, type_list, union_options

_PRIMITIVES: dict[str, ir.PrimKind] = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
}
_CONSTRAINT_KEYS = {
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minimum": "minimum",
    "maximum": "maximum",
    "exclusiveMinimum": "exclusive_minimum",
    "exclusiveMaximum": "exclusive_maximum",
    "minItems": "min_items",
    "maxItems": "max_items",
    "minProperties": "min_properties",
    "maxProperties": "max_properties",
    "uniqueItems": "unique_items",
    "multipleOf": "multiple_of",
}

# Counts: JSON Schema's non-negative integers, where `2.0` is the integer 2.
_COUNT_ATTRIBUTES = frozenset(
    {"min_length", "max_length", "min_items", "max_items", "min_properties", "max_properties"}
)


class InlineTypeLowering(LoweringState):
    """Anonymous types, and inline records and enums hoisted to named types."""

    def _lower_type(self, schema: Any, pointer: str, hoist_name: str) -> ir.TypeRef:
        if schema is True or schema == {}:
            return ir.AnyJSON()
        if schema is False:  # accepts nothing: an enum of no values (a decode error, always)
            return ir.JsonLiterals(())
        if not isinstance(schema, dict):
            self._problem(pointer, "a schema must be an object or a boolean")
            return ir.AnyJSON()
        if keywords.CHECKS_KEY in schema:
            schema, found = schema_checks.split(schema)
            return schema_checks.checked(self._lower_type(schema, pointer, hoist_name), found)
        loose = keywords.untyped_assertions(schema, self.asserted)
        if loose:
            rest = {key: value for key, value in schema.items() if key not in loose}
            check = schema_checks.check_of(loose, self.document.locate(pointer)[2])
            return schema_checks.checked(self._lower_type(rest, pointer, hoist_name), (check,))
        if schema.get("nullable") is True:
            inner = self._lower_type(
                {k: v for k, v in schema.items() if k != "nullable"}, pointer, hoist_name
            )
            return ir.nullable(inner)
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return ir.Ref(name) if name in self.definitions else ir.AnyJSON()
        if "const" in schema:
            return literals.const_type(freeze_json(schema["const"]))
        options = union_options(schema)
        if options is not None:
            return self._lower_inline_union(
                options, pointer, hoist_name, "oneOf" if "oneOf" in schema else "anyOf"
            )
        if "enum" in schema:
            return self._lower_inline_enum(schema, pointer, hoist_name)
        types = type_list(schema)
        nullable = "null" in types
        concrete = [t for t in types if t != "null"]
        if not concrete:
            if nullable:
                return ir.JsonLiterals((None,))
            implied = untyped.implied_type(schema)
            if implied is None:
                return ir.AnyJSON()
            concrete = [implied]
            if self.generous:  # the implied type, or any value of another JSON type
                concrete, nullable = untyped.open_types(implied), True
                self.untyped_places.append(pointer)
            else:
                self._problem(pointer, untyped.refusal(implied))
        lowered = [self._lower_single(kind, schema, pointer, hoist_name) for kind in concrete]
        result = lowered[0] if len(lowered) == 1 else ir.InlineUnion(tuple(lowered))
        if isinstance(result, ir.InlineUnion):
            self._check_inline_union(result, pointer)
        return ir.nullable(result) if nullable else result

    def _lower_single(
        self, kind: str, schema: dict[str, Any], pointer: str, hoist_name: str
    ) -> ir.TypeRef:
        if kind == "string":  # `format` applies to strings only
            return ir.Prim("str", formats.constrain(_constraints(schema), schema, self.asserted))
        if kind in _PRIMITIVES:
            return ir.Prim(_PRIMITIVES[kind], _constraints(schema))
        if kind == "array":
            if tuples.is_tuple_schema(schema):
                return tuples.lower_tuple(
                    schema, pointer, hoist_name, self._lower_type, _constraints(schema)
                )
            items = schema.get("items", True)
            item = self._lower_type(items, join_pointer(pointer, "items"), hoist_name + "Item")
            return ir.ListOf(item, _constraints(schema))
        # object
        if is_record_schema(schema):
            return self._hoist(hoist_name, {**schema, "type": "object"}, pointer)
        additional = schema.get("additionalProperties", True)
        if schema.get("patternProperties"):  # the values are the patterns' (or additional)
            return pattern_map(schema, pointer, hoist_name, self._lower_type)
        rules = map_rules(schema, pointer, hoist_name, self._lower_type)
        if isinstance(additional, dict) and additional:
            return ir.MapOf(
                self._lower_type(
                    additional, join_pointer(pointer, "additionalProperties"), hoist_name + "Value"
                ),
                _constraints(schema),
                rules,
            )
        constraints = _constraints(schema)
        if constraints.checks_entries() or not rules.is_empty():  # a checked map of JSON
            return ir.MapOf(ir.AnyJSON(), constraints, rules)
        return ir.AnyJSON(object_only=True)

    def _hoist(self, name: str, schema: dict[str, Any], pointer: str) -> ir.TypeRef:
        own = f"{name}{'Enum' if 'enum' in schema else 'Object'}"
        if (
            self.pointers.get(name) == pointer
            and self.generous
            and own not in self.definitions
            and own not in self.types
        ):
            # a consumed schema's named object (or enum) that also takes other types
            # (`type: [object, "null"]`): the object under a name of its own, and `name`
            # its alias with the other types (`Loki = LokiObject | None`)
            name = own
        if self.pointers.get(name) == pointer:
            self._problem(
                pointer,
                f"{name} mixes an object with properties (or enum values) and other types; define the "
                "object (or enum) under its own name in $defs and refer to it, e.g. "
                'anyOf: [{$ref: "#/$defs/..."}, {type: "null"}]',
            )
            return ir.AnyJSON()
        if name in self.definitions or name in self.types:
            self._problem(
                pointer,
                f"the inline type here would be named {name!r}, which is already a type; move it to $defs under another name",
            )
            return ir.AnyJSON()
        self.definitions[name] = (pointer, schema)
        self._lower_named(name, schema, pointer)
        return ir.Ref(name)


def _constraints(schema: dict[str, Any]) -> ir.Constraints:
    values = {
        attribute: _count(schema[key]) if attribute in _COUNT_ATTRIBUTES else schema[key]
        for key, attribute in _CONSTRAINT_KEYS.items()
        if key in schema
    }
    return ir.Constraints(**values) if values else ir.NO_CONSTRAINTS


def _count(value: Any) -> Any:
    """A count as an int (`minLength: 2.0` is 2: the generated code compares lengths)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
