"""The order of a module's unions and aliases, and which of them must be written lazily.

Every Python flavor writes unions and aliases as module-level aliases, each after the
aliases it names (`alias_order`). A cycle among aliases (`L = list[L]`, or A names B names
A) is broken at the first alias of the cycle in source order, which is then defined
before what it names: the module writes it lazily (`string_aliases`: a string in
dataclasses and TypedDicts, `TypeAliasType` in Pydantic), so that no flavor evaluates a
name before it exists. `refs` lists the named types a type mentions;
`plain_alias_targets` what an alias that only renames another named type stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from polytype import ir


def alias_order(module: ir.Module) -> list[ir.NamedType]:
    """Unions and aliases in an order where each is defined after the aliases it names,
    cycles apart (`break_cycle`)."""
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
        if not progressed:
            named = break_cycle(pending, names)
            ordered.append(named)
            done.add(named.name)
            pending.remove(named)
    return ordered


def break_cycle(
    pending: Sequence[ir.UnionType | ir.Alias], names: set[str]
) -> ir.UnionType | ir.Alias:
    """The first of `pending` (in source order) on a cycle of aliases: what is written
    before the aliases it names once no alias is ready. Only an alias on the cycle, not
    one that merely names a cycle, so that the rest keeps its order and is written eagerly."""
    by_name = {named.name: named for named in pending}

    def deps(name: str) -> set[str]:
        return alias_dependencies(by_name[name]) & names & by_name.keys()

    for named in pending:
        seen: set[str] = set()
        stack = list(deps(named.name))
        while stack:
            name = stack.pop()
            if name == named.name:
                return named
            if name not in seen:
                seen.add(name)
                stack.extend(deps(name))
    return pending[0]  # unreachable: nothing ready means a cycle among the pending


def string_aliases(
    module: ir.Module, order: Callable[[ir.Module], list[ir.NamedType]] = alias_order
) -> frozenset[str]:
    """The unions and aliases written lazily: those that name themselves or an alias defined
    after them in `order`, and (in dataclasses and TypedDicts, where a lazy alias is a
    string at run time and `"A" | B` fails) those that name a lazy one."""
    return lazy_aliases(module, order, through_lazy=True)


def lazy_aliases(
    module: ir.Module,
    order: Callable[[ir.Module], list[ir.NamedType]] = alias_order,
    through_lazy: bool = False,
) -> frozenset[str]:
    """The unions and aliases that name one not yet defined where `order` writes them (and,
    `through_lazy`, one that is itself lazy)."""
    ordered = order(module)
    names = {named.name for named in ordered}
    defined: set[str] = set()
    lazy: set[str] = set()
    for named in ordered:
        deps = alias_dependencies(named) & names
        if deps - defined or (through_lazy and deps & lazy):
            lazy.add(named.name)
        defined.add(named.name)
    return frozenset(lazy)


def plain_alias_targets(module: ir.Module) -> dict[str, str]:
    """Each alias that is only another name for a named type (`Ansible = Config`, checks
    aside: they stay the alias's decoder's), mapped to the named type at the end of the
    chain. mypy checks every recursive alias by walking each path of aliases through the
    TypedDicts it reaches (exponential in how many such aliases one TypedDict names), so
    the TypedDict flavor writes the named type itself where a key names such an alias."""
    aliases = {t.name: t.type for t in module.types if isinstance(t, ir.Alias)}
    targets: dict[str, str] = {}
    for name in aliases:
        seen = {name}
        target = _renamed(aliases[name])
        while target is not None and target in aliases and target not in seen:
            seen.add(target)
            target = _renamed(aliases[target])
        if target is not None and target not in seen:
            targets[name] = target
    return targets


def _renamed(type_ref: ir.TypeRef) -> str | None:
    """The named type an alias's type is, checks aside; None when it is anything else."""
    while isinstance(type_ref, ir.Checked):
        type_ref = type_ref.inner
    return type_ref.name if isinstance(type_ref, ir.Ref) else None


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
