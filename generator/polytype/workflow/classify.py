"""Which concrete type a JSON value is, dispatching through unions as the generated decoders do.

A tagged union looks up the value of its tag key (nested unions dispatch
again, e.g. Claude Code's `type` then `subtype`); a structural union tries its
cases in order: tag, then a distinguishing key, then the JSON type.
"""

from __future__ import annotations

import json
from typing import Any

from polytype import ir
from polytype.diagnostics import json_type_name


class NoMember(Exception):
    """The value matches no member of a union; `path` is a JSON path such as `$.type`."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def segment(key: str) -> str:
    """One JSON path step, spelled like the generated decoders' error paths."""
    return "." + key if key.isidentifier() else "[" + json.dumps(key, ensure_ascii=False) + "]"


def matches_json_type(value: Any, json_type: str) -> bool:
    kind = json_type_name(value)
    return kind == json_type or (json_type == "number" and kind == "integer")


def concrete_type(module: ir.Module, type_name: str, value: Any, path: str = "$") -> str:
    """The non-union type `value` decodes as when read as `type_name`; raises ``NoMember``."""
    named = module.get(type_name)
    seen = {named.name}
    while isinstance(named, ir.UnionType):
        named = module.get(choose_member(named, value, path))
        if named.name in seen:  # a union that contains itself: stop rather than loop
            break
        seen.add(named.name)
    return named.name


def kept_by(module: ir.Module, type_name: str, value: Any) -> str | None:
    """The open union (`x-unknown: keep`) whose `Unknown<Union>` member takes `value`, if any.

    Dispatches like ``concrete_type``; where no member takes the value, the union it
    stopped at keeps it when it is open and the value has a string at its tag key.
    """
    named = module.get(type_name)
    seen: set[str] = set()
    while isinstance(named, ir.UnionType) and named.name not in seen:
        seen.add(named.name)
        union = named
        try:
            named = module.get(choose_member(union, value))
        except NoMember:
            tag = union.open_tag
            if tag is not None and isinstance(value, dict) and isinstance(value.get(tag), str):
                return union.name
            return None
    return None


def choose_member(union: ir.UnionType, value: Any, path: str = "$") -> str:
    """The member of `union` that `value` dispatches to (one level); raises ``NoMember``."""
    if union.tag is not None:
        return _by_tag(union, union.tag, value, path)
    if union.tries_members:
        return _by_check(union, value, path)
    return _by_case(union, value, path)


def _by_check(union: ir.UnionType, value: Any, path: str) -> str:
    """A union that tries its members: the first member whose pre-check (JSON type,
    required keys) passes. Only the pre-check: which member really matches takes a full
    walk (`observe`), and for filing a value this first guess is enough."""
    for check in union.checks:
        if any(matches_json_type(value, kind) for kind in check.json_types) and (
            not isinstance(value, dict) or all(key in value for key in check.required)
        ):
            return check.member
    raise NoMember(path, f"matches no member of {union.name}")


def _by_tag(union: ir.UnionType, tag: str, value: Any, path: str) -> str:
    if not isinstance(value, dict):
        raise NoMember(path, f"expected object, got {json_type_name(value)}")
    if tag not in value:
        raise NoMember(path + segment(tag), "missing required key")
    found = value[tag]
    for tag_value, member in union.tag_values:
        if type(tag_value) is type(found) and tag_value == found:
            return member
    known = ", ".join(repr(tag_value) for tag_value, _ in union.tag_values)
    raise NoMember(path + segment(tag), f"unknown tag {found!r}; expected one of {known}")


def _by_case(union: ir.UnionType, value: Any, path: str) -> str:
    object_cases = [case for case in union.cases if case.json_type == "object"]
    if isinstance(value, dict) and object_cases:
        for case in object_cases:
            if case.tag_key is not None:
                found = value.get(case.tag_key)
                if type(found) is type(case.tag_value) and found == case.tag_value:
                    return case.member
            elif case.key is not None:
                if case.key in value:
                    return case.member
            else:
                return case.member
        hints = [
            (
                f"{case.tag_key}={case.tag_value!r}"
                if case.tag_key is not None
                else f"key {case.key!r}"
            )
            for case in object_cases
        ]
        raise NoMember(path, f"matches no member of {union.name} (expected {', '.join(hints)})")
    for case in union.cases:
        if case.json_type != "object" and matches_json_type(value, case.json_type):
            return case.member
    expected = list(dict.fromkeys(case.json_type for case in union.cases))
    raise NoMember(path, f"expected {' or '.join(expected)}, got {json_type_name(value)}")
