"""One runtime per output package: the stdlib flavors' `_runtime.py` and the packages'
`__init__.py` files (the project target `python-package`).

The dataclass and TypedDict modules of a project import `DecodeError`, `JSONValue`
and the checking rules from their output package's `_runtime.py` instead of each
carrying a copy (`polytype vendor` still inlines it: `RenderEnv.shared_runtime`
off). The runtime is rendered from every module of the package with such a flavor,
also when a run renders only some of them, so it never depends on which modules a
run selects: it holds the optional parts (`ir.runtime_checks`) any of them needs and
the most careful depth plan among theirs (`combined_plan`). What is a module's own,
its schema checks (which read its check constants and asserted formats), stays in
the module (`templates/python_common/module_checks.py.j2`).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from polytype import ir
from polytype.targets.base import OutputFile, ProjectTarget, depth
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.checks import CheckConstants
from polytype.targets.python.common import isort_names
from polytype.targets.python.imports import prune_imports, top_level_names
from polytype.targets.python.names import python_module
from polytype.targets.python.packages import (
    CHECKS,
    RUNTIME,
    module_dir,
    runtime_dir,
    runtime_import,
)

TARGET = "python-package"
DATACLASSES = "python-dataclasses"
TYPEDDICTS = "python-typeddicts"
PYDANTIC = "python-pydantic"
_TEMPLATE = "python_common/shared_runtime.py.j2"
# a module the env has no renderers for (a target rendered on its own) has every flavor
_ALL = (DATACLASSES, TYPEDDICTS, PYDANTIC)


class _HasName(Protocol):
    @property
    def name(self) -> str: ...


_Named = TypeVar("_Named", bound=_HasName)


@dataclass(frozen=True)
class RuntimeImport:
    """`from <module> import <names>`: what a flavor file may take from its runtime (the
    names it does not use are dropped after rendering, `imports.prune_imports`)."""

    module: str
    names: list[str]


def shared_parts(module: ir.Module) -> frozenset[str]:
    """The optional runtime parts a module needs from the shared runtime: its
    `ir.runtime_checks` but the schema checks, which stay in the module."""
    return ir.runtime_checks(module) - {"schema_checks"}


def combined_plan(plans: Sequence[depth.DepthPlan]) -> depth.DepthPlan:
    """The depth plan that is right for every module of a package (each's `depth.plan`): a
    free-form value measured at the smallest budget, every input measured first if one
    module needs it."""
    return depth.DepthPlan(
        free_depth=min(plan.free_depth for plan in plans),
        check_first=any(plan.check_first for plan in plans),
    )


# per Jinja environment (user templates may change a runtime): context -> names
_NAMES: weakref.WeakKeyDictionary[Any, dict[tuple[str, frozenset[tuple[str, str]]], list[str]]]
_NAMES = weakref.WeakKeyDictionary()


def runtime_names(env: RenderEnv, template: str, context: dict[str, object]) -> list[str]:
    """The top-level names the runtime `template` defines for `context` (isort's order)."""
    known = _NAMES.setdefault(env.jinja, {})
    key = (template, frozenset((name, repr(value)) for name, value in context.items()))
    if key not in known:
        text = env.render(template, where="", **context)
        known[key] = isort_names(top_level_names(text))
    return known[key]


def stdlib_import(module: ir.Module, env: RenderEnv) -> RuntimeImport:
    """What a dataclass or TypedDict file of `module` may import from `_runtime.py`."""
    context: dict[str, object] = {
        "checks": sorted(shared_parts(module)),
        "dataclasses": True,
        "typeddicts": True,
        "decode_error_annotation": "DecodeError",
        **depth.template_values(module),
    }
    return RuntimeImport(runtime_import(env, RUNTIME), runtime_names(env, _TEMPLATE, context))


def shares_checks(module: ir.Module, env: RenderEnv) -> bool:
    """Whether `module`'s check constants are written once, in `_checks.py` beside its
    flavor files, which import them: when it has some and more than one flavor renders it
    (a module of one flavor keeps them in that file; `polytype vendor` inlines them)."""
    flavors = set(env.renderers.get(module.name, _ALL)) & set(_ALL)
    return env.shared_runtime and len(flavors) > 1 and bool(ir.schema_checks(module))


def checks_import(module: ir.Module, env: RenderEnv) -> RuntimeImport | None:
    """What a flavor file of `module` imports from `_checks.py`, None when the constants
    are its own (`shares_checks`)."""
    if not shares_checks(module, env):
        return None
    return RuntimeImport(f".{CHECKS}", isort_names(CheckConstants(module).names()))


def package_groups(names: Sequence[_Named], env: RenderEnv) -> dict[str, list[_Named]]:
    """The modules (or what is kept of them) of each output package, by its directory."""
    groups: dict[str, list[_Named]] = {}
    for module in names:
        groups.setdefault(runtime_dir(module.name, env), []).append(module)
    return groups


def where(directory: str, env: RenderEnv) -> str:
    """How a runtime's docstring names the modules that import it."""
    package = directory.removeprefix("python/").replace("/", ".")
    return f"of `{package}`" + (" (every schema module's)" if env.python_package else "")


@dataclass(frozen=True)
class PackageMember:
    """What the package files need of one module: its `_checks.py` (when it shares its
    check constants, `shares_checks`), the runtime parts it needs and its depth plan."""

    name: str
    checks: OutputFile | None
    parts: frozenset[str]
    plan: depth.DepthPlan


def package_member(module: ir.Module, env: RenderEnv) -> PackageMember:
    module = python_module(module)
    return PackageMember(
        module.name,
        _checks(module, env) if shares_checks(module, env) else None,
        shared_parts(module),
        depth.plan(module),
    )


def render_package(members: Sequence[PackageMember], env: RenderEnv) -> list[OutputFile]:
    """Each output package's `__init__.py` files and its `_runtime.py` (when a module of it
    has a dataclass or TypedDict file). `members` is every module's with Python output."""
    outputs: list[OutputFile] = []
    for directory, group in package_groups(members, env).items():
        if env.python_package:
            doc = (
                "Generated Python, one subpackage per schema module (polytype's `python-package`)."
            )
            outputs.append(_init(f"{directory}/__init__.py", doc, env))
        for member in group:
            doc = f"The generated Python of schema module {member.name}."
            outputs.append(_init(f"{module_dir(member.name, env)}/__init__.py", doc, env))
            if member.checks is not None:
                outputs.append(member.checks)
        stdlib = [
            m for m in group if {DATACLASSES, TYPEDDICTS} & set(env.renderers.get(m.name, _ALL))
        ]
        if not stdlib:
            continue
        renderers = {r for m in stdlib for r in env.renderers.get(m.name, _ALL)}
        text = env.render(
            _TEMPLATE,
            where=where(directory, env),
            checks=sorted(frozenset[str]().union(*(m.parts for m in stdlib))),
            dataclasses=DATACLASSES in renderers,
            typeddicts=TYPEDDICTS in renderers,
            decode_error_annotation="DecodeError",
            depth_limit=depth.MAX_DEPTH,
            depth_message=depth.DEPTH_MESSAGE,
            depth=combined_plan([m.plan for m in stdlib]),
        )
        outputs.append(
            OutputFile(f"{directory}/{RUNTIME}.py", prune_imports(text), TARGET, "", "python")
        )
    return outputs


# Each output package's `__init__.py` files and runtime, from every module with Python output.
render_project = ProjectTarget(package_member, render_package)


def _checks(module: ir.Module, env: RenderEnv) -> OutputFile:
    """`_checks.py`: the check constants every flavor file of `module` imports."""
    text = env.render(
        "python_common/check_constants.py.j2",
        module=module,
        statements=CheckConstants(module).statements(),
    )
    path = f"{module_dir(module.name, env)}/{CHECKS}.py"
    return OutputFile(path, text, TARGET, module.name, "python")


def _init(path: str, doc: str, env: RenderEnv) -> OutputFile:
    return OutputFile(
        path, env.render("python_common/package_init.py.j2", doc=doc), TARGET, "", "python"
    )
