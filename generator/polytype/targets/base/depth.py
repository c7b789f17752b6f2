"""The nesting limit every flavor enforces, and how cheaply a module can enforce it.

JSON nested deeper than `MAX_DEPTH` arrays and objects is rejected by every
decoder (dataclasses, TypedDicts, Pydantic, Elixir) with the same message,
`DEPTH_MESSAGE`, at `$`. Pydantic's own parser stops at 200 levels of JSON text
and its validator near 255 levels of Python data, so the limit sits below both.

Checking the depth of every value would cost a walk of every input. Instead a
decoder knows how deep its module's typed structure can nest (`static_depth`):
only free-form JSON values, or types that contain themselves, can nest further.
A free-form value's own depth is measured by the walk that already checks it is
JSON; only when it exceeds `free_depth` (the limit less the typed nesting) could
the document be too deep, and only then is the whole input measured exactly.
Modules whose types recurse, or nest past the limit by themselves, measure every
input (`check_first`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import assert_never

from polytype import ir

MAX_DEPTH = 100
DEPTH_MESSAGE = f"nesting deeper than {MAX_DEPTH} levels of arrays and objects"


@dataclass(frozen=True)
class DepthPlan:
    free_depth: int  # levels a free-form value may nest before the exact check runs
    check_first: bool  # measure every input before decoding it


def template_values(module: ir.Module) -> dict[str, object]:
    """What the runtimes' templates print: the limit, its message, this module's plan."""
    return {"depth_limit": MAX_DEPTH, "depth_message": DEPTH_MESSAGE, "depth": plan(module)}


# Each module's plan, worked out once: every flavor asks for it (most twice, for its file
# and for its runtime) and it walks every type. Kept by the module's identity (its hash
# would walk every type too) for as long as the module lives.
_PLANS: dict[int, DepthPlan] = {}


def plan(module: ir.Module) -> DepthPlan:
    key = id(module)
    known = _PLANS.get(key)
    if known is None:
        known = _plan(module)
        _PLANS[key] = known
        weakref.finalize(module, _PLANS.pop, key, None)
    return known


def _plan(module: ir.Module) -> DepthPlan:
    depth = static_depth(module)
    if depth is None or depth > MAX_DEPTH:
        return DepthPlan(free_depth=0, check_first=True)
    return DepthPlan(free_depth=MAX_DEPTH - depth, check_first=False)


def static_depth(module: ir.Module) -> int | None:
    """The deepest nesting of arrays and objects the module's types can hold, free-form
    values counted as scalars; None when a type contains itself (no bound)."""
    types = module.types_by_name
    known: dict[str, int] = {}
    visiting: set[str] = set()

    class Recursive(Exception):
        pass

    def of_type(type_ref: ir.TypeRef) -> int:
        match type_ref:
            case ir.Ref():
                return named(type_ref.name)
            case ir.ListOf():
                return 1 + of_type(type_ref.item)
            case ir.TupleOf():
                return 1 + max((of_type(item) for item in type_ref.item_types()), default=0)
            case ir.MapOf():
                return 1 + of_type(type_ref.value)
            case ir.Nullable():
                return of_type(type_ref.inner)
            case ir.InlineUnion():
                return max((of_type(option) for option in type_ref.options), default=0)
            case ir.Checked():  # checked where it is: no level of its own
                return of_type(type_ref.inner)
            case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
                return 0  # Prim, LiteralValue, AnyJSON (measured as it is read)
            case _ as unreachable:
                assert_never(unreachable)

    def named(name: str) -> int:
        if name in known:
            return known[name]
        if name in visiting:
            raise Recursive
        visiting.add(name)
        target = types[name]
        match target:
            case ir.Record():
                depth = 1 + max((of_type(item.type) for item in target.fields), default=0)
            case ir.UnionType():
                depth = max((named(member) for member in target.members), default=0)
            case ir.Alias():
                depth = of_type(target.type)
            case ir.EnumType():
                depth = 0  # enums
            case _ as unreachable:
                assert_never(unreachable)
        visiting.discard(name)
        known[name] = depth
        return depth

    try:
        return max((named(name) for name in types), default=0)
    except Recursive:
        return None
