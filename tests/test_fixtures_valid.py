"""Every fixture is checked against its schema by jsonschema before it counts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from polytype.project.export import wire_schema

from .conftest import REPO, SHIPPED_MODULES, schema_data

FIXTURES = REPO / "tests" / "fixtures"


def _cases() -> list[tuple[str, str, Path, bool]]:
    cases = []
    for module in SHIPPED_MODULES:
        for path in sorted((FIXTURES / module).rglob("*.json")):
            parts = path.relative_to(FIXTURES / module).parts
            cases.append((module, parts[0], path, len(parts) == 2))
    return cases


CASES = _cases()


def test_every_module_has_fixtures() -> None:
    assert {module for module, *_ in CASES} == set(SHIPPED_MODULES)


def test_every_type_has_three_valid_fixtures_and_an_invalid_one() -> None:
    missing = []
    for module in SHIPPED_MODULES:
        types = schema_data(module).get("$defs", {})
        for name, schema in types.items():
            valid = [c for c in CASES if c[0] == module and c[1] == name and c[3]]
            invalid = [c for c in CASES if c[0] == module and c[1] == name and not c[3]]
            enum_size = len(schema.get("enum", [])) if isinstance(schema, dict) else 0
            needed = min(3, enum_size) if enum_size else 3
            if len(valid) < needed or not invalid:
                missing.append(f"{module}/{name}: {len(valid)} valid, {len(invalid)} invalid")
    assert not missing, "\n".join(missing)


def test_fixture_directories_name_real_types() -> None:
    unknown = sorted(
        {f"{m}/{t}" for m, t, _, _ in CASES if t not in schema_data(m).get("$defs", {})}
    )
    assert not unknown


@pytest.mark.parametrize(
    ("module", "type_name", "path", "valid"),
    CASES,
    ids=[c[2].relative_to(FIXTURES).as_posix() for c in CASES],
)
def test_fixture_against_schema(module: str, type_name: str, path: Path, valid: bool) -> None:
    schema = wire_schema(schema_data(module), type_name)
    validator = jsonschema.Draft202012Validator(schema, format_checker=None)
    errors = list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
    if valid:
        assert not errors, errors[0].message
    else:
        assert errors, "an invalid fixture that the schema accepts"
        assert path.with_suffix(
            ".path"
        ).is_file(), "invalid fixtures record their expected error path"
