"""Python naming and literal rendering shared by the Python targets."""

from __future__ import annotations

import json
import keyword
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypedDict, assert_never

from polytype import ir
from polytype.ir import literals
from polytype.ir.object_rules import rules_text
from polytype.ir.patterns import python_pattern
from polytype.ir.wording import checks_text
from polytype.targets.base.render import py_str
from polytype.targets.python.names import enum_members

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")


def isort_names(names: Iterable[str]) -> list[str]:
    """The names of one `from m import ...`, distinct, in the order isort (and ruff's `I`
    rules) want: CONSTANTS, then Classes, then the rest, each case-insensitively, numbers
    in names by value (`_CHECK_2` before `_CHECK_10`)."""

    def key(name: str) -> tuple[int, list[tuple[int, str]], str]:
        kind = 0 if len(name) > 1 and name.isupper() else 1 if name[0].isupper() else 2
        parts = re.split(r"(\d+)", name.lower())
        return kind, [(int(part), "") if part.isdigit() else (-1, part) for part in parts], name

    return sorted(set(names), key=key)


def path_segment(key: str | int) -> str:
    """How a key appears in a `$.a.b[0]` error path."""
    if isinstance(key, int):
        return f"[{key}]"
    if _IDENTIFIER.match(key) and not keyword.iskeyword(key):
        return f".{key}"
    return f"[{json.dumps(key, ensure_ascii=False)}]"


def py_literal(value: ir.JSONData) -> str:
    """A Python expression for an IR JSON value."""
    if isinstance(value, ir.FrozenJSONObject):
        return "{" + ", ".join(f"{py_str(k)}: {py_literal(v)}" for k, v in value.items) + "}"
    if isinstance(value, tuple):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    return py_str(value)


def thaw(value: ir.JSONData) -> object:
    """IR JSON back to plain Python JSON."""
    if isinstance(value, ir.FrozenJSONObject):
        return {k: thaw(v) for k, v in value.items}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class EnumMemberView:
    name: str
    value: str  # a Python string literal


@dataclass(frozen=True)
class EnumView:
    """What every Python flavor's enum template needs; flavors subclass it to add more."""

    name: str
    doc: str
    base: str  # "(str, Enum)", "(Enum)", or "" for a Literal alias
    members: tuple[EnumMemberView, ...]
    literal_values: str
    unknown: str  # an open enum's Unknown<Enum>, "" when the enum is closed
    unknown_doc: str

    @property
    def annotation(self) -> str:
        """What a decoded value is: `X`, or `X | UnknownX` for an open enum."""
        return f"{self.name} | {self.unknown}" if self.unknown else self.name


class EnumViewFields(TypedDict):
    name: str
    doc: str
    base: str
    members: tuple[EnumMemberView, ...]
    literal_values: str
    unknown: str
    unknown_doc: str


def enum_view_fields(enum: ir.EnumType) -> EnumViewFields:
    """The `EnumView` fields of `enum`, as keyword arguments for a flavor's subclass."""
    return {
        "name": enum.name,
        "doc": enum.doc or f"The {enum.name} enumeration.",
        "base": {"str": "(str, Enum)", "plain": "(Enum)", "literal": ""}[enum.style],
        "members": tuple(
            EnumMemberView(member, py_str(value.value))
            for value, member in zip(enum.values, enum_members(enum), strict=True)
        ),
        "literal_values": ", ".join(py_str(value.value) for value in enum.values),
        "unknown": enum.unknown or "",
        "unknown_doc": unknown_enum_doc(enum) if enum.unknown else "",
    }


def unknown_enum_doc(enum: ir.EnumType, kept_as: str = "`value`") -> str:
    """What the docstring of an open enum's Unknown<Enum> says (`kept_as`: where the string is)."""
    return (
        f"A value of {enum.name} that the schema does not list (x-unknown: keep).\n\n"
        f"A newer producer's value, kept as read ({kept_as}) and written back unchanged."
    )


def named_annotation(module: ir.Module, name: str) -> str:
    """A named type's annotation: its name, or `X | UnknownX` for an open enum."""
    named = module.types_by_name.get(name)
    if isinstance(named, ir.EnumType) and named.unknown is not None:
        return f"{name} | {named.unknown}"
    return name


def unknown_doc(union: ir.UnionType) -> str:
    """What the docstring of an Unknown<Union> member says, in every Python flavor."""
    return (
        f"A value of {union.name} whose `{union.open_tag}` tag is none the schema lists (x-unknown: keep).\n\n"
        "A newer producer's value, kept whole: `tag` is the tag, `data` the JSON object as "
        "decoded, written back unchanged."
    )


