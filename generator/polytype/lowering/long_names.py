"""A consumed schema's over-long type names, shortened (a pass after the build).

A long title on a deep path gives every type under it a name too long for a file or an
Elixir atom. In a consumed schema such a name is replaced, for every target, by a
shortened one (`naming.shortened_type_name`) and one note says so; a schema the project
owns is refused instead (`module_checks.lengths`).
"""

from __future__ import annotations

from dataclasses import dataclass

from polytype import ir, naming
from polytype.ir.renaming import rename_named
from polytype.lowering import Problem


@dataclass(frozen=True)
class Shortened:
    """The module's types with their long names shortened, where each was written, the
    renames (long name -> short name) and the note that says so."""

    types: tuple[ir.NamedType, ...]
    pointers: tuple[tuple[str, str], ...]
    renamed: tuple[tuple[str, str], ...]
    notes: tuple[Problem, ...] = ()


def shorten(types: dict[str, ir.NamedType], pointers: dict[str, str]) -> Shortened:
    """Every name of `types` longer than `naming.MAX_TYPE_NAME` once spelled as a class
    name, shortened; the references to it renamed."""
    renamed: dict[str, str] = {}
    for name in types:
        short = naming.shortened_type_name(name)
        if short != name:
            renamed[name] = short
    if not renamed:
        return Shortened(tuple(types.values()), tuple(pointers.items()), ())
    long_names = [(pointers.get(name, ""), name, short) for name, short in renamed.items()]
    return Shortened(
        tuple(rename_named(named, renamed) for named in types.values()),
        tuple((renamed.get(name, name), pointer) for name, pointer in pointers.items()),
        tuple(renamed.items()),
        (_shortened_note(long_names),),
    )


_SHOWN_SHORTENED = 3


def _shortened_note(long_names: list[tuple[str, str, str]]) -> Problem:
    """One note for every name a module shortened, located at the first: a long title on a
    deep path shortens the names of every type under it, and a line each buries the rest."""
    pointer, name, short = long_names[0]
    if len(long_names) == 1:
        return (
            pointer,
            f"type name {name[:40]!r}... is {len(name)} characters: generated as "
            f"{short!r} (name it with `title` or x-name to choose)",
        )
    shown = ", ".join(
        f"{name[:40]!r}... as {short!r}" for _, name, short in long_names[:_SHOWN_SHORTENED]
    )
    more = len(long_names) - _SHOWN_SHORTENED
    return (
        pointer,
        f"{len(long_names)} type names are longer than {naming.MAX_TYPE_NAME} characters and "
        f"were shortened (name them with `title` or x-name to choose): {shown}"
        + (f" and {more} more" if more > 0 else ""),
    )
