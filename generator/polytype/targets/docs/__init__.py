"""Target: Markdown mapping tables (`generated/docs/<module>.md`) and an index page.

For every type, the table of the ClaudeCode SDK's struct reference —
``| JSON Key | Python Field | Elixir Field | Type | Notes |`` — with presence,
nullability, defaults, aliases, enum atoms and ``x-notes`` visible, plus one
Mermaid class diagram per module. Every cell is finished (escaped) here; the
templates only loop and print.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from polytype import ir
from polytype.ir import literals, unions
from polytype.ir.object_rules import rules_text
from polytype.ir.wording import check_text, checks_text
from polytype.targets.base import OutputFile
from polytype.targets.base.render import (
    RenderEnv,
    md_cell,
    md_code,
    md_text,
    mermaid_id,
    mermaid_text,
)
from polytype.targets.elixir import literal_atom, module_file, unknown_module
from polytype.targets.python.literal_types import literal_annotation

TARGET = "docs"
PROJECT_TARGET = "docs-index"
HEADER = ("JSON Key", "Python Field", "Elixir Field", "Type", "Notes")

_PLURALS = {
    "string": "strings",
    "integer": "integers",
    "number": "numbers",
    "boolean": "booleans",
    "map": "maps",
}


# --- views -----------------------------------------------------------------


@dataclass(frozen=True)
class RowView:
    cells: tuple[str, str, str, str, str]

    @property
    def line(self) -> str:
        return "| " + " | ".join(self.cells) + " |"


@dataclass(frozen=True)
class TypeSection:
    anchor: str
    heading: str  # finished Markdown after "### "
    kind_line: str
    doc: str  # finished Markdown paragraph(s), may be ""
    notes: str  # finished Markdown, may be ""
    rows: tuple[RowView, ...]
    footer: str  # finished Markdown, may be ""


@dataclass(frozen=True)
class MermaidClass:
    name: str
    stereotype: str  # "" or "<<union>>" ...
    members: tuple[str, ...]


@dataclass(frozen=True)
class DiagramView:
    classes: tuple[MermaidClass, ...]
    edges: tuple[str, ...]


@dataclass(frozen=True)
class IndexRow:
    line: str


# --- type descriptions -----------------------------------------------------


def anchor(name: str) -> str:
    return "type-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _link(name: str) -> str:
    return f"[{md_code(name)}](#{anchor(name)})"


@dataclass
class _Describer:
    module: ir.Module

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    def type_text(self, type_ref: ir.TypeRef, plural: bool = False) -> str:
        """The Type column: the seed's words (`string`, `list of strings`, `integer or nil`, `:system` atom)."""
        if isinstance(type_ref, ir.Prim):
            word = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[
                type_ref.kind
            ]
            return _PLURALS[word] if plural else word
        if isinstance(type_ref, ir.ListOf):
            return "list of " + self.type_text(type_ref.item, plural=True)
        if isinstance(type_ref, ir.TupleOf):  # `prefixItems`: item i of prefix[i]
            items = ", ".join(self.type_text(item) for item in type_ref.prefix)
            if type_ref.rest is None:
                more = ", no more items"
            else:
                more = ", then " + self.type_text(type_ref.rest, plural=True)
            if (type_ref.constraints.min_items or 0) < len(type_ref.prefix):
                more += "; shorter allowed"
            return ("tuples" if plural else "tuple") + f" ({items}{more})"
        if isinstance(type_ref, ir.MapOf):
            # the value's words once: asking twice made nested maps take 2^depth calls
            value = self.type_text(type_ref.value, plural=True)
            return ("maps of string to " if plural else "map of string to ") + value
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.EnumType):
                return ("atom" if named.atoms else "string") + f" ({_link(named.name)})"
            return _link(named.name)
        if isinstance(type_ref, ir.LiteralValue):
            if isinstance(type_ref.value, str):
                return f"{md_code(literal_atom(type_ref.value))} atom"
            return md_code(json.dumps(type_ref.value))
        if isinstance(type_ref, ir.JsonLiterals):
            if not type_ref.values:
                return "nothing (an empty enum)"
            # JSON equality: `1` equals `1.0`, not `true`; a value is kept as it was read
            texts = [md_code(_json_text(value)) for value in type_ref.values]
            return texts[0] if len(texts) == 1 else "one of " + ", ".join(texts)
        if isinstance(type_ref, ir.Nullable):
            return self.type_text(type_ref.inner, plural) + " or nil"
        if isinstance(type_ref, ir.AnyJSON):
            if type_ref.object_only:
                return "maps" if plural else "map"
            return "any JSON values" if plural else "any JSON"
        if isinstance(type_ref, ir.Checked):  # the checks are in the Notes
            return self.type_text(type_ref.inner, plural)
        return " or ".join(self.type_text(option, plural) for option in type_ref.options)

    def py_annotation(self, type_ref: ir.TypeRef) -> str:
        """A short Python-style annotation for the class diagram (as in the nano-agent seed)."""
        if isinstance(type_ref, ir.Prim):
            return type_ref.kind
        if isinstance(type_ref, ir.ListOf):
            inner = self.py_annotation(type_ref.item)
            return f"tuple[{inner}, ...]" if type_ref.as_tuple else f"list[{inner}]"
        if isinstance(type_ref, ir.TupleOf):
            items = [self.py_annotation(item) for item in type_ref.prefix]
            if type_ref.rest is not None:
                items.append(f"*tuple[{self.py_annotation(type_ref.rest)}, ...]")
            return f"tuple[{', '.join(items)}]"
        if isinstance(type_ref, ir.MapOf):
            return f"dict[str, {self.py_annotation(type_ref.value)}]"
        if isinstance(type_ref, ir.Ref):
            return type_ref.name
        if isinstance(type_ref, ir.LiteralValue):
            return json.dumps(type_ref.value, ensure_ascii=False)
        if isinstance(type_ref, ir.JsonLiterals):
            return literal_annotation(type_ref)
        if isinstance(type_ref, ir.Nullable):
            return f"{self.py_annotation(type_ref.inner)} | None"
        if isinstance(type_ref, ir.AnyJSON):
            return "dict" if type_ref.object_only else "JSONValue"
        if isinstance(type_ref, ir.Checked):
            return self.py_annotation(type_ref.inner)
        return " | ".join(self.py_annotation(option) for option in type_ref.options)

    def enums_in(
        self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()
    ) -> list[ir.EnumType]:
        """The enums `type_ref` holds, through aliases (`seen`: those already looked
        through, so that an alias containing itself, `L = list[L]`, is read once)."""
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.EnumType):
                return [named]
            if isinstance(named, ir.Alias) and named.name not in seen:
                return self.enums_in(named.type, seen | {named.name})
            return []
        if isinstance(type_ref, ir.ListOf):
            return self.enums_in(type_ref.item, seen)
        if isinstance(type_ref, ir.TupleOf):
            return [enum for item in type_ref.item_types() for enum in self.enums_in(item, seen)]
        if isinstance(type_ref, ir.MapOf):
            return self.enums_in(type_ref.value, seen)
        if isinstance(type_ref, ir.Nullable):
            return self.enums_in(type_ref.inner, seen)
        if isinstance(type_ref, ir.InlineUnion):
            return [enum for option in type_ref.options for enum in self.enums_in(option, seen)]
        if isinstance(type_ref, ir.Checked):
            return self.enums_in(type_ref.inner, seen)
        return []

    def refs_in(self, type_ref: ir.TypeRef) -> list[str]:
        if isinstance(type_ref, ir.Ref):
            return [type_ref.name]
        if isinstance(type_ref, ir.ListOf):
            return self.refs_in(type_ref.item)
        if isinstance(type_ref, ir.TupleOf):
            return [name for item in type_ref.item_types() for name in self.refs_in(item)]
        if isinstance(type_ref, ir.MapOf):
            return self.refs_in(type_ref.value)
        if isinstance(type_ref, ir.Nullable):
            return self.refs_in(type_ref.inner)
        if isinstance(type_ref, ir.InlineUnion):
            return [name for option in type_ref.options for name in self.refs_in(option)]
        if isinstance(type_ref, ir.Checked):
            return self.refs_in(type_ref.inner)
        return []


