"""Renaming named types in IR values: a type under a new name, and every reference to it.

Lowering renames a consumed schema's over-long names (`lowering.long_names`); the Python
namer respells a module with its class names (`targets.python.names.python_module`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from polytype import ir
from polytype.ir import tuples
from polytype.ir.object_rules import rename_rules


def rename_ref(type_ref: ir.TypeRef, renamed: dict[str, str]) -> ir.TypeRef:
    """`type_ref` with every named type renamed by `renamed`."""
    if not renamed:  # nothing to rename: the value as it is, not an equal copy
        return type_ref
    match type_ref:
        case ir.Ref():
            return ir.Ref(renamed.get(type_ref.name, type_ref.name))
        case ir.ListOf():
            return replace(type_ref, item=rename_ref(type_ref.item, renamed))
        case ir.TupleOf():
            return tuples.map_items(type_ref, lambda item: rename_ref(item, renamed))
        case ir.MapOf():
            rules = rename_rules(type_ref.rules, lambda ref: rename_ref(ref, renamed))
            return replace(type_ref, value=rename_ref(type_ref.value, renamed), rules=rules)
        case ir.Nullable() | ir.Checked():
            return replace(type_ref, inner=rename_ref(type_ref.inner, renamed))
        case ir.InlineUnion():
            return replace(
                type_ref,
                options=tuple(rename_ref(option, renamed) for option in type_ref.options),
            )
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return type_ref
        case _ as unreachable:
            assert_never(unreachable)


def rename_named(named: ir.NamedType, renamed: dict[str, str]) -> ir.NamedType:
    """`named` under its new name, every type it refers to renamed by `renamed`."""
    name = renamed.get(named.name, named.name)
    match named:
        case ir.Record():
            fields = tuple(
                replace(item, type=rename_ref(item.type, renamed)) for item in named.fields
            )
            rules = rename_rules(named.rules, lambda ref: rename_ref(ref, renamed))
            return replace(named, name=name, fields=fields, rules=rules)
        case ir.EnumType():
            return replace(named, name=name)
        case ir.Alias():
            return replace(named, name=name, type=rename_ref(named.type, renamed))
        case ir.UnionType():
            return replace(
                named,
                name=name,
                members=tuple(renamed.get(member, member) for member in named.members),
                tag_values=tuple(
                    (value, renamed.get(member, member)) for value, member in named.tag_values
                ),
                cases=tuple(
                    replace(case, member=renamed.get(case.member, case.member))
                    for case in named.cases
                ),
                checks=tuple(
                    replace(check, member=renamed.get(check.member, check.member))
                    for check in named.checks
                ),
            )
        case _ as unreachable:
            assert_never(unreachable)
