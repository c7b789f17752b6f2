"""One field of a dataclass: its declaration and default, the statements that
decode it in place (scalars checked with `type(...) is ...`), and its encoder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from polytype import ir
from polytype.ir.wording import unchecked
from polytype.targets.base.formatting import LINE_LENGTH
from polytype.targets.base.render import py_str
from polytype.targets.python.common import (
    constraint_note,
    holds_free_json,
    literal_fits,
    py_literal,
    with_note,
)
from polytype.targets.python.inline_checks import scalar_check
from polytype.targets.python.names import enum_member
from polytype.targets.python_dataclasses.encoders import DataclassCodecs
from polytype.targets.python_dataclasses.views import FieldView


@dataclass(frozen=True)
class InlineDecode:
    """Statements that decode one field in place. For a required field the first one is
    `fetched = obj.get(key, _ABSENT)`, which the record's decoder may hoist."""

    lines: tuple[str, ...]
    fetched: str = ""
    # an optional field's statements for when its key is known to be present, storing the
    # value into the instance (`result.<field>`)
    present: tuple[str, ...] = ()


def _inline_call(
    item: ir.Field, local: str, default: str, codegen: DataclassCodecs, annotation: str, slot: str
) -> InlineDecode:
    """A field decoded by its decoder function, or an array of them by a comprehension."""
    key = py_str(item.json_key)
    raw = "v" + local[1:]
    type_ref = item.type
    lines = [f"{raw} = obj.get({key}, _ABSENT)"]
    if item.required:
        first = "if"
        lines += [f"if {raw} is _ABSENT:", f'    raise _field_error({raw}, "", {key})']
    else:
        first = "elif"
        lines += [f"if {raw} is _ABSENT:", f"    {local}: {annotation} = {default}"]
    if (
        isinstance(type_ref, ir.ListOf)
        and not type_ref.as_tuple
        and not type_ref.constraints.checks_items()
        # items that can only be null: a checker refuses the value of a call typed
        # `-> None` in a comprehension, so such a list takes the generic decoder
        and codegen.annotation(type_ref.item) != "None"
    ):
        decode = codegen.decoder(type_ref.item)
        if first == "if":
            lines += [
                f"if type({raw}) is not list:",
                f'    raise _field_error({raw}, "array", {key})',
            ]
            body_indent = ""
        else:
            lines += [
                f"elif type({raw}) is not list:",
                f'    raise _field_error({raw}, "array", {key})',
                "else:",
            ]
            body_indent = "    "
        lines += [
            f"{body_indent}try:",
            f"{body_indent}    {local} = [{decode}(item) for item in {raw}]",
            f"{body_indent}except DecodeError:",
            f"{body_indent}    raise _item_error({raw}, {decode}, {key}) from None",
        ]
        present: tuple[str, ...] = (
            f"{raw} = obj[{key}]",
            f"if type({raw}) is not list:",
            f'    raise _field_error({raw}, "array", {key})',
            "try:",
            f"    {slot} = [{decode}(item) for item in {raw}]",
            "except DecodeError:",
            f"    raise _item_error({raw}, {decode}, {key}) from None",
        )
        return InlineDecode(tuple(lines), raw if item.required else "", present)
    decode = codegen.decoder(type_ref)
    body_indent = "" if first == "if" else "    "
    if first != "if":
        lines.append("else:")
    lines += [
        f"{body_indent}try:",
        f"{body_indent}    {local} = {decode}({raw})",
        f"{body_indent}except DecodeError as error:",
        f"{body_indent}    raise error.at(_segment({key})) from None",
    ]
    present = (
        "try:",
        f"    {slot} = {decode}(obj[{key}])",
        "except DecodeError as error:",
        f"    raise error.at(_segment({key})) from None",
    )
    return InlineDecode(tuple(lines), raw if item.required else "", present)