def enum_values_text(enum: ir.EnumType) -> str:
    """`:default`, `:accept_edits` … for atom enums, the JSON strings otherwise."""
    if enum.atoms:
        return ", ".join(
            md_code(
                ":" + value.ex_atom if _plain_atom(value.ex_atom) else literal_atom(value.value)
            )
            for value in enum.values
        )
    return ", ".join(md_code(json.dumps(value.value, ensure_ascii=False)) for value in enum.values)


def _plain_atom(name: str) -> bool:
    return re.match(r"^[a-z_][a-zA-Z0-9_@]*[?!]?\Z", name) is not None


def _constraint_text(type_ref: ir.TypeRef) -> str:
    inner = type_ref.inner if isinstance(type_ref, ir.Nullable) else type_ref
    if isinstance(inner, ir.Checked):  # what each check demands, after the type's own
        texts = [_constraint_text(inner.inner), *(md_cell(check_text(c)) for c in inner.checks)]
        return " ".join(text for text in texts if text)
    if isinstance(inner, ir.JsonLiterals) and literals.equality_matters(inner):
        return (
            "JSON equality: `1` equals `1.0`, `true` does not equal `1`, objects in any key "
            "order; the value is kept as read."
        )
    if isinstance(inner, ir.JsonLiterals):
        return ""
    if not isinstance(inner, (ir.Prim, ir.ListOf, ir.TupleOf, ir.MapOf)):
        return ""
    constraints = inner.constraints
    parts = [
        f"{attribute.replace('_', ' ')} {md_code(repr(value))}"
        for attribute, value in constraints.bounds()
    ]
    if constraints.pattern is not None:
        parts.append(f"pattern {md_code(constraints.pattern)}")
    if constraints.format is not None:
        parts.append(f"format {md_code(constraints.format)} (asserted)")
    if constraints.multiple_of is not None:
        parts.append(f"multiple of {md_code(repr(constraints.multiple_of))}")
    if constraints.unique_items:
        parts.append("unique items (JSON equality: `1` equals `1.0`, not `true`)")
    text = ("Constraints: " + ", ".join(parts) + ".") if parts else ""
    if isinstance(inner, ir.MapOf) and not inner.rules.is_empty():
        text = (text + " " + rules_text(inner.rules)).strip()
    return text


