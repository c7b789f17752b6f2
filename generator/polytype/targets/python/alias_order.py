"""The order of a module's unions and aliases, and which of them name one defined later.

Every Python flavor writes unions and aliases as module-level aliases, each after the
aliases it names (`alias_order`); one that names itself or a later alias (a cycle) is
written as a string (`string_aliases`). `refs` lists the named types a type mentions.
"""

from __future__ import annotations

from typing import assert_never

from polytype import ir


def alias_order(module: ir.Module) -> list[ir.NamedType]:
    """Unions and aliases in an order where each is defined after the aliases it names."""
    pending = [t for t in module.types if isinstance(t, (ir.UnionType, ir.Alias))]
    names = {t.name for t in pending}
    ordered: list[ir.NamedType] = []
    done: set[str] = set()
    while pending:
        progressed = False
        for named in list(pending):
            deps = alias_dependencies(named) & names
            if deps <= done:
                ordered.append(named)
                done.add(named.name)
                pending.remove(named)
                progressed = True
        if not progressed:  # a cycle among aliases: keep source order
            ordered.extend(pending)
            break
    return ordered


def string_aliases(module: ir.Module) -> frozenset[str]:
    """The unions and aliases that name themselves or an alias defined after them
    (`alias_order`): the modules write their values as strings."""
    ordered = alias_order(module)
    names = {named.name for named in ordered}
    defined: set[str] = set()
    quoted: set[str] = set()
    for named in ordered:
        if alias_dependencies(named) & names - defined:
            quoted.add(named.name)
        defined.add(named.name)
    return frozenset(quoted)


def alias_dependencies(named: ir.NamedType) -> set[str]:
    if isinstance(named, ir.UnionType):
        return set(named.members)
    assert isinstance(named, ir.Alias)
    return refs(named.type)


def refs(type_ref: ir.TypeRef) -> set[str]:
    """Every named type `type_ref` mentions."""
    match type_ref:
        case ir.Ref():
            return {type_ref.name}
        case ir.ListOf():
            return refs(type_ref.item)
        case ir.TupleOf():
            return set().union(*(refs(item) for item in type_ref.item_types()))
        case ir.MapOf():
            return refs(type_ref.value)
        case ir.Nullable():
            return refs(type_ref.inner)
        case ir.InlineUnion():
            return set().union(*(refs(option) for option in type_ref.options))
        case ir.Checked():
            return refs(type_ref.inner)
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return set()
        case _ as unreachable:
            assert_never(unreachable)