def constraint_note(type_ref: ir.TypeRef) -> str:
    """What a field's or alias's comment says about checks its annotation cannot show
    (`uniqueItems`, a tuple's positions, schema checks); "" for every other type, so their
    comments stay as they were.
    """
    inner = type_ref.inner if isinstance(type_ref, ir.Nullable) else type_ref
    match inner:
        case ir.Checked():
            return with_note(constraint_note(inner.inner), checks_text(inner.checks))
        case ir.JsonLiterals() if not inner.values:
            return "Accepts no value (an empty enum)."
        case ir.JsonLiterals() if not inner.scalar:
            # the annotation is JSONValue: say which values (`Literal[...]` says it itself)
            return f"Exactly {literals.expected(inner)} ({literals.EQUALITY})."
        case ir.ListOf() if inner.constraints.unique_items:
            return "Items are unique (JSON equality: 1 equals 1.0, true does not equal 1)."
        case ir.TupleOf():
            count = len(inner.prefix)
            more = "no more items" if inner.closed else "any number of items of the rest's type"
            note = (
                f"Checked by position (prefixItems): {count} item(s), then {more}; "
                f"valid from {inner.constraints.min_items or 0} item(s)."
            )
            if inner.constraints.unique_items:
                note += " Items are unique (JSON equality: 1 equals 1.0, true does not equal 1)."
            return note
        case ir.MapOf() if inner.constraints.checks_entries():
            counts = [
                f"{words} {bound}"
                for words, bound in (
                    ("at least", inner.constraints.min_properties),
                    ("at most", inner.constraints.max_properties),
                )
                if bound is not None
            ]
            return "Has " + " and ".join(counts) + " entries." + _map_rules(inner)
        case ir.MapOf():
            return _map_rules(inner).strip()
        case (
            ir.Prim()
            | ir.ListOf()
            | ir.Ref()
            | ir.LiteralValue()
            | ir.JsonLiterals()
            | ir.Nullable()
            | ir.AnyJSON()
            | ir.InlineUnion()
        ):
            return ""
        case _ as unreachable:
            assert_never(unreachable)


def _map_rules(map_of: ir.MapOf) -> str:
    return " " + rules_text(map_of.rules) if not map_of.rules.is_empty() else ""


def with_note(text: str, note: str) -> str:
    """`text` and `note` as one comment or docstring, either may be empty."""
    return "\n".join(part for part in (text, note) if part)


def record_doc(record: ir.Record) -> str:
    """A record's docstring: its description, and its object rules in words."""
    doc = record.doc or f"The {record.name} record."
    for text in (rules_text(record.rules), checks_text(record.schema_checks)):
        if text:
            doc += "\n\n" + textwrap.fill(text, width=84, break_long_words=False)
    return doc


def rules_parts(
    rules: ir.ObjectRules, search: Callable[[str], str], check: Callable[[ir.TypeRef], str]
) -> list[str]:
    """The items of the generated `_Rules` tuple of an object's rules, as Python source:
    `search(pattern)` is a pattern's search function, `check(type)` what checks a value
    of a type (a decoder, a TypeAdapter). Shared by every Python flavor's runtime."""
    patterns = "".join(
        f"({search(pattern)}, {check(type_ref)}), "
        for pattern, type_ref in rules.pattern_properties
    )
    dependent = "".join(
        f"({py_str(key)}, ({''.join(py_str(other) + ', ' for other in needed)})), "
        for key, needed in rules.dependent_required
    )
    return [
        f"({patterns})",
        "None" if rules.additional is None else check(rules.additional),
        str(rules.closed),
        "None" if rules.property_names is None else check(rules.property_names),
        f"({dependent})",
        str(rules.min_properties),
        str(rules.max_properties),
    ]


def python_constants(patterns: dict[str, str]) -> list[tuple[str, str, str]]:
    """(pattern as Python's `re` reads it, constant name, a comment giving the pattern as
    written when the two differ, else "") for each schema pattern a module compiles
    (`_PATTERN_0 = re.compile(...)`), in the order of their names."""
    constants = []
    for written, name in patterns.items():
        pattern = python_pattern(written)
        comment = (
            ""
            if pattern == written
            else f"The schema's pattern {written}, its Unicode property escapes spelled out for re:"
        )
        constants.append((pattern, name, comment))
    return sorted(constants, key=lambda item: item[1])


_JSON_TYPE_CHECKS = {
    "string": "type({0}) is str",
    "integer": "type({0}) is int",
    "number": "type({0}) is float or type({0}) is int",
    "boolean": "type({0}) is bool",
    "array": "type({0}) is list",
    "object": "type({0}) is dict",
    "null": "{0} is None",
}


