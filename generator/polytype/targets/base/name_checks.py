"""What every target's namer checks alike: the located problems of names that collide
once a target spells them. Each namer says how it spells a field and what its language is
called; the pointer and the wording are the same for every target."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from polytype import ir
from polytype.diagnostics import join_pointer

# (JSON pointer, message): located by the caller, which knows the schema file.
Problem = tuple[str, str]


def field_pointer(pointer: str, item: ir.Field) -> str:
    """Where a record's field sits in the schema: its key under `properties`."""
    return join_pointer(join_pointer(pointer, "properties"), item.json_key)


def colliding_fields(
    record: ir.Record, pointer: str, spell: Callable[[ir.Field], str], language: str
) -> list[Problem]:
    """Keys of a schema the project owns that `spell` turns into one `language` field."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for item in record.fields:
        name = spell(item)
        if name in seen:
            problems.append(
                (
                    field_pointer(pointer, item),
                    f"keys {seen[name]!r} and {item.json_key!r} both become the {language} "
                    f"field {name!r}; set x-field on one",
                )
            )
        seen[name] = item.json_key
    return problems


def colliding_types(
    module: ir.Module, pointers: Mapping[str, str], rule: Callable[[str], str], label: str
) -> list[Problem]:
    """Types whose name, converted by `rule` (`label` says to what), is another's."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for named in module.types:
        converted = rule(named.name)
        if converted in seen:
            problems.append(
                (
                    pointers.get(named.name, ""),
                    f"types {seen[converted]!r} and {named.name!r} both become the "
                    f"{label} {converted!r}",
                )
            )
        seen[converted] = named.name
    return problems
