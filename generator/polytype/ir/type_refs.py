"""The IR's type references: the types written in fields, aliases and each other.

JSON data as the IR holds it (`FrozenJSONObject`), the constraints a schema states,
the object rules of a map or record, and every anonymous type (`Prim`, `ListOf`,
`TupleOf`, `MapOf`, `Ref`, literals, `Nullable`, `AnyJSON`, `InlineUnion`,
`Checked`): the members of `TypeRef`. Re-exported by `polytype.ir`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, Union

JSONScalar: TypeAlias = None | bool | int | float | str
JSONData: TypeAlias = Union[JSONScalar, "tuple[JSONData, ...]", "FrozenJSONObject"]

PrimKind = Literal["str", "int", "float", "bool"]
ExtraPolicy = Literal["keep", "ignore", "forbid"]
EnumStyle = Literal["str", "plain", "literal"]
UnknownPolicy = Literal["keep", "reject"]


@dataclass(frozen=True)
class FrozenJSONObject:
    """A JSON object inside the IR (defaults, examples): ordered key/value pairs."""

    items: tuple[tuple[str, JSONData], ...]


@dataclass(frozen=True)
class Constraints:
    """Value constraints the schema states; every decoder checks them."""

    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    exclusive_minimum: int | float | None = None
    exclusive_maximum: int | float | None = None
    min_items: int | None = None
    max_items: int | None = None
    min_properties: int | None = None  # maps and record-less objects: entries
    max_properties: int | None = None
    unique_items: bool = False  # JSON equality: 1 and 1.0 equal, true and 1 not
    multiple_of: int | float | None = None  # as jsonschema judges it (`multiple_of` below)
    # a `format` the project chose to assert (strings only; `polytype.ir.formats`)
    format: str | None = None

    def is_empty(self) -> bool:
        return self == NO_CONSTRAINTS

    def checks_entries(self) -> bool:
        """Whether a map of this type is checked beyond its values' types."""
        return self.min_properties is not None or self.max_properties is not None

    def checks_items(self) -> bool:
        """Whether an array of this type is checked beyond its items' types."""
        return self.min_items is not None or self.max_items is not None or self.unique_items

    def bounds(self) -> list[tuple[str, int | float]]:
        """(attribute, value) of every length, value and item bound that is set, in one order."""
        found: list[tuple[str, int | float]] = []
        for attribute in BOUND_ATTRIBUTES:
            value = getattr(self, attribute)
            if value is not None:
                found.append((attribute, value))
        return found


# The numeric bounds of `Constraints` (all but `pattern`), in the order names and texts list them.
BOUND_ATTRIBUTES = (
    "min_length",
    "max_length",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "min_items",
    "max_items",
    "min_properties",
    "max_properties",
)


NO_CONSTRAINTS = Constraints()


# --- type references -------------------------------------------------------


@dataclass(frozen=True)
class Prim:
    """A JSON primitive: string, integer, number or boolean."""

    kind: PrimKind
    constraints: Constraints = NO_CONSTRAINTS


@dataclass(frozen=True)
class ListOf:
    item: TypeRef
    constraints: Constraints = NO_CONSTRAINTS
    as_tuple: bool = False


@dataclass(frozen=True)
class TupleOf:
    """A JSON array checked by position: `prefixItems` (+ `items`), a tuple.

    Item i < len(prefix) must be a `prefix[i]`; items past the prefix must be a
    `rest`, or there may be none when `rest` is None (`items: false`). An absent
    `items` is `rest=AnyJSON()`. An array shorter than the prefix is valid unless
    `constraints.min_items` says otherwise; min/maxItems and uniqueItems apply as
    for `ListOf`. Built by `polytype.lowering.tuples`; draft-04..2019-09 array-form `items`
    and `additionalItems` arrive here normalised (`polytype.frontend.drafts`).
    """

    prefix: tuple[TypeRef, ...]
    rest: TypeRef | None = None
    constraints: Constraints = NO_CONSTRAINTS

    @property
    def closed(self) -> bool:
        """No items past the prefix (`items: false`)."""
        return self.rest is None

    def item(self, index: int) -> TypeRef | None:
        """The type of the item at `index`; None where no item may be."""
        return self.prefix[index] if index < len(self.prefix) else self.rest

    def lengths(self) -> range | None:
        """The array lengths allowed, or None when there is no upper bound."""
        low = self.constraints.min_items or 0
        high = self.constraints.max_items
        if self.closed:
            high = len(self.prefix) if high is None else min(high, len(self.prefix))
        return None if high is None else range(low, high + 1)

    def item_types(self) -> tuple[TypeRef, ...]:
        """Every item type, prefix first, then the rest's (when items past it may be)."""
        return self.prefix + (() if self.rest is None else (self.rest,))


