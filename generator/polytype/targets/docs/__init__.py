"""Target: Markdown mapping tables (`generated/docs/<module>.md`) and an index page.

For every type, the table of the ClaudeCode SDK's struct reference —
``| JSON Key | Python Field | Elixir Field | Type | Notes |`` — with presence,
nullability, defaults, aliases, enum atoms and ``x-notes`` visible, plus one
Mermaid class diagram per module. Every cell is finished (escaped) here; the
templates only loop and print.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from polytype import ir
from polytype.targets.base import OutputFile, ProjectTarget
from polytype.targets.base.render import RenderEnv, md_cell, md_code, md_text
from polytype.targets.docs.describe import Describer, label, link
from polytype.targets.docs.diagram import diagram, too_large
from polytype.targets.docs.sections import (
    alias_section,
    enum_section,
    record_section,
    union_section,
)
from polytype.targets.docs.views import IndexRow, TypeSection
from polytype.targets.elixir import module_file
from polytype.targets.elixir.names import namespace
from polytype.targets.python.packages import module_dir

TARGET = "docs"
PROJECT_TARGET = "docs-index"
HEADER = ("JSON Key", "Python Field", "Elixir Field", "Type", "Notes")


def module_doc_path(module: ir.Module) -> str:
    return f"docs/{module.name}.md"


UNTYPED_ROOT = "none: the root schema accepts any JSON value (free-form)"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    describer = Describer(module)
    sections: list[TypeSection] = []
    for named in module.types:
        match named:
            case ir.Record():
                sections.append(record_section(named, describer))
            case ir.EnumType():
                sections.append(enum_section(named, module))
            case ir.UnionType():
                sections.append(union_section(named, describer))
            case ir.Alias():
                sections.append(alias_section(named, describer))
            case _ as unreachable:
                assert_never(unreachable)
    view = diagram(module, describer)
    diagram_text = env.render("docs/diagram.mmd.j2", diagram=view)
    refused = too_large(diagram_text, view)
    text = env.render(
        "docs/module.md.j2",
        module=module,
        title=md_text(module.title or module.name),
        doc=md_text(module.doc),
        header="| " + " | ".join(HEADER) + " |",
        rule="|---" * len(HEADER) + "|",  # as short as Markdown allows: once per type
        sections=sections,
        diagram="" if refused else diagram_text,
        diagram_note=(
            f"{len(view.classes):,} types: too many for one Mermaid diagram ({refused}). "
            "The tables below describe every type."
            if refused
            else ""
        ),
        schema=md_code(module.schema_path),
        python=md_code(f"{module_dir(module.name, env)}/dataclass_models.py"),
        elixir=md_code(f"elixir/{module_file(namespace(module))[:-3]}/"),
        # a root that says nothing about the value (`{}` beside `$defs`) has no type
        root=md_code(label(module.root)) if module.root else UNTYPED_ROOT,
        open_unions=", ".join(
            link(named.name)
            for named in module.types
            if isinstance(named, ir.UnionType) and named.unknown is not None
        ),
        open_enums=", ".join(
            link(named.name)
            for named in module.types
            if isinstance(named, ir.EnumType) and named.unknown is not None
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


def index_row(module: ir.Module, env: RenderEnv) -> IndexRow:
    """`module`'s row of the index (all the index needs of it)."""
    return IndexRow(
        "| "
        + " | ".join(
            (
                f"[{md_cell(module.name)}]({module.name}.md)",
                md_cell(module.title or ""),
                f"{len(module.types)} ({_kind_counts(module)})" if module.types else "0",
                md_code(namespace(module)),
                md_code(module.schema_path),
            )
        )
        + " |"
    )


def render_rows(rows: Sequence[IndexRow], env: RenderEnv) -> list[OutputFile]:
    """`docs/index.md`, a row a module (`index_row`)."""
    text = env.render("docs/index.md.j2", rows=list(rows))
    return [OutputFile("docs/index.md", text, PROJECT_TARGET, "", "markdown")]


# The index of every module's page.
render_index = ProjectTarget(index_row, render_rows)
