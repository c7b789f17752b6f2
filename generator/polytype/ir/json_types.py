"""Which JSON types a value of an IR type can have, and JSON values frozen for the IR."""

from __future__ import annotations

from typing import Any

from polytype import ir
from polytype.ir import literals


def json_type_of(
    type_ref: ir.TypeRef,
    module_types: dict[str, ir.NamedType],
    seen: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """The JSON types a value of `type_ref` can have (`number` includes integers).

    A named type already being looked at (`seen`: a cycle of aliases and unions,
    which lowering reports) contributes nothing.
    """
    if isinstance(type_ref, ir.Prim):
        return _PRIM_JSON_TYPES[type_ref.kind]
    if isinstance(type_ref, (ir.ListOf, ir.TupleOf)):
        return frozenset({"array"})
    if isinstance(type_ref, ir.MapOf):
        return frozenset({"object"})
    if isinstance(type_ref, ir.LiteralValue):
        return frozenset({literal_json_type(type_ref.value)})
    if isinstance(type_ref, ir.JsonLiterals):
        return literals.json_types(type_ref)
    if isinstance(type_ref, ir.Nullable):
        return json_type_of(type_ref.inner, module_types, seen) | {"null"}
    if isinstance(type_ref, ir.Checked):  # the checks narrow values, never JSON types
        return json_type_of(type_ref.inner, module_types, seen)
    if isinstance(type_ref, ir.AnyJSON):
        return frozenset({"object"}) if type_ref.object_only else ANY_JSON_TYPE
    if isinstance(type_ref, ir.InlineUnion):
        return frozenset().union(
            *(json_type_of(option, module_types, seen) for option in type_ref.options)
        )
    named = module_types.get(type_ref.name)
    if named is None or type_ref.name in seen:
        return frozenset()
    if isinstance(named, ir.Record):
        return frozenset({"object"})
    if isinstance(named, ir.EnumType):
        return frozenset({"string"})
    inner_seen = seen | {type_ref.name}
    if isinstance(named, ir.Alias):
        return json_type_of(named.type, module_types, inner_seen)
    return frozenset().union(
        *(json_type_of(ir.Ref(member), module_types, inner_seen) for member in named.members)
    )


ANY_JSON_TYPE = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})

_PRIM_JSON_TYPES: dict[ir.PrimKind, frozenset[str]] = {
    "str": frozenset({"string"}),
    "int": frozenset({"integer"}),
    "float": frozenset({"number", "integer"}),
    "bool": frozenset({"boolean"}),
}


def literal_json_type(value: object) -> str:
    """The JSON type of a `const` tag value (a string, integer or boolean)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "string"


def freeze_json(value: Any) -> ir.JSONData:
    """Turn parsed JSON into the IR's immutable JSON representation."""
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, freeze_json(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(freeze_json(item) for item in value)
    return value  # type: ignore[no-any-return]