def json_type_check(json_type: str, variable: str) -> str:
    """A Python expression that is true when `variable` holds a value of that JSON type."""
    return _JSON_TYPE_CHECKS[json_type].format(variable)


def literal_fits(
    type_ref: ir.TypeRef, module: ir.Module, seen: frozenset[str] = frozenset()
) -> bool:
    """Whether a default written as a plain Python literal (`"posix"`, `["a", "b"]`) is a
    value of `type_ref` as annotated: not where a string stands for an `Enum` member or an
    object for a record, anywhere inside (`X | list[X]`, `list[Kind]`), which the type
    checker rejects; such a default is decoded instead."""
    match type_ref:
        case ir.ListOf():
            return literal_fits(type_ref.item, module, seen)
        case ir.MapOf():
            return literal_fits(type_ref.value, module, seen)
        case ir.Nullable() | ir.Checked():
            return literal_fits(type_ref.inner, module, seen)
        case ir.InlineUnion():
            return all(literal_fits(option, module, seen) for option in type_ref.options)
        case ir.TupleOf():
            return all(literal_fits(item, module, seen) for item in type_ref.item_types())
        case ir.Ref():
            return type_ref.name in seen or _named_literal_fits(
                module.get(type_ref.name), module, seen | {type_ref.name}
            )
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return True
        case _ as unreachable:
            assert_never(unreachable)


def _named_literal_fits(named: ir.NamedType, module: ir.Module, seen: frozenset[str]) -> bool:
    match named:
        case ir.EnumType():
            return named.style == "literal"
        case ir.Alias():
            return literal_fits(named.type, module, seen)
        case ir.UnionType():
            return all(literal_fits(ir.Ref(member), module, seen) for member in named.members)
        case ir.Record():
            return False
        case _ as unreachable:
            assert_never(unreachable)


def holds_free_json(
    type_ref: ir.TypeRef, module: ir.Module, seen: frozenset[str] = frozenset()
) -> bool:
    """Whether free-form JSON (`JsonValue`) is inside `type_ref`, through containers and
    aliases: a container literal's inferred type (`dict[str, str]`) is then not the
    annotated one (`dict[str, JsonValue]`, invariant) unless the checker is told."""
    match type_ref:
        case ir.AnyJSON():
            return True
        case ir.ListOf():
            return holds_free_json(type_ref.item, module, seen)
        case ir.MapOf():
            return holds_free_json(type_ref.value, module, seen)
        case ir.Nullable() | ir.Checked():
            return holds_free_json(type_ref.inner, module, seen)
        case ir.InlineUnion():
            return any(holds_free_json(option, module, seen) for option in type_ref.options)
        case ir.TupleOf():
            return any(holds_free_json(item, module, seen) for item in type_ref.item_types())
        case ir.Ref():
            named = module.get(type_ref.name)
            return (
                type_ref.name not in seen
                and isinstance(named, ir.Alias)
                and holds_free_json(named.type, module, seen | {type_ref.name})
            )
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals():
            return False
        case _ as unreachable:
            assert_never(unreachable)


def literal_is_annotated_type(
    type_ref: ir.TypeRef, module: ir.Module, seen: frozenset[str] = frozenset()
) -> bool:
    """Whether the type a checker infers for a container literal on its own (`[1]` is
    `list[int]`) is the annotated `type_ref`: only plain containers of strings, integers
    and booleans. A union inside (`list[int | float]` for JSON numbers, `list[str | None]`,
    `JsonValue`) or a literal type is not, and containers are invariant."""
    match type_ref:
        case ir.ListOf():
            return not type_ref.as_tuple and literal_is_annotated_type(type_ref.item, module, seen)
        case ir.MapOf():
            return literal_is_annotated_type(type_ref.value, module, seen)
        case ir.Checked():
            return literal_is_annotated_type(type_ref.inner, module, seen)
        case ir.Prim():
            return type_ref.kind != "float"
        case ir.Ref():
            named = module.get(type_ref.name)
            return (
                type_ref.name not in seen
                and isinstance(named, ir.Alias)
                and literal_is_annotated_type(named.type, module, seen | {type_ref.name})
            )
        case (
            ir.Nullable()
            | ir.InlineUnion()
            | ir.TupleOf()
            | ir.LiteralValue()
            | ir.JsonLiterals()
            | ir.AnyJSON()
        ):
            return False
        case _ as unreachable:
            assert_never(unreachable)
