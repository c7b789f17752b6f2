"""`format` as an assertion, for the formats a project chooses (`formats = [...]`).

JSON Schema makes `format` an annotation by default; a project that names a format in
`[tool.polytype] formats` (or a module's `[tool.polytype.modules.NAME] formats`, which
replaces the project's list) has every decoder check it on strings, as jsonschema's
format checker does. Strings stay strings: a checked `date-time` is not turned into a
`datetime`, so a value still round-trips exactly.

Lowering puts a chosen format on a string's `ir.Constraints.format` (`constrain`); the
targets emit one checker per format a module uses (`ir.formats_used`), named by
`runtime_part`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from polytype import ir

# The formats polytype can assert, as jsonschema 4.26's Draft 2020-12 format checker
# judges them (a name missing here is a configuration error, never silently unchecked).
SUPPORTED = (
    "date-time",
    "date",
    "time",
    "email",
    "idn-email",
    "ipv4",
    "ipv6",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
)


@dataclass(frozen=True)
class FormatChoice:
    """The formats asserted: the project's, and the modules' own lists (by module name)."""

    project: frozenset[str] = frozenset()
    modules: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def for_module(self, module: str) -> frozenset[str]:
        return self.modules.get(module, self.project)


NO_FORMATS = FormatChoice()


def constrain(
    constraints: ir.Constraints, schema: Mapping[str, Any], chosen: frozenset[str]
) -> ir.Constraints:
    """A string's constraints with the schema's `format` when it is chosen; the same
    constraints otherwise (so a module without chosen formats lowers as before)."""
    name = schema.get("format")
    if not isinstance(name, str) or name not in chosen:
        return constraints
    return replace(constraints, format=name)


def runtime_part(name: str) -> str:
    """The `ir.runtime_checks` entry (and the templates' test) for the checker of `name`."""
    return "format_" + name.replace("-", "_")


def checker(name: str) -> str:
    """The Python checker function of `name` (`_is_date_time`)."""
    return "_is_" + name.replace("-", "_")


def failure(name: str) -> str:
    """What a decoder says about a string that is not a `name`."""
    return f"is not a {name!r}"
