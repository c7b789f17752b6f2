"""Checks of a lowered module as a whole: what no single schema shows.

Each check reads the module's named types (`types`, in output order) and where each
was written (`pointers`), and returns the problems it finds: an open enum's generated
name taken, cycles of aliases and unions, types no finite value has, names too long
to be file names. (What a target's spelling makes impossible is that target namer's
check: `targets.python.names`, `targets.elixir.names`.)
"""

from __future__ import annotations

from typing import assert_never

from polytype import ir, naming
from polytype.diagnostics import join_pointer
from polytype.ir import tuples
from polytype.lowering import Problem

# How many aliases and unions may stand between a use of a type and a concrete shape.
MAX_REFERENCE_CHAIN = 64

Types = dict[str, ir.NamedType]
Pointers = dict[str, str]


def open_enum_names(types: Types, pointers: Pointers) -> list[Problem]:
    """An open enum's `Unknown<Enum>` must not be a type name already (as with unions)."""
    return [
        (
            join_pointer(pointers.get(name, ""), "x-unknown"),
            f"x-unknown: keep generates {named.unknown!r} for the enum's unlisted values, "
            "which is already a type name",
        )
        for name, named in types.items()
        if isinstance(named, ir.EnumType) and named.unknown is not None and named.unknown in types
    ]


def chains(types: Types, pointers: Pointers) -> tuple[list[Problem], set[str]]:
    """Cycles of aliases and unions (a type that is only itself) and absurdly long chains,
    and the types on a cycle.

    Every generator walks from an alias or union to what it names; a cycle would never
    end, and a chain thousands of types long would exhaust the stack.
    """
    problems: list[Problem] = []
    links: dict[str, list[str]] = {}
    for name, named in types.items():
        if isinstance(named, ir.UnionType):
            targets: list[str] = list(named.members)
        elif isinstance(named, ir.Alias):
            targets = sorted(direct_names(named.type))
        else:
            targets = []
        links[name] = [target for target in targets if target in types]
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    cyclic: set[str] = set()
    longest: dict[str, int] = {}
    for start in types:
        if start in state:
            continue
        state[start] = 1
        path = [start]
        stack = [iter(links[start])]
        while stack:
            target = next(stack[-1], None)
            if target is None:
                node = path.pop()
                stack.pop()
                state[node] = 2
                longest[node] = 1 + max((longest.get(t, 0) for t in links[node]), default=0)
                continue
            if state.get(target) == 1:
                cycle = path[path.index(target) :]
                cyclic.update(cycle)
                shown = " -> ".join((*cycle, target))
                problems.append(
                    (
                        pointers.get(target, ""),
                        f"type {target} is defined only through itself ({shown}); "
                        "a union or alias cannot contain itself directly",
                    )
                )
                continue
            if state.get(target) == 2:
                continue
            state[target] = 1
            path.append(target)
            stack.append(iter(links[target]))
    deepest = max(types, key=lambda name: longest.get(name, 0), default=None)
    if deepest is not None and longest.get(deepest, 0) > MAX_REFERENCE_CHAIN:
        problems.append(
            (
                pointers.get(deepest, ""),
                f"type {deepest} reaches a concrete type only through "
                f"{longest[deepest] - 1} aliases and unions (at most {MAX_REFERENCE_CHAIN})",
            )
        )
    return problems, cyclic


def termination(types: Types, pointers: Pointers, cyclic: set[str]) -> list[Problem]:
    """Types whose every value would contain itself (no finite JSON exists); the types on
    a cycle (`chains`) are reported there."""
    finite: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, named in types.items():
            if name not in finite and _constructible(named, finite):
                finite.add(name)
                changed = True
    return [
        (
            pointers.get(name, ""),
            f"type {name} can never be finite: every value would contain another {name} "
            "(make a field optional, nullable or a list)",
        )
        for name in types
        if name not in finite and name not in cyclic
    ]


def _constructible(named: ir.NamedType, finite: set[str]) -> bool:
    match named:
        case ir.Record():
            return all(_finite_ref(item.type, finite) for item in named.fields if item.required)
        case ir.EnumType():
            return True
        case ir.Alias():
            return _finite_ref(named.type, finite)
        case ir.UnionType():
            return any(member in finite for member in named.members)
        case _ as unreachable:
            assert_never(unreachable)


def _finite_ref(type_ref: ir.TypeRef, finite: set[str]) -> bool:
    match type_ref:
        case ir.Checked():
            return _finite_ref(type_ref.inner, finite)
        case ir.Ref():
            return type_ref.name in finite
        case ir.InlineUnion():
            return any(_finite_ref(option, finite) for option in type_ref.options)
        case ir.ListOf():
            min_items = type_ref.constraints.min_items or 0
            return min_items == 0 or _finite_ref(type_ref.item, finite)
        case ir.TupleOf():
            return all(_finite_ref(item, finite) for item in tuples.required_items(type_ref))
        case (
            ir.Prim()
            | ir.MapOf()
            | ir.LiteralValue()
            | ir.JsonLiterals()
            | ir.Nullable()
            | ir.AnyJSON()
        ):
            return True
        case _ as unreachable:
            assert_never(unreachable)


def direct_names(type_ref: ir.TypeRef) -> set[str]:
    """Named types `type_ref` stands for directly (not inside a list or map)."""
    match type_ref:
        case ir.Ref():
            return {type_ref.name}
        case ir.Nullable() | ir.Checked():
            return direct_names(type_ref.inner)
        case ir.InlineUnion():
            return set().union(*(direct_names(option) for option in type_ref.options))
        case (
            ir.Prim()
            | ir.ListOf()
            | ir.TupleOf()
            | ir.MapOf()
            | ir.LiteralValue()
            | ir.JsonLiterals()
            | ir.AnyJSON()
        ):
            return set()
        case _ as unreachable:
            assert_never(unreachable)


def lengths(module_name: str, explicit: bool, types: Types, pointers: Pointers) -> list[Problem]:
    """Names too long to be file names (each with its location): the module's and the
    types'. `explicit`: the module name is the schema's `x-polytype: {module: ...}`."""
    problems: list[Problem] = []
    if len(module_name) > naming.MAX_MODULE_NAME:
        problems.append(
            (
                "/x-polytype/module" if explicit else "",
                f"module name is {len(module_name)} characters; the limit is {naming.MAX_MODULE_NAME}",
            )
        )
    for name in types:
        if len(name) > naming.MAX_TYPE_NAME:
            problems.append(
                (
                    pointers.get(name, ""),
                    f"type name {name[:40]!r}... is {len(name)} characters; the limit is "
                    f"{naming.MAX_TYPE_NAME} (name it with `title`, or shorten the key)",
                )
            )
    return problems
