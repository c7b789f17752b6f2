"""Names the Elixir target adds itself must not collide with the schema's own."""

from __future__ import annotations

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.targets.elixir.names import RUNTIME_ALIAS, runtime_module, unknown_module


def check_collisions(module: ir.Module) -> None:
    """Names the target adds itself (`extra`, `__present__`, the runtime module) must not collide."""
    problems = []
    runtime = runtime_module(module)
    taken = {named.elixir_module: named.name for named in module.types}
    for named in module.types:
        source = named.source or ir.SourceRef(module.schema_path, 1, 1, "")
        if isinstance(named, ir.UnionType) and named.unknown is not None:
            kept = unknown_module(module, named)
            if kept in taken or kept == runtime:
                problems.append(
                    Diagnostic(
                        source.file,
                        Position(source.line, source.column),
                        source.pointer + "/x-unknown",
                        f"Elixir module {kept!r} of {named.unknown} collides with "
                        f"{taken.get(kept, 'the generated runtime')}",
                    )
                )
        if named.elixir_module == runtime or named.elixir_module.startswith(RUNTIME_ALIAS + "."):
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer,
                    f"Elixir module {named.elixir_module!r} collides with the generated runtime",
                )
            )
        if isinstance(named, ir.Record):
            reserved = {"__present__", "__struct__"} | (
                {"extra"} if named.extra_policy == "keep" else set()
            )
            for item in named.fields:
                if item.ex_name in reserved:
                    problems.append(
                        Diagnostic(
                            source.file,
                            Position(source.line, source.column),
                            f"{source.pointer}/properties/{item.json_key}",
                            f"Elixir field {item.ex_name!r} is used by the generated struct; set x-elixir field",
                        )
                    )
    if problems:
        raise InputError(problems)
