"""The intermediate representation: the only thing targets ever see.

Every node is a frozen dataclass holding plain values and tuples, so an IR
module can be hashed, compared and shared between targets without anybody
patching it after construction. Lowering (``polytype.lowering.lower``) builds it from a
validated schema document; targets turn it into files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
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


# --- named types -----------------------------------------------------------


@dataclass(frozen=True)
class SourceRef:
    """Where a node came from: schema-relative file, line, column, JSON pointer."""

    file: str
    line: int
    column: int
    pointer: str


@dataclass(frozen=True)
class Default:
    """A default value, present only when the schema states one."""

    value: JSONData


@dataclass(frozen=True)
class Field:
    json_key: str
    py_name: str
    ex_name: str
    type: TypeRef
    required: bool
    default: Default | None = None
    doc: str = ""
    notes: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def is_tag(self) -> bool:
        """A required `const` key: fixed value, not a constructor argument."""
        return self.required and isinstance(self.type, LiteralValue)

    @property
    def nullable(self) -> bool:
        return isinstance(self.type, Nullable)


@dataclass(frozen=True)
class Record:
    name: str
    fields: tuple[Field, ...]
    frozen: bool = False
    extra_policy: ExtraPolicy = "keep"
    # `patternProperties`, an `additionalProperties` schema, `propertyNames`, ... (checked
    # on the whole object; undeclared keys are then kept, so `extra_policy` is "keep")
    rules: ObjectRules = NO_RULES
    # what the types cannot express, checked on the whole JSON object first
    schema_checks: tuple[SchemaCheck, ...] = ()
    doc: str = ""
    notes: str = ""
    methods: str | None = None
    elixir_module: str = ""
    source: SourceRef | None = field(default=None, compare=False)

    @property
    def tag_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.is_tag)


@dataclass(frozen=True)
class EnumValue:
    value: str
    py_name: str
    ex_atom: str


@dataclass(frozen=True)
class EnumType:
    name: str
    values: tuple[EnumValue, ...]
    style: EnumStyle = "str"
    atoms: bool = False
    doc: str = ""
    notes: str = ""
    elixir_module: str = ""
    source: SourceRef | None = field(default=None, compare=False)


@dataclass(frozen=True)
class StructuralCase:
    """How a structural union recognises one member.

    `json_type` is the member's JSON type ("object", "string", "array", ...).
    Object members are told apart by a tag (`tag_key` equal to `tag_value`),
    checked first, or else by `key`: a required key no other member declares.
    """

    member: str
    json_type: str
    tag_key: str | None = None
    tag_value: str | int | bool | None = None
    key: str | None = None


UnionMatch = Literal["tag", "structural", "one_of", "any_of"]


@dataclass(frozen=True)
class MemberCheck:
    """The cheap pre-check of an untagged union's member, before a full decode attempt.

    A value is tried as `member` only when its JSON type is one of `json_types`
    ("number" takes integers too) and, when it is an object, it has every key of
    `required`.
    """

    member: str
    json_types: tuple[str, ...]
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnionType:
    """A named union of named types.

    `match` says how a value finds its member, decided in lowering:

    - "tag": `tag` is set and `tag_values` maps every tag value to the member
      that takes it (a member may be a nested union).
    - "structural": the members are provably distinct; one `StructuralCase` per
      member in dispatch order.
    - "one_of" / "any_of": nothing tells the members apart at generation time, so
      the decoder follows JSON Schema: each member whose `checks` pre-check passes
      is tried in order; `oneOf` accepts a value only when exactly one member
      matches, `anyOf` takes the first member that matches.

    `unknown` (tagged unions under `x-unknown: keep` only) names the generated
    member that takes a string tag the schema does not list: it carries the tag
    and the whole JSON object, and encodes back to exactly that object, so a
    stream survives a producer that learned a new event type. It is not one of
    `members` and not a named type of the module; every target renders it with
    the union. A missing or non-string tag is still an error.
    """

    name: str
    members: tuple[str, ...]
    tag: str | None = None
    tag_values: tuple[tuple[str | int | bool, str], ...] = ()
    cases: tuple[StructuralCase, ...] = ()
    unknown: str | None = None
    match: UnionMatch = "structural"
    checks: tuple[MemberCheck, ...] = ()
    # what the types cannot express, checked on the JSON value before a member is chosen
    schema_checks: tuple[SchemaCheck, ...] = ()
    doc: str = ""
    notes: str = ""
    elixir_module: str = ""
    source: SourceRef | None = field(default=None, compare=False)

    @property
    def tries_members(self) -> bool:
        """Untagged and not provably distinct: decoded by trying each member (`checks`)."""
        return self.match in ("one_of", "any_of")

    @property
    def open_tag(self) -> str | None:
        """The key an open union reads an unlisted tag from: its tag, or its tag cases' key.

        A structural union is open only when its tagged object members share one tag
        key (nano-agent's `NodeData`: `Message` by its `role` key, the rest by `type`);
        an object that no member takes and that has a string there is kept.
        """
        if self.unknown is None:
            return None
        if self.tag is not None:
            return self.tag
        return next((case.tag_key for case in self.cases if case.tag_key is not None), None)


@dataclass(frozen=True)
class Alias:
    """A named non-record type: `ToolDefinitions = list[ToolDefinition]`, free-form JSON."""

    name: str
    type: TypeRef
    doc: str = ""
    notes: str = ""
    elixir_module: str = ""
    source: SourceRef | None = field(default=None, compare=False)


NamedType: TypeAlias = Record | EnumType | UnionType | Alias


@dataclass(frozen=True)
class Module:
    """One schema file, lowered."""

    name: str
    title: str
    doc: str
    schema_path: str
    schema_sha256: str
    elixir_namespace: str
    types: tuple[NamedType, ...]
    root: str | None = None
    # (path from the project root, sha256) of every other file the schema's `$ref`s read:
    # inputs of the build as much as the schema itself
    references: tuple[tuple[str, str], ...] = ()
    # the definitions (name, JSON Schema as written) the `SchemaCheck`s refer to,
    # directly or through each other: `#/$defs/Name` in a check is one of these
    check_defs: tuple[tuple[str, JSONData], ...] = ()
    # the `format`s this module asserts (`[tool.polytype] formats`; `polytype.ir.formats`)
    formats: tuple[str, ...] = ()

    @cached_property
    def types_by_name(self) -> dict[str, NamedType]:
        """Every type by name (computed once; the module is immutable)."""
        return {named.name: named for named in self.types}

    def get(self, name: str) -> NamedType:
        return self.types_by_name[name]


def unknown_member_name(union_name: str) -> str:
    """The generated member of an open union (`x-unknown: keep`): `Unknown<Union>`."""
    return f"Unknown{union_name}"


def open_unions(module: Module, name: str, seen: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The Unknown* members a value of union `name` can decode to, nested unions included."""
    named = module.types_by_name.get(name)
    if not isinstance(named, UnionType) or name in seen:
        return ()
    found: list[str] = [named.unknown] if named.unknown else []
    for member in named.members:
        found.extend(open_unions(module, member, seen | {name}))
    return tuple(dict.fromkeys(found))


def child_types(type_ref: TypeRef) -> tuple[TypeRef, ...]:
    """The types `type_ref` is built from, one level down (a map's rules' types too)."""
    if isinstance(type_ref, ListOf):
        return (type_ref.item,)
    if isinstance(type_ref, TupleOf):
        return type_ref.item_types()
    if isinstance(type_ref, MapOf):
        return (type_ref.value, *type_ref.rules.types())
    if isinstance(type_ref, (Nullable, Checked)):
        return (type_ref.inner,)
    if isinstance(type_ref, InlineUnion):
        return type_ref.options
    return ()


def nested_types(module: Module) -> Iterator[TypeRef]:
    """Every type written in the module's named types (fields, a record's rules, alias
    types), nested ones included: references are not followed."""
    stack: list[TypeRef] = []
    for named in module.types:
        if isinstance(named, Record):
            stack.extend(item.type for item in named.fields)
            stack.extend(named.rules.types())
        elif isinstance(named, Alias):
            stack.append(named.type)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child_types(node))


