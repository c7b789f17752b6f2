"""The fast dialect check must agree with jsonschema on every schema it is shown."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype.dialect.fastcheck import compile_schema, json_equal
from polytype.dialect.keywords import dialect_schema
from polytype.reading.loader import load

ROOT = Path(__file__).resolve().parent.parent


def _documents() -> list[tuple[str, Any]]:
    found = []
    for path in sorted((ROOT / "schema").glob("*.yaml")) + sorted(ROOT.glob("tests/**/*.yaml")):
        try:
            found.append((str(path.relative_to(ROOT)), load(path).data))
        except Exception:  # noqa: BLE001 - unreadable files are the loader's tests' business
            continue
    return found


def _mutations(data: Any) -> list[Any]:
    """Small edits that break (or keep) validity: wrong types, unknown keys, bad patterns."""
    out = []
    for key, replacement in [
        ("type", "strnig"),
        ("type", ["string", "string"]),
        ("required", "name"),
        ("x-unknown", True),
        ("pattern", "(unclosed"),
        ("enum", []),
        ("minItems", -1),
        ("properties", {"a": {"type": 5}}),
        ("additionalProperties", {"type": "integer"}),
        ("$defs", {"A": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}),
        ("title", 3),
        ("nullable", "yes"),
    ]:
        changed = copy.deepcopy(data)
        changed[key] = replacement
        out.append(changed)
        definitions = changed.get("$defs")
        if isinstance(definitions, dict) and definitions:
            nested = copy.deepcopy(data)
            # the document's own $defs, which may be anything (a fuzz regression's is a number)
            own = nested.get("$defs")
            first = next(iter(own), None) if isinstance(own, dict) else None
            if first is not None and isinstance(nested["$defs"][first], dict):
                nested["$defs"][first][key] = replacement
                out.append(nested)
    return out


def test_fast_check_agrees_with_jsonschema() -> None:
    schema = dialect_schema()
    fast = compile_schema(schema)
    assert fast is not None, "the dialect uses a keyword fastcheck does not know"
    validator_class = jsonschema.validators.validator_for(schema)
    reference = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    checked = 0
    for name, data in _documents():
        for candidate in [data, *_mutations(data)]:
            assert fast(candidate) == reference.is_valid(candidate), (
                name,
                json.dumps(candidate)[:300],
            )
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("left", "right", "equal"),
    [(1, 1.0, True), (True, 1, False), ({"a": [1]}, {"a": [1]}, True), ([1], [True], False)],
)
def test_json_equality(left: Any, right: Any, equal: bool) -> None:
    assert json_equal(left, right) is equal
