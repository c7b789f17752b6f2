"""Walk recorded JSON against the IR and count every way it departs from the schema.

Unlike a decoder, the walk never stops at the first problem: it notes unknown
keys (with an example and the JSON types seen, for a suggested patch), missing
required keys, JSON type mismatches, enum values and union tags the schema does
not list, values that break a constraint the decoders check (`minLength`,
`pattern`, `maximum`, `minItems`, `uniqueItems`, …), and how often each declared
field was present.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

import jsonschema
import jsonschema.validators

from polytype import ir
from polytype.diagnostics import json_type_name
from polytype.dialect.fastcheck import json_key, multiple_of
from polytype.ir import literals
from polytype.ir.json_types import freeze_json, json_type_of
from polytype.ir.literals import thaw
from polytype.ir.patterns import python_pattern
from polytype.ir.wording import check_schema, shown, unknown_types
from polytype.workflow.classify import NoMember, choose_member, matches_json_type, segment


@dataclass
class Occurrence:
    """How often something was seen, with the first example and where it was."""

    count: int = 0
    example: Any = None
    first: str = ""
    # For a broken bound: the measure (length, count or number) furthest past it.
    furthest: int | float | None = None

    def add(self, example: Any, where: str) -> None:
        if self.count == 0:
            self.example, self.first = example, where
        self.count += 1

    def measured(self, measure: int | float, lower_bound: bool) -> None:
        """Note the measure of a value that broke a bound (`lower_bound`: a minimum)."""
        if self.furthest is None or (
            measure < self.furthest if lower_bound else measure > self.furthest
        ):
            self.furthest = measure


@dataclass
class ValueSummary:
    """The JSON types of every value seen in one place (and of array items), for inference."""

    types: set[str] = field(default_factory=set)
    items: ValueSummary | None = None

    def add(self, value: Any) -> None:
        self.types.add(json_type_name(value))
        if isinstance(value, list):
            if self.items is None:
                self.items = ValueSummary()
            for item in value:
                self.items.add(item)


@dataclass
class UnknownKey:
    occurrence: Occurrence = field(default_factory=Occurrence)
    summary: ValueSummary = field(default_factory=ValueSummary)


@dataclass
class UnlistedTag:
    """Values whose tag no member of a union lists: how often, and the keys they carried.

    `kept` names the union's `Unknown<Union>` member when the union is open
    (`x-unknown: keep`): the decoders accept such values, but they are still drift,
    and the keys seen are what a drafted member is made of.
    """

    occurrence: Occurrence = field(default_factory=Occurrence)
    kept: str | None = None
    keys: dict[str, UnknownKey] = field(default_factory=dict)

    def add(self, value: dict[str, Any], where: str) -> None:
        self.occurrence.add(value, where)
        for key, item in value.items():
            seen = self.keys.setdefault(key, UnknownKey())
            seen.occurrence.add(item, where)
            seen.summary.add(item)


@dataclass
class Observations:
    """Everything one drift run saw, keyed by schema location rather than by JSON path."""

    values: int = 0
    type_counts: Counter[str] = field(default_factory=Counter)
    field_counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    unknown_keys: dict[tuple[str, str], UnknownKey] = field(default_factory=dict)
    missing: dict[tuple[str, str], Occurrence] = field(default_factory=dict)
    # (where in the schema, expected, got) -> occurrences
    mismatches: dict[tuple[str, str, str], Occurrence] = field(default_factory=dict)
    enum_values: dict[tuple[str, str], Occurrence] = field(default_factory=dict)
    # open enums (`x-unknown: keep`) among them -> the Unknown<Enum> that keeps their values
    kept_enums: dict[str, str] = field(default_factory=dict)
    # (union, tag key, tag value as JSON) -> the values that carried it
    unknown_tags: dict[tuple[str, str, str], UnlistedTag] = field(default_factory=dict)
    # (where in the schema, JSON Schema keyword, its value as JSON) -> occurrences
    constraints: dict[tuple[str, str, str], Occurrence] = field(default_factory=dict)
    # what the generated decoders said about values the walk found nothing wrong with
    rejections: dict[str, Occurrence] = field(default_factory=dict)

    @property
    def occurrences(self) -> int:
        """Every problem noted, counting repeats (grows with each value that has one)."""
        return (
            sum(
                occurrence.count
                for table in (
                    self.missing,
                    self.mismatches,
                    self.enum_values,
                    self.constraints,
                )
                for occurrence in table.values()
            )
            + sum(unknown.occurrence.count for unknown in self.unknown_keys.values())
            + sum(unlisted.occurrence.count for unlisted in self.unknown_tags.values())
        )

    @property
    def differences(self) -> int:
        return (
            len(self.unknown_keys)
            + len(self.missing)
            + len(self.mismatches)
            + len(self.enum_values)
            + len(self.unknown_tags)
            + len(self.constraints)
            + len(self.rejections)
        )


class Observer:
    """Feeds values through the module's types, accumulating ``Observations``."""

    def __init__(
        self,
        module: ir.Module,
        validators: dict[ir.SchemaCheck, jsonschema.Draft202012Validator] | None = None,
    ) -> None:
        self.module = module
        self.types = {named.name: named for named in module.types}
        self.seen = Observations()
        # each schema check's validator, built on first use (shared with trial walks)
        self._validators = {} if validators is None else validators

    def observe(self, value: Any, type_name: str, source: str) -> None:
        self.seen.values += 1
        self._walk(ir.Ref(type_name), value, _Place(source, "$"), type_name)

    # -- the walk --------------------------------------------------------

    def _walk(self, type_ref: ir.TypeRef, value: Any, place: _Place, label: str) -> None:
        if isinstance(type_ref, ir.Nullable):
            if value is not None:
                self._walk(type_ref.inner, value, place, label)
        elif isinstance(type_ref, ir.Ref):
            self._named(self.types[type_ref.name], value, place, label)
        elif isinstance(type_ref, ir.Prim):
            expected = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
            if self._expect(expected[type_ref.kind], value, place, label):
                self._check(type_ref.constraints, value, place, label)
        elif isinstance(type_ref, ir.LiteralValue):  # JSON equality: 1.0 is the const 1
            if not literals.json_equal(freeze_json(value), type_ref.value):
                self._mismatch(label, _json(type_ref.value), _describe(value), value, place)
        elif isinstance(type_ref, ir.JsonLiterals):  # JSON equality, as the decoders judge
            if not any(literals.json_equal(freeze_json(value), v) for v in type_ref.values):
                self._mismatch(label, literals.expected(type_ref), _describe(value), value, place)
        elif isinstance(type_ref, ir.ListOf):
            if self._expect("array", value, place, label):
                self._check(type_ref.constraints, value, place, label)
                for index, item in enumerate(value):
                    self._walk(type_ref.item, item, place.at(f"[{index}]"), label + "[]")
        elif isinstance(type_ref, ir.TupleOf):
            if self._expect("array", value, place, label):
                self._check(type_ref.constraints, value, place, label)
                self._tuple(type_ref, value, place, label)
        elif isinstance(type_ref, ir.MapOf):
            if self._expect("object", value, place, label):
                self._check(type_ref.constraints, value, place, label)
                self._rules(type_ref.rules, label, value, set(), place)
                for key, item in value.items():
                    self._walk(type_ref.value, item, place.at(segment(key)), label + "{}")
        elif isinstance(type_ref, ir.AnyJSON):
            if type_ref.object_only:
                self._expect("object", value, place, label)
        elif isinstance(type_ref, ir.Checked):
            self._schema_checks(type_ref.checks, value, place, label)
            self._walk(type_ref.inner, value, place, label)
        else:
            self._inline_union(type_ref, value, place, label)

    def _tuple(self, node: ir.TupleOf, value: list[Any], place: _Place, label: str) -> None:
        """Each item by its position; an item past a closed prefix breaks `items: false`."""
        for index, item in enumerate(value):
            item_type = node.item(index)
            where = place.at(f"[{index}]")
            if item_type is None:
                key = (label, "items", _json(False))
                self.seen.constraints.setdefault(key, Occurrence()).add(value, str(where))
                return
            self._walk(item_type, item, where, f"{label}[{index}]")

    def _named(self, named: ir.NamedType, value: Any, place: _Place, label: str) -> None:
        if isinstance(named, ir.Record):
            self._record(named, value, place, label)
        elif isinstance(named, ir.EnumType):
            if self._expect("string", value, place, label) and value not in {
                item.value for item in named.values
            }:
                self.seen.enum_values.setdefault((named.name, value), Occurrence()).add(
                    value, str(place)
                )
                if named.unknown is not None:  # the decoders keep it: drift all the same
                    self.seen.kept_enums[named.name] = named.unknown
        elif isinstance(named, ir.UnionType):
            self._union(named, value, place, label)
        else:
            self._walk(named.type, value, place, label)

    def _union(self, union: ir.UnionType, value: Any, place: _Place, label: str) -> None:
        self._schema_checks(union.schema_checks, value, place, label)
        if union.tries_members:
            self._tried_union(union, value, place, label)
            return
        try:
            member = choose_member(union, value, place.path)
        except NoMember:
            tag = union.tag or union.open_tag
            if tag is not None and isinstance(value, dict) and tag in value:
                unlisted = self.seen.unknown_tags.setdefault(
                    (union.name, tag, _json(value[tag])), UnlistedTag()
                )
                if union.unknown is not None and isinstance(value[tag], str):
                    unlisted.kept = union.unknown
                unlisted.add(value, str(place.at(segment(tag))))
            elif union.tag is not None and isinstance(value, dict):
                self.seen.missing.setdefault((union.name, union.tag), Occurrence()).add(
                    None, str(place.at(segment(union.tag)))
                )
            elif isinstance(value, dict) and union.tag is None:
                self._mismatch(
                    label, f"a {union.name} member", "object matching none", value, place
                )
            else:
                kinds = sorted(json_type_of(ir.Ref(union.name), self.types))
                self._mismatch(label, " or ".join(kinds), json_type_name(value), value, place)
            return
        self._named(self.types[member], value, place, label)

    def _tried_union(self, union: ir.UnionType, value: Any, place: _Place, label: str) -> None:
        """As the decoders judge a union that tries its members: each member whose pre-check
        passes is walked on its own, and matches when its walk notes nothing a decoder
        rejects; oneOf needs exactly one match, anyOf takes the first."""
        matching: list[str] = []
        for check in union.checks:
            if not any(matches_json_type(value, kind) for kind in check.json_types):
                continue
            if isinstance(value, dict) and not all(key in value for key in check.required):
                continue
            trial = Observer(self.module, self._validators)
            trial._named(self.types[check.member], value, place, label)
            if self._accepted(trial.seen):
                matching.append(check.member)
                if union.match == "any_of":
                    break
        if len(matching) == 1:
            self._named(self.types[matching[0]], value, place, label)
        elif matching:
            both = f"both {matching[0]} and {matching[1]}"
            self._mismatch(label, f"exactly one {union.name} member", both, value, place)
        else:
            kinds = sorted(json_type_of(ir.Ref(union.name), self.types))
            if json_type_name(value) in kinds or (
                "number" in kinds and json_type_name(value) == "integer"
            ):
                got = f"{json_type_name(value)} matching none"
                self._mismatch(label, f"a {union.name} member", got, value, place)
            else:
                self._mismatch(label, " or ".join(kinds), json_type_name(value), value, place)

    def _accepted(self, seen: Observations) -> bool:
        """Whether a walk noted nothing the decoders reject (unknown keys a record keeps)."""
        refused_keys = any(
            not isinstance(record := self.types.get(name), ir.Record)
            or record.extra_policy == "forbid"
            for name, _ in seen.unknown_keys
        )
        return not (
            refused_keys
            or seen.missing
            or seen.mismatches
            or any(enum not in seen.kept_enums for enum, _ in seen.enum_values)
            or seen.constraints
            or any(unlisted.kept is None for unlisted in seen.unknown_tags.values())
        )

    def _record(self, record: ir.Record, value: Any, place: _Place, label: str) -> None:
        if not self._expect("object", value, place, label):
            return
        self.seen.type_counts[record.name] += 1
        self._schema_checks(record.schema_checks, value, place, record.name)
        declared: set[str] = set()
        for item in record.fields:
            spellings = (item.json_key, *item.aliases)
            declared.update(spellings)
            present = [spelling for spelling in spellings if spelling in value]
            if not present:
                if item.required:
                    self.seen.missing.setdefault((record.name, item.json_key), Occurrence()).add(
                        None, str(place.at(segment(item.json_key)))
                    )
                continue
            self.seen.field_counts[(record.name, item.json_key)] += 1
            where = f"{record.name}.{item.json_key}"
            if len(present) > 1:
                both = " and ".join(repr(spelling) for spelling in present)
                self._mismatch(where, "one spelling", f"both {both}", None, place)
                continue
            found = value[present[0]]
            if item.is_tag and isinstance(item.type, ir.LiteralValue):  # tags compare exactly
                if not (type(found) is type(item.type.value) and found == item.type.value):
                    at = place.at(segment(present[0]))
                    self._mismatch(where, _json(item.type.value), _describe(found), found, at)
                continue
            self._walk(item.type, found, place.at(segment(present[0])), where)
        described = self._rules(record.rules, record.name, value, declared, place)
        for key, item_value in value.items():
            if key not in declared and key not in described:
                unknown = self.seen.unknown_keys.setdefault((record.name, key), UnknownKey())
                unknown.occurrence.add(item_value, str(place.at(segment(key))))
                unknown.summary.add(item_value)

    def _rules(
        self,
        rules: ir.ObjectRules,
        label: str,
        value: dict[str, Any],
        declared: set[str],
        place: _Place,
    ) -> set[str]:
        """Note what breaks an object's rules (of record or map `label`), as the decoders
        judge it; return the undeclared keys the rules describe (a pattern's, or
        additionalProperties')."""
        if rules.is_empty():
            return set()
        counts = ir.Constraints(
            min_properties=rules.min_properties, max_properties=rules.max_properties
        )
        self._check(counts, value, place, label)
        for key, needed in rules.dependent_required:
            if key in value and any(other not in value for other in needed):
                noted = (label, "dependentRequired", _json({key: list(needed)}))
                self.seen.constraints.setdefault(noted, Occurrence()).add(value, str(place))
        described: set[str] = set()
        for key, item in value.items():
            here = place.at(segment(key))
            if rules.property_names is not None:
                self._walk(rules.property_names, key, place, f"{label} key")
            matched = False
            for pattern, type_ref in rules.pattern_properties:
                if re.search(python_pattern(pattern), key) is not None:
                    matched = True
                    self._walk(type_ref, item, here, f"{label}[{pattern}]")
            if matched or key in declared:
                described.add(key)
            elif rules.closed:
                noted = (label, "additionalProperties", "false")
                self.seen.constraints.setdefault(noted, Occurrence()).add(item, str(here))
                described.add(key)
            elif rules.additional is not None:
                self._walk(rules.additional, item, here, f"{label}{{}}")
                described.add(key)
        return described

    def _inline_union(self, union: ir.InlineUnion, value: Any, place: _Place, label: str) -> None:
        kinds: list[str] = []
        for option in union.options:
            option_kinds = json_type_of(option, self.types)
            if json_type_name(value) in option_kinds:
                self._walk(option, value, place, label)
                return
            kinds.extend(sorted(option_kinds))
        expected = " or ".join(dict.fromkeys(kinds))
        self._mismatch(label, expected, json_type_name(value), value, place)

    # -- noting problems -----------------------------------------------------

    def _schema_checks(
        self, checks: tuple[ir.SchemaCheck, ...], value: Any, place: _Place, label: str
    ) -> None:
        """Note every schema check `value` breaks, validated as the decoders do (jsonschema,
        2020-12, `format` an annotation), under the rule's name and its JSON Schema."""
        for check in checks:
            if not self._validator(check).is_valid(value):
                key = (label, check.described, shown(thaw(check_schema(check))))
                self.seen.constraints.setdefault(key, Occurrence()).add(value, str(place))

    def _validator(self, check: ir.SchemaCheck) -> jsonschema.Draft202012Validator:
        validator = self._validators.get(check)
        if validator is None:
            schema = thaw(check_schema(check))
            assert isinstance(schema, dict)
            if self.module.check_defs:
                schema["$defs"] = thaw(ir.FrozenJSONObject(self.module.check_defs))
            validator = self._validators[check] = _validator_class(self.module)(
                schema, format_checker=_asserted(self.module)
            )
        return validator

    def _check(self, constraints: ir.Constraints, value: Any, place: _Place, label: str) -> None:
        """Note every constraint `value` breaks, as the generated decoders would judge it."""
        if constraints.is_empty():
            return
        for keyword, bound in _broken(constraints, value):
            key = (label, keyword, _json(bound))
            occurrence = self.seen.constraints.setdefault(key, Occurrence())
            occurrence.add(value, str(place))
            if keyword in LOWER_BOUNDS or keyword in UPPER_BOUNDS:
                occurrence.measured(_measure(value), keyword in LOWER_BOUNDS)

    def _expect(self, json_type: str, value: Any, place: _Place, label: str) -> bool:
        if matches_json_type(value, json_type):
            return True
        self._mismatch(label, json_type, json_type_name(value), value, place)
        return False

    def _mismatch(self, label: str, expected: str, got: str, example: Any, place: _Place) -> None:
        self.seen.mismatches.setdefault((label, expected, got), Occurrence()).add(
            example, str(place)
        )


