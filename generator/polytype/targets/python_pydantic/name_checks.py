"""Names the Pydantic module adds that a schema's types must not take."""

from __future__ import annotations

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position


def check_adapter_names(module: ir.Module) -> None:
    """`<Name>Adapter` must not be another type's name.

    Lowering already keeps types off the module's own names and fields off BaseModel's
    attributes and private names (`polytype.naming`).
    """
    type_names = {named.name for named in module.types}
    problems: list[Diagnostic] = []
    for named in module.types:
        if not isinstance(named, ir.Record) and f"{named.name}Adapter" in type_names:
            source = named.source or ir.SourceRef(module.schema_path, 1, 1, f"/$defs/{named.name}")
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer,
                    f"{named.name}Adapter (its TypeAdapter) collides with a type of that name",
                )
            )
    if problems:
        raise InputError(problems)
