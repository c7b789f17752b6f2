"""The words the docs give a type: the Type column, constraints, enum values, a
Python-style annotation for the diagram, and the anchors that link the tables."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import assert_never

from polytype import ir, naming
from polytype.ir import literals
from polytype.ir.object_rules import rules_text
from polytype.ir.wording import check_text
from polytype.targets.base.render import md_cell, md_code
from polytype.targets.elixir import literal_atom
from polytype.targets.elixir.names import enum_atoms
from polytype.targets.python.literal_types import literal_annotation
from polytype.targets.python.names import type_name, type_names

_PLURALS = {
    "string": "strings",
    "integer": "integers",
    "number": "numbers",
    "boolean": "booleans",
    "map": "maps",
}


def label(name: str) -> str:
    """What the docs call the type `name`: the name as a class reads
    (`naming.class_name`), as the Elixir docs and messages do."""
    return naming.class_name(name)


def anchor(name: str) -> str:
    """The anchor of the section of the type `name`."""
    return "type-" + re.sub(r"[^a-z0-9]+", "-", label(name).lower()).strip("-")


def link(name: str) -> str:
    return f"[{md_code(label(name))}](#{anchor(name)})"


@dataclass
class Describer:
    module: ir.Module

    @cached_property
    def python_types(self) -> frozenset[str]:
        """The module's Python class names (a field named like one is renamed): asked for
        once, not once a record."""
        return frozenset(type_names(self.module).values())

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    def type_text(self, type_ref: ir.TypeRef, plural: bool = False) -> str:
        """The Type column: the seed's words (`string`, `list of strings`, `integer or nil`, `:system` atom)."""
        match type_ref:
            case ir.Prim():
                word = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[
                    type_ref.kind
                ]
                return _PLURALS[word] if plural else word
            case ir.ListOf():
                return "list of " + self.type_text(type_ref.item, plural=True)
            case ir.TupleOf():  # `prefixItems`: item i of prefix[i]
                items = ", ".join(self.type_text(item) for item in type_ref.prefix)
                if type_ref.rest is None:
                    more = ", no more items"
                else:
                    more = ", then " + self.type_text(type_ref.rest, plural=True)
                if (type_ref.constraints.min_items or 0) < len(type_ref.prefix):
                    more += "; shorter allowed"
                return ("tuples" if plural else "tuple") + f" ({items}{more})"
            case ir.MapOf():
                # the value's words once: asking twice made nested maps take 2^depth calls
                value = self.type_text(type_ref.value, plural=True)
                return ("maps of string to " if plural else "map of string to ") + value
            case ir.Ref():
                named = self.named(type_ref.name)
                if isinstance(named, ir.EnumType):
                    return ("atom" if named.atoms else "string") + f" ({link(named.name)})"
                return link(named.name)
            case ir.LiteralValue():
                if isinstance(type_ref.value, str):
                    return f"{md_code(literal_atom(type_ref.value))} atom"
                return md_code(json.dumps(type_ref.value))
            case ir.JsonLiterals():
                if not type_ref.values:
                    return "nothing (an empty enum)"
                # JSON equality: `1` equals `1.0`, not `true`; a value is kept as it was read
                texts = [md_code(json_text(value)) for value in type_ref.values]
                return texts[0] if len(texts) == 1 else "one of " + ", ".join(texts)
            case ir.Nullable():
                return self.type_text(type_ref.inner, plural) + " or nil"
            case ir.AnyJSON():
                if type_ref.object_only:
                    return "maps" if plural else "map"
                return "any JSON values" if plural else "any JSON"
            case ir.Checked():  # the checks are in the Notes
                return self.type_text(type_ref.inner, plural)
            case ir.InlineUnion():
                return " or ".join(self.type_text(option, plural) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def py_annotation(self, type_ref: ir.TypeRef) -> str:
        """A short Python-style annotation for the class diagram (as in the nano-agent seed)."""
        match type_ref:
            case ir.Prim():
                return type_ref.kind
            case ir.ListOf():
                inner = self.py_annotation(type_ref.item)
                return f"tuple[{inner}, ...]" if type_ref.as_tuple else f"list[{inner}]"
            case ir.TupleOf():
                items = [self.py_annotation(item) for item in type_ref.prefix]
                if type_ref.rest is not None:
                    items.append(f"*tuple[{self.py_annotation(type_ref.rest)}, ...]")
                return f"tuple[{', '.join(items)}]"
            case ir.MapOf():
                return f"dict[str, {self.py_annotation(type_ref.value)}]"
            case ir.Ref():
                return type_name(type_ref.name)
            case ir.LiteralValue():
                return json.dumps(type_ref.value, ensure_ascii=False)
            case ir.JsonLiterals():
                return literal_annotation(type_ref)
            case ir.Nullable():
                return f"{self.py_annotation(type_ref.inner)} | None"
            case ir.AnyJSON():
                return "dict" if type_ref.object_only else "JSONValue"
            case ir.Checked():
                return self.py_annotation(type_ref.inner)
            case ir.InlineUnion():
                return " | ".join(self.py_annotation(option) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def enums_in(
        self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()
    ) -> list[ir.EnumType]:
        """The enums `type_ref` holds, through aliases (`seen`: those already looked
        through, so that an alias containing itself, `L = list[L]`, is read once)."""
        match type_ref:
            case ir.Ref():
                named = self.named(type_ref.name)
                if isinstance(named, ir.EnumType):
                    return [named]
                if isinstance(named, ir.Alias) and named.name not in seen:
                    return self.enums_in(named.type, seen | {named.name})
                return []
            case ir.ListOf():
                return self.enums_in(type_ref.item, seen)
            case ir.TupleOf():
                return [
                    enum for item in type_ref.item_types() for enum in self.enums_in(item, seen)
                ]
            case ir.MapOf():
                return self.enums_in(type_ref.value, seen)
            case ir.Nullable():
                return self.enums_in(type_ref.inner, seen)
            case ir.InlineUnion():
                return [enum for option in type_ref.options for enum in self.enums_in(option, seen)]
            case ir.Checked():
                return self.enums_in(type_ref.inner, seen)
            case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
                return []
            case _ as unreachable:
                assert_never(unreachable)

    def refs_in(self, type_ref: ir.TypeRef) -> list[str]:
        match type_ref:
            case ir.Ref():
                return [type_ref.name]
            case ir.ListOf():
                return self.refs_in(type_ref.item)
            case ir.TupleOf():
                return [name for item in type_ref.item_types() for name in self.refs_in(item)]
            case ir.MapOf():
                return self.refs_in(type_ref.value)
            case ir.Nullable():
                return self.refs_in(type_ref.inner)
            case ir.InlineUnion():
                return [name for option in type_ref.options for name in self.refs_in(option)]
            case ir.Checked():
                return self.refs_in(type_ref.inner)
            case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
                return []
            case _ as unreachable:
                assert_never(unreachable)


def enum_values_text(enum: ir.EnumType) -> str:
    """`:default`, `:accept_edits` … for atom enums, the JSON strings otherwise."""
    if enum.atoms:
        return ", ".join(
            md_code(":" + atom if plain_atom(atom) else literal_atom(value.value))
            for value, atom in zip(enum.values, enum_atoms(enum), strict=True)
        )
    return ", ".join(md_code(json.dumps(value.value, ensure_ascii=False)) for value in enum.values)


def plain_atom(name: str) -> bool:
    return re.match(r"^[a-z_][a-zA-Z0-9_@]*[?!]?\Z", name) is not None


def constraint_text(type_ref: ir.TypeRef) -> str:
    inner = type_ref.inner if isinstance(type_ref, ir.Nullable) else type_ref
    match inner:
        case ir.Checked():  # what each check demands, after the type's own
            texts = [constraint_text(inner.inner), *(md_cell(check_text(c)) for c in inner.checks)]
            return " ".join(text for text in texts if text)
        case ir.JsonLiterals() if literals.equality_matters(inner):
            return (
                "JSON equality: `1` equals `1.0`, `true` does not equal `1`, objects in any key "
                "order; the value is kept as read."
            )
        case ir.JsonLiterals():
            return ""
        case ir.Ref() | ir.LiteralValue() | ir.Nullable() | ir.AnyJSON() | ir.InlineUnion():
            return ""
        case ir.Prim() | ir.ListOf() | ir.TupleOf() | ir.MapOf():
            constraints = inner.constraints
            parts = [
                f"{attribute.replace('_', ' ')} {md_code(repr(value))}"
                for attribute, value in constraints.bounds()
            ]
            if constraints.pattern is not None:
                parts.append(f"pattern {md_code(constraints.pattern)}")
            if constraints.format is not None:
                parts.append(f"format {md_code(constraints.format)} (asserted)")
            if constraints.multiple_of is not None:
                parts.append(f"multiple of {md_code(repr(constraints.multiple_of))}")
            if constraints.unique_items:
                parts.append("unique items (JSON equality: `1` equals `1.0`, not `true`)")
            text = ("Constraints: " + ", ".join(parts) + ".") if parts else ""
            if isinstance(inner, ir.MapOf) and not inner.rules.is_empty():
                text = (text + " " + rules_text(inner.rules)).strip()
            return text
        case _ as unreachable:
            assert_never(unreachable)


def json_text(value: ir.JSONData) -> str:
    return json.dumps(_thaw(value), ensure_ascii=False)


def _thaw(value: ir.JSONData) -> object:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value
