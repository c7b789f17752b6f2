"""Check a loaded schema document against the dialect, reporting every problem.

Two passes over the same document, both collecting located diagnostics:
the dialect meta-schema (jsonschema), then the checks a meta-schema cannot
express (references resolve, `x-polytype` only at the root).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from polytype.diagnostics import Diagnostic, InputError, join_pointer
from polytype.dialect.fastcheck import compile_schema
from polytype.dialect.keywords import (
    CHECKED_ON_MAPS,
    CHECKED_ON_RECORDS,
    COUNTED_ON_MAPS,
    DEFINITION_KEYS,
    REF_SIBLINGS,
    UNION_SIBLINGS,
    UNSUPPORTED_KEYWORDS,
    counts_entries,
    dialect_schema,
    pattern_problem,
    resolve_pointer,
    walk_schemas,
)
from polytype.ir.patterns import pcre_problem, python_pattern
from polytype.reading.loader import Document

if TYPE_CHECKING:  # jsonschema is imported only when a document is not valid (it is slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema

    schema = dialect_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    formats = jsonschema.FormatChecker(formats=())
    formats.checkers = dict(validator_class.FORMAT_CHECKER.checkers)
    # a pattern is ECMA-262: Unicode property escapes are read as the decoders read them
    formats.checks("regex", raises=re.error)(_python_regex)
    return validator_class(schema, format_checker=formats)


def _python_regex(instance: object) -> bool:
    if isinstance(instance, str):
        re.compile(python_pattern(instance))
    return True


def validate(document: Document, meets_dialect: bool = False) -> None:
    """Raise ``InputError`` listing every problem in `document`; return if it is valid.
    `meets_dialect`: `written_for_polytype` already said yes, so the meta-schema check
    (the costliest part on a large schema) is not run a second time."""
    problems = [] if meets_dialect else list(_dialect_problems(document))
    schemas = list(walk_schemas(document.data))  # walked once for the three checks
    problems.extend(_reference_problems(document, schemas))
    problems.extend(_placement_problems(document, schemas))
    problems.extend(_unsupported_problems(document, schemas))
    if problems:
        raise InputError(problems)


def written_for_polytype(document: Document) -> bool:
    """A quick yes when `document` meets the dialect meta-schema (no messages: a no is
    cheap too, unlike `validate`, which words every problem)."""
    fast = _fast_check()
    return fast is not None and fast(document.data)


@lru_cache(maxsize=1)
def _fast_check() -> Callable[[Any], bool] | None:
    """A quick valid-or-not check against the dialect; jsonschema words the problems."""
    return compile_schema(dialect_schema())


def _dialect_problems(document: Document) -> Iterator[Diagnostic]:
    fast = _fast_check()
    if fast is not None and fast(document.data):
        return
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
        import jsonschema.exceptions

        # anyOf/oneOf failures: report the most specific sub-error.
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None and best.validator != error.validator:
            message = best.message
        else:
            message = error.message
    else:
        message = error.message
    # the dialect's name patterns end in `(?!\n)$` (the end of the text in Python's re as in
    # ECMA-262, where `$` alone also matches before a final newline): shown as plain `$`
    message = message.replace(_END_OF_TEXT_SHOWN, "$'")
    yield document.diagnostic(pointer, _shorten(message))


_END_OF_TEXT_SHOWN = "(?!\\\\n)$'"


def _allowed_keys(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        return set(schema.get("properties", {}))
    return set()


def _is_pattern_allowed(schema: Any, key: str) -> bool:
    import re

    patterns = schema.get("patternProperties", {}) if isinstance(schema, dict) else {}
    return any(re.search(python_pattern(pattern), key) for pattern in patterns)


def _unknown_key_message(key: str, allowed: set[str]) -> str:
    kind = "x- extension" if key.startswith("x-") else "keyword"
    candidates = sorted(k for k in allowed if k.startswith("x-") == key.startswith("x-"))
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {kind} {key!r}{hint}"


def _shorten(message: str, limit: int = 200) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _reference_problems(
    document: Document, schemas: list[tuple[str, dict[str, Any]]]
) -> Iterator[Diagnostic]:
    for pointer, schema in schemas:
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
        target = ref[1:]
        if target and not target.startswith("/"):
            yield document.diagnostic(
                where,
                f"reference {ref!r} names an anchor, which is not supported: "
                "use a JSON pointer to a definition (#/$defs/Name)",
            )
            continue
        if resolve_pointer(document.data, target) is None:
            names = sorted(
                name for key in DEFINITION_KEYS for name in (document.data.get(key) or {})
            )
            close = difflib.get_close_matches(ref.rsplit("/", 1)[-1], names, n=1)
            hint = f"; did you mean '#/$defs/{close[0]}'?" if close else ""
            yield document.diagnostic(
                where, f"dangling reference {ref!r}: no such definition{hint}"
            )
            continue
        tokens = target.split("/")
        if len(tokens) != 3 or tokens[0] != "" or tokens[1] not in DEFINITION_KEYS:
            yield document.diagnostic(
                where,
                f"reference {ref!r} does not name a definition: only whole definitions "
                "(#/$defs/Name) can be referenced; move the schema into $defs",
            )
            continue
        for key in sorted(set(schema) - REF_SIBLINGS):
            if not key.startswith("x-"):
                yield document.diagnostic(
                    join_pointer(pointer, key),
                    f"{key!r} beside $ref would be ignored: a reference stands for the whole "
                    "definition; change the definition itself or define another type",
                )


def _placement_problems(
    document: Document, schemas: list[tuple[str, dict[str, Any]]]
) -> Iterator[Diagnostic]:
    for pointer, schema in schemas:
        if pointer and "x-polytype" in schema:
            yield document.diagnostic(
                join_pointer(pointer, "x-polytype"),
                "x-polytype belongs at the top of the document only",
            )


def _unsupported_problems(
    document: Document, schemas: list[tuple[str, dict[str, Any]]]
) -> Iterator[Diagnostic]:
    for pointer, schema in schemas:
        yield from _shape_problems(document, pointer, schema)
        for key, hint in UNSUPPORTED_KEYWORDS.items():
            if key in COUNTED_ON_MAPS and counts_entries(schema):
                continue
            if key in CHECKED_ON_RECORDS and isinstance(schema.get("properties"), dict):
                continue
            if key in CHECKED_ON_MAPS and counts_entries(schema):
                continue
            if key in schema:
                advice = f"; {hint}" if hint else ""
                yield document.diagnostic(
                    join_pointer(pointer, key),
                    f"keyword {key!r} is not supported: the generated decoders could not "
                    f"enforce it{advice}",
                )
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            problem = pcre_problem(pattern)
            if problem:
                yield document.diagnostic(
                    join_pointer(pointer, "pattern"),
                    f"pattern {pattern!r} cannot be checked in Elixir: {problem}",
                )
        patterns = schema.get("patternProperties")
        for key in patterns if isinstance(patterns, dict) else ():
            problem = pattern_problem(key)
            if problem:
                yield document.diagnostic(
                    join_pointer(join_pointer(pointer, "patternProperties"), key),
                    f"pattern {key!r} cannot be checked in Elixir: {problem}",
                )


def _shape_problems(
    document: Document, pointer: str, schema: dict[str, Any]
) -> Iterator[Diagnostic]:
    """Combinations the generator would silently get wrong: keywords it would ignore."""
    union_keywords = [key for key in ("oneOf", "anyOf") if key in schema]
    if len(union_keywords) == 2:
        yield document.diagnostic(
            join_pointer(pointer, "anyOf"), "oneOf and anyOf together are not supported; use one"
        )
    if union_keywords and "$ref" not in schema:
        for key in sorted(set(schema) - UNION_SIBLINGS):
            if not key.startswith("x-"):
                yield document.diagnostic(
                    join_pointer(pointer, key),
                    f"{key!r} beside {union_keywords[0]} would be ignored: the union is the whole "
                    "type; move it into the members",
                )
    declared = schema.get("type")
    if declared is not None and ("enum" in schema or "const" in schema):
        checker = compile_schema({"type": declared}) or (
            lambda _: True
        )  # bad types: reported above
        values = schema.get("enum") if isinstance(schema.get("enum"), list) else []
        candidates = [("const", schema["const"])] if "const" in schema else []
        candidates += [(f"enum/{index}", value) for index, value in enumerate(values or [])]
        for where, value in candidates:
            if value is not None and not checker(value):
                yield document.diagnostic(
                    f"{pointer}/{where}",
                    f"{json.dumps(value, ensure_ascii=False)} does not match the declared type "
                    f"{json.dumps(declared)}",
                )
    if "required" in schema and "properties" not in schema and "$ref" not in schema:
        yield document.diagnostic(
            join_pointer(pointer, "required"),
            "required keys without properties cannot be checked; declare them under properties",
        )
