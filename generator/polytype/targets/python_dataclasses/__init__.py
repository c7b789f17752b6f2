"""Target: stdlib dataclasses with exact, validating JSON codecs.

Everything a reader of the generated file sees is decided here and handed to
``templates/python_dataclasses/`` as view objects holding finished code
snippets; the templates only loop and print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.ir import unions
from polytype.ir.wording import checks_text, unchecked
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.formatting import LINE_LENGTH
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.alias_order import alias_dependencies, alias_order
from polytype.targets.python.checks import runtime_parts
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.common import (
    EnumView,
    constraint_note,
    enum_view_fields,
    isort_names,
    py_literal,
    python_constants,
    record_doc,
    unknown_doc,
    with_note,
)
from polytype.targets.python.literal_types import literal_classes
from polytype.targets.python.snippet_views import HelperView, RecordChecks

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
    decode_lines: tuple[str, ...] = ()  # statements leaving the decoded value in `local`
    # (variable, key) of a required field whose decode_lines[0] is `variable = obj.get(key,
    # _ABSENT)`: `_hoist_required_fetches` moves that read into one `try` per record
    fetch: tuple[str, str] | None = None
    local: str = ""  # the decoder's local variable for this field ("" for tags)
    tag_literal: str = ""  # the fixed value of a tag field


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
    extra_check: str
    known_keys_name: str
    known_keys: str
    methods_template: str | None
    decode_body: tuple[str, ...] = ()
    optional_keys_name: str = ""
    optional_keys: tuple[str, ...] = ()

    @property
    def known_keys_statement(self) -> str:
        """`_X_KEYS = frozenset({...})` (laid out by the formatter)."""
        return f"{self.known_keys_name} = {self.known_keys}"

    @property
    def optional_keys_statement(self) -> str:
        """`_X_OPTIONAL = frozenset({...})`: the optional keys, for presence tracking."""
        return f"{self.optional_keys_name} = frozenset({{{', '.join(self.optional_keys)}}})"


@dataclass(frozen=True)
class DataclassEnumView(EnumView):
    decoder: str
    values_name: str

    @property
    def values_statement(self) -> str:
        """`_X_VALUES: dict[str, X] = {member.value: member for member in X}`."""
        return (
            f"{self.values_name}: dict[str, {self.name}] = "
            f"{{member.value: member for member in {self.name}}}"
        )


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
class UnknownView:
    """The member of an open union (`x-unknown: keep`) that keeps an unlisted tag."""

    name: str
    doc: str
    tag_key: str  # the tag's JSON key as a Python literal


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    alias_value: str
    decoder: str
    decode_body: tuple[str, ...]
    encode_expr: str


@dataclass(frozen=True)
class PublicView:
    type_name: str
    suffix: str
    private_decoder: str
    encode_expr: str
    is_record: bool


@dataclass
class _Codegen(Codecs):
    """The shared decoding rules plus the dataclass flavor's encoders."""

    _aliases_in_progress: set[str] = field(default_factory=set)

    # encoders ----------------------------------------------------------

    def encode(self, type_ref: ir.TypeRef, expression: str, depth: int = 0) -> str:
        """An expression turning `expression` (a Python value of `type_ref`) into JSON data."""
        if isinstance(type_ref, (ir.Prim, ir.LiteralValue, ir.JsonLiterals, ir.AnyJSON)):
            return expression
        if isinstance(type_ref, ir.Ref):
            named = self.named(type_ref.name)
            if isinstance(named, ir.Record):
                return f"{expression}.to_dict()"
            if isinstance(named, ir.EnumType):
                return expression if named.style == "literal" else f"{expression}.value"
            if isinstance(named, ir.Alias) and self._alias_encodes_as_is(named):
                return expression
            return f"encode_{function_suffix(named.name)}({expression})"
        if isinstance(type_ref, ir.ListOf):
            item = f"item{depth}"
            inner = self.encode(type_ref.item, item, depth + 1)
            if inner == item:
                return f"list({expression})"
            return f"[{inner} for {item} in {expression}]"
        if isinstance(type_ref, ir.TupleOf):
            return f"{self.tuple_encoder(type_ref)}({expression})"
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
        if isinstance(type_ref, ir.Checked):  # the value decoded is the inner type's
            return self.encode(type_ref.inner, expression, depth)
        return f"{self.inline_union_encoder(type_ref)}({expression})"

    def _alias_encodes_as_is(self, alias: ir.Alias) -> bool:
        """Whether the alias's values are already JSON data (its encoder is the identity).

        An alias that contains itself (`L = list[L]`) is asked again while its own answer
        is being worked out; it then counts as needing its encoder, which terminates.
        """
        if alias.name in self._aliases_in_progress:
            return False
        self._aliases_in_progress.add(alias.name)
        try:
            return self.encode(alias.type, "x") == "x"
        finally:
            self._aliases_in_progress.discard(alias.name)

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

    def tuple_encoder(self, node: ir.TupleOf) -> str:
        """A helper writing a tuple back as a JSON list, each item by its position's type."""
        name = f"_e_{self.type_key(node)}"
        if name in self.helpers:
            return name
        signature = f"def {name}(value: {self.annotation(node)}) -> JSONValue:"
        self.helpers[name] = HelperView(name, signature, ())
        # items as `object`: each is cast to its position's type, whatever the tuple's type
        lines = [
            "encoded: list[JSONValue] = []",
            "items: tuple[object, ...] = value",
            "for index, item in enumerate(items):",
        ]
        branches = [(f"index == {index}", item) for index, item in enumerate(node.prefix)]
        if node.rest is not None:
            branches.append(("", node.rest))
        indent = "    " if len(branches) == 1 else "        "  # one position: no test needed
        for number, (test, item_type) in enumerate(branches):
            if len(branches) > 1:
                last = number == len(branches) - 1
                lines.append(
                    "    else:" if last else f"    {'if' if number == 0 else 'elif'} {test}:"
                )
            # a variable per position (a cast expression is not narrowed by `is None`)
            typed = f"item{number}"
            lines.append(f"{indent}{typed} = cast({self.evaluated_annotation(item_type)}, item)")
            lines.append(f"{indent}encoded.append({self.encode(item_type, typed, 1)})")
        lines.append("return encoded")
        self.helpers[name] = HelperView(name, signature, tuple(lines))
        return name

    def _isinstance_priority(self, type_ref: ir.TypeRef) -> int:
        # bool before int before float; enums (str subclasses) before str
        if isinstance(type_ref, ir.Ref):
            return 0
        if isinstance(type_ref, ir.Prim):
            return {"bool": 1, "int": 2, "float": 3, "str": 4}[type_ref.kind]
        return 6 if self.python_classes(type_ref) == "object" else 5

    def python_classes(self, type_ref: ir.TypeRef) -> str:
        """The `isinstance` class (or tuple of classes) of a decoded `type_ref` value;
        `object` when any value may be one (free-form JSON): such a check goes last."""
        classes = self._classes(type_ref)
        if "object" in classes:
            return "object"
        unique = list(dict.fromkeys(classes))
        return unique[0] if len(unique) == 1 else "(" + ", ".join(unique) + ")"

    def _classes(self, type_ref: ir.TypeRef) -> list[str]:
        if isinstance(type_ref, ir.Prim):
            return {"str": ["str"], "int": ["int"], "float": ["int", "float"], "bool": ["bool"]}[
                type_ref.kind
            ]
        if isinstance(type_ref, ir.ListOf):
            return ["tuple" if type_ref.as_tuple else "list"]
        if isinstance(type_ref, ir.TupleOf):
            return ["tuple"]
        if isinstance(type_ref, ir.MapOf):
            return ["dict"]
        if isinstance(type_ref, ir.AnyJSON):
            return ["dict"] if type_ref.object_only else ["object"]
        if isinstance(type_ref, ir.LiteralValue):
            return [type(type_ref.value).__name__]
        if isinstance(type_ref, ir.JsonLiterals):
            return literal_classes(type_ref)
        if isinstance(type_ref, ir.Nullable):
            return ["type(None)", *self._classes(type_ref.inner)]
        if isinstance(type_ref, ir.InlineUnion):
            return [name for option in type_ref.options for name in self._classes(option)]
        if isinstance(type_ref, ir.Checked):
            return self._classes(type_ref.inner)
        named = self.named(type_ref.name)
        if isinstance(named, ir.UnionType):
            classes = [name for member in named.members for name in self._classes(ir.Ref(member))]
            return classes + ([named.unknown] if named.unknown else [])
        if isinstance(named, ir.Alias):
            return self._classes(named.type)
        if isinstance(named, ir.EnumType) and named.style == "literal":
            return ["str"]
        return [named.name]