def _inline_decode(
    item: ir.Field, local: str, default: str, codegen: DataclassCodecs, annotation: str, slot: str
) -> InlineDecode | None:
    """In-place checks for a field (see `records._decode_body`), or None to call
    `_required`/`_optional`; `slot` is the instance attribute a present optional key is
    stored into."""
    if item.aliases or codegen.null_only(item.type):
        return None  # `type: null` alone: mypy refuses a `-> None` call used as a value
    nullable = isinstance(item.type, ir.Nullable)
    check = scalar_check(item.type, local)
    if check is None:
        return _inline_call(item, local, default, codegen, annotation, slot)
    wrong, expected = check
    key = py_str(item.json_key)
    error = f'raise _field_error({local}, "{expected}", {key})'
    if item.required:
        return InlineDecode(
            (f"{local} = obj.get({key}, _ABSENT)", f"if {wrong}:", f"    {error}"), local
        )
    present = (f"{local} = obj[{key}]", f"if {wrong}:", f"    {error}", f"{slot} = {local}")
    if nullable and default == "None":
        # absent and null both decode to None (presence tracking tells them apart)
        return InlineDecode(
            (f"{local} = obj.get({key})", f"if {wrong}:", f"    {error}"), "", present
        )
    return InlineDecode(
        (
            f"{local} = obj.get({key}, _ABSENT)",
            f"if {wrong}:",
            f"    if {local} is not _ABSENT:",
            f"        {error}",
            f"    {local} = {default}",
        ),
        "",
        present,
    )


def field_view(
    item: ir.Field, name: str, record: ir.Record, codegen: DataclassCodecs
) -> tuple[FieldView, bool]:
    """The declaration, decode argument and encode statements of one field (`name`:
    its Python attribute)."""
    annotation = codegen.annotation(item.type)
    comment = with_note(item.doc, constraint_note(item.type))
    key = py_str(item.json_key)
    attribute = f"self.{name}"
    if item.is_tag:
        assert isinstance(item.type, ir.LiteralValue)
        literal = py_literal(item.type.value)
        return (
            FieldView(
                name=name,
                annotation=annotation,
                declaration_default=f" = field(default={literal}, init=False)",
                comment=comment,
                decode_arg="",
                encode_lines=(f"out[{key}] = {literal}",),
                tag_literal=literal,
            ),
            False,
        )
    # A key with aliases is written in the spelling that came in, chosen first: as the
    # subscript of a long assignment, the call would be laid out differently by ruff and black.
    spelling = key
    choose: tuple[str, ...] = ()
    if item.aliases:
        spellings = ", ".join(py_str(s) for s in (item.json_key, *item.aliases))
        choose = (f"spelling = _spelling(self._present, ({spellings}))",)
        spelling = "spelling"
    encoded = codegen.encode(item.type, attribute)
    local = f"f_{name}"
    if item.required:
        decode_arg = f"{name}={codegen.field_check(item)}"
        inline = _inline_decode(item, local, "None", codegen, annotation, f"result.{name}")
        view = FieldView(
            name=name,
            annotation=annotation,
            declaration_default="",
            comment=comment,
            decode_arg=decode_arg,
            encode_lines=(*choose, f"out[{spelling}] = {encoded}"),
            decode_lines=(inline.lines if inline else (f"{local} = {codegen.field_check(item)}",)),
            local=local,
            fetch=(inline.fetched, key) if inline and inline.fetched else None,
        )
        return view, False
    # optional: absent reads as the default (or None)
    default_python, declaration, comparison = _default_code(item, record, codegen)
    if item.default is None and not isinstance(item.type, ir.Nullable) and annotation != "None":
        annotation = f"{annotation} | None"
        encoded = codegen.encode(item.type, attribute)
    decode_arg = f"{name}={codegen.field_check(item, default_python)}"
    if item.default is None and not isinstance(item.type, ir.Nullable) and encoded != attribute:
        # the attribute is `T | None`; None only when absent, which the condition excludes
        encoded = codegen.encode(ir.Nullable(item.type), attribute)
    if not declaration.startswith(" = field(") and (
        len(f"    {name}: {annotation}{declaration}") > LINE_LENGTH
    ):
        # `name: T = <long literal>`: black wraps the literal in parentheses, ruff does not;
        # both lay out a call the same way
        declaration = f" = field(default={default_python})"
    condition = f"{key} in self._present or {attribute} {comparison}"
    lines = (
        f"if {condition}:",
        *("    " + line for line in choose),
        f"    out[{spelling}] = {encoded}",
    )
    # annotated when the default alone would make mypy infer too narrow a type (`()`, `{}`)
    declared = f": {annotation}" if default_python != "None" else ""
    inline = _inline_decode(item, local, default_python, codegen, annotation, f"result.{name}")
    decode_lines = (
        inline.lines
        if inline
        else (f"{local}{declared} = {codegen.field_check(item, default_python)}",)
    )
    view = FieldView(
        name=name,
        annotation=annotation,
        declaration_default=declaration,
        comment=comment,
        decode_arg=decode_arg,
        encode_lines=lines,
        decode_lines=decode_lines,
        local=local,
        default=default_python,
        present_lines=inline.present if inline else (),
    )
    return view, True


