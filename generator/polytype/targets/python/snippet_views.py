"""The finished code `Codecs` hands to the stdlib flavors' templates: a helper
function's signature and body, and the statements that check a record."""

from __future__ import annotations

from dataclasses import dataclass

from polytype import ir


@dataclass(frozen=True)
class HelperView:
    name: str
    signature: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class RecordChecks:
    """How a record is checked: prelude statements, then each field in `fields` order, then extras."""

    prelude: tuple[str, ...]
    fields: tuple[ir.Field, ...]  # non-tag fields: required first, then optional, schema order
    keeps_extra: bool
    extra_check: str  # statement validating kept unknown keys (only when `keeps_extra`)
    keys_name: str
    keys: str  # frozenset literal of every declared key and alias
    alias_pairs: tuple[tuple[str, str], ...]
    rules_check: str = ""  # statement checking the object rules (`ir.ObjectRules`), if any
