"""`x-python: {methods: block}`: where a record's methods block lives, and the error
when no template holds it."""

from __future__ import annotations

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.targets.base.render import RenderEnv


def check_method_blocks(module: ir.Module, env: RenderEnv) -> None:
    problems = []
    for named in module.types:
        if (
            isinstance(named, ir.Record)
            and named.methods
            and not env.has_template(methods_template_path(named.methods))
        ):
            source = named.source or ir.SourceRef(module.schema_path, 1, 1, "")
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer + "/x-python/methods",
                    f"no methods block {named.methods!r}: expected templates/{methods_template_path(named.methods)}",
                )
            )
    if problems:
        raise InputError(problems)


def methods_template_path(block: str) -> str:
    return f"python_dataclasses/methods/{block}.py.j2"
