"""Schema checks outside a decoder: the runtime's check attributes and the docstring lines.

The runtime module holds `@check_defs` (the definitions the checks refer to) and
`@check_patterns` (every pattern in them, compiled once); a record's or union's
`@moduledoc` names the checks its decoder runs first.
"""

from __future__ import annotations

from polytype import ir
from polytype.targets.elixir.terms import check_schema, json_term


def checks_doc(checks: tuple[ir.SchemaCheck, ...]) -> list[str]:
    """The docstring lines naming the schema checks a decoder runs first."""
    if not checks:
        return []
    lines = ["", "Decoding first checks the JSON value against the schema's rules at:", ""]
    return lines + [f"  * {check.described}" for check in checks]


def runtime_check_attributes(module: ir.Module) -> dict[str, str]:
    """The runtime's `@check_defs` (the definitions schema checks refer to) and
    `@check_patterns` (every pattern in the checks, compiled once), laid out."""
    patterns: list[str] = []
    defs = ir.FrozenJSONObject(
        tuple((name, check_schema(schema, patterns)) for name, schema in module.check_defs)
    )
    for check in ir.schema_checks(module):
        check_schema(check.schema, patterns)
    sources = tuple(sorted(set(patterns)))
    return {
        "check_defs": json_term(defs, 2 + len("@check_defs "), 2),
        "check_patterns": json_term(sources, 2 + len("@check_patterns "), 2),
    }
