"""The docs target's views: what the Markdown templates print, every cell finished."""

from __future__ import annotations

from dataclasses import dataclass


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
