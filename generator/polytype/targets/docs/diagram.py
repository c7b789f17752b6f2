"""The Mermaid class diagram of a module: one class per named type and the edges
between them (`DiagramView`), left out where Mermaid would refuse to draw it."""

from __future__ import annotations

import re
from typing import assert_never

from polytype import ir
from polytype.targets.base.render import mermaid_id, mermaid_text
from polytype.targets.docs.describe import Describer
from polytype.targets.docs.views import DiagramView, MermaidClass
from polytype.targets.python.names import enum_members, field_names, type_name, type_names

# Mermaid's defaults (`maxTextSize`, `maxEdges`): GitHub and the Mermaid live editor draw
# nothing but an error for a larger diagram, so a module past either gets a sentence instead.
MERMAID_MAX_TEXT = 50_000
MERMAID_MAX_EDGES = 500


def too_large(text: str, view: DiagramView) -> str:
    """Why Mermaid would refuse the diagram `text` of `view` ("" when it draws it)."""
    if len(view.edges) > MERMAID_MAX_EDGES:
        return f"{len(view.edges):,} edges (Mermaid draws at most {MERMAID_MAX_EDGES:,})"
    if len(text) > MERMAID_MAX_TEXT:
        return f"{len(text):,} characters (Mermaid draws at most {MERMAID_MAX_TEXT:,})"
    return ""


def _field_annotation(item: ir.Field, describer: Describer) -> str:
    """The dataclass annotation: an optional key without a default reads as None."""
    annotation = describer.py_annotation(item.type)
    if not item.required and item.default is None and not item.nullable:
        annotation += " | None"
    return annotation


def _class(name: str) -> str:
    """The diagram's class of the type `name`: its Python class."""
    return mermaid_id(type_name(name))


def diagram(module: ir.Module, describer: Describer) -> DiagramView:
    """The module's Python classes and how they refer to each other."""
    classes: list[MermaidClass] = []
    edges: list[str] = []
    python_types = set(type_names(module).values())
    for named in module.types:
        name = _class(named.name)
        match named:
            case ir.Record():
                names = field_names(named, python_types)
                members = tuple(
                    mermaid_text(f"+{python}: {_field_annotation(item, describer)}")
                    for item, python in zip(named.fields, names, strict=True)
                )
                classes.append(MermaidClass(name, "", members))
                targets: dict[str, list[str]] = {}
                for item, python in zip(named.fields, names, strict=True):
                    for ref in describer.refs_in(item.type):
                        targets.setdefault(ref, [])
                        if python not in targets[ref]:
                            targets[ref].append(python)
                for ref, fields in targets.items():
                    edges.append(f"{name} --> {_class(ref)} : {mermaid_text(', '.join(fields))}")
            case ir.EnumType():
                values = tuple(
                    (
                        mermaid_text(value.value)
                        if re.fullmatch(r"[A-Za-z0-9_.\-]+", value.value)
                        else member
                    )
                    for value, member in zip(named.values, enum_members(named), strict=True)
                )
                classes.append(MermaidClass(name, "<<enumeration>>", values))
            case ir.UnionType():
                classes.append(MermaidClass(name, "<<union>>", ()))
                edges.extend(f"{name} <|-- {_class(member)}" for member in named.members)
            case ir.Alias():
                classes.append(
                    MermaidClass(
                        name, "<<alias>>", (mermaid_text(describer.py_annotation(named.type)),)
                    )
                )
                edges.extend(
                    f"{name} --> {_class(ref)}"
                    for ref in dict.fromkeys(describer.refs_in(named.type))
                )
            case _ as unreachable:
                assert_never(unreachable)
    return DiagramView(tuple(classes), tuple(edges))