def _validator_class(module: ir.Module) -> type[jsonschema.Draft202012Validator]:
    """jsonschema's 2020-12 validator, with the `type` names JSON Schema does not define
    that the module's checks use matching nothing (as the generated decoders do)."""
    odd = unknown_types(module)
    if not odd:
        return jsonschema.Draft202012Validator
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        dict.fromkeys(odd, lambda checker, instance: False)
    )
    extended = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator, type_checker=checker
    )
    return cast("type[jsonschema.Draft202012Validator]", extended)


@dataclass(frozen=True)
class _Place:
    source: str
    path: str

    def at(self, step: str) -> _Place:
        return _Place(self.source, self.path + step)

    def __str__(self) -> str:
        return f"{self.source} {self.path}"


# constraint attribute -> (JSON Schema keyword, the test a value fails)
_BOUNDS: dict[str, tuple[str, Any]] = {
    "min_length": ("minLength", lambda size, bound: size < bound),
    "max_length": ("maxLength", lambda size, bound: size > bound),
    "min_items": ("minItems", lambda size, bound: size < bound),
    "max_items": ("maxItems", lambda size, bound: size > bound),
    "min_properties": ("minProperties", lambda size, bound: size < bound),
    "max_properties": ("maxProperties", lambda size, bound: size > bound),
    "minimum": ("minimum", lambda number, bound: number < bound),
    "maximum": ("maximum", lambda number, bound: number > bound),
    "exclusive_minimum": ("exclusiveMinimum", lambda number, bound: number <= bound),
    "exclusive_maximum": ("exclusiveMaximum", lambda number, bound: number >= bound),
}


