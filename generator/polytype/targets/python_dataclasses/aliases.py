"""Named non-record types as aliases with a decoder and an encoder, and the unions
and aliases in the order they are written (a forward reference quoted)."""

from __future__ import annotations

from dataclasses import replace

from polytype import ir
from polytype.targets.base.render import py_str
from polytype.targets.python.common import constraint_note, with_note
from polytype.targets.python_dataclasses.encoders import DataclassCodecs
from polytype.targets.python_dataclasses.views import AliasView, UnionView


def alias_view(alias: ir.Alias, codegen: DataclassCodecs) -> AliasView:
    return AliasView(
        name=alias.name,
        doc=with_note(alias.doc or f"The {alias.name} type.", constraint_note(alias.type)),
        alias_value=codegen.annotation(alias.type),
        decoder=codegen.checker(alias.name),
        decode_body=tuple(codegen.returning(f"{codegen.decoder(alias.type)}(data)", alias.type)),
        encode_expr=codegen.encode(alias.type, "value"),
    )


def quote_forward(
    in_order: list[ir.NamedType],
    unions: dict[str, UnionView],
    aliases: dict[str, AliasView],
    quoted: frozenset[str],
) -> list[tuple[UnionView | AliasView, bool]]:
    """(view, is_union) in order; the `quoted` ones (`alias_order.string_aliases`: naming an
    alias not yet defined, or a quoted one) as strings, so the module still imports."""
    ordered: list[tuple[UnionView | AliasView, bool]] = []
    for named in in_order:
        view: UnionView | AliasView = unions.get(named.name) or aliases[named.name]
        if named.name in quoted:
            view = replace(view, alias_value=py_str(view.alias_value))
        ordered.append((view, isinstance(named, ir.UnionType)))
    return ordered
