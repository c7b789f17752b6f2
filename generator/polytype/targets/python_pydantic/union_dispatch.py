"""The bodies of the callable discriminators: which member of a union a value is,
by its tag, by its keys and JSON type, or by trying the members in order; values
built in code are recognised by their class. Each gives a whole function body (it ends
in a return), the error message and the error context."""

from __future__ import annotations

from typing import assert_never

from polytype import ir
from polytype.ir import unions
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import py_str
from polytype.targets.python.common import py_literal
from polytype.targets.python_pydantic.annotations import Annotations


def tried_dispatch(
    union: ir.UnionType, types: Annotations
) -> tuple[list[str], str, dict[str, str]]:
    """Instances by class, then the first member whose validator takes the value (for a
    oneOf union, the one member its `_only_member` check found)."""
    types.uses.add("tried_members")
    lines = _instance_checks(union, types)
    lines.append(
        f"return _first_member(value, {py_str(union.name)}, {candidates_function(union)}())"
    )
    names = ", ".join(union.members)
    message = f"matches no member of {union.name} (tried {names}; {unions.RULES[union.match]})"
    return lines, message, {}


def candidates_function(union: ir.UnionType) -> str:
    return f"_{function_suffix(union.name)}_candidates"


def tagged_dispatch(
    union: ir.UnionType, types: Annotations
) -> tuple[list[str], str, dict[str, str]]:
    assert union.tag is not None
    lines = ["if type(value) is dict:", f"    tag = value.get({py_str(union.tag)})"]
    for value, member in union.tag_values:
        lines.append(f"    if type(tag) is {type(value).__name__} and tag == {py_literal(value)}:")
        lines.append(f"        return {py_str(member)}")
    if union.unknown is not None:  # an unlisted string tag: the fallback model keeps it whole
        lines.append("    if type(tag) is str:")
        lines.append(f"        return {py_str(union.unknown)}")
    lines.append("    return None")
    lines.extend(_instance_checks(union, types))
    if union.unknown is not None:
        # not an object: the fallback model reports it as one ("$: not an object"), as a
        # union on Field(discriminator=...) does, rather than a tag error under its key
        lines.append(f"return {py_str(union.unknown)}")
    else:
        lines.append("return None")
    known = ", ".join(repr(value) for value, _ in union.tag_values)
    message = f"unknown or missing tag {union.tag!r}; expected one of {known}"
    return lines, message, {"discriminator": repr(union.tag)}


def structural_dispatch(
    union: ir.UnionType, types: Annotations
) -> tuple[list[str], str, dict[str, str]]:
    lines: list[str] = []
    object_cases = [case for case in union.cases if case.json_type == "object"]
    if object_cases:
        lines.append("if type(value) is dict:")
        for case in object_cases:
            if case.tag_key is not None:
                lines.append(
                    f"    if value.get({py_str(case.tag_key)}) == {py_literal(case.tag_value)}:"
                )
                lines.append(f"        return {py_str(case.member)}")
            elif case.key is not None:
                lines.append(f"    if {py_str(case.key)} in value:")
                lines.append(f"        return {py_str(case.member)}")
            else:
                lines.append(f"    return {py_str(case.member)}")
                break
        else:
            if union.unknown is not None and union.open_tag is not None:
                lines.append(f"    if type(value.get({py_str(union.open_tag)})) is str:")
                lines.append(f"        return {py_str(union.unknown)}")
            lines.append("    return None")
    lines.extend(_instance_checks(union, types))
    for case in union.cases:
        if case.json_type != "object":
            lines.append(f"if {_JSON_TYPE_CHECKS[case.json_type]}:")
            lines.append(f"    return {py_str(case.member)}")
    lines.append("return None")
    hints = [
        (
            f"{case.tag_key}={case.tag_value!r}"
            if case.tag_key is not None
            else f"key {case.key!r}" if case.key is not None else "object"
        )
        for case in object_cases
    ] + [case.json_type for case in union.cases if case.json_type != "object"]
    message = f"matches no member of {union.name}" + (
        f" (expected {', '.join(hints)})" if hints else ""
    )
    return lines, message, {}


_JSON_TYPE_CHECKS = {
    "string": "type(value) is str",
    "integer": "type(value) is int",
    "number": "type(value) is float or type(value) is int",
    "boolean": "type(value) is bool",
    "array": "type(value) is list or type(value) is tuple",
    "object": "type(value) is dict",
    "null": "value is None",
}


def _instance_checks(union: ir.UnionType, types: Annotations) -> list[str]:
    """Values built in code (and values being serialized) are recognised by their class."""
    lines: list[str] = []
    for member in union.members:
        classes = _classes(member, types)
        if classes:
            lines.append(f"if isinstance(value, {classes}):")
            lines.append(f"    return {py_str(member)}")
    if union.unknown is not None:
        lines.append(f"if isinstance(value, {union.unknown}):")
        lines.append(f"    return {py_str(union.unknown)}")
    return lines


def _classes(name: str, types: Annotations) -> str:
    named = types.named(name)
    match named:
        case ir.EnumType() if named.unknown is not None:
            listed = [name] if named.style != "literal" else []
            return "(" + ", ".join([*listed, named.unknown]) + ",)"
        case ir.EnumType():
            return name if named.style != "literal" else ""
        case ir.Record():
            return name
        case ir.UnionType():
            leaves = [_classes(member, types) for member in named.members]
            leaves = [leaf for leaf in leaves if leaf] + ([named.unknown] if named.unknown else [])
            return "(" + ", ".join(leaves) + ",)" if leaves else ""
        case ir.Alias():
            return ""
        case _ as unreachable:
            assert_never(unreachable)
