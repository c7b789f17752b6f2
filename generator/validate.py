"""Check a loaded schema document against the dialect, reporting every problem.

Two passes over the same document, both collecting located diagnostics:
the dialect meta-schema (jsonschema), then the checks a meta-schema cannot
express (references resolve, `x-polytype` only at the root).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from generator.diagnostics import Diagnostic, InputError, join_pointer
from generator.loader import Document

DEFINITION_KEYS = ("$defs", "definitions")


@lru_cache(maxsize=1)
def dialect_schema() -> dict[str, Any]:
    """The dialect meta-schema shipped inside the package."""
    text = resources.files("generator").joinpath("dialect.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    schema = dialect_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    return validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)


def known_keywords() -> list[str]:
    return sorted(dialect_schema()["$defs"]["schema"]["properties"])


def validate(document: Document) -> None:
    """Raise ``InputError`` listing every problem in `document`; return if it is valid."""
    problems = list(_dialect_problems(document))
    problems.extend(_reference_problems(document))
    problems.extend(_placement_problems(document))
    if problems:
        raise InputError(problems)


def _dialect_problems(document: Document) -> Iterator[Diagnostic]:
    for error in _validator().iter_errors(document.data):
        yield from _describe(document, error)


def _describe(document: Document, error: ValidationError) -> Iterator[Diagnostic]:
    pointer = "".join(join_pointer("", token) for token in error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = _allowed_keys(error.schema)
        for key in sorted(set(error.instance) - allowed):
            if _is_pattern_allowed(error.schema, key):
                continue
            yield document.diagnostic(
                join_pointer(pointer, key), _unknown_key_message(key, allowed)
            )
        return
    if error.context:
        # anyOf/oneOf failures: report the most specific sub-error.
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None and best.validator != error.validator:
            message = best.message
        else:
            message = error.message
    else:
        message = error.message
    yield document.diagnostic(pointer, _shorten(message))


def _allowed_keys(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        return set(schema.get("properties", {}))
    return set()


def _is_pattern_allowed(schema: Any, key: str) -> bool:
    import re

    patterns = schema.get("patternProperties", {}) if isinstance(schema, dict) else {}
    return any(re.search(pattern, key) for pattern in patterns)


def _unknown_key_message(key: str, allowed: set[str]) -> str:
    kind = "x- extension" if key.startswith("x-") else "keyword"
    candidates = sorted(k for k in allowed if k.startswith("x-") == key.startswith("x-"))
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {kind} {key!r}{hint}"


def _shorten(message: str, limit: int = 200) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


def walk_schemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in a document (by pointer), children after parents.

    Descends only into keywords whose values are schemas, so a property
    named `$ref` or a `default` holding a dict is not mistaken for a schema.
    """
    if not isinstance(node, dict):
        return
    yield pointer, node
    for keyword in ("$defs", "definitions", "properties", "patternProperties"):
        children = node.get(keyword)
        if isinstance(children, dict):
            for name, child in children.items():
                yield from walk_schemas(child, join_pointer(join_pointer(pointer, keyword), name))
    for keyword in (
        "items",
        "additionalProperties",
        "unevaluatedProperties",
        "propertyNames",
        "contains",
        "not",
        "if",
        "then",
        "else",
    ):
        yield from walk_schemas(node.get(keyword), join_pointer(pointer, keyword))
    for keyword in ("oneOf", "anyOf", "allOf", "prefixItems"):
        children = node.get(keyword)
        if isinstance(children, list):
            for index, child in enumerate(children):
                yield from walk_schemas(child, join_pointer(join_pointer(pointer, keyword), index))


def _reference_problems(document: Document) -> Iterator[Diagnostic]:
    for pointer, schema in walk_schemas(document.data):
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            continue
        where = join_pointer(pointer, "$ref")
        if not ref.startswith("#"):
            yield document.diagnostic(
                where,
                f"external reference {ref!r}: only local references (#/$defs/Name) are supported",
            )
            continue
        if resolve_pointer(document.data, ref[1:]) is None:
            names = sorted(
                name for key in DEFINITION_KEYS for name in (document.data.get(key) or {})
            )
            close = difflib.get_close_matches(ref.rsplit("/", 1)[-1], names, n=1)
            hint = f"; did you mean '#/$defs/{close[0]}'?" if close else ""
            yield document.diagnostic(
                where, f"dangling reference {ref!r}: no such definition{hint}"
            )


def _placement_problems(document: Document) -> Iterator[Diagnostic]:
    for pointer, schema in walk_schemas(document.data):
        if pointer and "x-polytype" in schema:
            yield document.diagnostic(
                join_pointer(pointer, "x-polytype"),
                "x-polytype belongs at the top of the document only",
            )


def resolve_pointer(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer (RFC 6901), or None when it does not exist."""
    if pointer == "":
        return data
    if not pointer.startswith("/"):
        return None
    node = data
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node
