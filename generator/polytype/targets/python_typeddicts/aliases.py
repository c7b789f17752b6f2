"""Enums as `Literal` aliases, unions and aliases with their validators, and the
docstring of an open union's Unknown<Union> alias."""

from __future__ import annotations

from polytype import ir
from polytype.ir import unions
from polytype.ir.wording import checks_text
from polytype.targets.base.render import py_str
from polytype.targets.python.alias_order import refs
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.common import (
    constraint_note,
    named_annotation,
    unknown_doc,
    unknown_enum_doc,
    with_note,
)
from polytype.targets.python.inline_checks import tag_lookup
from polytype.targets.python_typeddicts.views import AliasView, LiteralAliasView


def literal_alias_view(enum: ir.EnumType, codecs: Codecs) -> LiteralAliasView:
    return LiteralAliasView(
        name=enum.name,
        doc=enum.doc or f"The {enum.name} enumeration.",
        values=", ".join(py_str(value.value) for value in enum.values),
        entries=", ".join(f"{py_str(value.value)}: {py_str(value.value)}" for value in enum.values),
        entry_items=tuple(f"{py_str(value.value)}: {py_str(value.value)}" for value in enum.values),
        validator=codecs.checker(enum.name),
        values_name=codecs.enum_values_name(enum),
        unknown=enum.unknown or "",
        unknown_doc=unknown_enum_doc(enum, "the string itself") if enum.unknown else "",
    )


def unknown_alias_doc(union: ir.UnionType) -> str:
    return unknown_doc(union).replace(
        "`tag` is the tag, `data` the JSON object as decoded", "the JSON object as decoded"
    )


def alias_view(named: ir.UnionType | ir.Alias, codecs: Codecs, defined: set[str]) -> AliasView:
    listed: list[str] = []
    if isinstance(named, ir.UnionType):
        listed = [*named.members, *([named.unknown] if named.unknown else [])]
        value = " | ".join(named_annotation(codecs.module, name) for name in listed) or "NoReturn"
        names = set(named.members)
        doc = unions.documented(named, named.doc or f"One of: {', '.join(listed)}.")
        doc = with_note(doc, checks_text(named.schema_checks))
        checks = tuple(codecs.check_lines(named.schema_checks, "data"))  # before any dispatch
        lookup = tag_lookup(named, codecs.tag_table_name(named))
        body = checks + lookup + codecs.union_body(named, with_checks=False)
    else:
        value = codecs.annotation(named.type)
        names = refs(named.type)
        doc = with_note(named.doc or f"The {named.name} type.", constraint_note(named.type))
        body = tuple(codecs.returning(f"{codecs.decoder(named.type)}(data)", named.type))
    if names - defined or named.name in codecs.string_aliases:
        value = py_str(value)  # evaluated lazily (`alias_order.string_aliases`)
    empty = isinstance(named, ir.UnionType) and not listed
    return AliasView(named.name, doc, value, codecs.checker(named.name), body, empty)
