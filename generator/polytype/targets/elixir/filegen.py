"""`FileGen`: the decoders, encoders and default values of one generated file together."""

from __future__ import annotations

from typing import assert_never

from polytype import ir
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.decoders import Decoders
from polytype.targets.elixir.encoders import Encoders
from polytype.targets.elixir.names import literal_atom
from polytype.targets.elixir.terms import json_code


class FileGen(Decoders, Encoders):
    """Snippets for one generated file: what its views ask of decoders, encoders and defaults."""

    def default_term(self, type_ref: ir.TypeRef, value: ir.JSONData) -> layout.Code:
        """The Elixir value of a schema default (atoms for atom enums and string consts)."""
        if value is None:
            return "nil"
        match type_ref:
            case ir.Nullable() | ir.Checked():
                return self.default_term(type_ref.inner, value)
            case ir.Ref():
                named = self.named(type_ref.name)
                match named:
                    case ir.EnumType() if isinstance(value, str):
                        if named.atoms:
                            member = next(v for v in named.values if v.value == value)
                            return ex_atom(member.ex_atom)
                        return ex_str(value)
                    case ir.Alias():
                        return self.default_term(named.type, value)
                    case ir.Record() | ir.UnionType():
                        return layout.call(f"{named.elixir_module}.from_json!", json_code(value))
                    case ir.EnumType():
                        return json_code(value)
                    case _ as unreachable:
                        assert_never(unreachable)
            case ir.LiteralValue() if isinstance(value, str):
                return literal_atom(value)
            case ir.ListOf() if isinstance(value, tuple):
                return layout.Items(
                    "[", tuple(self.default_term(type_ref.item, item) for item in value)
                )
            case ir.TupleOf() if isinstance(value, tuple):
                terms: list[layout.Code] = []
                for index, item in enumerate(value):
                    item_type = type_ref.item(index)
                    terms.append(
                        json_code(item) if item_type is None else self.default_term(item_type, item)
                    )
                return layout.Items("[", tuple(terms))
            case ir.MapOf() if isinstance(value, ir.FrozenJSONObject):
                entries = (
                    f"{ex_str(key)} => {layout.flat(self.default_term(type_ref.value, item))}"
                    for key, item in value.items
                )
                return "%{" + ", ".join(entries) + "}"
            case (
                ir.Prim()
                | ir.ListOf()
                | ir.TupleOf()
                | ir.MapOf()
                | ir.LiteralValue()
                | ir.JsonLiterals()
                | ir.AnyJSON()
                | ir.InlineUnion()
            ):
                return json_code(value)
            case _ as unreachable:
                assert_never(unreachable)