LOWER_BOUNDS = frozenset({"minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum"})
UPPER_BOUNDS = frozenset({"maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum"})


def _measure(value: Any) -> Any:
    """What a bound compares: a length in code points, a count of items or entries, a number."""
    return len(value) if isinstance(value, (str, list, dict)) else value


# jsonschema's format checkers: the generated decoders judge asserted formats as they do
_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def _asserted(module: ir.Module) -> jsonschema.FormatChecker:
    """jsonschema's checkers of the formats `module` asserts (the others: annotations)."""
    checker = jsonschema.FormatChecker(())
    checker.checkers = {name: _FORMATS.checkers[name] for name in module.formats}
    return checker


def _broken(constraints: ir.Constraints, value: Any) -> list[tuple[str, Any]]:
    """(keyword, bound) of each constraint `value` breaks: lengths in code points, as decoded."""
    broken: list[tuple[str, Any]] = []
    measured = _measure(value)
    for attribute, bound in constraints.bounds():
        keyword, fails = _BOUNDS[attribute]
        if fails(measured, bound):
            broken.append((keyword, bound))
    if (
        constraints.pattern is not None
        and isinstance(value, str)
        and re.search(python_pattern(constraints.pattern), value) is None
    ):
        broken.append(("pattern", constraints.pattern))
    if (
        constraints.format is not None
        and isinstance(value, str)
        and not _FORMATS.conforms(value, constraints.format)
    ):
        broken.append(("format", constraints.format))
    if (
        constraints.multiple_of is not None
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
        and not multiple_of(value, constraints.multiple_of)
    ):
        broken.append(("multipleOf", constraints.multiple_of))
    if constraints.unique_items and isinstance(value, list):
        if len({json_key(item) for item in value}) < len(value):
            broken.append(("uniqueItems", True))
    return broken


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _describe(value: Any) -> str:
    """A value's JSON type, or the value itself when it is a short scalar (wrong tags, consts)."""
    if isinstance(value, (str, int, bool)) and len(_json(value)) <= 40:
        return f"{json_type_name(value)} {_json(value)}"
    return json_type_name(value)
