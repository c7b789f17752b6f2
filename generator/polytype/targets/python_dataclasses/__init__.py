"""Target: stdlib dataclasses with exact, validating JSON codecs.

Everything a reader of the generated file sees is decided in this package and handed to
``templates/python_dataclasses/`` as view objects holding finished code
snippets; the templates only loop and print.
"""

from __future__ import annotations

from typing import assert_never

from polytype import ir
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.alias_order import alias_order
from polytype.targets.python.checks import runtime_parts
from polytype.targets.python.common import (
    enum_view_fields,
    isort_names,
    named_annotation,
    python_constants,
)
from polytype.targets.python.imports import prune_imports
from polytype.targets.python.names import python_module
from polytype.targets.python.packages import module_dir
from polytype.targets.python.runtime import checks_import, stdlib_import
from polytype.targets.python_dataclasses.aliases import alias_view, quote_forward
from polytype.targets.python_dataclasses.encoders import DataclassCodecs, enum_encoding
from polytype.targets.python_dataclasses.method_blocks import (
    check_method_blocks,
    methods_template_path,
)
from polytype.targets.python_dataclasses.records import record_view
from polytype.targets.python_dataclasses.union_codecs import union_view, unknown_view
from polytype.targets.python_dataclasses.views import DataclassEnumView, PublicView

TARGET = "python-dataclasses"


def _enum_view(enum: ir.EnumType, codegen: DataclassCodecs) -> DataclassEnumView:
    return DataclassEnumView(
        **enum_view_fields(enum),
        decoder=codegen.checker(enum.name),
        values_name=codegen.enum_values_name(enum),
    )


def _public_view(named: ir.NamedType, codegen: DataclassCodecs) -> PublicView:
    suffix = function_suffix(named.name)
    match named:
        case ir.Record():
            encode_expr = "value.to_dict()"
        case ir.EnumType():
            encode_expr = enum_encoding(named, "value")
        case ir.UnionType():
            encode_expr = ""
        case ir.Alias():
            encode_expr = codegen.encode(named.type, "value")
        case _ as unreachable:
            assert_never(unreachable)
    return PublicView(
        named.name,
        suffix,
        codegen.checker(named.name),
        encode_expr,
        isinstance(named, ir.Record),
        named_annotation(codegen.module, named.name),
    )


def module_path(module: ir.Module, env: RenderEnv) -> str:
    return f"{module_dir(module.name, env)}/dataclass_models.py"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    module = python_module(module)
    check_method_blocks(module, env)
    codegen = DataclassCodecs(module)
    enums = [_enum_view(t, codegen) for t in module.types if isinstance(t, ir.EnumType)]
    records = [
        record_view(t, codegen, methods_template_path(t.methods) if t.methods else None)
        for t in module.types
        if isinstance(t, ir.Record)
    ]
    aliases_in_order = alias_order(module)
    unions = {
        t.name: union_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.UnionType)
    }
    aliases = {t.name: alias_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.Alias)}
    ordered_aliases = quote_forward(aliases_in_order, unions, aliases, codegen.string_aliases)
    unknowns = [unknown_view(t) for t in module.types if isinstance(t, ir.UnionType) and t.unknown]
    publics = [_public_view(t, codegen) for t in module.types]
    union_encoders = {
        t.name: unions[t.name].encode_body for t in module.types if isinstance(t, ir.UnionType)
    }
    exported = ["DecodeError", "JSONValue"] + [t.name for t in module.types]
    exported += [unknown.name for unknown in unknowns]
    exported += [enum.unknown for enum in enums if enum.unknown]
    exported += [f"decode_{p.suffix}" for p in publics] + [f"encode_{p.suffix}" for p in publics]
    shared_checks = checks_import(module, env)  # None: the constants are this file's
    text = env.render(
        "python_dataclasses/module.py.j2",
        module=module,
        enums=enums,
        records=records,
        unknowns=unknowns,
        ordered_aliases=ordered_aliases,
        unions=[unions[name] for name in unions],
        aliases=[aliases[name] for name in aliases],
        publics=publics,
        union_encoders=union_encoders,
        helpers=sorted(codegen.helpers.values(), key=lambda h: h.name),
        patterns=python_constants(codegen.patterns),
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        uses_enum=any(e.base for e in enums),
        keeps_str_enums=any(e.base == "(str, Enum)" for e in enums),
        typing_names=isort_names(
            ["ClassVar", "NoReturn", "Self", "TypeAlias", "TypeVar", "cast"]
            + (["Literal"] if codegen.uses_literal or any(not e.base for e in enums) else [])
        ),
        decode_error_annotation="DecodeError",
        checks=runtime_parts(module),
        check_constants=[] if shared_checks else codegen.check_constants.statements(),
        runtime=stdlib_import(module, env) if env.shared_runtime else None,
        checks_import=shared_checks,
        **depth.template_values(module),
    )
    if env.shared_runtime:
        text = prune_imports(text)
    return [OutputFile(module_path(module, env), text, TARGET, module.name, "python")]
