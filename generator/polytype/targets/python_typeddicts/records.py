"""A record as a TypedDict keyed by its JSON keys: each key's annotation and comment,
the docstring's note on unknown keys, and the validator's body."""

from __future__ import annotations

import dataclasses
import json
import keyword
import re
import textwrap

from polytype import ir
from polytype.ir.object_rules import rules_text
from polytype.ir.renaming import rename_ref
from polytype.ir.wording import checks_text
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import py_str
from polytype.targets.python.alias_order import refs
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.common import constraint_note, py_literal
from polytype.targets.python_typeddicts.validator_body import inlines, validator_body
from polytype.targets.python_typeddicts.views import KeyView, TypedDictView

_CLASS_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")


def class_syntax_key(key: str) -> bool:
    """Whether `key` can be a TypedDict class attribute as it is.

    Not for keywords (`from`, `class`), keys that are not ASCII identifiers (`a-b`,
    non-ASCII letters that Python would NFKC-normalise) or that start with two
    underscores (the class body would mangle them to `_Name__key`).
    """
    return bool(_CLASS_KEY.match(key)) and not keyword.iskeyword(key) and not key.startswith("__")


def _annotation(
    codecs: Codecs,
    type_ref: ir.TypeRef,
    defined: set[str],
    required: bool,
    renames: dict[str, str],
) -> str:
    """The value annotation of one key, quoted where it names a type defined further down;
    an alias that only renames a named type is written as that type (`renames`,
    `alias_order.plain_alias_targets`).

    typed_dicts.py does not use `from __future__ import annotations`: with it, Python 3.11
    cannot see `NotRequired` and reports every key in `__required_keys__`.
    """
    type_ref = rename_ref(type_ref, renames)
    text = codecs.annotation(type_ref)
    if refs(type_ref) - defined:
        text = py_str(text)
    return text if required else f"NotRequired[{text}]"


def _key_comment(item: ir.Field, alias_of: str | None, validator: str) -> str:
    lines = [text for text in (item.doc, constraint_note(item.type)) if text]
    if alias_of is not None:
        lines.append(
            f"Alias of {json.dumps(alias_of)} (x-aliases): NotRequired because either spelling may be"
            f" sent; {validator} rejects both at once"
            + (" and requires one of them." if item.required else ".")
        )
    elif item.aliases:
        spellings = ", ".join(json.dumps(a) for a in item.aliases)
        lines.append(
            f"Also accepted as {spellings} (x-aliases): NotRequired because an alias may stand in for it"
            + (f"; {validator} requires one spelling." if item.required else ".")
        )
    if not item.required and item.default is not None:
        lines.append(f"Absent means the default: {py_literal(item.default.value)}.")
    return "\n".join(lines)


def _extra_note(record: ir.Record, validator: str) -> str:
    # what the validator does with them is said once, in the module docstring
    if record.extra_policy == "keep":
        return "Note: unknown keys are allowed and kept; a TypedDict cannot declare them."
    if record.extra_policy == "ignore":
        return "Note: unknown keys are allowed and ignored; a TypedDict cannot declare them."
    return textwrap.fill(f"Unknown keys are rejected by `{validator}`.", 84, break_long_words=False)


def typed_dict_view(
    record: ir.Record, codecs: Codecs, defined: set[str], renames: dict[str, str]
) -> TypedDictView:
    suffix = function_suffix(record.name)
    public = f"validate_{suffix}"
    keys: list[KeyView] = []
    for item in record.fields:
        is_required = item.required and not item.aliases
        keys.append(
            KeyView(
                py_str(item.json_key),
                item.json_key,
                _annotation(codecs, item.type, defined, is_required, renames),
                _key_comment(item, None, public),
                is_required,
            )
        )
        for alias in item.aliases:
            keys.append(
                KeyView(
                    py_str(alias),
                    alias,
                    _annotation(codecs, item.type, defined, False, renames),
                    _key_comment(item, item.json_key, public),
                    False,
                )
            )
    checks = codecs.record_checks(record)
    if inlines(record, checks):
        body = list(validator_body(record, checks, codecs))
    else:
        body = list(checks.prelude)
        body.extend(codecs.field_check(item) for item in checks.fields)
        if checks.rules_check:
            body.append(checks.rules_check)
        if checks.keeps_extra:
            body.append(checks.extra_check)
    body.append(f"return cast({record.name}, obj)")
    doc = (record.doc or f"The {record.name} object.") + "\n\n" + _extra_note(record, public)
    for text in (rules_text(record.rules), checks_text(record.schema_checks)):
        if text:
            doc += "\n\n" + textwrap.fill(text, width=84, break_long_words=False)
    # what makes two validators one: the keys, their value types and the checks (the
    # record's own key set named alike)
    shape = "\n".join(
        [
            *(f"{key.key}: {key.annotation.replace(chr(34), '')} {key.required}" for key in keys),
            checks.keys,
            *(line.replace(checks.keys_name, "_KEYS") for line in body[:-1]),
        ]
    )
    return TypedDictView(
        name=record.name,
        doc=doc,
        functional=not all(class_syntax_key(key.name) for key in keys),
        keys=tuple(keys),
        validator=codecs.checker(record.name),
        body=tuple(body),
        keys_name=checks.keys_name,
        keys_literal=checks.keys,
        shape=shape,
    )


def share_validators(views: list[TypedDictView]) -> list[TypedDictView]:
    """The views, each TypedDict whose keys, value types and checks are an earlier one's
    validated by that one's validator (TypedDicts are structural: the one validated is
    the other's type to mypy too), instead of a copy of its lines.

    Schemas repeat a shape under several names (the dated versions of one tool, the same
    options in several places); a validator that calls itself is never shared (its body
    names it).
    """
    first: dict[str, TypedDictView] = {}
    shared = []
    for view in views:
        earlier = first.setdefault(view.shape, view)
        if earlier is not view:
            view = dataclasses.replace(
                view, same_as=earlier.name, shared_validator=earlier.validator
            )
        shared.append(view)
    return shared
