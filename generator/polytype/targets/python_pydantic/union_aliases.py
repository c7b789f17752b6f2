"""A union as a module-level alias: a discriminated union on a field the members
share, else a callable discriminator (`union_dispatch`), and an open union's
fallback model."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from polytype import ir
from polytype.ir import unions
from polytype.ir.json_types import freeze_json
from polytype.ir.wording import checks_text
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.common import py_literal, unknown_doc, with_note
from polytype.targets.python_pydantic.annotations import Annotations
from polytype.targets.python_pydantic.records import record_view, tag_value
from polytype.targets.python_pydantic.union_dispatch import (
    candidates_function,
    structural_dispatch,
    tagged_dispatch,
    tried_dispatch,
)
from polytype.targets.python_pydantic.views import AliasView, FunctionView, RecordView


def union_view(union: ir.UnionType, types: Annotations) -> AliasView:
    """The union's alias; its schema checks, if any, run on the value before a member is chosen."""
    view = _union_alias(union, types)
    if not union.schema_checks or view.value == "NoReturn":
        return view
    value = f"Annotated[{view.value}, _checks({types.checks(union.schema_checks)})]"
    doc = with_note(view.doc, checks_text(union.schema_checks))
    return replace(view, value=value, doc=doc)


def _union_alias(union: ir.UnionType, types: Annotations) -> AliasView:
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    doc = unions.documented(union, union.doc or f"One of: {', '.join(listed)}.")
    if not union.members:
        types.uses.add("NoReturn")
        return AliasView(union.name, doc, "NoReturn")
    if union.unknown is not None and union.tag is not None:
        # the fallback member needs a callable discriminator: no tag literal names it
        return _callable_union(union, doc, tagged_dispatch(union, types), "unknown_tag", types)
    if len(union.members) == 1:
        # `Union[X]` is X: a discriminator over it would see X's own choices (`int | float`)
        # untagged, and the member's validation is the union's
        return AliasView(union.name, doc, types.named_annotation(union.members[0]))
    if union.tag is not None:
        field_name = _shared_tag_field(union, types)
        if field_name is not None:
            if len(union.members) == 1:
                return AliasView(union.name, doc, union.members[0])
            members = " | ".join(union.members)
            return AliasView(
                union.name,
                doc,
                f"Annotated[{members}, Field(discriminator={py_str(field_name)})]",
            )
        return _callable_union(union, doc, tagged_dispatch(union, types), "unknown_tag", types)
    if union.tries_members:
        return _callable_union(union, doc, tried_dispatch(union, types), "union_no_match", types)
    return _callable_union(union, doc, structural_dispatch(union, types), "union_no_match", types)


def _candidates_view(union: ir.UnionType, types: Annotations) -> FunctionView:
    """The members a union that tries them tries: (name, JSON types, required keys, validator)."""
    lines = ["return ("]
    for check in union.checks:
        kinds = "".join(f"{py_str(kind)}, " for kind in check.json_types)
        required = "".join(f"{py_str(key)}, " for key in check.required)
        validate = (
            f"{check.member}.model_validate"
            if isinstance(types.named(check.member), ir.Record)
            else f"{check.member}Adapter.validate_python"
        )
        lines.append(f"    ({py_str(check.member)}, ({kinds}), ({required}), {validate}),")
    lines.append(")")
    name = candidates_function(union)
    return FunctionView(
        name=name,
        signature=f"def {name}() -> _Candidates:",
        doc=f"The members of {union.name}, tried in this order ({unions.RULES[union.match]}).",
        body=tuple(lines),
    )


def _only_view(union: ir.UnionType) -> FunctionView:
    name = f"_{function_suffix(union.name)}_only"
    return FunctionView(
        name=name,
        signature=f"def {name}(value: Any) -> object:",
        doc=f"oneOf: `value` must match exactly one member of {union.name}.",
        body=(f"return _only_member(value, {py_str(union.name)}, {candidates_function(union)}())",),
    )


def _shared_tag_field(union: ir.UnionType, types: Annotations) -> str | None:
    """The field name of `union.tag` when every leaf record declares it as a tag of the right value.

    Then `Field(discriminator=...)` expresses the dispatch, nested unions included
    (Pydantic folds a member union whose leaves share one outer tag value into the
    outer union). Otherwise the union needs a callable discriminator.
    """
    assert union.tag is not None
    names: set[str] = set()
    for value, member in union.tag_values:
        for record in _leaf_records(member, types):
            tag = next((f for f in record.fields if f.json_key == union.tag and f.is_tag), None)
            if tag is None or not isinstance(tag.type, ir.LiteralValue) or tag.type.value != value:
                return None
            if type(tag.type.value) is not type(value):
                return None
            names.add(tag.py_name)
    covered = {member for _, member in union.tag_values}
    if len(names) != 1 or covered != set(union.members):
        return None
    if any(ir.open_unions(types.module, member) for member in union.members):
        return None  # an open member union's fallback model has no tag literal to fold
    return names.pop()


