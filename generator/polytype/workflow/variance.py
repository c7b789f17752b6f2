"""How a type changed between two schema versions: same, narrowed, widened or changed.

Narrowed: every value the new type accepts was accepted before (some old ones
are rejected now). Widened: the reverse. Changed: neither. Named types are
compared by name here; their definitions are compared by ``breaking``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Literal

from polytype import ir
from polytype.ir import literals
from polytype.ir.json_types import json_type_of
from polytype.ir.wording import unchecked

Verdict = Literal["same", "narrowed", "widened", "changed"]
Types = dict[str, ir.NamedType]

_LOWER_BOUNDS = ("min_length", "minimum", "exclusive_minimum", "min_items")
_UPPER_BOUNDS = ("max_length", "maximum", "exclusive_maximum", "max_items")
_KEYWORDS = {
    "min_length": "minLength",
    "max_length": "maxLength",
    "minimum": "minimum",
    "maximum": "maximum",
    "exclusive_minimum": "exclusiveMinimum",
    "exclusive_maximum": "exclusiveMaximum",
    "min_items": "minItems",
    "max_items": "maxItems",
    "pattern": "pattern",
    "format": "format",  # an asserted one (`[tool.polytype] formats`)
}


@dataclass(frozen=True)
class Variance:
    verdict: Verdict
    reasons: tuple[str, ...] = ()

    def __add__(self, other: Variance) -> Variance:
        if self.verdict == "same":
            return Variance(other.verdict, self.reasons + other.reasons)
        if other.verdict in ("same", self.verdict):
            return Variance(self.verdict, self.reasons + other.reasons)
        return Variance("changed", self.reasons + other.reasons)


SAME = Variance("same")


def _v(verdict: Verdict, reason: str) -> Variance:
    return Variance(verdict, (reason,))


def _rules(old: ir.ObjectRules, new: ir.ObjectRules) -> Variance:
    """How a map's object rules (propertyNames, patternProperties, ...) changed."""
    if old == new:
        return SAME
    if old.is_empty():
        return _v("narrowed", "object rules added")
    if new.is_empty():
        return _v("widened", "object rules removed")
    return _v("changed", "object rules changed")


def schema_checks(old: tuple[ir.SchemaCheck, ...], new: tuple[ir.SchemaCheck, ...]) -> Variance:
    """A check added narrows, one removed widens (both: changed); a check is compared whole."""
    result = SAME
    for check in new:
        if check not in old:
            result = result + _v("narrowed", f"check {check.described} added")
    for check in old:
        if check not in new:
            result = result + _v("widened", f"check {check.described} removed")
    return result


def compare(old: ir.TypeRef, new: ir.TypeRef, old_types: Types, new_types: Types) -> Variance:
    """How `new` relates to `old` (both resolved against their own module's types)."""
    return _Comparison(old_types, new_types).compare(old, new)


