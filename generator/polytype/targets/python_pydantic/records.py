"""A record as a Pydantic model: its fields (annotation, default, JSON key and
spellings), its config, and the wire rules Pydantic has no switch for (`_Wire`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from polytype import ir
from polytype.ir.json_types import json_type_of
from polytype.ir.wording import unchecked
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.common import (
    literal_fits,
    literal_is_annotated_type,
    py_literal,
    record_doc,
)
from polytype.targets.python.names import enum_member, field_names
from polytype.targets.python_pydantic.annotations import Annotations, rules_value
from polytype.targets.python_pydantic.views import FieldView, RecordView


def record_view(record: ir.Record, types: Annotations, env: RenderEnv) -> RecordView:
    names = dict(
        zip(
            (item.json_key for item in record.fields),
            field_names(record, types.module.types_by_name),
            strict=True,
        )
    )
    fields = tuple(_field_view(item, names[item.json_key], types) for item in record.fields)
    spelled = [item for item in record.fields if item.aliases]
    wire_args: list[str] = []
    tags = [item for item in record.fields if item.is_tag]
    if tags:
        triples = (
            _tuple([py_str(names[f.json_key]), py_str(f.json_key), py_literal(tag_value(f))])
            for f in tags
        )
        wire_args.append("tags=" + _tuple(triples))
    exact = [item for item in tags if not isinstance(tag_value(item), str)]
    if exact:
        triples = (
            _tuple([py_str(names[f.json_key]), py_str(f.json_key), py_literal(tag_value(f))])
            for f in exact
        )
        wire_args.append("exact_tags=" + _tuple(triples))
    if spelled:
        entries = (
            _tuple([py_str(names[f.json_key]), _tuple(py_str(s) for s in (f.json_key, *f.aliases))])
            for f in spelled
        )
        wire_args.append("spellings=" + _tuple(entries))
    # names that are not JSON keys matter where unknown keys are kept or refused (see
    # `_CheckedModel`); where they are ignored, Pydantic ignores them as any unknown key
    wire_keys = {key for item in record.fields for key in (item.json_key, *item.aliases)}
    names_only = sorted(set(names.values()) - wire_keys)
    checks_names = bool(names_only) and record.extra_policy != "ignore"
    if checks_names:
        wire_args.append(
            "names=frozenset({" + ", ".join(py_str(name) for name in names_only) + "})"
        )
    # int and bool tags (their Literal takes True for 1) and kept names need `_CheckedModel`
    checked = checks_names or bool(exact)
    config = [f"extra={py_str(_EXTRA[record.extra_policy])}"]
    if record.frozen:
        config.append("frozen=True")
    if any(types.has_pattern(item.type) for item in record.fields):
        config.append('regex_engine="python-re"')
    rules_name, rules_value = _rules(record, types)
    return RecordView(
        name=record.name,
        schema_checks=types.checks(record.schema_checks) if record.schema_checks else "",
        rules=rules_name,
        rules_value=rules_value,
        base="_SpelledModel" if spelled else "_CheckedModel" if checked else "_Model",
        checked=checked,
        doc=record_doc(record),
        config=f"ConfigDict({', '.join(config)})",
        wire=f"_Wire({', '.join(wire_args)})" if wire_args else "",
        fields=fields,
        methods_template=_methods_template(record.methods, env) if record.methods else None,
    )


def _rules(record: ir.Record, types: Annotations) -> tuple[str, str]:
    """(constant, value) of a record's object rules, checked by a `mode="before"` validator
    on the JSON object as it arrives; ("", "") without any."""
    if record.rules.is_empty():
        return "", ""
    keys = sorted({key for item in record.fields for key in (item.json_key, *item.aliases)})
    name = f"_{function_suffix(record.name).upper()}_RULES"
    return name, rules_value(record.rules, keys, types)


def _methods_template(block: str, env: RenderEnv) -> str | None:
    """`x-python: {methods: block}`: this flavor's own block, else the dataclass one (same API).

    A block that exists nowhere is reported by the dataclass target.
    """
    for template in (
        f"python_pydantic/methods/{block}.py.j2",
        f"python_dataclasses/methods/{block}.py.j2",
    ):
        if env.has_template(template):
            return template
    return None


def tag_value(item: ir.Field) -> str | int | bool:
    assert isinstance(item.type, ir.LiteralValue)
    return item.type.value


_EXTRA = {"keep": "allow", "ignore": "ignore", "forbid": "forbid"}


def _tuple(items: Iterable[str]) -> str:
    """A tuple display without a magic trailing comma (black keeps it on one line when it fits)."""
    listed = list(items)
    return f"({listed[0]},)" if len(listed) == 1 else f"({', '.join(listed)})"


def _field_view(item: ir.Field, name: str, types: Annotations) -> FieldView:
    args: list[str] = []
    tag_value = ""
    if item.is_tag:
        # a discriminator field takes no validator: its Literal checks the value; required
        # in JSON data, it has a default for type checkers only (__init__ fills it in)
        assert isinstance(item.type, ir.LiteralValue)
        types.uses.add("Literal")
        annotation = f"Literal[{py_literal(item.type.value)}]"
        tag_value = py_literal(item.type.value)
    elif item.required:
        annotation = types.annotation(item.type)
    elif item.default is None or (
        item.default.value is None and not _accepts_null(item.type, types)
    ):
        annotation = types.annotation(item.type)
        if not _accepts_null(item.type, types):
            # absent reads as None, but an explicit null is not a value of the type
            annotation = f"Omittable[{annotation}]"
        args.append("default=None")
    else:
        annotation = types.annotation(item.type)
        args.append(_default_arg(item, item.default.value, types))
    if name != item.json_key:
        args.append(f"alias={py_str(item.json_key)}")
    if item.aliases:
        spellings = ", ".join(py_str(s) for s in (item.json_key, *item.aliases))
        types.uses.add("AliasChoices")
        args.append(f"validation_alias=AliasChoices({spellings})")
    if item.doc:
        args.append(f"description={py_str(item.doc)}")
    return FieldView(name, annotation, f"Field({', '.join(args)})" if args else "", tag_value)


def _accepts_null(type_ref: ir.TypeRef, types: Annotations) -> bool:
    """Whether JSON null is a value of `type_ref`."""
    return "null" in json_type_of(type_ref, types.module.types_by_name)


def _default_arg(item: ir.Field, value: ir.JSONData, types: Annotations) -> str:
    target = unchecked(item.type.inner if isinstance(item.type, ir.Nullable) else item.type)
    if value is None:
        return "default=None"
    match target:
        case ir.Ref():
            named = types.named(target.name)
            if (
                isinstance(named, ir.EnumType)
                and isinstance(value, str)
                and named.style != "literal"
            ):
                return f"default={named.name}.{enum_member(named, value)}"
            if isinstance(named, ir.Record):
                return f"default_factory=lambda: {named.name}.model_validate({py_literal(value)})"
        case ir.TupleOf() if isinstance(value, tuple):  # validated as a field is
            return f"default_factory=lambda: TypeAdapter({types.annotation(target)}).validate_python({py_literal(value)})"
        case ir.ListOf() if target.as_tuple and isinstance(value, tuple):
            return f"default=({''.join(py_literal(v) + ', ' for v in value)})"
        case ir.Prim() | ir.ListOf() | ir.TupleOf() | ir.MapOf() | ir.LiteralValue():
            pass  # the default's JSON as a Python literal (below)
        case ir.JsonLiterals() | ir.Nullable() | ir.AnyJSON() | ir.InlineUnion() | ir.Checked():
            pass
        case _ as unreachable:
            assert_never(unreachable)
    if not literal_fits(target, types.module):  # an Enum member or a model inside
        return f"default_factory=lambda: TypeAdapter({types.annotation(target)}).validate_python({py_literal(value)})"
    if isinstance(value, (tuple, ir.FrozenJSONObject)):
        literal = py_literal(value)
        if literal not in ("[]", "{}") and not literal_is_annotated_type(target, types.module):
            # Field's factory is a union of callables, so mypy infers the lambda alone
            # (`dict[str, str]`, `list[int]`), which is not the field's `dict[str, JsonValue]`
            # or `list[int | float]` (invariant)
            annotation = types.annotation(item.type)
            return f"default_factory=lambda: cast({py_str(annotation)}, {literal})"
        return "default_factory=" + {"[]": "list", "{}": "dict"}.get(literal, f"lambda: {literal}")
    return f"default={py_literal(value)}"
