"""The wording and digest of an `ir.ObjectRules` (what targets print and name helpers by;
the lowering of the object keywords is `polytype.lowering.object_rules`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from polytype import ir


def rules_digest(rules: ir.ObjectRules) -> str:
    """A short stable name for a set of rules (generated helper names tell maps apart by it)."""
    return hashlib.sha256(repr(rules).encode("utf-8")).hexdigest()[:8]


def count_of(value: Any) -> int | None:
    """A count (`2.0` is 2); None when absent or not a count (the meta-schema says which)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value)


def rules_text(rules: ir.ObjectRules) -> str:
    """The rules in words, for docstrings and the docs target ("" without any)."""
    sentences: list[str] = []
    for pattern, _ in rules.pattern_properties:
        sentences.append(
            f"Keys matching `{pattern}` (patternProperties) hold a value of that pattern's "
            "schema; undeclared ones are kept as JSON."
        )
    if rules.closed:
        sentences.append("Other undeclared keys are rejected (additionalProperties: false).")
    elif rules.additional is not None:
        sentences.append(
            "Other undeclared keys hold a value of the additionalProperties schema and are "
            "kept as JSON."
        )
    if rules.property_names is not None:
        sentences.append("Every key matches the propertyNames schema.")
    for key, needed in rules.dependent_required:
        listed = ", ".join(f"`{other}`" for other in needed)
        sentences.append(f"When `{key}` is present, so is {listed} (dependentRequired).")
    counts = [
        f"{words} {bound}"
        for words, bound in (("at least", rules.min_properties), ("at most", rules.max_properties))
        if bound is not None
    ]
    if counts:
        sentences.append(
            "Has " + " and ".join(counts) + " keys, declared or not (minProperties/maxProperties)."
        )
    return " ".join(sentences)


def rename_rules(
    rules: ir.ObjectRules, rename: Callable[[ir.TypeRef], ir.TypeRef]
) -> ir.ObjectRules:
    """`rules` with every type passed through `rename` (a target respelling named types)."""
    if rules.is_empty():
        return rules
    return replace(
        rules,
        pattern_properties=tuple(
            (pattern, rename(type_ref)) for pattern, type_ref in rules.pattern_properties
        ),
        additional=None if rules.additional is None else rename(rules.additional),
        property_names=None if rules.property_names is None else rename(rules.property_names),
    )
