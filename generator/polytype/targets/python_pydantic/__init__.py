"""Target: Pydantic v2 models rendered from the IR by polytype's own templates.

The models accept and reject exactly what the dataclass flavor does: strict
scalar types (no coercion, `bool` is never an `int`, an integer is a valid
`number` and stays an `int`), discriminated unions on the schema's tag, a
callable discriminator for structural unions, and the wire rules Pydantic has
no switch for (tags required on input, `x-aliases` written back in the spelling
that was read, field names never accepted as JSON keys on input). Those rules
live in a small runtime at the top of each generated file (see
``templates/python_pydantic/runtime.py.j2``); every decision about a type is made
in this package's modules, and the templates only loop and print.

Round trip: ``X.model_validate(d).model_dump(mode="json", by_alias=True,
exclude_unset=True) == d`` for every valid ``d``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polytype import ir
from polytype.targets.base import OutputFile, ProjectTarget, depth
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.alias_order import lazy_aliases
from polytype.targets.python.checks import runtime_parts
from polytype.targets.python.common import EnumView, enum_view_fields
from polytype.targets.python.imports import prune_imports
from polytype.targets.python.names import python_module
from polytype.targets.python.packages import module_dir
from polytype.targets.python.runtime import checks_import, package_groups
from polytype.targets.python_pydantic.aliases import alias_order_by_rounds, alias_view, lazy
from polytype.targets.python_pydantic.annotations import Annotations
from polytype.targets.python_pydantic.imports import (
    TYPING_EXTENSIONS_WHEN_USED,
    core_imports,
    pydantic_imports,
    typing_imports,
)
from polytype.targets.python_pydantic.name_checks import check_adapter_names
from polytype.targets.python_pydantic.records import record_view
from polytype.targets.python_pydantic.runtime import (
    RuntimeMember,
    needs,
    render_runtime,
    runtime_import,
)
from polytype.targets.python_pydantic.union_aliases import union_view, unknown_view
from polytype.targets.python_pydantic.views import AdapterView, AliasView

TARGET = "python-pydantic"


def _adapter_config(named: ir.NamedType, types: Annotations) -> str:
    """`, config=...` for a TypeAdapter: errors titled after the type; Python regexes if needed.

    A type that is a model itself (an alias of a record, a union of one) brings its own config.
    """
    if types.is_model(ir.Ref(named.name)):
        return ""
    settings = [f"title={py_str(named.name)}"]
    if types.has_pattern(ir.Ref(named.name)):  # an alias's own, or a union member's
        settings.append('regex_engine="python-re"')
    return f", config=ConfigDict({', '.join(settings)})"


def module_path(module: ir.Module, env: RenderEnv) -> str:
    return f"{module_dir(module.name, env)}/pydantic_models.py"


def render_models(module: ir.Module, env: RenderEnv) -> OutputFile:
    module = python_module(module)
    context = module_context(module, env)
    runtime = runtime_import(module, env, context) if env.shared_runtime else None
    text = env.render("python_pydantic/module.py.j2", runtime=runtime, **context)
    if env.shared_runtime:
        text = prune_imports(text)
    return OutputFile(module_path(module, env), text, TARGET, module.name, "python")


def module_context(module: ir.Module, env: RenderEnv) -> dict[str, Any]:
    """What `python_pydantic/module.py.j2` prints for `module` (its runtime's parts too)."""
    check_adapter_names(module)
    types = Annotations(module)
    shared_checks = checks_import(module, env)  # None: the constants are this file's
    enums = [_enum_view(t) for t in module.types if isinstance(t, ir.EnumType)]
    if any(not enum.base for enum in enums):
        types.uses.add("Literal")  # `X: TypeAlias = Literal[...]`
    records = [record_view(t, types, env) for t in module.types if isinstance(t, ir.Record)]
    records += [
        unknown_view(t, types, env)
        for t in module.types
        if isinstance(t, ir.UnionType) and t.unknown is not None
    ]
    aliases: list[AliasView] = []
    deferred = lazy_aliases(module, alias_order_by_rounds)
    for named in alias_order_by_rounds(module):
        if isinstance(named, ir.UnionType):
            view = union_view(named, types)
        else:
            assert isinstance(named, ir.Alias)
            view = alias_view(named, types)
        aliases.append(lazy(view, types) if named.name in deferred else view)
    adapters = [
        (
            AdapterView(f"{t.name}Adapter", t.name, _adapter_config(t, types))
            if not isinstance(t, ir.EnumType) or t.unknown is None
            else AdapterView(
                f"{t.name}Adapter",
                t.name,
                _adapter_config(t, types),
                types.named_annotation(t.name),
                f"{t.name} | {t.unknown}",
            )
        )
        for t in module.types
        if not isinstance(t, ir.Record)
    ]
    exported = [t.name for t in module.types] + [a.name for a in adapters]
    exported += [
        t.unknown for t in module.types if isinstance(t, (ir.UnionType, ir.EnumType)) and t.unknown
    ]
    uses_spellings = any(r.base == "_SpelledModel" for r in records)
    uses_checks = any(r.checked for r in records)
    schema_checks = "schema_checks" in runtime_parts(module)
    # the formats the schema checks assert need their checkers as the fields' do
    types.uses |= {part for part in runtime_parts(module) if part.startswith("format_")}
    return dict(
        module=module,
        enums=enums,
        records=records,
        aliases=aliases,
        adapters=adapters,
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        uses=sorted(types.uses),
        uses_enum=any(e.base for e in enums),
        keeps_str_enums=any(e.base == "(str, Enum)" for e in enums),
        uses_spellings=uses_spellings,
        uses_checks=uses_checks,
        schema_checks=schema_checks,
        check_constants=[] if shared_checks else types.check_constants.statements(),
        checks_import=shared_checks,
        object_rules=[(r.rules, r.rules_value) for r in records if r.rules]
        + sorted(types.map_rules.items()),
        typing_imports=typing_imports(types.uses),
        typing_extensions_imports=[n for n in TYPING_EXTENSIONS_WHEN_USED if n in types.uses],
        abc_imports=["Callable", "Iterable"],  # both used by the runtime
        pydantic_imports=pydantic_imports(types.uses, uses_spellings, uses_checks),
        core_imports=core_imports(uses_spellings, uses_checks or "object_rules" in types.uses),
        **depth.template_values(module),
    )


def _enum_view(enum: ir.EnumType) -> EnumView:
    return EnumView(**enum_view_fields(enum))


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    """The models, and their generated pytest suite (``python_pydantic_tests``)."""
    module = python_module(module)
    from polytype.targets.python_pydantic import tests as python_pydantic_tests

    return [render_models(module, env), *python_pydantic_tests.render(module, env)]


def runtime_member(module: ir.Module, env: RenderEnv) -> RuntimeMember:
    """What `_pydantic_runtime.py` needs of `module`: the parts its file uses, its depth plan."""
    module = python_module(module)
    return RuntimeMember(module.name, needs(module_context(module, env)), depth.plan(module))


def render_runtimes(members: Sequence[RuntimeMember], env: RenderEnv) -> list[OutputFile]:
    """Each output package's `_pydantic_runtime.py`, from every module's with Pydantic output."""
    return [
        render_runtime(directory, group, env)
        for directory, group in package_groups(members, env).items()
    ]


# Each output package's `_pydantic_runtime.py`, from every module with Pydantic output.
render_project = ProjectTarget(runtime_member, render_runtimes)