def _json_text(value: ir.JSONData) -> str:
    return json.dumps(_thaw(value), ensure_ascii=False)


def _thaw(value: ir.JSONData) -> object:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


# --- sections --------------------------------------------------------------


def _heading(named: ir.NamedType) -> str:
    return f"{md_text(named.name)} ({md_code(module_file(named.elixir_module))})"


def _doc(named: ir.NamedType) -> str:
    return md_text(named.doc)


def _notes(named: ir.NamedType) -> str:
    return f"**Notes:** {md_text(named.notes)}" if named.notes else ""


def _field_row(item: ir.Field, describer: _Describer) -> RowView:
    key = md_code(item.json_key)
    notes: list[str] = []
    if item.is_tag:
        assert isinstance(item.type, ir.LiteralValue)
        notes.append(f"Always {md_code(json.dumps(item.type.value, ensure_ascii=False))}.")
    elif item.required:
        notes.append("**required**" + (", nullable." if item.nullable else "."))
    else:
        presence = "optional"
        if item.default is not None:
            presence += f", default {md_code(_json_text(item.default.value))}"
        else:
            presence += ", absent reads as nil"
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
    constraint = _constraint_text(item.type)
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
            md_code(item.py_name),
            md_code(
                ":" + item.ex_name if _plain_atom(item.ex_name) else literal_atom(item.ex_name)
            ),
            type_text,
            " ".join(notes),
        )
    )


def _record_section(record: ir.Record, describer: _Describer) -> TypeSection:
    rows = tuple(_field_row(item, describer) for item in record.fields)
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
        _heading(record),
        f"*{kind}* · Python {md_code(record.name)} · Elixir {md_code(record.elixir_module)}",
        _doc(record),
        _notes(record),
        rows,
        footer,
    )


def _enum_section(enum: ir.EnumType) -> TypeSection:
    rows = []
    for value in enum.values:
        python = (
            md_code(json.dumps(value.value, ensure_ascii=False))
            if enum.style == "literal"
            else md_code(f"{enum.name}.{value.py_name}")
        )
        if enum.atoms:
            elixir = md_code(
                ":" + value.ex_atom if _plain_atom(value.ex_atom) else literal_atom(value.value)
            )
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
    return TypeSection(
        anchor(enum.name),
        _heading(enum),
        f"*Enum* · Python {md_code(enum.name)} · Elixir {md_code(enum.elixir_module)}, {decoding}",
        _doc(enum),
        _notes(enum),
        tuple(rows),
        "",
    )


