"""The view objects the TypedDict templates print: TypedDicts and their keys,
Literal aliases of enums, unions and aliases, tag tables, public validators."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyView:
    key: str  # the JSON key as a Python string literal
    name: str  # the JSON key itself (class syntax only uses it when it is a plain identifier)
    annotation: str  # `NotRequired[...]` around the value's type unless `required`
    comment: str
    required: bool


@dataclass(frozen=True)
class TypedDictView:
    name: str
    doc: str
    functional: bool  # `X = TypedDict("X", {...})`: some key is not usable as a class attribute
    keys: tuple[KeyView, ...]
    validator: str
    body: tuple[str, ...]
    keys_name: str
    keys_literal: str
    shape: str = ""  # keys, value types and checks (`records.share_validators`)
    # an earlier TypedDict of the same keys and checks, and its validator, which is this
    # one's too (`_validate_b = _validate_a`); "" when this one has its own
    same_as: str = ""
    shared_validator: str = ""

    @property
    def keys_statement(self) -> str:
        """`_X_KEYS = frozenset({...})`."""
        return f"{self.keys_name} = {self.keys_literal}"


@dataclass(frozen=True)
class LiteralAliasView:
    name: str
    doc: str
    values: str  # `"a", "b"`
    entries: str  # `"a": "a", "b": "b"`
    validator: str
    values_name: str

    entry_items: tuple[str, ...] = ()  # the entries one by one
    unknown: str = ""  # an open enum's Unknown<Enum> alias of `str`, "" when closed
    unknown_doc: str = ""

    @property
    def annotation(self) -> str:
        """What the validator returns: `X`, or `X | UnknownX` (any string) when open."""
        return f"{self.name} | {self.unknown}" if self.unknown else self.name

    @property
    def values_statement(self) -> str:
        """`_X_VALUES: dict[str, X] = {...}`."""
        return f"{self.values_name}: dict[str, {self.name}] = {{{', '.join(self.entry_items)}}}"


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    value: str
    validator: str
    body: tuple[str, ...]
    empty: bool = False  # a union of no members: its value is `NoReturn`


@dataclass(frozen=True)
class TagTableView:
    name: str
    union: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PublicView:
    type_name: str
    suffix: str
    validator: str
    annotation: str  # what validating returns: the type, or `X | UnknownX` for an open enum


@dataclass(frozen=True)
class UnknownAliasView:
    """An open union's Unknown<Union> member: the JSON object itself, typed as such."""

    name: str
    doc: str
