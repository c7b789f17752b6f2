"""Schema checks outside a decoder: each namespace's check rules and the docstring lines.

A module with schema checks gets `<Namespace>.PolytypeChecks`, whose `rules/0` the
decoders hand to the shared runtime's `schema_check/4`: `@defs` (the definitions the
checks refer to), `@patterns` (every pattern in them, compiled once) and `@formats` (the
formats the module asserts). A record's or union's `@moduledoc` names the checks its
decoder runs first.
"""

from __future__ import annotations

from polytype import ir
from polytype.ir import formats
from polytype.targets.elixir.terms import check_schema, json_term


def checks_doc(checks: tuple[ir.SchemaCheck, ...]) -> list[str]:
    """The docstring lines naming the schema checks a decoder runs first."""
    if not checks:
        return []
    lines = ["", "Decoding first checks the JSON value against the schema's rules at:", ""]
    return lines + [f"  * {check.described}" for check in checks]


def check_rule_attributes(module: ir.Module, checks: frozenset[str]) -> dict[str, str]:
    """The check rules' `@defs` (the definitions schema checks refer to), `@patterns`
    (every pattern in the checks, compiled once) and `@formats` (the asserted formats
    the runtime checks for this module: those among `checks`, its runtime parts), laid out."""
    patterns: list[str] = []
    defs = ir.FrozenJSONObject(
        tuple((name, check_schema(schema, patterns)) for name, schema in module.check_defs)
    )
    for check in ir.schema_checks(module):
        check_schema(check.schema, patterns)
    sources = tuple(sorted(set(patterns)))
    asserted = tuple(
        sorted(name for name in module.formats if formats.runtime_part(name) in checks)
    )
    return {
        "check_defs": json_term(defs, 2 + len("@defs "), 2),
        "check_patterns": json_term(sources, 2 + len("@patterns "), 2),
        "check_formats": json_term(asserted, 2 + len("@formats "), 2),
    }