# --- building views --------------------------------------------------------


def _record_view(record: ir.Record, codegen: _Codegen, methods_template: str | None) -> RecordView:
    suffix = function_suffix(record.name)
    checks = codegen.record_checks(record)
    fields: list[FieldView] = []
    deferred: list[FieldView] = []
    optional_keys: list[str] = []
    for item in record.fields:
        view, is_optional = _field_view(item, record, codegen)
        if not item.required:
            optional_keys.append(item.json_key)
        (deferred if is_optional else fields).append(view)
    alias_pairs = checks.alias_pairs
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
    optional_keys_name = f"_{suffix.upper()}_OPTIONAL" if optional_keys else ""
    decode_body = _decode_body(
        record,
        checks,
        tuple(fields + deferred),
        optional_keys_name,
        aliases_literal if alias_pairs else "",
        tracks_presence,
    )
    return RecordView(
        name=record.name,
        doc=record_doc(record),
        frozen=record.frozen,
        fields=tuple(fields + deferred),
        keeps_extra=checks.keeps_extra,
        tracks_presence=tracks_presence,
        decoder=codegen.checker(record.name),
        public_decoder=f"decode_{suffix}",
        decode_prelude=checks.prelude,
        present_expr=present_expr,
        extra_check=checks.extra_check,
        known_keys_name=checks.keys_name,
        known_keys=checks.keys,
        methods_template=methods_template,
        decode_body=decode_body,
        optional_keys_name=optional_keys_name,
        optional_keys=tuple(py_str(key) for key in optional_keys),
    )


