"""Defaults the generated constructors cannot hold: dropped from a consumed schema's IR.

`default` is an annotation in JSON Schema; polytype makes it the Python constructor's
default. A default object for a field typed as a record or a union (the draft-04
meta-schema's `additionalItems: {anyOf: [boolean, {$ref: "#"}], default: {}}`) would
have to be built into that record, which the targets do not do: in a schema polytype
does not own such a default is dropped (the decoders never fill absent keys, so
nothing about the data changes).
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from polytype import ir


def drop_record_defaults(module: ir.Module) -> ir.Module:
    """`module` without defaults that are JSON objects or arrays for record-like fields."""
    types: list[ir.NamedType] = []
    for named in module.types:
        if isinstance(named, ir.Record):
            fields = tuple(
                replace(item, default=None) if _unbuildable(item, module) else item
                for item in named.fields
            )
            if fields != named.fields:
                named = replace(named, fields=fields)
        types.append(named)
    return replace(module, types=tuple(types))


def _unbuildable(item: ir.Field, module: ir.Module) -> bool:
    if item.default is None or not isinstance(item.default.value, (tuple, ir.FrozenJSONObject)):
        return False
    return _holds_records(item.type, module, frozenset())


def _holds_records(type_ref: ir.TypeRef, module: ir.Module, seen: frozenset[str]) -> bool:
    match type_ref:
        case ir.Nullable() | ir.Checked():
            return _holds_records(type_ref.inner, module, seen)
        case ir.ListOf():
            return _holds_records(type_ref.item, module, seen)
        case ir.TupleOf():
            return any(_holds_records(item, module, seen) for item in type_ref.item_types())
        case ir.MapOf():
            return _holds_records(type_ref.value, module, seen)
        case ir.InlineUnion():
            return any(_holds_records(option, module, seen) for option in type_ref.options)
        case ir.Prim() | ir.Ref() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            if not isinstance(type_ref, ir.Ref) or type_ref.name in seen:
                return False
            named = module.types_by_name.get(type_ref.name)
            if isinstance(named, (ir.Record, ir.UnionType)):
                return True
            if isinstance(named, ir.Alias):
                return _holds_records(named.type, module, seen | {type_ref.name})
            return False
        case _ as unreachable:
            assert_never(unreachable)
