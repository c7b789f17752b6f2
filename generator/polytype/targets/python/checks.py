"""Schema checks in the Python flavors: one JSON Schema constant per check.

Every flavor validates a value against a check's fragment with jsonschema (the shared
runtime snippet `templates/python_common/schema_checks.py.j2`), so the module holds
each fragment as a plain JSON constant (`_CHECK_LINK_NOT = {"not": {...}}`) and the
definitions they refer to as `_CHECK_DEFS`. `CheckConstants` names the constants and
renders them; a module without checks has none, and does not import jsonschema.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from polytype import ir
from polytype.ir.patterns import python_pattern, translated
from polytype.ir.wording import check_schema, unknown_types
from polytype.targets.base.render import py_str
from polytype.targets.python.common import py_literal

# Pointer tokens that say nothing about where a check is (`/definitions/Link/properties/a`
# names a check `LINK_A`).
_NOISE = {"definitions", "$defs", "properties", ""}
_LONGEST = 48  # characters of a constant's name taken from its place and keywords


@dataclass(frozen=True)
class CheckConstant:
    name: str
    value: str  # a Python dict display

    @property
    def statement(self) -> str:
        return f"{self.name}: dict[str, object] = {self.value}"


@dataclass
class CheckConstants:
    """The constants of a module's checks, named in the order of `ir.schema_checks`: the
    same in every flavor, so that the flavors of a module can import them from one file
    (`_checks.py`, `targets.python.runtime.shares_checks`)."""

    module: ir.Module
    _names: dict[ir.SchemaCheck, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for check in ir.schema_checks(self.module):
            self.name(check)

    def name(self, check: ir.SchemaCheck) -> str:
        """The constant holding `check`'s JSON Schema: `_CHECK_<PLACE>_<KEYWORDS>`."""
        known = self._names.get(check)
        if known is not None:
            return known
        tokens = [token for token in check.pointer.split("/") if token not in _NOISE]
        words = "_".join([*tokens[-2:], *check.keywords])
        words = re.sub(r"[^0-9A-Za-z]+", "_", words).strip("_").upper()[:_LONGEST] or "ROOT"
        base = f"_CHECK_{words}"
        name, number = base, 2
        taken = set(self._names.values())
        while name in taken or name == "_CHECK_DEFS":
            name, number = f"{base}_{number}", number + 1
        self._names[check] = name
        return name

    def call(self, check: ir.SchemaCheck) -> str:
        """`(_CHECK_X, "'not' at /x")`: a check's constant and how a failure names it."""
        return f"({self.name(check)}, {py_str(check.described)})"

    def names(self) -> list[str]:
        """The names `statements` defines."""
        if not self._names:
            return []
        return [*self._names.values(), "_CHECK_DEFS", "_CHECK_UNKNOWN_TYPES"]

    def statements(self) -> list[str]:
        """Every check's constant, then `_CHECK_DEFS` (empty when no check refers to one)."""
        if not self._names:
            return []
        lines = [
            CheckConstant(name, py_literal(_for_re(check_schema(check)))).statement
            for check, name in self._names.items()
        ]
        defs = ir.FrozenJSONObject(
            tuple((name, _for_re(schema)) for name, schema in self.module.check_defs)
        )
        lines.append(CheckConstant("_CHECK_DEFS", py_literal(defs)).statement)
        odd = "".join(f"{py_str(name)}, " for name in unknown_types(self.module))
        lines.append(f"_CHECK_UNKNOWN_TYPES: tuple[str, ...] = ({odd})")
        return lines


def _for_re(schema: ir.JSONData) -> ir.JSONData:
    """A fragment whose patterns Python's `re` (jsonschema's engine) can read: Unicode
    property escapes spelled out (`patterns.python_pattern`)."""
    return translated(schema, python_pattern)


def runtime_parts(module: ir.Module) -> list[str]:
    """`ir.runtime_checks`, sorted: the parts of the runtime the module's types need."""
    return sorted(ir.runtime_checks(module))