def _leaf_records(name: str, types: Annotations) -> list[ir.Record]:
    named = types.named(name)
    if isinstance(named, ir.Record):
        return [named]
    if isinstance(named, ir.UnionType):
        return [record for member in named.members for record in _leaf_records(member, types)]
    return []


def _callable_union(
    union: ir.UnionType,
    doc: str,
    dispatch: tuple[list[str], str, dict[str, str]],
    error_type: str,
    types: Annotations,
) -> AliasView:
    lines, message, context = dispatch
    function = f"_{function_suffix(union.name)}_member"
    body = tuple(lines)  # each dispatch ends in a return
    view = FunctionView(
        name=function,
        signature=f"def {function}(value: Any) -> str | None:",
        doc=f"The member of {union.name} that `value` is, or None: the union's dispatch rule.",
        body=body,
    )
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    members = " | ".join(
        f"Annotated[{types.named_annotation(member)}, Tag({py_str(member)})]" for member in listed
    )
    arguments = [
        function,
        f"custom_error_type={py_str(error_type)}",
        f"custom_error_message={py_str(message)}",
    ]
    if context:
        pairs = "{" + ", ".join(f"{py_str(k)}: {py_str(v)}" for k, v in context.items()) + "}"
        # any union may be a member of another callable union (an open one, one that tries
        # its members), and Python's typing hashes a union's members
        types.uses.add("error_context")
        pairs = f"_ErrorContext({pairs})"
        arguments.append(f"custom_error_context={pairs}")
    types.uses.add("callable_union")
    validators = f"Discriminator({', '.join(arguments)})"
    functions: tuple[FunctionView, ...] = (view,)
    if union.tries_members:
        functions = (_candidates_view(union, types), view)
        if union.match == "one_of":
            functions += (_only_view(union),)
            validators += f", BeforeValidator({functions[-1].name})"
    value = f"Annotated[{members}, {validators}]"
    return AliasView(union.name, doc, value, functions)


def unknown_view(union: ir.UnionType, types: Annotations, env: RenderEnv) -> RecordView:
    """An open union's fallback model: no declared fields, every key kept (and checked as JSON)."""
    assert union.unknown is not None and union.open_tag is not None
    record = ir.Record(union.unknown, (), extra_policy="keep", doc=unknown_doc(union))
    view = record_view(record, types, env)
    assert view.config == 'ConfigDict(extra="allow")', view.config
    schema = py_literal(freeze_json(_unknown_json_schema(union, types)))
    config = f'ConfigDict(extra="allow", json_schema_extra={schema})'
    return replace(view, config=config, unknown_tag=py_str(union.open_tag))


def _unknown_json_schema(union: ir.UnionType, types: Annotations) -> dict[str, Any]:
    """What the fallback model takes, for `model_json_schema`: an object whose tag is a string
    the union does not list (the parent's tags pinned, a structural union's keys absent), so
    that the union's `oneOf` matches a listed member's value once."""
    assert union.open_tag is not None
    listed = list(
        dict.fromkeys(
            [value for value, _ in union.tag_values if isinstance(value, str)]
            + [case.tag_value for case in union.cases if isinstance(case.tag_value, str)]
        )
    )
    tag: dict[str, Any] = {"type": "string"}
    if listed:
        tag["not"] = {"enum": listed}
    properties: dict[str, Any] = {union.open_tag: tag}
    required = [union.open_tag]
    leaves = _leaf_records(union.name, types)
    for item in leaves[0].tag_fields if leaves else ():
        value = tag_value(item)
        if item.json_key != union.open_tag and all(
            any(
                other.json_key == item.json_key and tag_value(other) == value
                for other in leaf.tag_fields
            )
            for leaf in leaves
        ):
            properties[item.json_key] = {"const": value}
            required.append(item.json_key)
    schema: dict[str, Any] = {"properties": properties, "required": required}
    keys = [case.key for case in union.cases if case.key is not None]
    if keys:
        schema["not"] = {"anyOf": [{"required": [key]} for key in keys]}
    return schema
