"""One section of a module's page per named type: the rows of its mapping table, its
heading, kind line, doc, notes and footer (`TypeSection`)."""

from __future__ import annotations

import json

from polytype import ir
from polytype.ir import unions
from polytype.ir.object_rules import rules_text
from polytype.ir.wording import checks_text
from polytype.targets.base.render import md_cell, md_code, md_text
from polytype.targets.docs.describe import (
    Describer,
    anchor,
    constraint_text,
    enum_values_text,
    json_text,
    label,
    link,
    plain_atom,
)
from polytype.targets.docs.views import RowView, TypeSection
from polytype.targets.elixir import literal_atom, module_file, unknown_module
from polytype.targets.elixir import names as elixir_names
from polytype.targets.elixir.names import type_module
from polytype.targets.python import names as python_names


def _heading(named: ir.NamedType, module: ir.Module) -> str:
    return f"{md_text(label(named.name))} ({md_code(module_file(type_module(module, named)))})"


def _doc(named: ir.NamedType) -> str:
    return md_text(named.doc)


def _notes(named: ir.NamedType) -> str:
    return f"**Notes:** {md_text(named.notes)}" if named.notes else ""


def field_row(item: ir.Field, python: str, elixir: str, describer: Describer) -> RowView:
    """The row of one field (`python`, `elixir`: its names in each target)."""
    key = md_code(item.json_key)
    notes: list[str] = []
    if item.is_tag:
        assert isinstance(item.type, ir.LiteralValue)
        notes.append(f"Always {md_code(json.dumps(item.type.value, ensure_ascii=False))}.")
    elif item.required:
        notes.append("**required**" + (", nullable." if item.nullable else "."))
    else:
        presence = "optional"
        if item.default is not None:  # without one, absent reads as nil (the page says so once)
            presence += f", default {md_code(json_text(item.default.value))}"
        notes.append(presence + (", nullable." if item.nullable else "."))
    if item.doc:
        notes.append(md_cell(item.doc))
    if item.aliases:
        notes.append(
            "Also accepted as "
            + ", ".join(md_code(alias) for alias in item.aliases)
            + " (written back as read)."
        )
    for enum in describer.enums_in(item.type):
        notes.append(f"{'Atoms' if enum.atoms else 'Values'}: {enum_values_text(enum)}.")
    constraint = constraint_text(item.type)
    if constraint:
        notes.append(constraint)
    if item.notes:
        notes.append(md_cell(item.notes))
    type_text = describer.type_text(item.type)
    if not item.required and item.default is None and not item.nullable:
        type_text += " or nil"
    return RowView(
        (
            key,
            md_code(python),
            md_code(":" + elixir if plain_atom(elixir) else literal_atom(elixir)),
            type_text,
            " ".join(notes),
        )
    )


def record_section(record: ir.Record, describer: Describer) -> TypeSection:
    rows = tuple(
        field_row(item, python, elixir, describer)
        for item, python, elixir in zip(
            record.fields,
            python_names.field_names(record, describer.python_types),
            elixir_names.field_names(record),
            strict=True,
        )
    )
    footer = {
        "keep": "Unknown keys are kept in `extra` (Python) / `:extra` (Elixir) and written back.",
        "ignore": "Unknown keys are dropped (`x-extra: ignore`).",
        "forbid": "Unknown keys are rejected (`additionalProperties: false`).",
    }[record.extra_policy]
    if not record.rules.is_empty():
        footer += " " + rules_text(record.rules)
    if record.schema_checks:
        footer += " " + md_text(checks_text(record.schema_checks))
    kind = "Record" + (" (frozen)" if record.frozen else "")
    return TypeSection(
        anchor(record.name),
        _heading(record, describer.module),
        f"*{kind}* · Python {md_code(python_names.type_name(record.name))} · Elixir {md_code(type_module(describer.module, record))}",
        _doc(record),
        _notes(record),
        rows,
        footer,
    )


