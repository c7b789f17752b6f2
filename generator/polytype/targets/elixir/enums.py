"""An enumeration's module: decode and encode clauses, its values, typespec and docs."""

from __future__ import annotations

import json
from dataclasses import dataclass

from polytype import ir
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import clause_block
from polytype.targets.elixir.names import RUNTIME_ALIAS, enum_atoms, type_label, type_module


@dataclass(frozen=True)
class EnumView:
    module: str
    doc: str
    typespec: str  # `@type t :: ...`, laid out
    values: str  # `def values, do: [...]`, laid out
    decode_clauses: str  # laid out
    encode_clauses: str  # laid out
    encode_spec: str


def enum_view(enum: ir.EnumType, module: ir.Module) -> EnumView:
    decode_clauses: list[layout.Clause] = []
    encode_clauses: list[layout.Clause] = []
    if enum.atoms:
        atoms = [ex_atom(atom) for atom in enum_atoms(enum)]
        for value, atom in zip(enum.values, atoms, strict=True):
            ok = layout.Items("{", (":ok", atom))
            decode_clauses.append(layout.clause("def", "decode", ex_str(value.value), ok))
            encode_clauses.append(layout.clause("def", "to_json", atom, ex_str(value.value)))
        kept = ["{:unknown, String.t()}"] if enum.unknown else []
        typespec = layout.union_type("@type t", atoms + kept, 2)
        values = atoms
        if enum.unknown:  # an unlisted string stays a string: never an atom from input
            unknown = layout.Items("{", (":ok", layout.Items("{", (":unknown", "data"))))
            decode_clauses.append(
                layout.clause("def", "decode", "data", unknown, "is_binary(data)")
            )
            encode_clauses.append(
                layout.clause("def", "to_json", "{:unknown, value}", "value", "is_binary(value)")
            )
    else:
        for value in enum.values:
            ok = layout.Items("{", (":ok", "value"))
            decode_clauses.append(
                layout.clause("def", "decode", f"{ex_str(value.value)} = value", ok)
            )
            encode_clauses.append(
                layout.clause("def", "to_json", f"{ex_str(value.value)} = value", "value")
            )
        typespec = "@type t :: String.t()"
        if enum.unknown:  # strings stay strings: an unlisted one is kept as it is
            ok = layout.Items("{", (":ok", "data"))
            decode_clauses.append(layout.clause("def", "decode", "data", ok, "is_binary(data)"))
            encode_clauses.append(
                layout.clause("def", "to_json", "value", "value", "is_binary(value)")
            )
        values = [ex_str(value.value) for value in enum.values]
    expected = ", ".join(json.dumps(value.value, ensure_ascii=False) for value in enum.values)
    if enum.unknown is None:
        refused = layout.call(f"{RUNTIME_ALIAS}.unknown_value", "data", ex_str(expected))
        decode_clauses.append(layout.clause("def", "decode", "data", refused, "is_binary(data)"))
    error = layout.call(f"{RUNTIME_ALIAS}.type_error", '"string"', "data")
    decode_clauses.append(layout.clause("def", "decode", "data", error))
    values_clause = f"def values, do: [{', '.join(values)}]"
    if not layout.fits(values_clause, 2):
        values_clause = "def values,\n    " + layout.list_literal(values, 4, "do: ")
    doc = enum.doc or f"The {type_label(enum.name)} enumeration."
    if enum.atoms:
        listing = "\n".join(
            f"  * `{json.dumps(v.value, ensure_ascii=False)}` ↔ `:{atom}`"
            for v, atom in zip(enum.values, enum_atoms(enum), strict=True)
        )
        doc += "\n\nJSON strings and the atoms they decode to:\n\n" + listing
        if enum.unknown:
            doc += (
                "\n  * any other string ↔ `{:unknown, string}` (x-unknown: keep; "
                "no atom is made from input)"
            )
    else:
        listing = "\n".join(f"  * `{json.dumps(v.value, ensure_ascii=False)}`" for v in enum.values)
        doc += "\n\nValues (kept as strings):\n\n" + listing
        if enum.unknown:
            doc += "\n  * any other string, kept as it is (x-unknown: keep)"
    return EnumView(
        module=type_module(module, enum),
        doc=doc,
        typespec=typespec,
        values=values_clause,
        decode_clauses=clause_block(decode_clauses),
        encode_clauses=clause_block(encode_clauses),
        encode_spec="String.t()",
    )
