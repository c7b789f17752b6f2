"""Schema checks (`ir.SchemaCheck`) as the targets show them: in words, as plain JSON Schema.

A schema check is a fragment of a consumed schema that no type expresses (`not`,
`if`/`then`/`else`, `dependentSchemas`, an `allOf` part that cannot merge); the
decoders validate the JSON value against it as it arrives. Docstrings, the mapping
table's Notes and `polytype drift` say what each one demands with `check_text`; the
Python flavors hold it as `check_schema`, plain JSON Schema 2020-12.
"""

from __future__ import annotations

import json

from polytype import ir
from polytype.ir.literals import thaw

# A fragment shown in words is cut after this many characters (its pointer says where the
# rest is).
_SHOWN = 160


def check_schema(check: ir.SchemaCheck) -> ir.FrozenJSONObject:
    """The check as a JSON Schema object (a boolean schema, `false`, becomes `{allOf: [false]}`)."""
    if isinstance(check.schema, ir.FrozenJSONObject):
        return check.schema
    return ir.FrozenJSONObject((("allOf", (check.schema,)),))


def unchecked(type_ref: ir.TypeRef) -> ir.TypeRef:
    """`type_ref` without the `ir.Checked` around it (the type its values decode to)."""
    while isinstance(type_ref, ir.Checked):
        type_ref = type_ref.inner
    return type_ref


# The type names of JSON Schema; a check naming another (continue-config writes
# `"type": "str"`) is evaluated with that name matching nothing, as the corpus' oracle does.
JSON_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


def unknown_types(module: ir.Module) -> tuple[str, ...]:
    """The `type` names outside JSON Schema's seven that the module's checks and their
    definitions use (sorted): the validators make each one match nothing."""
    found: set[str] = set()
    stack: list[object] = [thaw(ir.FrozenJSONObject(module.check_defs))]
    stack += [thaw(check.schema) for check in ir.schema_checks(module)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kinds = node.get("type")
            for kind in kinds if isinstance(kinds, list) else [kinds]:
                if isinstance(kind, str) and kind not in JSON_TYPES:
                    found.add(kind)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return tuple(sorted(found))


def shown(value: object) -> str:
    """Compact JSON, cut after `_SHOWN` characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def demand(check: ir.SchemaCheck) -> str:
    """What the check demands of a value, in words: `must not match {"required": ["a"]}`;
    a check of several keywords says each part (`not`, `if`/`then`/`else`,
    `dependentSchemas`, then the rest)."""
    schema = thaw(check.schema)
    if not isinstance(schema, dict):
        return "must match nothing" if schema is False else "accepts any value"
    rest = dict(schema)
    parts: list[str] = []
    if "not" in rest:
        parts.append(f"must not match `{shown(rest.pop('not'))}`")
    if "if" in rest:
        condition = shown(rest.pop("if"))
        then, otherwise = rest.pop("then", None), rest.pop("else", None)
        if then is not None:
            parts.append(f"when it matches `{condition}`, must match `{shown(then)}`")
        if otherwise is not None:
            start = "otherwise" if then is not None else f"when it does not match `{condition}`,"
            parts.append(f"{start} must match `{shown(otherwise)}`")
    dependent = rest.get("dependentSchemas")
    if isinstance(dependent, dict):
        del rest["dependentSchemas"]
        parts += [
            f"when key `{key}` is present, must match `{shown(value)}`"
            for key, value in dependent.items()
        ]
    rest.pop("then", None), rest.pop("else", None)  # without `if`, they assert nothing
    if rest:
        parts.append(f"must match `{shown(rest)}`")
    return "; ".join(parts) or "accepts any value"


def check_text(check: ir.SchemaCheck) -> str:
    """One sentence: what the check demands (where it was written, `check.described`, is
    in the message of the DecodeError it raises; beside a field or type it is clear)."""
    return f"Checked as JSON Schema: {demand(check)}."


def checks_text(checks: tuple[ir.SchemaCheck, ...]) -> str:
    """Every check of a type in words ("" without any)."""
    return " ".join(check_text(check) for check in checks)