def _decode_body(
    record: ir.Record,
    checks: RecordChecks,
    fields: tuple[FieldView, ...],
    optional_name: str,
    aliases: str,
    tracks_presence: bool,
) -> tuple[str, ...]:
    """The statements of a record's decoder: checks inline, one constructor call.

    Simple fields (unconstrained scalars, optionally nullable) are fetched with one
    `obj.get` and checked with `type(...) is ...` in place; the error, its message
    and its path are built only when raising. Other fields call their decoder
    through `_required`/`_optional`, which add the key to the path of a failure.
    Fields are checked in the same order as before (required, then optional), so
    the first problem reported is the same.
    """
    lines = ["if type(data) is not dict:", '    raise _type_error("object", data)']
    lines.append("obj: dict[str, object] = data")
    for line in checks.prelude[1:]:
        match = _STRING_TAG.fullmatch(line)
        if match:
            lines.append(f"if obj.get({match['key']}) != {match['value']}:")
            lines.append(f"    {line}")
        elif line.startswith("_forbid_unknown("):
            lines.append(f"if not {checks.keys_name}.issuperset(obj):")
            lines.append(f"    {line}")
        else:
            lines.append(line)
    by_name = {view.name: view for view in fields}
    ordered = [by_name[item.py_name] for item in checks.fields]
    if aliases:
        for view in ordered:
            lines.extend(view.decode_lines)
    else:
        lines.extend(_hoist_required_fetches(ordered))
    required = sum(1 for item in record.fields if item.required)
    present = ""
    if tracks_presence:
        if aliases:
            present = f"_present_keys(obj, {optional_name or 'frozenset()'}, {aliases})"
        else:
            present = f"{optional_name}.intersection(obj)"
    # Every required key is in `obj` by now, so an object of exactly that many keys has
    # no optional or unknown ones: the set operations below are skipped for it (they
    # are a third of a small record's decode). Alias spellings can stand in for a
    # required key, so records that accept them always take the full path.
    guard = f"if len(obj) != {required}:" if not aliases else ""
    body_indent = "    " if guard else ""
    tail: list[str] = []
    if present:
        if guard:
            lines.append("f_present: frozenset[str] = frozenset()")
            tail.append(f"f_present = {present}")
        else:
            tail.append(f"f_present: frozenset[str] = {present}")
    if checks.keeps_extra:
        keys = checks.keys_name
        lines.append("f_extra: dict[str, JSONValue] = {}")
        if present and guard:
            # required, optional and unknown keys are disjoint: a count tells if any is unknown
            tail.append(f"if len(obj) != {required} + len(f_present):  # undeclared keys")
        else:
            tail.append(f"if not {keys}.issuperset(obj):")
        tail.append(f"    f_extra = _unknown(obj, {keys})")
    if tail:
        if guard:
            lines.append(f"{guard}  # more than the {required} required key(s)")
        lines.extend(body_indent + line for line in tail)
    if checks.rules_check:
        lines.append(checks.rules_check)
    if record.frozen:
        keyword = [f"{view.name}={view.local}" for view in fields if view.local]
        if checks.keeps_extra:
            keyword.append("extra=f_extra")
        lines.append(f"result = {record.name}({', '.join(keyword)})")
    else:
        # Not frozen: a bare instance and one store per slot (~2.5x faster than __init__,
        # which also fills the defaults this decoder overwrites).
        lines.append(f"result = {record.name}.__new__({record.name})")
        for view in fields:
            lines.append(f"result.{view.name} = {view.local or view.tag_literal}")
        if checks.keeps_extra:
            lines.append("result.extra = f_extra")
    if present:
        if record.frozen:
            lines.append('object.__setattr__(result, "_present", f_present)')
        else:
            lines.append("result._present = f_present")
    lines.append("return result")
    return tuple(lines)


