"""Python names for a lowered module's types and fields (a pass after the build).

A type's Python name is its schema name unless that would shadow a builtin, a keyword
or a name the generated module uses (`naming.python_type_name`); the pass renames every
reference to a renamed type, and keeps the schema's name (`schema_name`) for the other
targets. A field named like a type would hide that type in the class body: the Python
namer gives it a trailing `_`, and this pass refuses the fields it cannot rename so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, assert_never

from polytype import ir, naming
from polytype.diagnostics import join_pointer
from polytype.ir import tuples
from polytype.lowering import Problem
from polytype.lowering.object_rules import rename_rules


@dataclass(frozen=True)
class Named:
    """The module's types under their Python names, where each was written, and the
    renames (schema name -> Python name)."""

    types: tuple[ir.NamedType, ...]
    pointers: tuple[tuple[str, str], ...]
    renamed: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...]
    # generous mode: what was renamed to be usable at all (a name too long), as warnings
    notes: tuple[Problem, ...] = ()


def assign(
    types: dict[str, ir.NamedType],
    pointers: dict[str, str],
    schemas: dict[str, Any],
    generous: bool = False,
) -> Named:
    """Rename what must be renamed. `schemas`: each type's schema, to tell a field the
    schema names (`x-field`, never renamed) from one polytype named. `generous` (a
    consumed schema): a name longer than `naming.MAX_TYPE_NAME` (a long title on a deep
    path) is shortened, with a note, where a schema the project owns is refused."""
    problems: list[Problem] = []
    notes: list[Problem] = []
    shortened: set[str] = set()
    long_names: list[tuple[str, str, str]] = []  # (pointer, name, shortened name)
    renamed: dict[str, str] = {}
    taken: dict[str, str] = {}
    for name in types:
        python = naming.python_type_name(name)
        if generous and len(python) > naming.MAX_TYPE_NAME:
            python = naming.python_type_name(naming.shortened(python))
            shortened.add(name)
            long_names.append((pointers.get(name, ""), name, python))
        if python in taken:
            problems.append(
                (
                    pointers.get(name, ""),
                    f"types {taken[python]!r} and {name!r} both become the Python name {python!r}",
                )
            )
        taken[python] = name
        if python != name:
            renamed[name] = python
    if long_names:
        notes.append(_shortened_note(long_names))
    type_names = set(taken)
    result: list[ir.NamedType] = []
    for name, named in types.items():
        named = rename_named(named, renamed)
        if name not in shortened and named.name != name:
            named = replace(named, schema_name=name)
        if isinstance(named, ir.Record):
            problems.extend(
                _shadowing_fields(named, pointers.get(name, ""), schemas.get(name), type_names)
            )
        result.append(named)
    return Named(
        tuple(result),
        tuple((renamed.get(name, name), pointer) for name, pointer in pointers.items()),
        tuple(renamed.items()),
        tuple(problems),
        tuple(notes),
    )


_SHOWN_SHORTENED = 3


def _shortened_note(long_names: list[tuple[str, str, str]]) -> Problem:
    """One note for every name a module shortened, located at the first: a long title on a
    deep path shortens the names of every type under it, and a line each buries the rest."""
    pointer, name, python = long_names[0]
    if len(long_names) == 1:
        return (
            pointer,
            f"type name {name[:40]!r}... is {len(name)} characters: generated as "
            f"{python!r} (name it with `title` or x-name to choose)",
        )
    shown = ", ".join(f"{name[:40]!r}... as {python!r}" for _, name, python in long_names[:3])
    more = len(long_names) - _SHOWN_SHORTENED
    return (
        pointer,
        f"{len(long_names)} type names are longer than {naming.MAX_TYPE_NAME} characters and "
        f"were shortened (name them with `title` or x-name to choose): {shown}"
        + (f" and {more} more" if more > 0 else ""),
    )


def _shadowing_fields(
    record: ir.Record, pointer: str, schema: Any, type_names: set[str]
) -> list[Problem]:
    """A field named like a type would hide that type in the class body (annotations):
    the Python namer (`targets.python.names`) gives it a trailing `_`, unless the schema
    named it (`x-field`) or that name is taken too."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    names = naming.numbered_repeats(
        [naming.python_field(item.json_key, item.x_field) for item in record.fields]
    )
    used = set(names)
    problems: list[Problem] = []
    for item, name in zip(record.fields, names, strict=True):
        if name not in type_names:
            continue
        where = join_pointer(join_pointer(pointer, "properties"), item.json_key)
        explicit = isinstance(properties, dict) and "x-field" in (
            properties.get(item.json_key) or {}
        )
        new_name = name + "_"
        if explicit or new_name in used or new_name in type_names:
            problems.append(
                (
                    join_pointer(where, "x-field") if explicit else where,
                    f"field name {name!r} is also the Python name of a type; set x-field",
                )
            )
            continue
        used.add(new_name)
    return problems


def rename_ref(type_ref: ir.TypeRef, renamed: dict[str, str]) -> ir.TypeRef:
    """`type_ref` with every named type renamed by `renamed`."""
    match type_ref:
        case ir.Ref():
            return ir.Ref(renamed.get(type_ref.name, type_ref.name))
        case ir.ListOf():
            return replace(type_ref, item=rename_ref(type_ref.item, renamed))
        case ir.TupleOf():
            return tuples.map_items(type_ref, lambda item: rename_ref(item, renamed))
        case ir.MapOf():
            rules = rename_rules(type_ref.rules, lambda ref: rename_ref(ref, renamed))
            return replace(type_ref, value=rename_ref(type_ref.value, renamed), rules=rules)
        case ir.Nullable() | ir.Checked():
            return replace(type_ref, inner=rename_ref(type_ref.inner, renamed))
        case ir.InlineUnion():
            return replace(
                type_ref, options=tuple(rename_ref(option, renamed) for option in type_ref.options)
            )
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return type_ref
        case _ as unreachable:
            assert_never(unreachable)


def rename_named(named: ir.NamedType, renamed: dict[str, str]) -> ir.NamedType:
    """`named` under its new name, every type it refers to renamed by `renamed`."""
    name = renamed.get(named.name, named.name)
    match named:
        case ir.Record():
            fields = tuple(
                replace(item, type=rename_ref(item.type, renamed)) for item in named.fields
            )
            rules = rename_rules(named.rules, lambda ref: rename_ref(ref, renamed))
            return replace(named, name=name, fields=fields, rules=rules)
        case ir.EnumType():
            return replace(named, name=name)
        case ir.Alias():
            return replace(named, name=name, type=rename_ref(named.type, renamed))
        case ir.UnionType():
            return replace(
                named,
                name=name,
                members=tuple(renamed.get(member, member) for member in named.members),
                tag_values=tuple(
                    (value, renamed.get(member, member)) for value, member in named.tag_values
                ),
                cases=tuple(
                    replace(case, member=renamed.get(case.member, case.member))
                    for case in named.cases
                ),
                checks=tuple(
                    replace(check, member=renamed.get(check.member, check.member))
                    for check in named.checks
                ),
            )
        case _ as unreachable:
            assert_never(unreachable)