def enum_section(enum: ir.EnumType, module: ir.Module) -> TypeSection:
    rows = []
    # each value's member and atom, asked for once (asking per value hashed the enum
    # and searched its values each time: quadratic in a large enum)
    members = python_names.enum_members(enum)
    atoms = elixir_names.enum_atoms(enum) if enum.atoms else ("",) * len(enum.values)
    for value, member, atom in zip(enum.values, members, atoms, strict=True):
        python = (
            md_code(json.dumps(value.value, ensure_ascii=False))
            if enum.style == "literal"
            else md_code(f"{python_names.type_name(enum.name)}.{member}")
        )
        if enum.atoms:
            elixir = md_code(":" + atom if plain_atom(atom) else literal_atom(value.value))
        else:
            elixir = md_code(json.dumps(value.value, ensure_ascii=False))
        rows.append(
            RowView(
                (
                    md_code(json.dumps(value.value, ensure_ascii=False)),
                    python,
                    elixir,
                    "enum value",
                    "",
                )
            )
        )
    decoding = "decodes to atoms (generated clauses only)" if enum.atoms else "strings in Elixir"
    if enum.unknown is not None:
        elixir = "`{:unknown, string}`" if enum.atoms else "the string"
        rows.append(
            RowView(
                (
                    "any other string",
                    md_code(f"{enum.unknown}(value)"),
                    elixir,
                    "—",
                    "Kept (`x-unknown: keep`): the string as received, written back unchanged.",
                )
            )
        )
        decoding += ", open: unknown values are kept"
    return TypeSection(
        anchor(enum.name),
        _heading(enum, module),
        f"*Enum* · Python {md_code(python_names.type_name(enum.name))} · Elixir {md_code(type_module(module, enum))}, {decoding}",
        _doc(enum),
        _notes(enum),
        tuple(rows),
        "",
    )


def union_section(union: ir.UnionType, describer: Describer) -> TypeSection:
    rows = []
    if union.tag is not None:
        for value, member in union.tag_values:
            named = describer.named(member)
            rows.append(
                RowView(
                    (
                        md_code(f"{union.tag}: {json.dumps(value, ensure_ascii=False)}"),
                        md_code(python_names.type_name(member)),
                        md_code(type_module(describer.module, named)),
                        link(member),
                        f"Dispatch on {md_code(union.tag)}.",
                    )
                )
            )
        how = f"tagged on {md_code(union.tag)}"
    elif union.tries_members:
        rule = unions.RULES[union.match]
        for check in union.checks:
            named = describer.named(check.member)
            shape = " or ".join(check.json_types)
            if check.required:
                shape += " with " + ", ".join(md_code(key) for key in check.required)
            rows.append(
                RowView(
                    (
                        "—",
                        md_code(python_names.type_name(check.member)),
                        md_code(type_module(describer.module, named)),
                        link(check.member),
                        f"Pre-check: JSON {shape}.",  # the rule is in the kind line
                    )
                )
            )
        how = rule
    else:
        for case in union.cases:
            named = describer.named(case.member)
            if case.tag_key is not None:
                key = md_code(f"{case.tag_key}: {json.dumps(case.tag_value, ensure_ascii=False)}")
                rule = f"Recognised by {md_code(case.tag_key)}."
            elif case.key is not None:
                key = md_code(case.key)
                rule = f"Recognised by the key {md_code(case.key)}."
            else:
                key = "—"
                rule = f"Recognised as a JSON {case.json_type}."
            rows.append(
                RowView(
                    (
                        key,
                        md_code(python_names.type_name(case.member)),
                        md_code(type_module(describer.module, named)),
                        link(case.member),
                        rule,
                    )
                )
            )
        how = "structural"
    if union.unknown is not None and union.open_tag is not None:
        rows.append(
            RowView(
                (
                    md_code(union.open_tag) + ": any other string",
                    md_code(union.unknown),
                    md_code(unknown_module(describer.module, union)),
                    "—",
                    "Kept whole (`x-unknown: keep`): the tag and the JSON object as "
                    "received, written back unchanged.",
                )
            )
        )
        how += ", open: unknown tags are kept"
    return TypeSection(
        anchor(union.name),
        _heading(union, describer.module),
        f"*Union* ({how}) · Python {md_code(python_names.type_name(union.name))} · Elixir {md_code(type_module(describer.module, union))}",
        _doc(union),
        _notes(union),
        tuple(rows),
        md_text(checks_text(union.schema_checks)),
    )


def alias_section(alias: ir.Alias, describer: Describer) -> TypeSection:
    notes = [text for text in (constraint_text(alias.type),) if text]
    row = RowView(
        (
            "—",
            md_code(python_names.type_name(alias.name)),
            md_code(type_module(describer.module, alias)),
            describer.type_text(alias.type),
            " ".join(notes),
        )
    )
    return TypeSection(
        anchor(alias.name),
        _heading(alias, describer.module),
        f"*Alias* · Python {md_code(python_names.type_name(alias.name))} · Elixir {md_code(type_module(describer.module, alias))}",
        _doc(alias),
        _notes(alias),
        (row,),
        "",
    )
