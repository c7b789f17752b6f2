"""Which JSON types a value of an IR type can have, and JSON values frozen for the IR."""

from __future__ import annotations

from typing import Any, assert_never

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
    match type_ref:
        case ir.Prim():
            return _PRIM_JSON_TYPES[type_ref.kind]
        case ir.ListOf() | ir.TupleOf():
            return frozenset({"array"})
        case ir.MapOf():
            return frozenset({"object"})
        case ir.LiteralValue():
            return frozenset({literal_json_type(type_ref.value)})
        case ir.JsonLiterals():
            return literals.json_types(type_ref)
        case ir.Nullable():
            return json_type_of(type_ref.inner, module_types, seen) | {"null"}
        case ir.Checked():  # the checks narrow values, never JSON types
            return json_type_of(type_ref.inner, module_types, seen)
        case ir.AnyJSON():
            return frozenset({"object"}) if type_ref.object_only else ANY_JSON_TYPE
        case ir.InlineUnion():
            return frozenset().union(
                *(json_type_of(option, module_types, seen) for option in type_ref.options)
            )
        case ir.Ref():
            named = module_types.get(type_ref.name)
            if named is None or type_ref.name in seen:
                return frozenset()
            inner_seen = seen | {type_ref.name}
            match named:
                case ir.Record():
                    return frozenset({"object"})
                case ir.EnumType():
                    return frozenset({"string"})
                case ir.Alias():
                    return json_type_of(named.type, module_types, inner_seen)
                case ir.UnionType():
                    members = named.members
                    return frozenset().union(
                        *(json_type_of(ir.Ref(m), module_types, inner_seen) for m in members)
                    )
                case _ as unreachable:
                    assert_never(unreachable)
        case _ as unreachable:
            assert_never(unreachable)


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
