"""Every rule `polytype diff` applies, in one registry (in the style of buf's breaking checker).

Categories say who breaks: `WIRE` — JSON that decoded before is rejected or
read differently now (or the reverse for producers); `API` — the generated
Python/Elixir API changed, so code using it stops compiling or type-checking;
`ADDITION` — new things old code can ignore (not breaking).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Category = Literal["WIRE", "API", "ADDITION"]


@dataclass(frozen=True)
class Rule:
    id: str
    category: Category
    description: str

    @property
    def breaking(self) -> bool:
        return self.category != "ADDITION"


_ALL = (
    Rule("MODULE_RENAMED", "API", "The module name changed: every generated import path changes."),
    Rule(
        "TYPE_REMOVED", "API", "A named type was removed: code that imports or decodes it breaks."
    ),
    Rule(
        "TYPE_KIND_CHANGED",
        "API",
        "A named type became another kind (record, enum, union, alias).",
    ),
    Rule("TYPE_NARROWED", "WIRE", "A named alias type accepts fewer values than before."),
    Rule("TYPE_WIDENED", "API", "A named alias type accepts more values; readers see new cases."),
    Rule("TYPE_CHANGED", "WIRE", "A named alias type changed incompatibly."),
    Rule("FIELD_REMOVED", "API", "A field was removed from a record."),
    Rule(
        "KEY_RENAMED_WITHOUT_ALIAS",
        "WIRE",
        "A JSON key was renamed and the old spelling is not in x-aliases: recorded data no "
        "longer decodes.",
    ),
    Rule("FIELD_ADDED_REQUIRED", "WIRE", "A required field was added: older data lacks it."),
    Rule("FIELD_BECAME_REQUIRED", "WIRE", "An optional field became required."),
    Rule(
        "FIELD_BECAME_OPTIONAL",
        "API",
        "A required field became optional: its attribute may now be None.",
    ),
    Rule("FIELD_NAME_CHANGED", "API", "A field's Python or Elixir name changed (x-field)."),
    Rule(
        "FIELD_TYPE_NARROWED",
        "WIRE",
        "A field accepts fewer values (a narrower type, no longer nullable, a tighter "
        "constraint): values that decoded before are rejected.",
    ),
    Rule(
        "FIELD_TYPE_WIDENED",
        "API",
        "A field accepts more values (a wider type, now nullable, a looser constraint): its "
        "generated type changes and readers see values they did not handle.",
    ),
    Rule("FIELD_TYPE_CHANGED", "WIRE", "A field's type changed incompatibly."),
    Rule("FIELD_DEFAULT_CHANGED", "WIRE", "An absent key now reads as a different value."),
    Rule(
        "ALIAS_REMOVED",
        "WIRE",
        "A spelling was removed from x-aliases: data using it no longer decodes.",
    ),
    Rule(
        "TAG_CHANGED",
        "WIRE",
        "A tag (const) value or a union's tag key changed: values with the old tag no longer "
        "dispatch.",
    ),
    Rule("ENUM_VALUE_REMOVED", "WIRE", "An enum value was removed: data using it is rejected."),
    Rule(
        "ENUM_CLOSED",
        "WIRE",
        "An enum no longer keeps unlisted values (x-unknown): values it kept are now rejected.",
    ),
    Rule("UNION_MEMBER_REMOVED", "WIRE", "A member was removed from a union."),
    Rule(
        "UNION_CLOSED",
        "WIRE",
        "A union no longer keeps unlisted tags (x-unknown): values it kept are now rejected.",
    ),
    Rule(
        "EXTRA_KEYS_FORBIDDEN",
        "WIRE",
        "A record now forbids unknown keys (additionalProperties: false).",
    ),
    Rule(
        "EXTRA_KEYS_DROPPED",
        "WIRE",
        "A record now drops unknown keys (x-extra: ignore) instead of keeping them.",
    ),
    Rule(
        "RECORD_FROZEN_CHANGED",
        "API",
        "x-frozen changed: instances became immutable, or mutable and unhashable.",
    ),
    Rule("TYPE_ADDED", "ADDITION", "A named type was added."),
    Rule("FIELD_ADDED_OPTIONAL", "ADDITION", "An optional field was added."),
    Rule(
        "KEY_RENAMED_WITH_ALIAS",
        "ADDITION",
        "A JSON key was renamed and the old spelling is kept in x-aliases.",
    ),
    Rule("ALIAS_ADDED", "ADDITION", "A spelling was added to x-aliases."),
    Rule("ENUM_VALUE_ADDED", "ADDITION", "An enum value was added."),
    Rule(
        "ENUM_OPENED",
        "ADDITION",
        "An enum now keeps unlisted values (x-unknown: keep) as its Unknown<Enum> value.",
    ),
    Rule("UNION_MEMBER_ADDED", "ADDITION", "A member was added to a union."),
    Rule(
        "UNION_OPENED",
        "ADDITION",
        "A union now keeps unlisted tags (x-unknown: keep) in an Unknown<Union> member.",
    ),
    Rule(
        "EXTRA_KEYS_ALLOWED",
        "ADDITION",
        "A record keeps unknown keys it used to reject or drop.",
    ),
    Rule(
        "OBJECT_RULES_CHANGED",
        "WIRE",
        "A record's object rules changed (patternProperties, an additionalProperties schema,"
        " propertyNames, dependentRequired, min/maxProperties): objects decoded differently.",
    ),
    Rule(
        "SCHEMA_CHECK_ADDED",
        "WIRE",
        "A record or union gained a schema check (not, if/then/else, dependentSchemas, an allOf"
        " part): values that decoded before may be rejected.",
    ),
    Rule(
        "SCHEMA_CHECK_REMOVED",
        "API",
        "A record or union lost a schema check: it accepts values it rejected, which readers"
        " did not handle.",
    ),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _ALL}


def rule(rule_id: str) -> Rule:
    """The registered rule `rule_id` (a KeyError is a polytype bug)."""
    return RULES[rule_id]
