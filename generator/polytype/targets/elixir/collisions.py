"""Names the Elixir target adds itself must not collide with the schema's own."""

from __future__ import annotations

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.targets.elixir.names import (
    CHECKS_SEGMENT,
    PROJECT_MODULES,
    RUNTIME_ALIAS,
    RUNTIME_MODULE,
    field_names,
    module_file,
    type_module,
    unknown_module,
)

_RUNTIME_FILE = module_file(RUNTIME_MODULE)


def _generated(elixir_module: str) -> str | None:
    """What the target itself generates under this module name (or in its file), or None."""
    if elixir_module == RUNTIME_MODULE or elixir_module.startswith(RUNTIME_MODULE + "."):
        return "the generated runtime"
    if module_file(elixir_module) == _RUNTIME_FILE:
        return "the generated runtime's file"
    for name in PROJECT_MODULES:
        if elixir_module == name or elixir_module.startswith(name + "."):
            return f"generated {name}"
    if elixir_module.split(".")[-1] == CHECKS_SEGMENT:
        return "a generated module of schema-check rules"
    return None


def check_collisions(module: ir.Module) -> None:
    """Names the target adds itself (`extra`, `__present__`, the runtime module, the
    project's other modules and the namespace's check rules) must not collide."""
    problems = []
    modules = {named.name: type_module(module, named) for named in module.types}
    taken = {elixir_module: name for name, elixir_module in modules.items()}
    for named in module.types:
        elixir_module = modules[named.name]
        source = named.source or ir.SourceRef(module.schema_path, 1, 1, "")
        if isinstance(named, ir.UnionType) and named.unknown is not None:
            kept = unknown_module(module, named)
            clash = taken.get(kept) or _generated(kept)
            if clash is not None:
                problems.append(
                    Diagnostic(
                        source.file,
                        Position(source.line, source.column),
                        source.pointer + "/x-unknown",
                        f"Elixir module {kept!r} of {named.unknown} collides with {clash}",
                    )
                )
        clash = _generated(elixir_module)
        if clash is None and elixir_module.startswith(RUNTIME_ALIAS + "."):
            clash = f"the runtime, known as {RUNTIME_ALIAS} in every generated module"
        if clash is not None:
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer,
                    f"Elixir module {elixir_module!r} collides with {clash}",
                )
            )
        if isinstance(named, ir.Record):
            reserved = {"__present__", "__struct__"} | (
                {"extra"} if named.extra_policy == "keep" else set()
            )
            for item, name in zip(named.fields, field_names(named), strict=True):
                if name in reserved:
                    problems.append(
                        Diagnostic(
                            source.file,
                            Position(source.line, source.column),
                            f"{source.pointer}/properties/{item.json_key}",
                            f"Elixir field {name!r} is used by the generated struct; set x-elixir field",
                        )
                    )
    if problems:
        raise InputError(problems)