def schema_checks(module: Module) -> tuple[SchemaCheck, ...]:
    """Every schema check of the module: records' and unions' own, then those of
    `Checked` types wherever they are."""
    found: list[SchemaCheck] = []
    for named in module.types:
        if isinstance(named, (Record, UnionType)):
            found.extend(named.schema_checks)
    for node in nested_types(module):
        if isinstance(node, Checked):
            found.extend(node.checks)
    return tuple(found)


def runtime_checks(module: Module) -> frozenset[str]:
    """The runtime helpers a module's types need beyond the common ones: constraint
    checks (`unique_items`, `multiple_of`, `properties`, `object_rules`), `tuples` for
    positional arrays, `json_literals` for a `const` or `enum` of any JSON value,
    `tried_members` for unions that try their members, `schema_checks` for a
    `SchemaCheck` anywhere and `format_<name>` for each asserted `format` (`date-time`:
    `format_date_time`), so that a module without them carries none."""
    found: set[str] = set()
    for named in module.types:
        if isinstance(named, UnionType) and named.tries_members:
            found.add("tried_members")
        if isinstance(named, Record) and not named.rules.is_empty():
            found.add("object_rules")
        if isinstance(named, (Record, UnionType)) and named.schema_checks:
            found.add("schema_checks")
    for node in nested_types(module):
        if isinstance(node, Prim) and node.constraints.format is not None:
            found.add("format_" + node.constraints.format.replace("-", "_"))
        if isinstance(node, Prim) and node.constraints.multiple_of is not None:
            found.add("multiple_of")
        elif isinstance(node, JsonLiterals):
            found.add("json_literals")
        elif isinstance(node, (ListOf, TupleOf)):
            if node.constraints.unique_items:
                found.add("unique_items")
            if isinstance(node, TupleOf):
                found.add("tuples")
        elif isinstance(node, MapOf):
            if node.constraints.checks_entries():
                found.add("properties")
            if not node.rules.is_empty():
                found.add("object_rules")
        elif isinstance(node, Checked):
            found.add("schema_checks")
    if module.formats and "schema_checks" in found:  # the checks' evaluators assert them too
        fragments = [check.schema for check in schema_checks(module)]
        fragments += [schema for _, schema in module.check_defs]
        for name in _format_values(fragments, frozenset(module.formats)):
            found.add("format_" + name.replace("-", "_"))
    return frozenset(found)


def _format_values(fragments: list[JSONData], asserted: frozenset[str]) -> set[str]:
    """The asserted names a `format` key holds anywhere in `fragments` (one that is data,
    not a keyword, at worst costs an unused checker)."""
    found: set[str] = set()
    stack = list(fragments)
    while stack:
        node = stack.pop()
        if isinstance(node, FrozenJSONObject):
            for key, value in node.items:
                if key == "format" and isinstance(value, str) and value in asserted:
                    found.add(value)
                stack.append(value)
        elif isinstance(node, tuple):
            stack.extend(node)
    return found
