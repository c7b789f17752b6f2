"""What one generated file's snippets share: its private helpers, module attributes and names.

`FileSnippets` holds the `defp` helpers and module attributes (compiled patterns,
schema-check fragments) a file collects while its snippets are built, names each
helper after the type it handles (injective within the file), and writes typespecs.
The decoders (`decoders.py`) and encoders (`encoders.py`) build on it; `FileGen`
(`filegen.py`) is the whole.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TypeVar, assert_never

from polytype import ir, naming
from polytype.ir import tuples
from polytype.ir.patterns import pcre_pattern
from polytype.targets.base.render import ex_str
from polytype.targets.base.type_keys import TypeKeys
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import Block, clause_at
from polytype.targets.elixir.names import (
    RUNTIME_ALIAS,
    checks_module,
    literal_term,
    type_module,
)
from polytype.targets.elixir.terms import check_schema, ex_json_literal, json_term


def _identifier_fragment(text: str) -> str:
    fragment = re.sub(r"_+", "_", naming.ascii_identifier(text)).strip("_")
    if fragment != text or not fragment:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
        fragment = f"{fragment}_{digest}".strip("_")
    return fragment


def _literals_typespec(node: ir.JsonLiterals) -> str:
    """The typespec of a `const`/`enum` of any JSON value (strings are `String.t()`)."""
    if not node.values:
        return f"{RUNTIME_ALIAS}.json()"
    specs: list[str] = []
    for value in node.values:
        if value is None or isinstance(value, (bool, int)):
            specs.append(ex_json_literal(value))
        elif isinstance(value, float):
            specs.append("number()")
        elif isinstance(value, str):
            specs.append("String.t()")
        else:
            specs.append("list()" if isinstance(value, tuple) else "map()")
    return " | ".join(dict.fromkeys(specs))


def _elixir_identity(type_ref: ir.TypeRef) -> ir.TypeRef:
    """`type_ref` without what Elixir does not tell apart (`as_tuple`: both are lists)."""
    match type_ref:
        case ir.ListOf():
            return ir.ListOf(_elixir_identity(type_ref.item), type_ref.constraints)
        case ir.TupleOf():
            return tuples.map_items(type_ref, _elixir_identity)
        case ir.MapOf():
            return ir.MapOf(_elixir_identity(type_ref.value), type_ref.constraints, type_ref.rules)
        case ir.Nullable():
            return ir.Nullable(_elixir_identity(type_ref.inner))
        case ir.InlineUnion():
            return ir.InlineUnion(tuple(_elixir_identity(option) for option in type_ref.options))
        case ir.Checked():
            return ir.Checked(_elixir_identity(type_ref.inner), type_ref.checks)
        case ir.Prim() | ir.Ref() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return type_ref
        case _ as unreachable:
            assert_never(unreachable)


@dataclass(frozen=True)
class HelperView:
    """A private function: its clauses, each a finished line or block."""

    name: str
    clauses: tuple[Block, ...]

    @property
    def text(self) -> str:
        """The clauses as `mix format` lays them out in a module body."""
        return layout.block([clause_at(clause, 2) for clause in self.clauses], 2)


@dataclass
class FileSnippets:
    """Snippets for one generated file; collects the private helpers they call."""

    module: ir.Module
    helpers: dict[str, HelperView] = field(default_factory=dict)
    attributes: dict[str, layout.Call] = field(default_factory=dict)  # name -> value
    # name -> the JSON Schema fragment of a schema check, as the runtime reads it
    check_terms: dict[str, ir.JSONData] = field(default_factory=dict)
    # helper-name fragments, so that two different types (a type named `Str` and
    # `string`, `json` and free-form JSON, consts "a-b" and "a_b") never share a helper
    _type_keys: TypeKeys = field(init=False)

    def __post_init__(self) -> None:
        self._type_keys = TypeKeys(self)

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    def mod(self, name: str) -> str:
        return type_module(self.module, self.named(name))

    def typespec_code(self, type_ref: ir.TypeRef) -> layout.Code:
        """`typespec(type_ref)` with its lists and alternatives as parts (they break)."""
        match type_ref:
            case ir.ListOf():
                return layout.Items("[", (self.typespec_code(type_ref.item),))
            case ir.TupleOf():
                specs = {self.typespec(item): item for item in type_ref.item_types()}
                codes = tuple(map(self.typespec_code, specs.values()))
                only = codes[0] if len(codes) == 1 else layout.alternatives(*codes)
                return layout.Items("[", (only,))
            case ir.MapOf():
                entry = layout.Arrow("optional(String.t())", self.typespec_code(type_ref.value))
                return layout.Items("%{", (entry,))
            case ir.Checked():
                return self.typespec_code(type_ref.inner)
            case ir.Nullable():
                return layout.alternatives(self.typespec_code(type_ref.inner), "nil")
            case ir.InlineUnion():
                return layout.alternatives(*map(self.typespec_code, type_ref.options))
            case _:  # the rest never breaks
                return self.typespec(type_ref)

    def typespec(self, type_ref: ir.TypeRef) -> str:
        match type_ref:
            case ir.Prim():
                return {
                    "str": "String.t()",
                    "int": "integer()",
                    "float": "number()",
                    "bool": "boolean()",
                }[type_ref.kind]
            case ir.ListOf():
                return f"[{self.typespec(type_ref.item)}]"
            case ir.TupleOf():  # a list, checked by position
                specs = dict.fromkeys(self.typespec(item) for item in type_ref.item_types())
                return f"[{' | '.join(specs)}]"
            case ir.MapOf():
                return f"%{{optional(String.t()) => {self.typespec(type_ref.value)}}}"
            case ir.Ref():
                return f"{self.mod(type_ref.name)}.t()"
            case ir.LiteralValue():
                return literal_term(type_ref.value)
            case ir.JsonLiterals():
                return _literals_typespec(type_ref)
            case ir.Nullable():
                return f"{self.typespec(type_ref.inner)} | nil"
            case ir.AnyJSON():
                return (
                    f"{RUNTIME_ALIAS}.json_object()"
                    if type_ref.object_only
                    else f"{RUNTIME_ALIAS}.json()"
                )
            case ir.Checked():  # the checks narrow values, not the type
                return self.typespec(type_ref.inner)
            case ir.InlineUnion():
                return " | ".join(self.typespec(option) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    # keys naming helpers -----------------------------------------------

    def type_key(self, type_ref: ir.TypeRef) -> str:
        """A stable identifier fragment describing `type_ref` (names helper functions),
        injective within the file (`type_keys.TypeKeys`), so every helper decodes
        exactly one type."""
        return self._type_keys.key(type_ref)

    # how this file spells its helper-name fragments (`type_keys.KeySpelling`)

    def key_identity(self, type_ref: ir.TypeRef) -> str:
        return repr(_elixir_identity(type_ref))

    def list_prefix(self, type_ref: ir.ListOf) -> str:
        return "list_"

    def literal_fragment(self, type_ref: ir.LiteralValue) -> str:
        kind = {bool: "bool", int: "int", str: "str"}[type(type_ref.value)]
        return f"lit_{kind}_" + _identifier_fragment(str(type_ref.value))

    def checked_prefix(self, type_ref: ir.Checked) -> str:
        digest = hashlib.sha256(repr(type_ref.checks).encode("utf-8")).hexdigest()[:8]
        return f"checked_{digest}_"

    def number_fragment(self, value: int | float) -> str:
        return re.sub(
            r"[^A-Za-z0-9]", "_", str(value).replace(".", "p").replace("-", "m").replace("+", "")
        )

    def pattern_fragment(self, pattern: str) -> str:
        # named by its text, not by its attribute: naming a helper defines nothing
        return "pattern_" + hashlib.sha256(pattern.encode("utf-8")).hexdigest()[:8]

    def helper_name(self, prefix: str, type_ref: ir.TypeRef) -> str:
        name = f"{prefix}_{self.type_key(type_ref)}"
        if len(name) > 120:
            digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]
            name = f"{name[:100]}_{digest}"
        return name

    def pattern_attribute(self, pattern: str) -> str:
        compiled = layout.call("Regex.compile!", ex_str(pcre_pattern(pattern)), '"u"')
        return _interned(self.attributes, "pattern", compiled)

    def check_calls(self, variable: str, checks: tuple[ir.SchemaCheck, ...]) -> list[layout.Call]:
        """`R.schema_check(variable, @schema_check_N, "'not' at /x", Ns.PolytypeChecks.rules())`
        for each check."""
        rules = f"{checks_module(self.module)}.rules()"
        return [
            layout.call(
                f"{RUNTIME_ALIAS}.schema_check",
                variable,
                self.check_attribute(check),
                ex_str(check.described),
                rules,
            )
            for check in checks
        ]

    def check_attribute(self, check: ir.SchemaCheck) -> str:
        """The module attribute holding a check's fragment (one per distinct fragment)."""
        return _interned(self.check_terms, "schema_check", check_schema(check.schema))

    def finished_helpers(self) -> tuple[HelperView, ...]:
        return tuple(sorted(self.helpers.values(), key=lambda helper: helper.name))

    def attribute_lines(self) -> tuple[str, ...]:
        return tuple(
            f"@{name} {layout.laid(value, 4 + len(name))}"
            for name, value in self.attributes.items()
        ) + tuple(
            f"@{name} {json_term(term, 4 + len(name), 2)}"
            for name, term in self.check_terms.items()
        )


_Value = TypeVar("_Value")


def _interned(table: dict[str, _Value], prefix: str, value: _Value) -> str:
    """The module attribute (`@prefix_N`) holding `value` in `table`, added when new."""
    for name, known in table.items():
        if known == value:
            return "@" + name
    name = f"{prefix}_{len(table)}"
    table[name] = value
    return "@" + name