def show(type_ref: ir.TypeRef) -> str:
    """A short human spelling of a type: `list[ContentBlock] | null`."""
    if isinstance(type_ref, ir.Prim):
        return {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[
            type_ref.kind
        ]
    if isinstance(type_ref, ir.ListOf):
        return f"{'tuple' if type_ref.as_tuple else 'list'}[{show(type_ref.item)}]"
    if isinstance(type_ref, ir.TupleOf):
        items = [show(item) for item in type_ref.prefix]
        items.append("no more" if type_ref.rest is None else f"...{show(type_ref.rest)}")
        return f"tuple[{', '.join(items)}]"
    if isinstance(type_ref, ir.MapOf):
        return f"map[{show(type_ref.value)}]"
    if isinstance(type_ref, ir.Ref):
        return type_ref.name
    if isinstance(type_ref, ir.LiteralValue):
        return json.dumps(type_ref.value)
    if isinstance(type_ref, ir.JsonLiterals):
        return literals.expected(type_ref)
    if isinstance(type_ref, ir.Nullable):
        return f"{show(type_ref.inner)} | null"
    if isinstance(type_ref, ir.AnyJSON):
        return "JSON object" if type_ref.object_only else "any JSON"
    if isinstance(type_ref, ir.Checked):
        checks = ", ".join(check.described for check in type_ref.checks)
        return f"{show(type_ref.inner)} checked by {checks}"
    return " | ".join(show(option) for option in type_ref.options)


class _Comparison:
    def __init__(self, old_types: Types, new_types: Types) -> None:
        self.old_types = old_types
        self.new_types = new_types

    def compare(self, old: ir.TypeRef, new: ir.TypeRef) -> Variance:
        if old == new:
            return SAME
        if isinstance(old, ir.Checked) or isinstance(new, ir.Checked):
            before = old.checks if isinstance(old, ir.Checked) else ()
            after = new.checks if isinstance(new, ir.Checked) else ()
            return self.compare(unchecked(old), unchecked(new)) + schema_checks(before, after)
        if isinstance(old, ir.Nullable) or isinstance(new, ir.Nullable):
            return self._nullable(old, new)
        if isinstance(old, ir.AnyJSON) or isinstance(new, ir.AnyJSON):
            return self._any(old, new)
        if isinstance(old, ir.InlineUnion) or isinstance(new, ir.InlineUnion):
            return self._union(old, new)
        if isinstance(old, ir.Prim) and isinstance(new, ir.Prim):
            return self._prim(old, new)
        if isinstance(old, ir.ListOf) and isinstance(new, ir.ListOf):
            result = self.compare(old.item, new.item) + constraints(
                old.constraints, new.constraints
            )
            if old.as_tuple != new.as_tuple:
                result = result + _v(
                    "changed", "list became tuple" if new.as_tuple else "tuple became list"
                )
            return result
        if isinstance(old, ir.TupleOf) and isinstance(new, ir.TupleOf):
            return self._tuple(old, new)
        if isinstance(old, ir.MapOf) and isinstance(new, ir.MapOf):
            return self.compare(old.value, new.value) + _rules(old.rules, new.rules)
        if isinstance(old, ir.Ref) and isinstance(new, ir.Ref):
            return self._refs(old, new)
        old_values, new_values = _literal_values(old), _literal_values(new)
        if old_values is not None and new_values is not None:
            return _literals(old, new, old_values, new_values)
        return self._strings(old, new) or _v("changed", f"{show(old)} became {show(new)}")

    def _tuple(self, old: ir.TupleOf, new: ir.TupleOf) -> Variance:
        """Position by position (a position one side lacks takes that side's rest; no
        rest, `items: false`, takes nothing), then the array's constraints."""
        result = constraints(old.constraints, new.constraints)
        for index in range(max(len(old.prefix), len(new.prefix)) + 1):
            before, after = old.item(index), new.item(index)
            if before is None and after is None:
                continue
            if before is None:
                result = result + _v("widened", f"item {index} now allowed")
            elif after is None:
                result = result + _v("narrowed", f"item {index} no longer allowed")
            else:
                result = result + self.compare(before, after)
        return result

    def _nullable(self, old: ir.TypeRef, new: ir.TypeRef) -> Variance:
        if isinstance(old, ir.Nullable) and isinstance(new, ir.Nullable):
            return self.compare(old.inner, new.inner)
        if isinstance(old, ir.Nullable):
            return _v("narrowed", "no longer nullable") + self.compare(old.inner, new)
        assert isinstance(new, ir.Nullable)
        return _v("widened", "now nullable") + self.compare(old, new.inner)

    def _any(self, old: ir.TypeRef, new: ir.TypeRef) -> Variance:
        old_kinds = json_type_of(old, self.old_types)
        new_kinds = json_type_of(new, self.new_types)
        if isinstance(new, ir.AnyJSON) and old_kinds <= new_kinds:
            return _v("widened", f"{show(old)} became {show(new)}")
        if isinstance(old, ir.AnyJSON) and new_kinds <= old_kinds:
            return _v("narrowed", f"{show(old)} became {show(new)}")
        return _v("changed", f"{show(old)} became {show(new)}")

    def _union(self, old: ir.TypeRef, new: ir.TypeRef) -> Variance:
        old_options = old.options if isinstance(old, ir.InlineUnion) else (old,)
        new_options = new.options if isinstance(new, ir.InlineUnion) else (new,)
        result = SAME
        matched: set[int] = set()
        for option in old_options:
            kinds = json_type_of(option, self.old_types)
            partner = next(
                (
                    index
                    for index, candidate in enumerate(new_options)
                    if index not in matched and kinds & json_type_of(candidate, self.new_types)
                ),
                None,
            )
            if partner is None:
                result = result + _v("narrowed", f"no longer accepts {show(option)}")
                continue
            matched.add(partner)
            result = result + self.compare(option, new_options[partner])
        for index, option in enumerate(new_options):
            if index not in matched:
                result = result + _v("widened", f"now also accepts {show(option)}")
        return result

    def _prim(self, old: ir.Prim, new: ir.Prim) -> Variance:
        if old.kind == new.kind:
            return constraints(old.constraints, new.constraints)
        spelled = f"{show(old)} became {show(new)}"
        if (old.kind, new.kind) == ("int", "float"):
            return _v("widened", spelled) + constraints(old.constraints, new.constraints)
        if (old.kind, new.kind) == ("float", "int"):
            return _v("narrowed", spelled) + constraints(old.constraints, new.constraints)
        return _v("changed", spelled)

    def _refs(self, old: ir.Ref, new: ir.Ref) -> Variance:
        if old.name == new.name:
            return SAME
        spelled = f"{old.name} became {new.name}"
        new_named = self.new_types.get(new.name)
        old_named = self.old_types.get(old.name)
        if isinstance(new_named, ir.UnionType) and old.name in new_named.members:
            return _v("widened", spelled)
        if isinstance(old_named, ir.UnionType) and new.name in old_named.members:
            return _v("narrowed", spelled)
        return _v("changed", spelled)

    def _strings(self, old: ir.TypeRef, new: ir.TypeRef) -> Variance | None:
        """string ↔ enum or string literal: narrowed one way, widened the other; string ↔
        open enum (`x-unknown: keep`): every string still decodes, the type is new."""
        if (_is_string(old) and _open_enum(new, self.new_types)) or (
            _is_string(new) and _open_enum(old, self.old_types)
        ):
            return _v("widened", f"{show(old)} became {show(new)}")
        if _is_string(old) and self._string_subset(new, self.new_types):
            return _v("narrowed", f"{show(old)} became {show(new)}")
        if _is_string(new) and self._string_subset(old, self.old_types):
            return _v("widened", f"{show(old)} became {show(new)}")
        return None

    @staticmethod
    def _string_subset(type_ref: ir.TypeRef, types: Types) -> bool:
        if isinstance(type_ref, ir.LiteralValue):
            return isinstance(type_ref.value, str)
        if isinstance(type_ref, ir.Ref):
            named = types.get(type_ref.name)
            return isinstance(named, ir.EnumType) and named.unknown is None
        return False


def _open_enum(type_ref: ir.TypeRef, types: Types) -> bool:
    named = types.get(type_ref.name) if isinstance(type_ref, ir.Ref) else None
    return isinstance(named, ir.EnumType) and named.unknown is not None


def _literal_values(type_ref: ir.TypeRef) -> tuple[ir.JSONData, ...] | None:
    """The values a `const`/`enum` of JSON values takes (a scalar const: one); None otherwise."""
    if isinstance(type_ref, ir.LiteralValue):
        return (type_ref.value,)
    if isinstance(type_ref, ir.JsonLiterals):
        return type_ref.values
    return None


def _literals(
    old: ir.TypeRef,
    new: ir.TypeRef,
    old_values: tuple[ir.JSONData, ...],
    new_values: tuple[ir.JSONData, ...],
) -> Variance:
    """Fewer allowed values narrow, more widen (JSON equality: `1` is `1.0`)."""

    def within(some: tuple[ir.JSONData, ...], others: tuple[ir.JSONData, ...]) -> bool:
        return all(any(literals.json_equal(a, b) for b in others) for a in some)

    spelled = f"{show(old)} became {show(new)}"
    if within(new_values, old_values):
        return SAME if within(old_values, new_values) else _v("narrowed", spelled)
    return _v("widened", spelled) if within(old_values, new_values) else _v("changed", spelled)


def _is_string(type_ref: ir.TypeRef) -> bool:
    return isinstance(type_ref, ir.Prim) and type_ref.kind == "str"


def constraints(old: ir.Constraints, new: ir.Constraints) -> Variance:
    """Tighter bounds narrow, looser bounds widen, a different pattern or asserted format
    changes."""
    result = SAME
    for item in fields(ir.Constraints):
        before, after = getattr(old, item.name), getattr(new, item.name)
        if before == after:
            continue
        keyword = _KEYWORDS[item.name]
        spelled = f"{keyword} {_bound(before)} → {_bound(after)}"
        if item.name in ("pattern", "format"):
            verdict: Verdict = (
                "narrowed" if before is None else "widened" if after is None else "changed"
            )
        elif item.name in _LOWER_BOUNDS:
            tighter = before is None or (after is not None and after > before)
            verdict = "narrowed" if tighter else "widened"
        else:
            tighter = before is None or (after is not None and after < before)
            verdict = "narrowed" if tighter else "widened"
        result = result + _v(verdict, spelled)
    return result


def _bound(value: object) -> str:
    return "none" if value is None else json.dumps(value)
