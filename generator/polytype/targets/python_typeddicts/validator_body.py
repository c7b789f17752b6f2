"""A record's validator body written as one would by hand: each required key read once,
unconstrained scalars and arrays checked in place, and the optional and unknown keys
looked at only when the object has more keys than the required ones.

The checks run in the order of the call-per-field body (`Codecs.record_checks`:
prelude, required fields, optional fields, rules, unknown keys), so the first problem
reported, its message and its path are the same; an error is built only to be raised.
"""

from __future__ import annotations

import re

from polytype import ir
from polytype.targets.base.render import py_str
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.inline_checks import scalar_check
from polytype.targets.python.snippet_views import RecordChecks


def validator_body(record: ir.Record, checks: RecordChecks, codecs: Codecs) -> tuple[str, ...]:
    """The statements of `record`'s validator, `data` in, `obj` returned by the caller."""
    lines = list(checks.inline_prelude)
    names = _local_names(checks.fields)
    required = [item for item in checks.fields if item.required]
    optional = [item for item in checks.fields if not item.required]
    if required:  # a subscript costs less than `.get`; a `try` nothing until it raises
        lines.append("try:")
        lines.extend(
            f"    {names[item.json_key]} = obj[{py_str(item.json_key)}]" for item in required
        )
        lines.append("except KeyError:  # one is missing: the checks below tell which")
        lines.extend(
            f"    {names[item.json_key]} = obj.get({py_str(item.json_key)}, _ABSENT)"
            for item in required
        )
    for item in required:
        lines.extend(_field_lines(item, names[item.json_key], codecs))
    tail: list[str] = []
    for item in optional:
        tail.extend(_field_lines(item, names[item.json_key], codecs))
    if checks.keeps_extra:
        tail.append(f"if not {checks.keys_name}.issuperset(obj):")
        tail.append(f"    {checks.extra_check}")
    if tail:
        # every required key is in `obj` by now: an object of exactly that many keys has
        # no optional or unknown one to look at
        count = sum(1 for item in record.fields if item.required)
        if count:
            lines.append(f"if len(obj) != {count}:  # more than the {count} required key(s)")
        else:
            lines.append("if obj:  # no key is required")
        lines.extend("    " + line for line in tail)
    return tuple(lines)


def inlines(record: ir.Record, checks: RecordChecks) -> bool:
    """Whether `validator_body` fits the record: no alias spellings (either may stand in
    for a key) and no object rules (they run between the optional and unknown keys)."""
    return not checks.alias_pairs and not checks.rules_check


def _field_lines(item: ir.Field, value: str, codecs: Codecs) -> list[str]:
    """The check of one field in the local `value`: a required one is read already
    (`_ABSENT` when missing), an optional one is read here."""
    key = py_str(item.json_key)
    scalar = scalar_check(item.type, value)
    fetch = [] if item.required else [f"{value} = obj.get({key}, _ABSENT)"]
    if scalar is not None:
        wrong, expected = scalar
        raising = f'    raise _field_error({value}, "{expected}", {key})'
        if item.required:
            return [f"if {wrong}:", raising]
        if isinstance(item.type, ir.Nullable):  # absent reads as None, which passes
            return [f"{value} = obj.get({key})", f"if {wrong}:", raising]
        return [*fetch, f"if {value} is not _ABSENT and {wrong}:", raising]
    lines = fetch
    indent = ""
    if item.required:
        lines += [f"if {value} is _ABSENT:", f'    raise _field_error({value}, "", {key})']
    else:
        lines.append(f"if {value} is not _ABSENT:")
        indent = "    "
    type_ref = item.type
    if isinstance(type_ref, ir.ListOf) and not type_ref.constraints.checks_items():
        check = codecs.decoder(type_ref.item)
        return lines + [
            f"{indent}if type({value}) is not list:",
            f'{indent}    raise _field_error({value}, "array", {key})',
            f"{indent}try:",
            f"{indent}    for item in {value}:",
            f"{indent}        {check}(item)",
            f"{indent}except DecodeError:",
            f"{indent}    raise _item_error({value}, {check}, {key}) from None",
        ]
    return lines + [
        f"{indent}try:",
        f"{indent}    {codecs.decoder(type_ref)}({value})",
        f"{indent}except DecodeError as error:",
        f"{indent}    raise error.at(_segment({key})) from None",
    ]


def _local_names(fields: tuple[ir.Field, ...]) -> dict[str, str]:
    """A local variable per field, `v_` and its key in snake case (`toolCallId`:
    `v_tool_call_id`), made unique with trailing underscores."""
    names: dict[str, str] = {}
    taken = {"obj", "data", "item", "error", "tag", "decode"}
    for item in fields:
        name = "v_" + (_snake_key(item.json_key).strip("_") or "key")
        while name in taken:
            name += "_"
        taken.add(name)
        names[item.json_key] = name
    return names


_SNAKE_KEY = re.compile(r"[0-9a-z_]*")
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])([A-Z])")
_NOT_SNAKE = re.compile(r"[^0-9a-z_]+")


def _snake_key(key: str) -> str:
    """`key` in snake case, each run of other characters one `_` (most keys are already)."""
    if _SNAKE_KEY.fullmatch(key):
        return key
    return _NOT_SNAKE.sub("_", _CAMEL_HUMP.sub(r"_\1", key).lower())
