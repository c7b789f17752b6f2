"""The state of one lowering build, shared by the modules that lower each kind.

Each kind is a mixin on `LoweringState` (`lower_records`, `lower_enums`,
`lower_unions`, `lower_inline`), combined by the builder in `lower`; the methods one
kind asks of another are declared here, abstract, so that each module type-checks
on its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from polytype import ir
from polytype.diagnostics import Diagnostic
from polytype.ir import formats
from polytype.lowering import NameCheck, Problem, union_dispatch
from polytype.reading.loader import Document


@dataclass
class LoweringState(ABC):
    """What every kind's lowering shares: the document, the types built so far, what was found."""

    document: Document
    generous: bool = False
    problems: list[Diagnostic] = field(default_factory=list)
    # name -> lowered type, in output order (definition order, hoisted types after their parent)
    types: dict[str, ir.NamedType] = field(default_factory=dict)
    pointers: dict[str, str] = field(default_factory=dict)
    definitions: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    unknown_tags: ir.UnknownPolicy = "reject"
    # `unknown-enum-values`: what a string enum without `x-unknown` does with an unlisted value
    unknown_enum_values: ir.UnknownPolicy = "reject"
    # generous mode: (pointer, message) of what was lowered with a weaker guarantee
    warnings: list[tuple[str, str]] = field(default_factory=list)
    # generous mode: where a schema without `type` was typed as what it accepts (`untyped`)
    untyped_places: list[str] = field(default_factory=list)
    # generous mode: the schemas typed as free-form JSON by the front end
    approximated: frozenset[str] = frozenset()
    # every union met, for the pass that decides how it dispatches
    union_sites: list[union_dispatch.UnionSite] = field(default_factory=list)
    # the formats the project asserts, and (once the module's name is known) this module's
    chosen: formats.FormatChoice = formats.NO_FORMATS
    asserted: frozenset[str] = frozenset()
    # the root's own type when the document's root describes a value (no x-polytype: root)
    document_root: str | None = None
    # the targets' namers' checks of the module's names (`targets.name_checks`)
    name_checks: tuple[NameCheck, ...] = ()

    def _problem(self, pointer: str, message: str) -> None:
        self.problems.append(self.document.diagnostic(pointer, message))

    def _problems(self, found: Iterable[Problem]) -> None:
        for pointer, message in found:
            self._problem(pointer, message)

    def _source(self, pointer: str) -> ir.SourceRef:
        file, position, written = self.document.locate(pointer)
        return ir.SourceRef(file, position.line, position.column, written)

    @abstractmethod
    def _lower_named(self, name: str, schema: dict[str, Any], pointer: str) -> None:
        """Lower definition `name` into `types` (the builder, `lower`)."""

    @abstractmethod
    def _lower_type(self, schema: Any, pointer: str, hoist_name: str) -> ir.TypeRef:
        """The type of an anonymous schema (`lower_inline`)."""

    @abstractmethod
    def _hoist(self, name: str, schema: dict[str, Any], pointer: str) -> ir.TypeRef:
        """An inline schema lowered as the named type `name` (`lower_inline`)."""

    @abstractmethod
    def _lower_inline_enum(
        self, schema: dict[str, Any], pointer: str, hoist_name: str
    ) -> ir.TypeRef:
        """The type of an inline `enum` (`lower_enums`)."""

    @abstractmethod
    def _lower_inline_union(
        self, options: list[Any], pointer: str, hoist_name: str, keyword: str
    ) -> ir.TypeRef:
        """The type of an inline `oneOf`/`anyOf` (`lower_unions`)."""

    @abstractmethod
    def _check_inline_union(self, union: ir.InlineUnion, pointer: str) -> None:
        """Refuse an inline union two of whose options share a JSON type (`lower_unions`)."""
