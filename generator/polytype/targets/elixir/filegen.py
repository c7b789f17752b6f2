"""`FileGen`: the decoders, encoders and default values of one generated file together."""

from __future__ import annotations

from polytype import ir
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir.decoders import Decoders
from polytype.targets.elixir.encoders import Encoders
from polytype.targets.elixir.names import enum_atom, literal_atom, type_module
from polytype.targets.elixir.terms import ex_json_literal


class FileGen(Decoders, Encoders):
    """Snippets for one generated file: what its views ask of decoders, encoders and defaults."""

    def default_term(self, type_ref: ir.TypeRef, value: ir.JSONData) -> str:
        """The Elixir value of a schema default (atoms for atom enums and string consts)."""
        if value is None:
            return "nil"
        if isinstance(type_ref, (ir.Nullable, ir.Checked)):
            return self.default_term(type_ref.inner, value)
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.EnumType) and isinstance(value, str):
                if named.atoms:
                    return ex_atom(enum_atom(named, value))
                return ex_str(value)
            if isinstance(named, ir.Alias):
                return self.default_term(named.type, value)
            if isinstance(named, (ir.Record, ir.UnionType)):
                return f"{type_module(self.module, named)}.from_json!({ex_json_literal(value)})"
        if isinstance(type_ref, ir.LiteralValue) and isinstance(value, str):
            return literal_atom(value)
        if isinstance(type_ref, ir.ListOf) and isinstance(value, tuple):
            return "[" + ", ".join(self.default_term(type_ref.item, item) for item in value) + "]"
        if isinstance(type_ref, ir.TupleOf) and isinstance(value, tuple):
            terms = []
            for index, item in enumerate(value):
                item_type = type_ref.item(index)
                terms.append(
                    ex_json_literal(item)
                    if item_type is None
                    else self.default_term(item_type, item)
                )
            return "[" + ", ".join(terms) + "]"
        if isinstance(type_ref, ir.MapOf) and isinstance(value, ir.FrozenJSONObject):
            entries = (
                f"{ex_str(key)} => {self.default_term(type_ref.value, item)}"
                for key, item in value.items
            )
            return "%{" + ", ".join(entries) + "}"
        return ex_json_literal(value)
