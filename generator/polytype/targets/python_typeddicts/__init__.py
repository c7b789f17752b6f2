"""Target: `typing.TypedDict` views of the JSON data, with validators that return their input.

`generated/python/<module>/typed_dicts.py` declares, for every named type, what
the JSON looks like on the wire: TypedDicts keyed by the JSON keys (camelCase
stays camelCase), `NotRequired[...]` for keys the schema does not require,
`X | None` for nullable values, `Literal` tags, string enums as `Literal`
aliases, unions as aliases, `JSONValue` for free-form JSON. `validate_<x>(data)`
checks data at runtime with the same rules, paths and messages as the
dataclass flavor (both render the checks of `python.codecs`) and returns the
very object it was given, unchanged.

The same render also writes the static checks of this flavor (see
`typecheck`) and, through `python_typeddict_tests`, its pytest suite.
"""

from __future__ import annotations

from polytype import ir
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.alias_order import alias_order, plain_alias_targets
from polytype.targets.python.checks import runtime_parts
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.common import isort_names, named_annotation, python_constants
from polytype.targets.python.flavors import TYPEDDICTS
from polytype.targets.python.imports import prune_imports
from polytype.targets.python.names import python_module
from polytype.targets.python.packages import module_dir
from polytype.targets.python.runtime import checks_import, stdlib_import
from polytype.targets.python.snippet_views import HelperView
from polytype.targets.python_typeddicts import tests as python_typeddict_tests
from polytype.targets.python_typeddicts.aliases import (
    alias_view,
    literal_alias_view,
    unknown_alias_doc,
)
from polytype.targets.python_typeddicts.records import share_validators, typed_dict_view
from polytype.targets.python_typeddicts.typecheck import typecheck_files
from polytype.targets.python_typeddicts.views import (
    AliasView,
    PublicView,
    TagTableView,
    TypedDictView,
    UnknownAliasView,
)

TARGET = "python-typeddicts"


def module_path(module: ir.Module, env: RenderEnv) -> str:
    return f"{module_dir(module.name, env)}/typed_dicts.py"


def _render_module(module: ir.Module, env: RenderEnv) -> str:
    codecs = Codecs(module, TYPEDDICTS)
    enums = [t for t in module.types if isinstance(t, ir.EnumType)]
    defined = {"JSONValue"} | {t.name for t in enums}
    literal_aliases = [literal_alias_view(t, codecs) for t in enums]
    typed_dicts: list[TypedDictView] = []
    renames = plain_alias_targets(module)
    for named in module.types:
        if isinstance(named, ir.Record):
            typed_dicts.append(typed_dict_view(named, codecs, defined, renames))
            defined.add(named.name)
    typed_dicts = share_validators(typed_dicts)
    aliases: list[AliasView] = []
    for named in alias_order(module):
        assert isinstance(named, (ir.UnionType, ir.Alias))
        aliases.append(alias_view(named, codecs, defined))
        defined.add(named.name)
    tag_tables = [
        TagTableView(codecs.tag_table_name(t), t.name, codecs.tag_table(t))
        for t in module.types
        if isinstance(t, ir.UnionType) and t.tag is not None
    ]
    publics = [
        PublicView(
            t.name,
            function_suffix(t.name),
            codecs.checker(t.name),
            named_annotation(module, t.name),
        )
        for t in module.types
    ]
    unknowns = [
        UnknownAliasView(t.unknown, unknown_alias_doc(t))
        for t in module.types
        if isinstance(t, ir.UnionType) and t.unknown
    ]
    exported = ["DecodeError", "JSONValue"] + [t.name for t in module.types]
    exported += [unknown.name for unknown in unknowns]
    exported += [enum.unknown for enum in enums if enum.unknown]
    exported += [f"validate_{p.suffix}" for p in publics]
    helpers: list[HelperView] = sorted(codecs.helpers.values(), key=lambda h: h.name)
    typing_names = ["TypeAlias", "TypeVar", "cast"]
    if typed_dicts:
        typing_names.append("TypedDict")
    if literal_aliases or codecs.uses_literal:
        typing_names.append("Literal")
    if any(not key.required for view in typed_dicts for key in view.keys):
        typing_names.append("NotRequired")
    if any(alias.empty for alias in aliases):
        typing_names.append("NoReturn")
    shared_checks = checks_import(module, env)  # None: the constants are this file's
    text = env.render(
        "python_typeddicts/module.py.j2",
        module=module,
        literal_aliases=literal_aliases,
        typed_dicts=typed_dicts,
        unknowns=unknowns,
        aliases=aliases,
        tag_tables=tag_tables,
        publics=publics,
        helpers=helpers,
        patterns=python_constants(codecs.patterns),
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        typing_names=isort_names(typing_names),
        # no `from __future__ import annotations` here (TypedDict reads NotRequired at run time)
        decode_error_annotation='"DecodeError"',
        checks=runtime_parts(module),
        check_constants=[] if shared_checks else codecs.check_constants.statements(),
        runtime=stdlib_import(module, env) if env.shared_runtime else None,
        checks_import=shared_checks,
        **depth.template_values(module),
    )
    return prune_imports(text) if env.shared_runtime else text


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    """typed_dicts.py, its static checks and its generated pytest suite."""
    module = python_module(module)
    outputs = [
        OutputFile(
            module_path(module, env), _render_module(module, env), TARGET, module.name, "python"
        )
    ]
    outputs.extend(typecheck_files(module, env))
    outputs.extend(python_typeddict_tests.render(module, env))
    return outputs
