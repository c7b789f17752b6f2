"""Target: stdlib dataclasses with exact, validating JSON codecs.

Everything a reader of the generated file sees is decided here and handed to
``templates/python_dataclasses/`` as view objects holding finished code
snippets; the templates only loop and print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator import ir
from generator.diagnostics import Diagnostic, InputError, Position
from generator.lower import json_type_of
from generator.render import RenderEnv, py_str
from generator.targets import OutputFile
from generator.targets.python_common import function_suffix, py_literal

TARGET = "python-dataclasses"


# --- views -----------------------------------------------------------------


@dataclass(frozen=True)
class FieldView:
    name: str
    annotation: str
    declaration_default: str  # "" or " = ..." after the annotation
    comment: str
    decode_arg: str  # keyword argument expression in the decoder ("" for tags)
    encode_lines: tuple[str, ...]  # statements appending to `out` in to_dict


@dataclass(frozen=True)
class RecordView:
    name: str
    doc: str
    frozen: bool
    fields: tuple[FieldView, ...]
    keeps_extra: bool
    tracks_presence: bool
    decoder: str
    public_decoder: str
    decode_prelude: tuple[str, ...]
    present_expr: str
    known_keys_name: str
    known_keys: str
    methods_template: str | None


@dataclass(frozen=True)
class EnumMemberView:
    name: str
    value: str


@dataclass(frozen=True)
class EnumView:
    name: str
    doc: str
    base: str  # "(str, Enum)", "(Enum)" or "" for Literal aliases
    members: tuple[EnumMemberView, ...]
    literal_values: str
    decoder: str
    values_name: str


@dataclass(frozen=True)
class UnionView:
    name: str
    doc: str
    alias_value: str
    decoder: str
    decode_body: tuple[str, ...]
    table_name: str
    table_entries: tuple[tuple[str, str], ...]
    encode_body: tuple[str, ...]


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    alias_value: str
    decoder: str
    decode_body: tuple[str, ...]
    encode_expr: str


@dataclass(frozen=True)
class HelperView:
    name: str
    signature: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class PublicView:
    type_name: str
    suffix: str
    private_decoder: str
    encode_expr: str
    is_record: bool


@dataclass
class _Codegen:
    """Collects helper functions and constants while snippets are produced."""

    module: ir.Module
    helpers: dict[str, HelperView] = field(default_factory=dict)
    patterns: dict[str, str] = field(default_factory=dict)

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    # annotations -------------------------------------------------------

    def annotation(self, type_ref: ir.TypeRef) -> str:
        if isinstance(type_ref, ir.Prim):
            return type_ref.kind
        if isinstance(type_ref, ir.ListOf):
            item = self.annotation(type_ref.item)
            return f"tuple[{item}, ...]" if type_ref.as_tuple else f"list[{item}]"
        if isinstance(type_ref, ir.MapOf):
            return f"dict[str, {self.annotation(type_ref.value)}]"
        if isinstance(type_ref, ir.Ref):
            return type_ref.name
        if isinstance(type_ref, ir.LiteralValue):
            return f"Literal[{py_literal(type_ref.value)}]"
        if isinstance(type_ref, ir.Nullable):
            return f"{self.annotation(type_ref.inner)} | None"
        if isinstance(type_ref, ir.AnyJSON):
            return "dict[str, JSONValue]" if type_ref.object_only else "JSONValue"
        return " | ".join(self.annotation(option) for option in type_ref.options)

    # decoders ----------------------------------------------------------

    def decoder(self, type_ref: ir.TypeRef) -> str:
        """The name of a function `(object) -> T` that decodes `type_ref`."""
        if isinstance(type_ref, ir.Prim):
            base = {"str": "_str", "int": "_int", "float": "_float", "bool": "_bool"}[type_ref.kind]
            if type_ref.constraints.is_empty():
                return base
            return self._constrained_prim(type_ref, base)
        if isinstance(type_ref, ir.Ref):
            return f"_decode_{function_suffix(type_ref.name)}"
        if isinstance(type_ref, ir.AnyJSON):
            return "_json_object" if type_ref.object_only else "_json_value"
        key = self.type_key(type_ref)
        name = f"_d_{key}"
        if name in self.helpers:
            return name
        annotation = self.annotation(type_ref)
        signature = f"def {name}(value: object) -> {annotation}:"
        self.helpers[name] = HelperView(name, signature, ())  # reserve before recursing
        if isinstance(type_ref, ir.ListOf):
            item = self.decoder(type_ref.item)
            expression = f"_list(value, {item})"
            if type_ref.as_tuple:
                expression = f"tuple({expression})"
            body = self._list_constraints(expression, type_ref.constraints)
        elif isinstance(type_ref, ir.MapOf):
            body = (f"return _map(value, {self.decoder(type_ref.value)})",)
        elif isinstance(type_ref, ir.Nullable):
            body = (f"return None if value is None else {self.decoder(type_ref.inner)}(value)",)
        elif isinstance(type_ref, ir.LiteralValue):
            body = (f"return cast({annotation}, _literal(value, {py_literal(type_ref.value)}))",)
        else:
            assert isinstance(type_ref, ir.InlineUnion)
            body = self._inline_union_body(type_ref)
        self.helpers[name] = HelperView(name, signature, body)
        return name

    def _constrained_prim(self, type_ref: ir.Prim, base: str) -> str:
        constraints = type_ref.constraints
        key = self.type_key(type_ref)
        name = f"_d_{key}"
        if name not in self.helpers:
            lines = [f"checked = {base}(value)"]
            if type_ref.kind == "str":
                if constraints.min_length is not None:
                    lines.append(f"if len(checked) < {constraints.min_length}:")
                    lines.append(
                        f'    raise DecodeError("must have at least {constraints.min_length} character(s)")'
                    )
                if constraints.max_length is not None:
                    lines.append(f"if len(checked) > {constraints.max_length}:")
                    lines.append(
                        f'    raise DecodeError("must have at most {constraints.max_length} character(s)")'
                    )
                if constraints.pattern is not None:
                    pattern = self.pattern_constant(constraints.pattern)
                    lines.append(f"if {pattern}.search(checked) is None:")
                    lines.append(
                        f'    raise DecodeError(f"does not match pattern {{{pattern}.pattern!r}}")'
                    )
            else:
                for attribute, operator, words in (
                    ("minimum", "<", "at least"),
                    ("maximum", ">", "at most"),
                    ("exclusive_minimum", "<=", "more than"),
                    ("exclusive_maximum", ">=", "less than"),
                ):
                    bound = getattr(constraints, attribute)
                    if bound is not None:
                        lines.append(f"if checked {operator} {bound!r}:")
                        lines.append(f'    raise DecodeError("must be {words} {bound!r}")')
            lines.append("return checked")
            annotation = self.annotation(ir.Prim(type_ref.kind))
            self.helpers[name] = HelperView(
                name, f"def {name}(value: object) -> {annotation}:", tuple(lines)
            )
        return name

    def _list_constraints(self, expression: str, constraints: ir.Constraints) -> tuple[str, ...]:
        if constraints.min_items is None and constraints.max_items is None:
            return (f"return {expression}",)
        lines = [f"items = {expression}"]
        if constraints.min_items is not None:
            lines.append(f"if len(items) < {constraints.min_items}:")
            lines.append(
                f'    raise DecodeError("must have at least {constraints.min_items} item(s)")'
            )
        if constraints.max_items is not None:
            lines.append(f"if len(items) > {constraints.max_items}:")
            lines.append(
                f'    raise DecodeError("must have at most {constraints.max_items} item(s)")'
            )
        lines.append("return items")
        return tuple(lines)

    def pattern_constant(self, pattern: str) -> str:
        if pattern not in self.patterns:
            self.patterns[pattern] = f"_PATTERN_{len(self.patterns)}"
        return self.patterns[pattern]

    def _inline_union_body(self, union: ir.InlineUnion) -> tuple[str, ...]:
        lines: list[str] = []
        expected: list[str] = []
        for option in union.options:
            for json_type in sorted(json_type_of(option, {t.name: t for t in self.module.types})):
                check = _JSON_TYPE_CHECKS[json_type]
                lines.append(f"if {check}:")
                lines.append(f"    return {self.decoder(option)}(value)")
                expected.append(json_type)
        lines.append(f"raise _type_error({py_str(' or '.join(_dedupe(expected)))}, value)")
        return tuple(lines)

    def type_key(self, type_ref: ir.TypeRef) -> str:
        """A stable identifier fragment describing `type_ref` (names helper functions)."""
        if isinstance(type_ref, ir.Prim):
            key: str = type_ref.kind
            if not type_ref.constraints.is_empty():
                key += "_" + _constraint_key(type_ref.constraints, self)
            return key
        if isinstance(type_ref, ir.ListOf):
            key = ("tuple_" if type_ref.as_tuple else "list_") + self.type_key(type_ref.item)
            if (
                type_ref.constraints.min_items is not None
                or type_ref.constraints.max_items is not None
            ):
                key += "_" + _constraint_key(type_ref.constraints, self)
            return key
        if isinstance(type_ref, ir.MapOf):
            return "map_" + self.type_key(type_ref.value)
        if isinstance(type_ref, ir.Ref):
            return function_suffix(type_ref.name)
        if isinstance(type_ref, ir.LiteralValue):
            return "lit_" + re.sub(r"\W", "_", str(type_ref.value))
        if isinstance(type_ref, ir.Nullable):
            return "opt_" + self.type_key(type_ref.inner)
        if isinstance(type_ref, ir.AnyJSON):
            return "json_object" if type_ref.object_only else "json"
        return "union_" + "_or_".join(self.type_key(option) for option in type_ref.options)

    # encoders ----------------------------------------------------------

    def encode(self, type_ref: ir.TypeRef, expression: str, depth: int = 0) -> str:
        """An expression turning `expression` (a Python value of `type_ref`) into JSON data."""
        if isinstance(type_ref, (ir.Prim, ir.LiteralValue, ir.AnyJSON)):
            return expression
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.Record):
                return f"{expression}.to_dict()"
            if isinstance(named, ir.EnumType):
                return expression if named.style == "literal" else f"{expression}.value"
            if isinstance(named, ir.Alias) and self.encode(named.type, "x") == "x":
                return expression
            return f"encode_{function_suffix(named.name)}({expression})"
        if isinstance(type_ref, ir.ListOf):
            item = f"item{depth}"
            inner = self.encode(type_ref.item, item, depth + 1)
            if inner == item:
                return f"list({expression})"
            return f"[{inner} for {item} in {expression}]"
        if isinstance(type_ref, ir.MapOf):
            item = f"value{depth}"
            inner = self.encode(type_ref.value, item, depth + 1)
            if inner == item:
                return f"dict({expression})"
            return f"{{key{depth}: {inner} for key{depth}, {item} in {expression}.items()}}"
        if isinstance(type_ref, ir.Nullable):
            inner = self.encode(type_ref.inner, expression, depth)
            if inner == expression:
                return expression
            return f"None if {expression} is None else {inner}"
        return f"{self.inline_union_encoder(type_ref)}({expression})"

    def inline_union_encoder(self, union: ir.InlineUnion) -> str:
        name = f"_e_{self.type_key(union)}"
        if name in self.helpers:
            return name
        signature = f"def {name}(value: {self.annotation(union)}) -> JSONValue:"
        self.helpers[name] = HelperView(name, signature, ())
        lines: list[str] = []
        ordered = sorted(union.options, key=self._isinstance_priority)
        for index, option in enumerate(ordered):
            encoded = self.encode(option, "value", 1)
            if index == len(ordered) - 1:
                lines.append(f"return {encoded}")
            else:
                lines.append(f"if isinstance(value, {self.python_classes(option)}):")
                lines.append(f"    return {encoded}")
        self.helpers[name] = HelperView(name, signature, tuple(lines))
        return name

    def _isinstance_priority(self, type_ref: ir.TypeRef) -> int:
        # bool before int before float; enums (str subclasses) before str
        if isinstance(type_ref, ir.Ref):
            return 0
        if isinstance(type_ref, ir.Prim):
            return {"bool": 1, "int": 2, "float": 3, "str": 4}[type_ref.kind]
        return 5

    def python_classes(self, type_ref: ir.TypeRef) -> str:
        if isinstance(type_ref, ir.Prim):
            return {"str": "str", "int": "int", "float": "(int, float)", "bool": "bool"}[
                type_ref.kind
            ]
        if isinstance(type_ref, ir.ListOf):
            return "tuple" if type_ref.as_tuple else "list"
        if isinstance(type_ref, (ir.MapOf, ir.AnyJSON)):
            return "dict"
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.UnionType):
                return "(" + ", ".join(self.python_classes(ir.Ref(m)) for m in named.members) + ")"
            if isinstance(named, ir.Alias):
                return self.python_classes(named.type)
            if isinstance(named, ir.EnumType) and named.style == "literal":
                return "str"
            return named.name
        return "object"


def _constraint_key(constraints: ir.Constraints, codegen: _Codegen) -> str:
    parts = []
    for attribute, short in (
        ("min_length", "minlen"),
        ("max_length", "maxlen"),
        ("minimum", "min"),
        ("maximum", "max"),
        ("exclusive_minimum", "xmin"),
        ("exclusive_maximum", "xmax"),
        ("min_items", "minitems"),
        ("max_items", "maxitems"),
    ):
        value = getattr(constraints, attribute)
        if value is not None:
            parts.append(f"{short}{str(value).replace('.', 'p').replace('-', 'm')}")
    if constraints.pattern is not None:
        parts.append("re" + codegen.pattern_constant(constraints.pattern).rsplit("_", 1)[-1])
    return "_".join(parts)


_JSON_TYPE_CHECKS = {
    "string": "type(value) is str",
    "integer": "type(value) is int",
    "number": "type(value) is float or type(value) is int",
    "boolean": "type(value) is bool",
    "array": "type(value) is list",
    "object": "type(value) is dict",
    "null": "value is None",
}


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# --- building views --------------------------------------------------------


def _record_view(record: ir.Record, codegen: _Codegen, methods_template: str | None) -> RecordView:
    suffix = function_suffix(record.name)
    known_keys_name = f"_{suffix.upper()}_KEYS"
    fields: list[FieldView] = []
    deferred: list[FieldView] = []
    prelude: list[str] = ["obj = _object(data)"]
    optional_keys: list[str] = []
    alias_pairs: list[tuple[str, str]] = []
    for item in record.fields:
        view, is_optional = _field_view(item, record, codegen)
        if item.is_tag:
            assert isinstance(item.type, ir.LiteralValue)
            prelude.append(f"_tag(obj, {py_str(item.json_key)}, {py_literal(item.type.value)})")
        if not item.required:
            optional_keys.append(item.json_key)
        alias_pairs.extend((alias, item.json_key) for alias in item.aliases)
        (deferred if is_optional else fields).append(view)
    if record.extra_policy == "forbid":
        prelude.append(f"_forbid_unknown(obj, {known_keys_name})")
    tracks_presence = bool(optional_keys or alias_pairs)
    optional_literal = (
        "frozenset({" + ", ".join(py_str(k) for k in optional_keys) + "})"
        if optional_keys
        else "frozenset()"
    )
    aliases_literal = "{" + ", ".join(f"{py_str(a)}: {py_str(k)}" for a, k in alias_pairs) + "}"
    present_expr = (
        f"_present_keys(obj, {optional_literal}, {aliases_literal})" if tracks_presence else ""
    )
    all_keys = [item.json_key for item in record.fields] + [a for a, _ in alias_pairs]
    known = (
        "frozenset({" + ", ".join(py_str(k) for k in all_keys) + "})" if all_keys else "frozenset()"
    )
    return RecordView(
        name=record.name,
        doc=record.doc or f"The {record.name} record.",
        frozen=record.frozen,
        fields=tuple(fields + deferred),
        keeps_extra=record.extra_policy == "keep",
        tracks_presence=tracks_presence,
        decoder=f"_decode_{suffix}",
        public_decoder=f"decode_{suffix}",
        decode_prelude=tuple(prelude),
        present_expr=present_expr,
        known_keys_name=known_keys_name,
        known_keys=known,
        methods_template=methods_template,
    )


def _field_view(item: ir.Field, record: ir.Record, codegen: _Codegen) -> tuple[FieldView, bool]:
    """The declaration, decode argument and encode statements of one field."""
    annotation = codegen.annotation(item.type)
    comment = item.doc
    key = py_str(item.json_key)
    attribute = f"self.{item.py_name}"
    if item.is_tag:
        assert isinstance(item.type, ir.LiteralValue)
        literal = py_literal(item.type.value)
        return (
            FieldView(
                name=item.py_name,
                annotation=annotation,
                declaration_default=f" = field(default={literal}, init=False)",
                comment=comment,
                decode_arg="",
                encode_lines=(f"out[{key}] = {literal}",),
            ),
            False,
        )
    decoder = codegen.decoder(item.type)
    spelling = key
    if item.aliases:
        spellings = "(" + ", ".join(py_str(s) for s in (item.json_key, *item.aliases)) + ",)"
        spelling = f"_spelling(self._present, {spellings})"
    encoded = codegen.encode(item.type, attribute)
    if item.required:
        if item.aliases:
            spellings = "(" + ", ".join(py_str(s) for s in (item.json_key, *item.aliases)) + ",)"
            decode_arg = f"{item.py_name}=_required_aliased(obj, {spellings}, {decoder})"
        else:
            decode_arg = f"{item.py_name}=_required(obj, {key}, {decoder})"
        view = FieldView(
            name=item.py_name,
            annotation=annotation,
            declaration_default="",
            comment=comment,
            decode_arg=decode_arg,
            encode_lines=(f"out[{spelling}] = {encoded}",),
        )
        return view, False
    # optional: absent reads as the default (or None)
    default_python, declaration, comparison = _default_code(item, record, codegen)
    if item.default is None and not isinstance(item.type, ir.Nullable):
        annotation = f"{annotation} | None"
        encoded = codegen.encode(item.type, attribute)
    if item.aliases:
        spellings = "(" + ", ".join(py_str(s) for s in (item.json_key, *item.aliases)) + ",)"
        decode_arg = (
            f"{item.py_name}=_optional_aliased(obj, {spellings}, {decoder}, {default_python})"
        )
    else:
        decode_arg = f"{item.py_name}=_optional(obj, {key}, {decoder}, {default_python})"
    if item.default is None and not isinstance(item.type, ir.Nullable) and encoded != attribute:
        # the attribute is `T | None`; None only when absent, which the condition excludes
        encoded = codegen.encode(ir.Nullable(item.type), attribute)
    condition = f"{key} in self._present or {attribute} {comparison}"
    lines = (f"if {condition}:", f"    out[{spelling}] = {encoded}")
    view = FieldView(
        name=item.py_name,
        annotation=annotation,
        declaration_default=declaration,
        comment=comment,
        decode_arg=decode_arg,
        encode_lines=lines,
    )
    return view, True


def _default_code(item: ir.Field, record: ir.Record, codegen: _Codegen) -> tuple[str, str, str]:
    """(expression used by the decoder, declaration suffix, comparison against the default)."""
    if item.default is None or item.default.value is None:
        return "None", " = None", "is not None"
    value = item.default.value
    target = item.type.inner if isinstance(item.type, ir.Nullable) else item.type
    if isinstance(target, ir.Ref):
        named = codegen.named(target.name)
        if isinstance(named, ir.EnumType) and isinstance(value, str):
            member = next(v for v in named.values if v.value == value)
            expression = (
                py_literal(value) if named.style == "literal" else f"{named.name}.{member.py_name}"
            )
            return expression, f" = {expression}", f"!= {expression}"
        if isinstance(named, ir.Record):
            expression = f"{codegen.decoder(target)}({py_literal(value)})"
            return expression, f" = field(default_factory=lambda: {expression})", f"!= {expression}"
    if isinstance(target, ir.ListOf) and target.as_tuple:
        expression = f"tuple({py_literal(value)})" if value != () else "()"
        return expression, f" = {expression}", f"!= {expression}"
    if isinstance(value, (tuple, ir.FrozenJSONObject)):
        literal = py_literal(value)
        factory = {"[]": "list", "{}": "dict"}.get(literal, f"lambda: {literal}")
        return literal, f" = field(default_factory={factory})", f"!= {literal}"
    literal = py_literal(value)
    return literal, f" = {literal}", f"!= {literal}"


def _enum_view(enum: ir.EnumType) -> EnumView:
    suffix = function_suffix(enum.name)
    base = {"str": "(str, Enum)", "plain": "(Enum)", "literal": ""}[enum.style]
    return EnumView(
        name=enum.name,
        doc=enum.doc or f"The {enum.name} enumeration.",
        base=base,
        members=tuple(EnumMemberView(value.py_name, py_str(value.value)) for value in enum.values),
        literal_values=", ".join(py_str(value.value) for value in enum.values),
        decoder=f"_decode_{suffix}",
        values_name=f"_{suffix.upper()}_VALUES",
    )


def _union_view(union: ir.UnionType, codegen: _Codegen) -> UnionView:
    suffix = function_suffix(union.name)
    table = f"_{suffix.upper()}_BY_TAG"
    members = " | ".join(union.members) if union.members else "NoReturn"
    if union.tag is not None:
        entries = tuple(
            (py_literal(value), f"_decode_{function_suffix(member)}")
            for value, member in union.tag_values
        )
        body: tuple[str, ...] = (
            "obj = _object(data)",
            f"return _dispatch(obj, {py_str(union.tag)}, {table})(obj)",
        )
    else:
        entries = ()
        body = _structural_body(union, codegen)
    encode_body = _union_encode_body(union, codegen)
    return UnionView(
        name=union.name,
        doc=union.doc or f"One of: {', '.join(union.members)}.",
        alias_value=members,
        decoder=f"_decode_{suffix}",
        decode_body=body,
        table_name=table,
        table_entries=entries,
        encode_body=encode_body,
    )


def _structural_body(union: ir.UnionType, codegen: _Codegen) -> tuple[str, ...]:
    lines: list[str] = []
    object_cases = [case for case in union.cases if case.json_type == "object"]
    other_cases = [case for case in union.cases if case.json_type != "object"]
    if object_cases:
        lines.append("if type(data) is dict:")
        for case in object_cases:
            decoder = f"_decode_{function_suffix(case.member)}"
            if case.tag_key is not None:
                lines.append(
                    f"    if data.get({py_str(case.tag_key)}) == {py_literal(case.tag_value)}:"
                )
                lines.append(f"        return {decoder}(data)")
            elif case.key is not None:
                lines.append(f"    if {py_str(case.key)} in data:")
                lines.append(f"        return {decoder}(data)")
            else:
                lines.append(f"    return {decoder}(data)")
        if not any(case.tag_key is None and case.key is None for case in object_cases):
            hints = [
                (
                    f"{case.tag_key}={case.tag_value!r}"
                    if case.tag_key is not None
                    else f"key {case.key!r}"
                )
                for case in object_cases
            ]
            message = f"matches no member of {union.name} (expected {', '.join(hints)})"
            lines.append(f"    raise DecodeError({py_str(message)})")
    expected: list[str] = ["object"] if object_cases else []
    for case in other_cases:
        lines.append(f"if {_JSON_TYPE_CHECKS[case.json_type]}:")
        lines.append(f"    return _decode_{function_suffix(case.member)}(data)")
        expected.append(case.json_type)
    lines.append(f"raise _type_error({py_str(' or '.join(_dedupe(expected)))}, data)")
    return tuple(lines)


def _union_encode_body(union: ir.UnionType, codegen: _Codegen) -> tuple[str, ...]:
    if all(
        isinstance(codegen.named(member), (ir.Record, ir.UnionType))
        and _all_records(member, codegen)
        for member in union.members
    ):
        return ("return value.to_dict()",)
    lines: list[str] = []
    for index, member in enumerate(union.members):
        encoded = codegen.encode(ir.Ref(member), "value")
        if index == len(union.members) - 1:
            lines.append(f"return {encoded}")
        else:
            lines.append(f"if isinstance(value, {codegen.python_classes(ir.Ref(member))}):")
            lines.append(f"    return {encoded}")
    return tuple(lines)


def _all_records(name: str, codegen: _Codegen) -> bool:
    named = codegen.named(name)
    if isinstance(named, ir.Record):
        return True
    if isinstance(named, ir.UnionType):
        return all(_all_records(member, codegen) for member in named.members)
    return False


def _alias_view(alias: ir.Alias, codegen: _Codegen) -> AliasView:
    suffix = function_suffix(alias.name)
    return AliasView(
        name=alias.name,
        doc=alias.doc or f"The {alias.name} type.",
        alias_value=codegen.annotation(alias.type),
        decoder=f"_decode_{suffix}",
        decode_body=(f"return {codegen.decoder(alias.type)}(data)",),
        encode_expr=codegen.encode(alias.type, "value"),
    )


def _public_view(named: ir.NamedType, codegen: _Codegen) -> PublicView:
    suffix = function_suffix(named.name)
    if isinstance(named, ir.Record):
        encode_expr = "value.to_dict()"
    elif isinstance(named, ir.EnumType):
        encode_expr = "value" if named.style == "literal" else "value.value"
    elif isinstance(named, ir.UnionType):
        encode_expr = ""
    else:
        encode_expr = codegen.encode(named.type, "value")
    return PublicView(
        named.name, suffix, f"_decode_{suffix}", encode_expr, isinstance(named, ir.Record)
    )


def _alias_order(module: ir.Module) -> list[ir.NamedType]:
    """Unions and aliases in an order where each is defined after the aliases it names."""
    pending = [t for t in module.types if isinstance(t, (ir.UnionType, ir.Alias))]
    names = {t.name for t in pending}
    ordered: list[ir.NamedType] = []
    done: set[str] = set()
    while pending:
        progressed = False
        for named in list(pending):
            deps = _alias_dependencies(named) & names
            if deps <= done:
                ordered.append(named)
                done.add(named.name)
                pending.remove(named)
                progressed = True
        if not progressed:  # a cycle among aliases: keep source order
            ordered.extend(pending)
            break
    return ordered


def _alias_dependencies(named: ir.NamedType) -> set[str]:
    if isinstance(named, ir.UnionType):
        return set(named.members)
    assert isinstance(named, ir.Alias)
    return _refs(named.type)


def _refs(type_ref: ir.TypeRef) -> set[str]:
    if isinstance(type_ref, ir.Ref):
        return {type_ref.name}
    if isinstance(type_ref, (ir.ListOf,)):
        return _refs(type_ref.item)
    if isinstance(type_ref, ir.MapOf):
        return _refs(type_ref.value)
    if isinstance(type_ref, ir.Nullable):
        return _refs(type_ref.inner)
    if isinstance(type_ref, ir.InlineUnion):
        return set().union(*(_refs(option) for option in type_ref.options))
    return set()


def module_path(module: ir.Module) -> str:
    return f"python/{module.name}/dataclass_models.py"


def _check_method_blocks(module: ir.Module, env: RenderEnv) -> None:
    problems = []
    for named in module.types:
        if (
            isinstance(named, ir.Record)
            and named.methods
            and not env.has_template(_methods_template(named.methods))
        ):
            source = named.source or ir.SourceRef(module.schema_path, 1, 1, "")
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer + "/x-python/methods",
                    f"no methods block {named.methods!r}: expected templates/{_methods_template(named.methods)}",
                )
            )
    if problems:
        raise InputError(problems)


def _methods_template(block: str) -> str:
    return f"python_dataclasses/methods/{block}.py.j2"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    _check_method_blocks(module, env)
    codegen = _Codegen(module)
    enums = [_enum_view(t) for t in module.types if isinstance(t, ir.EnumType)]
    records = [
        _record_view(t, codegen, _methods_template(t.methods) if t.methods else None)
        for t in module.types
        if isinstance(t, ir.Record)
    ]
    aliases_in_order = _alias_order(module)
    unions = {
        t.name: _union_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.UnionType)
    }
    aliases = {t.name: _alias_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.Alias)}
    ordered_aliases = [
        (unions.get(t.name) or aliases[t.name], isinstance(t, ir.UnionType))
        for t in aliases_in_order
    ]
    publics = [_public_view(t, codegen) for t in module.types]
    union_encoders = {
        t.name: unions[t.name].encode_body for t in module.types if isinstance(t, ir.UnionType)
    }
    exported = ["DecodeError", "JSONValue"] + [t.name for t in module.types]
    exported += [f"decode_{p.suffix}" for p in publics] + [f"encode_{p.suffix}" for p in publics]
    text = env.render(
        "python_dataclasses/module.py.j2",
        module=module,
        enums=enums,
        records=records,
        ordered_aliases=ordered_aliases,
        unions=[unions[name] for name in unions],
        aliases=[aliases[name] for name in aliases],
        publics=publics,
        union_encoders=union_encoders,
        helpers=sorted(codegen.helpers.values(), key=lambda h: h.name),
        patterns=sorted(codegen.patterns.items(), key=lambda item: item[1]),
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        uses_enum=any(e.base for e in enums),
        uses_literal=True,
    )
    return [OutputFile(module_path(module), text, TARGET, module.name, "python")]