def _default_code(
    item: ir.Field, record: ir.Record, codegen: DataclassCodecs
) -> tuple[str, str, str]:
    """(expression used by the decoder, declaration suffix, comparison against the default)."""
    if item.default is None or item.default.value is None:
        return "None", " = None", "is not None"
    value = item.default.value
    target = unchecked(item.type.inner if isinstance(item.type, ir.Nullable) else item.type)
    match target:
        case ir.Ref():
            named = codegen.named(target.name)
            if isinstance(named, ir.EnumType) and isinstance(value, str):
                expression = (
                    py_literal(value)
                    if named.style == "literal"
                    else f"{named.name}.{enum_member(named, value)}"
                )
                return expression, f" = {expression}", f"!= {expression}"
            if isinstance(named, ir.Record):
                expression = f"{codegen.decoder(target)}({py_literal(value)})"
                return (
                    expression,
                    f" = field(default_factory=lambda: {expression})",
                    f"!= {expression}",
                )
        case ir.TupleOf() if isinstance(value, tuple):
            expression = f"{codegen.decoder(target)}({py_literal(value)})"
            return expression, f" = field(default_factory=lambda: {expression})", f"!= {expression}"
        case ir.ListOf() if target.as_tuple:
            expression = f"tuple({py_literal(value)})" if value != () else "()"
            return expression, f" = {expression}", f"!= {expression}"
        case ir.Prim() | ir.ListOf() | ir.TupleOf() | ir.MapOf() | ir.LiteralValue():
            pass  # the default's JSON as a Python literal (below)
        case ir.JsonLiterals() | ir.Nullable() | ir.AnyJSON() | ir.InlineUnion() | ir.Checked():
            pass
        case _ as unreachable:
            assert_never(unreachable)
    if not literal_fits(target, codegen.module):  # an Enum member or a record inside
        expression = f"{codegen.decoder(target)}({py_literal(value)})"
        return expression, f" = field(default_factory=lambda: {expression})", f"!= {expression}"
    if isinstance(value, (tuple, ir.FrozenJSONObject)):
        literal = py_literal(value)
        factory = {"[]": "list", "{}": "dict"}.get(literal, f"lambda: {literal}")
        if factory.startswith("lambda") and holds_free_json(item.type, codegen.module):
            # against a union (`JSONValue`, `X | None`) mypy infers the lambda alone
            # (`dict[str, list[str]]`), which is not the field's type (invariant)
            factory = f"lambda: cast({py_str(codegen.annotation(item.type))}, {literal})"
        return literal, f" = field(default_factory={factory})", f"!= {literal}"
    literal = py_literal(value)
    if isinstance(value, bool):
        return literal, f" = {literal}", f"is not {literal}"  # `!= True`: ruff E712
    return literal, f" = {literal}", f"!= {literal}"
