"""A union's alias, decoder body (a tag table lookup first, then the shared dispatch)
and encoder body; an open union's Unknown<Union> member."""

from __future__ import annotations

from polytype import ir
from polytype.ir import unions
from polytype.ir.wording import checks_text
from polytype.targets.base.render import py_str
from polytype.targets.python.common import named_annotation, unknown_doc, with_note
from polytype.targets.python.inline_checks import tag_lookup
from polytype.targets.python_dataclasses.encoders import DataclassCodecs
from polytype.targets.python_dataclasses.views import UnionView, UnknownView


def unknown_view(union: ir.UnionType) -> UnknownView:
    assert union.unknown is not None and union.open_tag is not None
    return UnknownView(union.unknown, unknown_doc(union), py_str(union.open_tag))


def union_view(union: ir.UnionType, codegen: DataclassCodecs) -> UnionView:
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    annotations = [named_annotation(codegen.module, name) for name in listed]
    members = " | ".join(annotations) if listed else "NoReturn"
    encode_body = _union_encode_body(union, codegen)
    checks = tuple(codegen.check_lines(union.schema_checks, "data"))  # before any dispatch
    doc = unions.documented(union, union.doc or f"One of: {', '.join(listed)}.")
    return UnionView(
        name=union.name,
        doc=with_note(doc, checks_text(union.schema_checks)),
        alias_value=members,
        decoder=codegen.checker(union.name),
        decode_body=checks
        + tag_lookup(union, codegen.tag_table_name(union))
        + codegen.union_body(union, with_checks=False),
        table_name=codegen.tag_table_name(union),
        table_entries=codegen.tag_table(union),
        encode_body=encode_body,
    )


def _union_encode_body(union: ir.UnionType, codegen: DataclassCodecs) -> tuple[str, ...]:
    if codegen.union_of_records(union):
        return ("return value.to_dict()",)
    if union.tries_members:  # members of one JSON type: the value says what it is
        return ("return _encode_tried(value)",)
    lines: list[str] = []
    if union.unknown:
        lines.append(f"if isinstance(value, {union.unknown}):")
        lines.append("    return value.to_dict()")
    # a member any value may be (free-form JSON) is checked last
    members = sorted(
        union.members, key=lambda member: codegen.python_classes(ir.Ref(member)) == "object"
    )
    for index, member in enumerate(members):
        encoded = codegen.encode(ir.Ref(member), "value")
        if index == len(members) - 1:
            lines.append(f"return {encoded}")
        else:
            lines.append(f"if isinstance(value, {codegen.python_classes(ir.Ref(member))}):")
            lines.append(f"    return {encoded}")
    return tuple(lines)
