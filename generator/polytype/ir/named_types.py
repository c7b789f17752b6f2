"""The IR's named types and the module that holds them.

`Record` (and its `Field`s), `EnumType`, `UnionType` (with how it dispatches) and
`Alias`, the members of `NamedType`; where each came from (`SourceRef`); and `Module`,
one schema file lowered. Re-exported by `polytype.ir`.

A named type's `name` is schema-level: the definition key, the title, or the name
derived from where an inline schema sits. It is what every reference (`Ref`, a union's
members) holds; no target's spelling is stored here (`targets.python.names` turns it
into a Python class name, `targets.elixir.names` into an Elixir module).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, TypeAlias

from polytype.ir.type_refs import (
    NO_RULES,
    EnumStyle,
    ExtraPolicy,
    JSONData,
    LiteralValue,
    Nullable,
    ObjectRules,
    SchemaCheck,
    TypeRef,
)


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
    """One property of a record. Each target names it (`json_key` and the schema's
    `x-field` / `x-elixir: {field: ...}`, when it states them, are what they start from)."""

    json_key: str
    type: TypeRef
    required: bool
    default: Default | None = None
    doc: str = ""
    notes: str = ""
    aliases: tuple[str, ...] = ()
    x_field: str | None = None
    x_elixir_field: str | None = None

    @property
    def is_tag(self) -> bool:
        """A required `const` key: fixed value, not a constructor argument."""
        return self.required and isinstance(self.type, LiteralValue)

    @property
    def nullable(self) -> bool:
        return isinstance(self.type, Nullable)


@dataclass(frozen=True)
class Record:
    # the schema-level name (definition key, title or the path it was hoisted from): the
    # module's reference identity; each target's namer spells it (`Ref.name` is one)
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
    # the schema's `x-elixir: {module: ...}`, when it names the type's Elixir module
    x_elixir_module: str | None = None
    source: SourceRef | None = field(default=None, compare=False)

    @property
    def tag_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.is_tag)


@dataclass(frozen=True)
class EnumValue:
    """One value of a string enum, as the schema lists it (each target names its member)."""

    value: str


@dataclass(frozen=True)
class EnumType:
    """A string enumeration.

    `unknown` (under `x-unknown: keep`, or the project's `unknown-enum-values`) names
    what a string the schema does not list decodes to, `Unknown<Enum>`: it keeps the
    string and encodes back to exactly it, so a consumer survives a producer that
    learned a new stop reason or status. It is not a named type of the module; every
    target renders it with the enum. A value that is not a string is still an error.
    """

    name: str
    values: tuple[EnumValue, ...]
    style: EnumStyle = "str"
    atoms: bool = False
    unknown: str | None = None
    doc: str = ""
    notes: str = ""
    # the schema's `x-elixir: {module: ...}`, when it names the type's Elixir module
    x_elixir_module: str | None = None
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
    # the schema's `x-elixir: {module: ...}`, when it names the type's Elixir module
    x_elixir_module: str | None = None
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
    # the schema's `x-elixir: {module: ...}`, when it names the type's Elixir module
    x_elixir_module: str | None = None
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
    # the schema's `x-polytype: {elixir-namespace: ...}`, when it names one
    x_elixir_namespace: str | None
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
    # the schema's `x-polytype: {module: ...}`, when it names the module (else `name`
    # comes from the file name)
    x_module: str | None = None

    @cached_property
    def types_by_name(self) -> dict[str, NamedType]:
        """Every type by name (computed once; the module is immutable)."""
        return {named.name: named for named in self.types}

    def get(self, name: str) -> NamedType:
        return self.types_by_name[name]
