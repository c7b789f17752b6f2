"""The Pydantic models' shared runtime: one `_pydantic_runtime.py` per output package.

As `targets.python.runtime` does for the stdlib flavors: the project's Pydantic modules
import the wire rules (`_Model`, `_Adapter`, `_JSON`, `Omittable`, ...) from their
output package's `_pydantic_runtime.py`, rendered from every module of the package
with Pydantic output (the parts any of them uses, the most careful depth plan), while
each module keeps its own schema checks. A vendored file still inlines it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from polytype import ir
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.imports import prune_imports
from polytype.targets.python.packages import PYDANTIC_RUNTIME
from polytype.targets.python.packages import runtime_import as import_of
from polytype.targets.python.runtime import (
    TARGET,
    RuntimeImport,
    combined_plan,
    runtime_names,
    where,
)
from polytype.targets.python_pydantic.imports import core_imports, pydantic_imports, typing_imports

_TEMPLATE = "python_pydantic/shared_runtime.py.j2"


@dataclass(frozen=True)
class RuntimeNeeds:
    """What one module's Pydantic file uses of its runtime (from its template context)."""

    uses: frozenset[str]
    spellings: bool
    checks: bool


def needs(context: dict[str, Any]) -> RuntimeNeeds:
    """The runtime parts a module's file uses, its template context being `context`."""
    return RuntimeNeeds(
        frozenset(context["uses"]), bool(context["uses_spellings"]), bool(context["uses_checks"])
    )


@dataclass(frozen=True)
class RuntimeMember:
    """What `_pydantic_runtime.py` needs of one module."""

    name: str
    needs: RuntimeNeeds
    plan: depth.DepthPlan


def _needs(modules: Sequence[RuntimeNeeds]) -> dict[str, Any]:
    """The runtime's parts for modules whose files use `modules`' parts."""
    uses = set[str]().union(*(module.uses for module in modules)) - {"schema_checks"}
    spellings = any(module.spellings for module in modules)
    checks = any(module.checks for module in modules)
    return {
        "uses": sorted(uses),
        "uses_spellings": spellings,
        "uses_checks": checks,
        "schema_checks": False,
        "abc_imports": ["Callable", "Iterable"],
        "typing_imports": typing_imports(uses | {"NoReturn"}),
        "pydantic_imports": pydantic_imports(uses, spellings, checks),
        "core_imports": core_imports(spellings, checks or "object_rules" in uses),
    }


def runtime_import(module: ir.Module, env: RenderEnv, context: dict[str, Any]) -> RuntimeImport:
    """What `module`'s Pydantic file may import from `_pydantic_runtime.py`."""
    parts = {**_needs([needs(context)]), **depth.template_values(module)}
    return RuntimeImport(import_of(env, PYDANTIC_RUNTIME), runtime_names(env, _TEMPLATE, parts))


def render_runtime(directory: str, members: Sequence[RuntimeMember], env: RenderEnv) -> OutputFile:
    """`<directory>/_pydantic_runtime.py` for `members` (what it needs of its modules)."""
    text = env.render(
        _TEMPLATE,
        where=where(directory, env),
        depth_limit=depth.MAX_DEPTH,
        depth_message=depth.DEPTH_MESSAGE,
        depth=combined_plan([member.plan for member in members]),
        **_needs([member.needs for member in members]),
    )
    path = f"{directory}/{PYDANTIC_RUNTIME}.py"
    return OutputFile(path, prune_imports(text), TARGET, "", "python")
