"""Schema checks in lowering: the front end's check entries become `ir.SchemaCheck`s.

The front end (`polytype.frontend.checks`) moves `not`, `if`/`then`/`else` and
`dependentSchemas` of a consumed schema into `CHECKS_KEY`, as written. Lowering takes
them off the schema before typing it and puts them back on what it built: a record's or
union's `schema_checks`, an alias's type, any other type wrapped in `ir.Checked`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from polytype import ir
from polytype.dialect.keywords import CHECKS_KEY
from polytype.ir.json_types import freeze_json


def check_of(keywords: dict[str, Any], pointer: str) -> ir.SchemaCheck:
    """The check that a value meets `keywords` (JSON values, no references)."""
    return ir.SchemaCheck(freeze_json(keywords), tuple(keywords), pointer)


def split(schema: dict[str, Any]) -> tuple[dict[str, Any], tuple[ir.SchemaCheck, ...]]:
    """`schema` without its check entries, and their IR."""
    entries = schema.get(CHECKS_KEY)
    if entries is None:
        return schema, ()
    rest = {key: value for key, value in schema.items() if key != CHECKS_KEY}
    if not isinstance(entries, list):
        return rest, ()
    found = tuple(
        ir.SchemaCheck(
            freeze_json(entry["schema"]), tuple(entry["keywords"]), str(entry["pointer"])
        )
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("schema"), dict)
    )
    return rest, found


def checked(type_ref: ir.TypeRef, found: tuple[ir.SchemaCheck, ...]) -> ir.TypeRef:
    """`type_ref` that must also pass `found` (itself when there are none)."""
    if not found:
        return type_ref
    if isinstance(type_ref, ir.Checked):
        return ir.Checked(type_ref.inner, type_ref.checks + found)
    return ir.Checked(type_ref, found)


def on_named(named: ir.NamedType, found: tuple[ir.SchemaCheck, ...]) -> ir.NamedType | None:
    """The named type with `found` attached, or None for an enum (its values are fixed:
    nothing to attach the checks to)."""
    if isinstance(named, (ir.Record, ir.UnionType)):
        return replace(named, schema_checks=named.schema_checks + found)
    if isinstance(named, ir.Alias):
        return replace(named, type=checked(named.type, found))
    return None
