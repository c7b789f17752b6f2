"""The finished code `Codecs` hands to the stdlib flavors' templates: a helper
function's signature and body, and the statements that check a record."""

from __future__ import annotations

from dataclasses import dataclass

from polytype import ir


@dataclass(frozen=True)
class HelperView:
    name: str
    signature: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class TagCheck:
    """A tag field's check: its statement raises unless `obj[key] == value`."""

    key: str  # the tag's JSON key, a Python literal
    value: str  # the tag's value, a Python literal
    string: bool  # the value is a string (so `!=` cannot take `True` for `1`)

    @property
    def statement(self) -> str:
        return f"_tag(obj, {self.key}, {self.value})"


@dataclass(frozen=True)
class RecordChecks:
    """How a record is checked: prelude statements, then each field in `fields` order, then extras."""

    schema_checks: tuple[str, ...]  # statements running the record's schema checks on `obj`
    tags: tuple[TagCheck, ...]
    forbid_check: str  # the statement rejecting undeclared keys; "" when they are allowed
    fields: tuple[ir.Field, ...]  # non-tag fields: required first, then optional, schema order
    keeps_extra: bool
    extra_check: str  # statement validating kept unknown keys (only when `keeps_extra`)
    keys_name: str
    keys: str  # frozenset literal of every declared key and alias
    alias_pairs: tuple[tuple[str, str], ...]
    rules_check: str = ""  # statement checking the object rules (`ir.ObjectRules`), if any

    @property
    def prelude(self) -> tuple[str, ...]:
        """The statements that check the object before its fields, in order."""
        tags = tuple(tag.statement for tag in self.tags)
        forbid = (self.forbid_check,) if self.forbid_check else ()
        return ("obj = _object(data)", *self.schema_checks, *tags, *forbid)

    @property
    def inline_prelude(self) -> tuple[str, ...]:
        """`prelude` written in place, for a decoder that checks its fields in place:
        the object test and a string tag's comparison inline (the calls only build the
        errors)."""
        lines = ["if type(data) is not dict:", '    raise _type_error("object", data)']
        lines.append("obj: dict[str, object] = data")
        lines.extend(self.schema_checks)
        for tag in self.tags:
            lines.extend(
                [f"if obj.get({tag.key}) != {tag.value}:", f"    {tag.statement}"]
                if tag.string
                else [tag.statement]
            )
        if self.forbid_check:
            lines.append(f"if not {self.keys_name}.issuperset(obj):")
            lines.append(f"    {self.forbid_check}")
        return tuple(lines)