@dataclass(frozen=True)
class ObjectRules:
    """What an object schema says about its keys beyond its declared fields' types.

    Every rule is checked on the JSON object as it arrives; kept values stay the JSON
    they were (the round trip is exact), the checks only accept or reject.

    - `pattern_properties`: (pattern, type) for `patternProperties`. Every key a pattern
      matches (declared or not; `pattern`'s regex handling, see `polytype.ir.patterns`)
      must hold a value of its type.
    - `additional`: the `additionalProperties` schema, for the keys that are neither
      declared nor matched by a pattern; `closed` when it is `false` (with patterns
      beside it, so those keys stay allowed).
    - `property_names`: `propertyNames`, the type every key (a string) must be.
    - `dependent_required`: (key, keys it requires) for `dependentRequired`.
    - `min_properties` / `max_properties`: counts of every key, declared and not.
    """

    pattern_properties: tuple[tuple[str, TypeRef], ...] = ()
    additional: TypeRef | None = None
    closed: bool = False
    property_names: TypeRef | None = None
    dependent_required: tuple[tuple[str, tuple[str, ...]], ...] = ()
    min_properties: int | None = None
    max_properties: int | None = None

    def is_empty(self) -> bool:
        return self == NO_RULES

    def types(self) -> tuple[TypeRef, ...]:
        """Every type the rules check a key or value against."""
        found = [type_ref for _, type_ref in self.pattern_properties]
        found += [t for t in (self.additional, self.property_names) if t is not None]
        return tuple(found)


NO_RULES = ObjectRules()


@dataclass(frozen=True)
class MapOf:
    """A JSON object with arbitrary keys and values of one type."""

    value: TypeRef
    constraints: Constraints = NO_CONSTRAINTS
    # `propertyNames` and `dependentRequired` (counts stay in `constraints`)
    rules: ObjectRules = NO_RULES


@dataclass(frozen=True)
class Ref:
    """A reference to a named type of the same module."""

    name: str


@dataclass(frozen=True)
class LiteralValue:
    """A `const`: exactly this JSON scalar."""

    value: str | int | bool


@dataclass(frozen=True)
class JsonLiterals:
    """A `const` or `enum` that `LiteralValue` and `EnumType` cannot hold: exactly one of
    these JSON values (null, numbers with a fraction, arrays, objects, mixed types).

    Membership is JSON equality, as JSON Schema says: `1` equals `1.0`, `true` does not
    equal `1`, objects compare without key order, arrays item by item. A decoder keeps
    the value it read (an input `1.0` for a listed `1` stays `1.0`), so it encodes back
    exactly. `values` in schema order; empty for `enum: []`, which accepts nothing.
    `type: "null"` alone is `JsonLiterals((None,))`.
    """

    values: tuple[JSONData, ...]

    @property
    def scalar(self) -> bool:
        """Whether every value is a string, integer, boolean or null (a Python `Literal`)."""
        return all(value is None or isinstance(value, (str, int)) for value in self.values)


@dataclass(frozen=True)
class Nullable:
    inner: TypeRef


def nullable(inner: TypeRef) -> TypeRef:
    """`inner` or null: `inner` itself when it already takes null (`{type: null, nullable:
    true}` is null, not `None | None`)."""
    if isinstance(inner, Nullable) or (isinstance(inner, JsonLiterals) and None in inner.values):
        return inner
    return Nullable(inner)


@dataclass(frozen=True)
class AnyJSON:
    """Free-form JSON; `object_only` when it must be a JSON object."""

    object_only: bool = False


@dataclass(frozen=True)
class InlineUnion:
    """An anonymous union inside a field, told apart by JSON type.

    Example: nano-agent `Message.content` is `str | list[ContentBlock]`.
    """

    options: tuple[TypeRef, ...]


@dataclass(frozen=True)
class SchemaCheck:
    """A part of a consumed schema no type can express (`not`, `if`/`then`/`else`,
    `dependentSchemas` with more than required keys, an `allOf` part that cannot merge),
    checked on the JSON value as it arrives: the value must match `schema`.

    `schema` is a JSON Schema 2020-12 fragment as the schema file wrote it (after draft
    normalisation and reference bundling, never approximated), for example
    `{"not": {"required": ["a"]}}` or `{"if": ..., "then": ..., "else": ...}`; its
    `$ref`s are all `#/$defs/Name`, names of `Module.check_defs`. Evaluated with JSON
    Schema's own semantics (a keyword applies only to its JSON type: `required` says
    nothing about a string), unlike lowering, which turns keywords into types.
    `keywords` are the keywords it holds, in order (for messages); `pointer` where they
    were written in the file, e.g. `/definitions/core/allOf/2/if`'s parent.
    """

    schema: JSONData
    keywords: tuple[str, ...]
    pointer: str

    @property
    def described(self) -> str:
        """`'not' at /definitions/Link`: how a DecodeError names the rule broken."""
        shown = "/".join(self.keywords)
        return f"'{shown}' at {self.pointer or '/'}"


@dataclass(frozen=True)
class Checked:
    """A value of `inner` that must also pass `checks` (each run on the JSON value as it
    arrives, before it is decoded; the value kept is the one `inner` decodes, so the
    round trip stays exact). Named records and unions carry their own `checks`."""

    inner: TypeRef
    checks: tuple[SchemaCheck, ...]


TypeRef: TypeAlias = (
    Prim
    | ListOf
    | TupleOf
    | MapOf
    | Ref
    | LiteralValue
    | JsonLiterals
    | Nullable
    | AnyJSON
    | InlineUnion
    | Checked
)
