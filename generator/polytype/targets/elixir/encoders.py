"""The encoders of a generated file: the Elixir value of a type back to its JSON data.

Most types encode as themselves; the rest get a `defp` helper (lists, maps, tuples
and nullable values of such types, string consts held as atoms) or call a module's
`to_json/1`. Union values are told apart by clauses (`EncodeClause`), most
specific first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from polytype import ir
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import Block, block_head
from polytype.targets.elixir.names import (
    enum_atoms,
    json_scalar,
    literal_atom,
    literal_term,
    type_module,
    unknown_module,
)
from polytype.targets.elixir.snippets import FileSnippets, HelperView


@dataclass(frozen=True)
class EncodeClause:
    """One clause of an encoder telling union values apart; lower priority goes first."""

    priority: int
    head: str  # pattern (and guard) matching `value`: "value when is_list(value)", "%M{} = value", ":text"
    body: layout.Code  # expression encoding `value`

    def render(self, function: str, keyword: str = "def") -> layout.Clause:
        pattern, _, guard = self.head.partition(" when ")
        return layout.clause(keyword, function, pattern, self.body, guard)


def _binds_value(head: str) -> bool:
    """Whether a clause head (`value when ...`, `%M{} = value`, `nil`) binds `value`."""
    pattern = head.partition(" when ")[0]
    return pattern == "value" or pattern.endswith("= value")


class Encoders(FileSnippets):
    """The encoder of each type a file's snippets write, with the helpers it needs."""

    def encodes_as_itself(self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        """Whether the Elixir value of `type_ref` already is its JSON data (no encoder needed).

        An alias met again inside itself (`L = list[L]`) adds no work of its own: the
        answer is decided by the rest of the cycle, so it counts as the identity there.
        """
        match type_ref:
            case ir.Prim() | ir.AnyJSON() | ir.JsonLiterals():
                return True
            case ir.Ref():
                named = self.named(type_ref.name)
                if isinstance(named, ir.EnumType):
                    return not named.atoms
                if isinstance(named, ir.Alias):
                    if named.name in seen:
                        return True
                    return self.encodes_as_itself(named.type, seen | {named.name})
                return False
            case ir.LiteralValue():
                return not isinstance(type_ref.value, str)
            case ir.ListOf():
                return self.encodes_as_itself(type_ref.item, seen)
            case ir.TupleOf():
                return all(self.encodes_as_itself(item, seen) for item in type_ref.item_types())
            case ir.MapOf():
                return self.encodes_as_itself(type_ref.value, seen)
            case ir.Nullable() | ir.Checked():
                return self.encodes_as_itself(type_ref.inner, seen)
            case ir.InlineUnion():
                return all(self.encodes_as_itself(option, seen) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def encoder(self, type_ref: ir.TypeRef) -> str | None:
        """The name of a one-argument function turning the Elixir value into JSON data; None for identity."""
        if self.encodes_as_itself(type_ref):
            return None
        match type_ref:
            case ir.Ref():
                return f"{self.mod(type_ref.name)}.to_json"
            case ir.Checked():  # kept as `inner` decodes it
                return self.encoder(type_ref.inner)
            case ir.LiteralValue():
                assert isinstance(type_ref.value, str)
                name = self.helper_name("e", type_ref)
                self.helpers[name] = HelperView(
                    name,
                    (
                        layout.clause(
                            "defp", name, literal_atom(type_ref.value), ex_str(type_ref.value)
                        ),
                    ),
                )
                return name
            case ir.TupleOf():
                return self._tuple_encoder(type_ref)
            case ir.ListOf() | ir.MapOf() | ir.Nullable():
                inner_type = (
                    type_ref.item
                    if isinstance(type_ref, ir.ListOf)
                    else (type_ref.value if isinstance(type_ref, ir.MapOf) else type_ref.inner)
                )
                inner = self.encoder(inner_type)
                if inner is None:
                    return None
                name = self.helper_name("e", type_ref)
                if isinstance(type_ref, ir.ListOf):
                    body = layout.call("Enum.map", "value", f"&{inner}/1")
                    clauses: tuple[Block, ...] = (layout.clause("defp", name, "value", body),)
                elif isinstance(type_ref, ir.MapOf):
                    entry = layout.Items("{", ("key", layout.call(inner, "item")))
                    function = layout.Fn("{key, item}", entry)
                    body = layout.call("Map.new", "value", function)
                    clauses = (layout.clause("defp", name, "value", body),)
                else:
                    clauses = (
                        layout.clause("defp", name, "nil", "nil"),
                        layout.clause("defp", name, "value", layout.call(inner, "value")),
                    )
                self.helpers[name] = HelperView(name, clauses)
                return name
            case ir.Prim() | ir.JsonLiterals() | ir.AnyJSON():  # always their own JSON (above)
                raise AssertionError(type_ref)
            case ir.InlineUnion():
                name = self.helper_name("e", type_ref)
                if name not in self.helpers:
                    self.helpers[name] = HelperView(name, ())
                    clauses_list = self.encode_clauses(type_ref)
                    self.helpers[name] = HelperView(
                        name, tuple(clause.render(name, "defp") for clause in clauses_list)
                    )
                return name
            case _ as unreachable:
                assert_never(unreachable)

    def _tuple_encoder(self, node: ir.TupleOf) -> str:
        """Each item written back by its position's type."""
        name = self.helper_name("e", node)
        if name in self.helpers:
            return name
        self.helpers[name] = HelperView(name, ())
        arrows = [
            (f"{{item, {index}}}", self.encode(item, "item"))
            for index, item in enumerate(node.prefix)
        ]
        if node.rest is not None:
            arrows.append(("{item, _index}", self.encode(node.rest, "item")))
        else:
            arrows[-1] = ("{item, _index}", arrows[-1][1])
        lines = [block_head("defp", name, "value"), "  value", "  |> Enum.with_index()"]
        lines.append("  |> Enum.map(fn")
        # laid out as `mix format` lays out clauses: all on one line each, or all broken
        # laid out at column 6 (the helper is indented by 2 in its module), as `mix format`
        # lays out clauses: all on one line each, or all broken after `->`
        for clause in layout.arrow_clauses(arrows, 6):
            first, *rest = clause.split("\n") if clause else [""]
            lines += ["    " + first if first else first, *(line[2:] for line in rest)]
        lines += ["  end)", "end"]
        self.helpers[name] = HelperView(name, ("\n".join(lines),))
        return name

    def encode(self, type_ref: ir.TypeRef, expression: str) -> layout.Code:
        function = self.encoder(type_ref)
        return expression if function is None else layout.call(function, expression)

    def encode_clauses(self, type_ref: ir.TypeRef) -> list[EncodeClause]:
        """Clauses (pattern → JSON) telling the values of `type_ref` apart, most specific first."""
        raw = self._raw_clauses(type_ref)
        ordered = sorted(raw, key=lambda clause: clause.priority)
        unique: dict[str, EncodeClause] = {}
        for clause in ordered:
            unique.setdefault(clause.head, clause)
        result = list(unique.values())
        # nothing after a catch-all
        for index, clause in enumerate(result):
            if clause.head == "value":
                return result[: index + 1]
        return result

    def _raw_clauses(self, type_ref: ir.TypeRef) -> list[EncodeClause]:
        match type_ref:
            case ir.Ref():
                named = self.named(type_ref.name)
                module = type_module(self.module, named)
                match named:
                    case ir.Record():
                        return [
                            EncodeClause(
                                0,
                                f"%{module}{{}} = value",
                                layout.call(f"{module}.to_json", "value"),
                            )
                        ]
                    case ir.UnionType():
                        kept = unknown_module(self.module, named) if named.unknown else None
                        members = [
                            clause
                            for member in named.members
                            for clause in self._raw_clauses(ir.Ref(member))
                        ]
                        bodies: dict[str, set[str]] = {}
                        for clause in members:
                            bodies.setdefault(clause.head, set()).add(repr(clause.body))
                        if any(len(found) > 1 for found in bodies.values()):
                            # two members' values look alike (both lists) but encode apart: a
                            # head cannot choose, the union's own module can (it tries each)
                            encoded = layout.call(f"{module}.to_json", "value")
                            members = [
                                EncodeClause(
                                    clause.priority,
                                    clause.head,
                                    encoded if _binds_value(clause.head) else clause.body,
                                )
                                for clause in members
                            ]
                        return members + (
                            [
                                EncodeClause(
                                    0,
                                    f"%{kept}{{}} = value",
                                    layout.call(f"{kept}.to_json", "value"),
                                )
                            ]
                            if kept
                            else []
                        )
                    case ir.EnumType():
                        if named.atoms:
                            atoms = ", ".join(ex_atom(atom) for atom in enum_atoms(named))
                            clauses = [
                                EncodeClause(
                                    1,
                                    f"value when value in [{atoms}]",
                                    layout.call(f"{module}.to_json", "value"),
                                )
                            ]
                            if (
                                named.unknown
                            ):  # `{:unknown, string}`: a value the enum does not list
                                head = "{:unknown, _} = value"
                                clauses.append(
                                    EncodeClause(1, head, layout.call(f"{module}.to_json", "value"))
                                )
                            return clauses
                        return [EncodeClause(5, "value when is_binary(value)", "value")]
                    case ir.Alias():
                        body: layout.Code = (
                            "value"
                            if self.encodes_as_itself(named.type)
                            else layout.call(f"{module}.to_json", "value")
                        )
                        # only the alias's heads are wanted here (its module encodes): helpers its own
                        # clauses would call are not, and an unused defp is a compile warning
                        before = set(self.helpers)
                        inner = self._raw_clauses(named.type)
                        for helper in set(self.helpers) - before:
                            del self.helpers[helper]
                        # a clause whose head is a literal (`nil`, `:text`) binds no `value`: it keeps
                        # its own body, the literal's JSON
                        return [
                            EncodeClause(
                                clause.priority,
                                clause.head,
                                body if _binds_value(clause.head) else clause.body,
                            )
                            for clause in inner
                        ]
                    case _ as unreachable:
                        assert_never(unreachable)
            case ir.LiteralValue():
                return [EncodeClause(1, literal_term(type_ref.value), json_scalar(type_ref.value))]
            case ir.Nullable():
                return [EncodeClause(1, "nil", "nil"), *self._raw_clauses(type_ref.inner)]
            case ir.Checked():
                return self._raw_clauses(type_ref.inner)
            case ir.InlineUnion():
                return [
                    clause for option in type_ref.options for clause in self._raw_clauses(option)
                ]
            case ir.Prim():
                priority, guard = {
                    "bool": (2, "is_boolean(value)"),
                    "int": (3, "is_integer(value)"),
                    "float": (4, "is_number(value)"),
                    "str": (5, "is_binary(value)"),
                }[type_ref.kind]
                return [EncodeClause(priority, f"value when {guard}", "value")]
            case ir.ListOf() | ir.TupleOf():
                return [
                    EncodeClause(6, "value when is_list(value)", self.encode(type_ref, "value"))
                ]
            case ir.MapOf():
                return [EncodeClause(7, "value when is_map(value)", self.encode(type_ref, "value"))]
            case ir.JsonLiterals():  # kept as read: its own JSON
                return [EncodeClause(9, "value", "value")]
            case ir.AnyJSON():
                assert isinstance(type_ref, ir.AnyJSON)
                if type_ref.object_only:
                    return [EncodeClause(7, "value when is_map(value)", "value")]
                return [EncodeClause(9, "value", "value")]
            case _ as unreachable:
                assert_never(unreachable)
