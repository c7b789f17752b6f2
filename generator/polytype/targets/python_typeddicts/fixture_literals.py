"""Fixtures as exact TypedDict literals: the Python expression of parsed JSON, and
the keys of a value no TypedDict declares (mypy rejects them in a literal)."""

from __future__ import annotations

import math
from typing import assert_never

from polytype import ir
from polytype.diagnostics import json_type_name
from polytype.ir.json_types import json_type_of
from polytype.targets.python.common import path_segment


class NotRepresentable(Exception):
    """A fixture that cannot be written as a type-correct TypedDict literal (reason in the message)."""


def python_literal(value: object) -> str:
    """Parsed JSON as an exact, inert Python expression (ASCII only, True/False/None)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotRepresentable(f"{value!r} is not a JSON number")
        return repr(value)
    if isinstance(value, str):
        return ascii(value)
    if isinstance(value, list):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{ascii(key)}: {python_literal(item)}" for key, item in value.items())
            + "}"
        )
    raise NotRepresentable(f"{type(value).__name__} is not JSON")


def unknown_keys(
    module: ir.Module, type_ref: ir.TypeRef, value: object, path: str = "$"
) -> list[str]:
    """Paths of keys in (valid) `value` that no TypedDict declares: the keys mypy rejects in a literal.

    Walks `value` as the validators would, dispatching unions on their tags, keys
    and JSON types. Raises `NotRepresentable` when `value` does not fit `type_ref`.
    """
    types = module.types_by_name
    match type_ref:
        case ir.Ref():
            named = types[type_ref.name]
            match named:
                case ir.Record():
                    if not isinstance(value, dict):
                        raise NotRepresentable(f"{path}: expected an object for {named.name}")
                    found: list[str] = []
                    declared = {item.json_key: item for item in named.fields}
                    declared.update(
                        {alias: item for item in named.fields for alias in item.aliases}
                    )
                    for key, item_value in value.items():
                        if key not in declared:
                            found.append(path + path_segment(key))
                        else:
                            found.extend(
                                unknown_keys(
                                    module, declared[key].type, item_value, path + path_segment(key)
                                )
                            )
                    return found
                case ir.Alias():
                    return unknown_keys(module, named.type, value, path)
                case ir.UnionType() if named.tries_members:
                    return _tried_unknown_keys(module, named, value, path)
                case ir.UnionType():
                    member = _union_member(named, value, types, path)
                    if member == named.unknown:
                        return []  # the kept member is `dict[str, JSONValue]`: any key
                    return unknown_keys(module, ir.Ref(member), value, path)
                case ir.EnumType():
                    return []
                case _ as unreachable:
                    assert_never(unreachable)
        case ir.ListOf():
            if not isinstance(value, list):
                raise NotRepresentable(f"{path}: expected an array")
            return [
                p
                for index, item in enumerate(value)
                for p in unknown_keys(module, type_ref.item, item, f"{path}[{index}]")
            ]
        case ir.TupleOf():
            if not isinstance(value, list):
                raise NotRepresentable(f"{path}: expected an array")
            inside: list[str] = []
            for index, item in enumerate(value):
                item_type = type_ref.item(index)
                if item_type is not None:
                    inside.extend(unknown_keys(module, item_type, item, f"{path}[{index}]"))
            return inside
        case ir.MapOf():
            if not isinstance(value, dict):
                raise NotRepresentable(f"{path}: expected an object")
            return [
                p
                for key, item in value.items()
                for p in unknown_keys(module, type_ref.value, item, path + path_segment(key))
            ]
        case ir.Nullable():
            return [] if value is None else unknown_keys(module, type_ref.inner, value, path)
        case ir.Checked():
            return unknown_keys(module, type_ref.inner, value, path)
        case ir.InlineUnion():
            kind = json_type_name(value)
            for option in type_ref.options:
                if kind in json_type_of(option, types):
                    return unknown_keys(module, option, value, path)
            raise NotRepresentable(f"{path}: no option of the inline union takes {kind}")
        case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
            return []
        case _ as unreachable:
            assert_never(unreachable)


def _tried_unknown_keys(
    module: ir.Module, union: ir.UnionType, value: object, path: str
) -> list[str]:
    """A union that tries its members: the unknown keys for the first member whose
    pre-check passes and that declares every key (else for the first that fits at all)."""
    kind = json_type_name(value)
    results: list[list[str]] = []
    for check in union.checks:
        if kind not in check.json_types and not (
            kind == "integer" and "number" in check.json_types
        ):
            continue
        if isinstance(value, dict) and not all(key in value for key in check.required):
            continue
        try:
            found = unknown_keys(module, ir.Ref(check.member), value, path)
        except NotRepresentable:
            continue
        if not found:
            return found
        results.append(found)
    if not results:
        raise NotRepresentable(f"{path}: matches no member of {union.name}")
    return results[0]


def _union_member(
    union: ir.UnionType, value: object, types: dict[str, ir.NamedType], path: str
) -> str:
    if union.tag is not None:
        if isinstance(value, dict):
            for tag_value, member in union.tag_values:
                tag = value.get(union.tag)
                if type(tag) is type(tag_value) and tag == tag_value:
                    return member
            if union.unknown is not None and type(value.get(union.tag)) is str:
                return union.unknown
        raise NotRepresentable(f"{path}: no member of {union.name} takes this tag")
    kind = json_type_name(value)
    for case in union.cases:
        if case.json_type == "object" and isinstance(value, dict):
            if case.tag_key is not None and value.get(case.tag_key) == case.tag_value:
                return case.member
            if case.tag_key is None and (case.key is None or case.key in value):
                return case.member
        elif case.json_type != "object" and (
            kind == case.json_type or (case.json_type == "number" and kind == "integer")
        ):
            return case.member
    if isinstance(value, dict) and union.unknown is not None and union.open_tag is not None:
        if type(value.get(union.open_tag)) is str:
            return union.unknown
    raise NotRepresentable(f"{path}: matches no member of {union.name}")
