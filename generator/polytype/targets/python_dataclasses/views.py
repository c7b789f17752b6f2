"""The view objects the dataclass templates print: records and their fields, enums,
unions and their open members, aliases, and the public decode_/encode_ functions."""

from __future__ import annotations

from dataclasses import dataclass

from polytype.targets.base.formatting import LINE_LENGTH
from polytype.targets.python.common import EnumView


@dataclass(frozen=True)
class FieldView:
    name: str
    annotation: str
    declaration_default: str  # "" or " = ..." after the annotation
    comment: str
    decode_arg: str  # keyword argument expression in the decoder ("" for tags)
    encode_lines: tuple[str, ...]  # statements appending to `out` in to_dict
    decode_lines: tuple[str, ...] = ()  # statements leaving the decoded value in `local`
    # (variable, key) of a required field whose decode_lines[0] is `variable = obj.get(key,
    # _ABSENT)`: `_hoist_required_fetches` moves that read into one `try` per record
    fetch: tuple[str, str] | None = None
    local: str = ""  # the decoder's local variable for this field ("" for tags)
    tag_literal: str = ""  # the fixed value of a tag field
    default: str = ""  # an optional field's value when its key is absent
    # an optional field's statements for when its key is known to be present (or ())
    present_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordView:
    name: str
    doc: str
    frozen: bool
    fields: tuple[FieldView, ...]
    keeps_extra: bool
    tracks_presence: bool
    decoder: str
    public_decoder: str
    decode_prelude: tuple[str, ...]
    present_expr: str
    extra_check: str
    known_keys_name: str
    known_keys: str
    methods_template: str | None
    decode_body: tuple[str, ...] = ()
    optional_keys_name: str = ""
    optional_keys: tuple[str, ...] = ()
    optional_same_as_known: bool = False

    @property
    def known_keys_statement(self) -> str:
        """`_X_KEYS = frozenset({...})` (laid out by the formatter)."""
        return f"{self.known_keys_name} = {self.known_keys}"

    @property
    def optional_keys_statement(self) -> str:
        """`_X_OPTIONAL = frozenset({...})`: the optional keys, for presence tracking
        (`_X_KEYS` itself when every key is optional)."""
        if self.optional_same_as_known:
            return f"{self.optional_keys_name} = {self.known_keys_name}"
        return f"{self.optional_keys_name} = frozenset({{{', '.join(self.optional_keys)}}})"


@dataclass(frozen=True)
class DataclassEnumView(EnumView):
    decoder: str
    values_name: str

    @property
    def values_statement(self) -> str:
        """`_X_VALUES: dict[str, X] = {member.value: member for member in X}`."""
        return (
            f"{self.values_name}: dict[str, {self.name}] = "
            f"{{member.value: member for member in {self.name}}}"
        )


@dataclass(frozen=True)
class UnionView:
    name: str
    doc: str
    alias_value: str
    decoder: str
    decode_body: tuple[str, ...]
    table_name: str
    table_entries: tuple[tuple[str, str], ...]
    encode_body: tuple[str, ...]


@dataclass(frozen=True)
class UnknownView:
    """The member of an open union (`x-unknown: keep`) that keeps an unlisted tag."""

    name: str
    doc: str
    tag_key: str  # the tag's JSON key as a Python literal


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    alias_value: str
    decoder: str
    decode_body: tuple[str, ...]
    encode_expr: str


@dataclass(frozen=True)
class PublicView:
    type_name: str
    suffix: str
    private_decoder: str
    encode_expr: str
    is_record: bool
    annotation: str  # what decoding returns: the type, or `X | UnknownX` for an open enum

    @property
    def parameter_annotation(self) -> str:
        """`encode_x`'s parameter type, parenthesized when a union would not fit on the
        parameter's own line: black then splits inside the parentheses and ruff keeps
        them, so the two formatters agree (without them each splits the union its way)."""
        too_long = len(f"    value: {self.annotation},") > LINE_LENGTH
        return f"({self.annotation})" if " | " in self.annotation and too_long else self.annotation
