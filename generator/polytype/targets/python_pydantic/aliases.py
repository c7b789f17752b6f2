"""Named non-record types as module-level aliases, and the order the aliases are
written in."""

from __future__ import annotations

from dataclasses import replace

from polytype import ir
from polytype.targets.python.alias_order import alias_dependencies, break_cycle
from polytype.targets.python_pydantic.annotations import Annotations
from polytype.targets.python_pydantic.views import AliasView


def alias_view(alias: ir.Alias, types: Annotations) -> AliasView:
    return AliasView(
        alias.name, alias.doc or f"The {alias.name} type.", types.annotation(alias.type)
    )


def lazy(view: AliasView, types: Annotations) -> AliasView:
    """`view` as a `TypeAliasType` of a string: it names an alias defined after it (a cycle,
    `python.alias_order`), which Python must not evaluate before it exists."""
    types.uses.add("TypeAliasType")
    return replace(view, recursive=True)


def alias_order_by_rounds(module: ir.Module) -> list[ir.NamedType]:
    """Unions and aliases ordered so that each is defined after the aliases it uses.

    Not `python.alias_order.alias_order`: this one takes, round by round, every alias
    whose dependencies the earlier rounds defined, so an alias ready only once another
    of its round is placed waits for the next round; the shared one places it at once.
    The two orders differ (X, Y = list[X], Z: the shared order is X, Y, Z, this one
    X, Z, Y), and the Pydantic models are written in this one.
    """
    pending = [t for t in module.types if isinstance(t, (ir.UnionType, ir.Alias))]
    names = {t.name for t in pending}
    ordered: list[ir.NamedType] = []
    done: set[str] = set()
    while pending:
        ready = [t for t in pending if (alias_dependencies(t) & names) <= done]
        if not ready:  # a cycle through aliases alone: its first alias is written lazily
            ready = [break_cycle(pending, names)]
        for named in ready:
            ordered.append(named)
            done.add(named.name)
            pending.remove(named)
    return ordered