def _hoist_required_fetches(views: list[FieldView]) -> list[str]:
    """The fields' statements, every required key read with `obj[key]` in one `try` first.

    A subscript is cheaper than `obj.get(key, _ABSENT)`, and a `try` costs nothing
    until it raises. When a key is missing, the handler reads them all with `.get`,
    so the checks that follow report the same first problem as before.
    """
    fetches = [view.fetch for view in views if view.fetch is not None]
    lines: list[str] = []
    if fetches:
        lines.append("try:")
        lines.extend(f"    {variable} = obj[{key}]" for variable, key in fetches)
        lines.append("except KeyError:  # one is missing: the checks below tell which")
        lines.extend(f"    {variable} = obj.get({key}, _ABSENT)" for variable, key in fetches)
    for view in views:
        lines.extend(view.decode_lines[1:] if view.fetch is not None else view.decode_lines)
    return lines


@dataclass(frozen=True)
class InlineDecode:
    """Statements that decode one field in place. For a required field the first one is
    `fetched = obj.get(key, _ABSENT)`, which the record's decoder may hoist."""

    lines: tuple[str, ...]
    fetched: str = ""


def _inline_call(
    item: ir.Field, local: str, default: str, codegen: _Codegen, annotation: str
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
        return InlineDecode(tuple(lines), raw if item.required else "")
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
    return InlineDecode(tuple(lines), raw if item.required else "")


_STRING_TAG = re.compile(r'_tag\(obj, (?P<key>"(?:[^"\\]|\\.)*"), (?P<value>"(?:[^"\\]|\\.)*")\)')
# Scalars checked in place: (test that the value is NOT of the type, expected type name)
_INLINE_CHECKS = {
    "str": ("type({v}) is not str", "string"),
    # an int past Python's json limit (4,300 digits) could not be written back
    "int": ("(type({v}) is not int or not -_INT_BOUND < {v} < _INT_BOUND)", "integer"),
    "bool": ("type({v}) is not bool", "boolean"),
    # `v - v` is 0.0 (false) for a finite float, NaN (true) for NaN and infinity
    "float": (
        "(type({v}) is not int or not -_INT_BOUND < {v} < _INT_BOUND)"
        " and (type({v}) is not float or {v} - {v})",
        "number",
    ),
}


def _inline_decode(
    item: ir.Field, local: str, default: str, codegen: _Codegen, annotation: str
) -> InlineDecode | None:
    """In-place checks for a field (see `_decode_body`), or None to call `_required`/`_optional`."""
    if item.aliases or codegen.null_only(item.type):
        return None  # `type: null` alone: mypy refuses a `-> None` call used as a value
    type_ref, nullable = item.type, False
    if isinstance(type_ref, ir.Nullable):
        type_ref, nullable = type_ref.inner, True
    if not isinstance(type_ref, ir.Prim) or not type_ref.constraints.is_empty():
        return _inline_call(item, local, default, codegen, annotation)
    template, expected = _INLINE_CHECKS[type_ref.kind]
    wrong = template.format(v=local)
    if nullable:
        wrong = f"{local} is not None and {wrong}"
    key = py_str(item.json_key)
    error = f'raise _field_error({local}, "{expected}", {key})'
    if item.required:
        return InlineDecode(
            (f"{local} = obj.get({key}, _ABSENT)", f"if {wrong}:", f"    {error}"), local
        )
    if nullable and default == "None":
        # absent and null both decode to None (presence tracking tells them apart)
        return InlineDecode((f"{local} = obj.get({key})", f"if {wrong}:", f"    {error}"))
    return InlineDecode(
        (
            f"{local} = obj.get({key}, _ABSENT)",
            f"if {wrong}:",
            f"    if {local} is not _ABSENT:",
            f"        {error}",
            f"    {local} = {default}",
        )
    )


def _field_view(item: ir.Field, record: ir.Record, codegen: _Codegen) -> tuple[FieldView, bool]:
    """The declaration, decode argument and encode statements of one field."""
    annotation = codegen.annotation(item.type)
    comment = with_note(item.doc, constraint_note(item.type))
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
    local = f"f_{item.py_name}"
    if item.required:
        decode_arg = f"{item.py_name}={codegen.field_check(item)}"
        inline = _inline_decode(item, local, "None", codegen, annotation)
        view = FieldView(
            name=item.py_name,
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
    decode_arg = f"{item.py_name}={codegen.field_check(item, default_python)}"
    if item.default is None and not isinstance(item.type, ir.Nullable) and encoded != attribute:
        # the attribute is `T | None`; None only when absent, which the condition excludes
        encoded = codegen.encode(ir.Nullable(item.type), attribute)
    if not declaration.startswith(" = field(") and (
        len(f"    {item.py_name}: {annotation}{declaration}") > LINE_LENGTH
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
    inline = _inline_decode(item, local, default_python, codegen, annotation)
    decode_lines = (
        inline.lines
        if inline
        else (f"{local}{declared} = {codegen.field_check(item, default_python)}",)
    )
    view = FieldView(
        name=item.py_name,
        annotation=annotation,
        declaration_default=declaration,
        comment=comment,
        decode_arg=decode_arg,
        encode_lines=lines,
        decode_lines=decode_lines,
        local=local,
    )
    return view, True


def _default_code(item: ir.Field, record: ir.Record, codegen: _Codegen) -> tuple[str, str, str]:
    """(expression used by the decoder, declaration suffix, comparison against the default)."""
    if item.default is None or item.default.value is None:
        return "None", " = None", "is not None"
    value = item.default.value
    target = unchecked(item.type.inner if isinstance(item.type, ir.Nullable) else item.type)
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
    if isinstance(target, ir.TupleOf) and isinstance(value, tuple):
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
    if isinstance(value, bool):
        return literal, f" = {literal}", f"is not {literal}"  # `!= True`: ruff E712
    return literal, f" = {literal}", f"!= {literal}"


def _enum_view(enum: ir.EnumType, codegen: _Codegen) -> DataclassEnumView:
    return DataclassEnumView(
        **enum_view_fields(enum),
        decoder=codegen.checker(enum.name),
        values_name=codegen.enum_values_name(enum),
    )


def _unknown_view(union: ir.UnionType) -> UnknownView:
    assert union.unknown is not None and union.open_tag is not None
    return UnknownView(union.unknown, unknown_doc(union), py_str(union.open_tag))


def _union_view(union: ir.UnionType, codegen: _Codegen) -> UnionView:
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    members = " | ".join(listed) if listed else "NoReturn"
    encode_body = _union_encode_body(union, codegen)
    checks = tuple(codegen.check_lines(union.schema_checks, "data"))  # before any dispatch
    doc = unions.documented(union, union.doc or f"One of: {', '.join(listed)}.")
    return UnionView(
        name=union.name,
        doc=with_note(doc, checks_text(union.schema_checks)),
        alias_value=members,
        decoder=codegen.checker(union.name),
        decode_body=checks
        + _fast_dispatch(union, codegen)
        + codegen.union_body(union, with_checks=False),
        table_name=codegen.tag_table_name(union),
        table_entries=codegen.tag_table(union),
        encode_body=encode_body,
    )


def _fast_dispatch(union: ir.UnionType, codegen: _Codegen) -> tuple[str, ...]:
    """For a union tagged with strings: one table lookup, no calls, before the checked path."""
    if union.tag is None or not all(isinstance(value, str) for value, _ in union.tag_values):
        return ()
    return (
        "if type(data) is dict:",
        f"    tag = data.get({py_str(union.tag)})",
        "    if type(tag) is str:",
        f"        decode = {codegen.tag_table_name(union)}.get(tag)",
        "        if decode is not None:",
        "            return decode(data)",
    )


def _union_encode_body(union: ir.UnionType, codegen: _Codegen) -> tuple[str, ...]:
    if all(
        isinstance(codegen.named(member), (ir.Record, ir.UnionType))
        and _all_records(member, codegen)
        for member in union.members
    ):
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


def _all_records(name: str, codegen: _Codegen) -> bool:
    named = codegen.named(name)
    if isinstance(named, ir.Record):
        return True
    if isinstance(named, ir.UnionType):
        return all(_all_records(member, codegen) for member in named.members)
    return False


def _alias_view(alias: ir.Alias, codegen: _Codegen) -> AliasView:
    return AliasView(
        name=alias.name,
        doc=with_note(alias.doc or f"The {alias.name} type.", constraint_note(alias.type)),
        alias_value=codegen.annotation(alias.type),
        decoder=codegen.checker(alias.name),
        decode_body=tuple(codegen.returning(f"{codegen.decoder(alias.type)}(data)", alias.type)),
        encode_expr=codegen.encode(alias.type, "value"),
    )


def _quote_forward(
    in_order: list[ir.NamedType], unions: dict[str, UnionView], aliases: dict[str, AliasView]
) -> list[tuple[UnionView | AliasView, bool]]:
    """(view, is_union) in order; a value naming an alias not yet defined (itself, in
    `L = list[L]`, or a later one in a cycle) is quoted, so the module still imports."""
    names = {named.name for named in in_order}
    defined: set[str] = set()
    ordered: list[tuple[UnionView | AliasView, bool]] = []
    for named in in_order:
        view: UnionView | AliasView = unions.get(named.name) or aliases[named.name]
        if alias_dependencies(named) & names - defined:
            view = replace(view, alias_value=py_str(view.alias_value))
        ordered.append((view, isinstance(named, ir.UnionType)))
        defined.add(named.name)
    return ordered


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
        named.name, suffix, codegen.checker(named.name), encode_expr, isinstance(named, ir.Record)
    )


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
    enums = [_enum_view(t, codegen) for t in module.types if isinstance(t, ir.EnumType)]
    records = [
        _record_view(t, codegen, _methods_template(t.methods) if t.methods else None)
        for t in module.types
        if isinstance(t, ir.Record)
    ]
    aliases_in_order = alias_order(module)
    unions = {
        t.name: _union_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.UnionType)
    }
    aliases = {t.name: _alias_view(t, codegen) for t in aliases_in_order if isinstance(t, ir.Alias)}
    ordered_aliases = _quote_forward(aliases_in_order, unions, aliases)
    unknowns = [_unknown_view(t) for t in module.types if isinstance(t, ir.UnionType) and t.unknown]
    publics = [_public_view(t, codegen) for t in module.types]
    union_encoders = {
        t.name: unions[t.name].encode_body for t in module.types if isinstance(t, ir.UnionType)
    }
    exported = ["DecodeError", "JSONValue"] + [t.name for t in module.types]
    exported += [unknown.name for unknown in unknowns]
    exported += [f"decode_{p.suffix}" for p in publics] + [f"encode_{p.suffix}" for p in publics]
    text = env.render(
        "python_dataclasses/module.py.j2",
        module=module,
        enums=enums,
        records=records,
        unknowns=unknowns,
        ordered_aliases=ordered_aliases,
        unions=[unions[name] for name in unions],
        aliases=[aliases[name] for name in aliases],
        publics=publics,
        union_encoders=union_encoders,
        helpers=sorted(codegen.helpers.values(), key=lambda h: h.name),
        patterns=python_constants(codegen.patterns),
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        uses_enum=any(e.base for e in enums),
        keeps_str_enums=any(e.base == "(str, Enum)" for e in enums),
        typing_names=isort_names(
            ["NoReturn", "TypeAlias", "TypeVar", "cast"]
            + (["Literal"] if codegen.uses_literal or any(not e.base for e in enums) else [])
        ),
        decode_error_annotation="DecodeError",
        checks=runtime_parts(module),
        check_constants=codegen.check_constants.statements(),
        **depth.template_values(module),
    )
    return [OutputFile(module_path(module), text, TARGET, module.name, "python")]
