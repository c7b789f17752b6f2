"""An alias's module: `decode/1` and `to_json/1` delegating to the aliased type's helpers."""

from __future__ import annotations

from dataclasses import dataclass

from polytype import ir
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import clause_block
from polytype.targets.elixir.filegen import FileGen
from polytype.targets.elixir.names import type_label, type_module
from polytype.targets.elixir.snippets import HelperView


@dataclass(frozen=True)
class AliasView:
    module: str
    doc: str
    typespec: str  # `@type t :: ...`, laid out
    decode_clause: str  # laid out
    encode_clauses: str  # laid out
    attributes: tuple[str, ...]  # "@name value", used by the helpers
    helpers: tuple[HelperView, ...]


def alias_view(alias: ir.Alias, module: ir.Module) -> AliasView:
    gen = FileGen(module)
    decoder = gen.decoder(alias.type)
    encoder = gen.encoder(alias.type)
    body: layout.Code = "value" if encoder is None else layout.call(encoder, "value")
    encode_clauses = (layout.clause("def", "to_json", "value", body),)
    return AliasView(
        module=type_module(module, alias),
        doc=alias.doc or f"The {type_label(alias.name)} type.",
        typespec=layout.type_spec("@type t", gen.typespec_code(alias.type), 2),
        decode_clause=clause_block(
            [layout.clause("def", "decode", "data", layout.call(decoder, "data"))]
        ),
        encode_clauses=clause_block(encode_clauses),
        attributes=gen.attribute_lines(),
        helpers=gen.finished_helpers(),
    )
