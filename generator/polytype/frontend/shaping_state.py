"""The state of one reshape of a document, shared by the passes of `polytype.frontend.shapes`.

Each pass is a mixin on `ShapingState` (`all_of`, `union_siblings`, `union_naming`);
the methods one pass asks of another are declared here, abstract, so that each
module type-checks on its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from polytype.diagnostics import Diagnostic
from polytype.reading.loader import Document


@dataclass
class ShapingState(ABC):
    """What the passes of one reshape share: the document, its definitions, what was found."""

    document: Document
    defs: dict[str, Any]
    problems: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    merged: dict[str, Any] = field(default_factory=dict)
    visiting: set[str] = field(default_factory=set)
    added: dict[str, Any] = field(default_factory=dict)
    # new definition pointer -> the data pointer it was moved from
    moved: dict[str, str] = field(default_factory=dict)
    # id of a member schema -> the definition it was made from (a name for it)
    preferred: dict[int, str] = field(default_factory=dict)

    @abstractmethod
    def _merged_def(self, name: str) -> Any:
        """The definition `name` reshaped (None while it is being reshaped: a cycle)."""

    @abstractmethod
    def _reshape_node(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        """One schema node reshaped by every pass (its children already are)."""

    @abstractmethod
    def _resolved(self, piece: Any, depth: int = 0) -> dict[str, Any]:
        """A part with its reference inlined (`all_of`)."""

    @abstractmethod
    def _check_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A reshaped schema as a check's JSON Schema (`all_of`)."""

    @abstractmethod
    def _json_types(self, schema: Any, depth: int = 0) -> set[str] | None:
        """The JSON types a schema's values can have, when it says (`union_siblings`)."""