def _union_section(union: ir.UnionType, describer: _Describer) -> TypeSection:
    rows = []
    if union.tag is not None:
        for value, member in union.tag_values:
            named = describer.named(member)
            rows.append(
                RowView(
                    (
                        md_code(f"{union.tag}: {json.dumps(value, ensure_ascii=False)}"),
                        md_code(member),
                        md_code(named.elixir_module),
                        _link(member),
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
                        md_code(check.member),
                        md_code(named.elixir_module),
                        _link(check.member),
                        f"Tried in turn ({rule}); pre-check: JSON {shape}.",
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
                        md_code(case.member),
                        md_code(named.elixir_module),
                        _link(case.member),
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
        _heading(union),
        f"*Union* ({how}) · Python {md_code(union.name)} · Elixir {md_code(union.elixir_module)}",
        _doc(union),
        _notes(union),
        tuple(rows),
        md_text(checks_text(union.schema_checks)),
    )


def _alias_section(alias: ir.Alias, describer: _Describer) -> TypeSection:
    notes = [text for text in (_constraint_text(alias.type),) if text]
    row = RowView(
        (
            "—",
            md_code(alias.name),
            md_code(alias.elixir_module),
            describer.type_text(alias.type),
            " ".join(notes),
        )
    )
    return TypeSection(
        anchor(alias.name),
        _heading(alias),
        f"*Alias* · Python {md_code(alias.name)} · Elixir {md_code(alias.elixir_module)}",
        _doc(alias),
        _notes(alias),
        (row,),
        "",
    )


def _field_annotation(item: ir.Field, describer: _Describer) -> str:
    """The dataclass annotation: an optional key without a default reads as None."""
    annotation = describer.py_annotation(item.type)
    if not item.required and item.default is None and not item.nullable:
        annotation += " | None"
    return annotation


def _diagram(module: ir.Module, describer: _Describer) -> DiagramView:
    classes: list[MermaidClass] = []
    edges: list[str] = []
    for named in module.types:
        name = mermaid_id(named.name)
        if isinstance(named, ir.Record):
            members = tuple(
                mermaid_text(f"+{item.py_name}: {_field_annotation(item, describer)}")
                for item in named.fields
            )
            classes.append(MermaidClass(name, "", members))
            targets: dict[str, list[str]] = {}
            for item in named.fields:
                for ref in describer.refs_in(item.type):
                    targets.setdefault(ref, [])
                    if item.py_name not in targets[ref]:
                        targets[ref].append(item.py_name)
            for ref, fields in targets.items():
                edges.append(f"{name} --> {mermaid_id(ref)} : {mermaid_text(', '.join(fields))}")
        elif isinstance(named, ir.EnumType):
            values = tuple(
                (
                    mermaid_text(value.value)
                    if re.fullmatch(r"[A-Za-z0-9_.\-]+", value.value)
                    else value.py_name
                )
                for value in named.values
            )
            classes.append(MermaidClass(name, "<<enumeration>>", values))
        elif isinstance(named, ir.UnionType):
            classes.append(MermaidClass(name, "<<union>>", ()))
            edges.extend(f"{name} <|-- {mermaid_id(member)}" for member in named.members)
        else:
            classes.append(
                MermaidClass(
                    name, "<<alias>>", (mermaid_text(describer.py_annotation(named.type)),)
                )
            )
            edges.extend(
                f"{name} --> {mermaid_id(ref)}"
                for ref in dict.fromkeys(describer.refs_in(named.type))
            )
    return DiagramView(tuple(classes), tuple(edges))


def module_doc_path(module: ir.Module) -> str:
    return f"docs/{module.name}.md"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    describer = _Describer(module)
    sections: list[TypeSection] = []
    for named in module.types:
        if isinstance(named, ir.Record):
            sections.append(_record_section(named, describer))
        elif isinstance(named, ir.EnumType):
            sections.append(_enum_section(named))
        elif isinstance(named, ir.UnionType):
            sections.append(_union_section(named, describer))
        else:
            sections.append(_alias_section(named, describer))
    text = env.render(
        "docs/module.md.j2",
        module=module,
        title=md_text(module.title or module.name),
        doc=md_text(module.doc),
        header="| " + " | ".join(HEADER) + " |",
        rule="|" + "|".join("-" * (len(cell) + 2) for cell in HEADER) + "|",
        sections=sections,
        diagram=_diagram(module, describer),
        schema=md_code(module.schema_path),
        python=md_code(f"python/{module.name}/dataclass_models.py"),
        elixir=md_code(f"elixir/{module_file(module.elixir_namespace)[:-3]}/"),
        root=md_code(module.root) if module.root else "",
        open_unions=", ".join(
            f"[{md_code(named.name)}](#{anchor(named.name)})"
            for named in module.types
            if isinstance(named, ir.UnionType) and named.unknown is not None
        ),
    )
    return [OutputFile(module_doc_path(module), text, TARGET, module.name, "markdown")]


def _kind_counts(module: ir.Module) -> str:
    counts = []
    kinds: tuple[tuple[type, str, str], ...] = (
        (ir.Record, "record", "records"),
        (ir.EnumType, "enum", "enums"),
        (ir.UnionType, "union", "unions"),
        (ir.Alias, "alias", "aliases"),
    )
    for kind, singular, plural in kinds:
        count = sum(1 for named in module.types if isinstance(named, kind))
        if count:
            counts.append(f"{count} {singular if count == 1 else plural}")
    return ", ".join(counts)


def render_index(modules: tuple[ir.Module, ...], env: RenderEnv) -> list[OutputFile]:
    rows = [
        IndexRow(
            "| "
            + " | ".join(
                (
                    f"[{md_cell(module.name)}]({module.name}.md)",
                    md_cell(module.title or ""),
                    f"{len(module.types)} ({_kind_counts(module)})" if module.types else "0",
                    md_code(module.elixir_namespace),
                    md_code(module.schema_path),
                )
            )
            + " |"
        )
        for module in modules
    ]
    text = env.render("docs/index.md.j2", rows=rows)
    return [OutputFile("docs/index.md", text, PROJECT_TARGET, "", "markdown")]
