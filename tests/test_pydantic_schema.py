"""The JSON Schema Pydantic derives from each generated model accepts every valid fixture.

`X.model_json_schema(by_alias=True)` (records) and `XAdapter.json_schema(by_alias=True)`
(unions, enums, aliases) are what a consumer of the Pydantic flavor would publish;
checked with jsonschema, draft 2020-12, they must accept what the models accept.
The runtime states the wire rules there too: tags are required, x-aliases are
alternative spellings of one key (see `_wire_json_schema`).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.lowering.lower import lower
from polytype.project.fixtures import discover
from polytype.reading.loader import load

from .conftest import REPO, SHIPPED_MODULES, load_generated

FIXTURES = REPO / "tests" / "fixtures"


@functools.cache
def _module_ir(module: str) -> ir.Module:
    return lower(load(REPO / "schema" / f"{module}.yaml", f"schema/{module}.yaml"))


@functools.cache
def _validator(module: str, type_name: str) -> jsonschema.Draft202012Validator:
    models = load_generated(module, "pydantic_models")
    named = _module_ir(module).get(type_name)
    schema: dict[str, Any]
    if isinstance(named, ir.Record):
        schema = getattr(models, type_name).model_json_schema(by_alias=True)
    else:
        schema = getattr(models, f"{type_name}Adapter").json_schema(by_alias=True)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for module in SHIPPED_MODULES:
        names = {named.name for named in _module_ir(module).types}
        for case in discover(FIXTURES, module):
            if case.valid and case.type_name in names:
                cases.append((module, case.type_name, case.relative_path))
    return cases


CASES = _cases()


def test_there_are_cases() -> None:
    assert {module for module, _, _ in CASES} == set(SHIPPED_MODULES)


@pytest.mark.parametrize(("module", "type_name", "path"), CASES, ids=[case[2] for case in CASES])
def test_model_json_schema_accepts_valid_fixture(module: str, type_name: str, path: str) -> None:
    data = json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    errors = list(_validator(module, type_name).iter_errors(data))
    assert not errors, f"{errors[0].json_path}: {errors[0].message}"


def test_wire_rules_appear_in_the_json_schema() -> None:
    """Tags are required (they have a default only for building in code); aliases are spellings."""
    models = load_generated("claude_code", "pydantic_models")
    schema = models.SystemMessage.model_json_schema(by_alias=True)
    assert {"type", "subtype"} <= set(schema["required"])
    assert "session_id" not in schema["required"] and "sessionId" in schema["properties"]
    validator = jsonschema.Draft202012Validator(schema)
    seed = json.loads((FIXTURES / "claude_code/SystemMessage/seed_example.json").read_text("utf-8"))
    assert validator.is_valid(seed)
    assert not validator.is_valid({**seed, "session_id": "also"}), "two spellings of one key"
    assert not validator.is_valid({k: v for k, v in seed.items() if k != "sessionId"})
    ag_ui = load_generated("ag_ui", "pydantic_models")
    message = ag_ui.AssistantMessage.model_json_schema(by_alias=True)
    assert message["properties"]["content"]["type"] == "string", "optional, but never null"
