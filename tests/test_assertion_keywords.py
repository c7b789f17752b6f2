"""Assertion keywords beyond types and bounds (issue 19): each failure is one error at one
JSON path naming the keyword, the same in every Python flavor, and `drift` judges a
recorded value as the decoders do. (tests/test_suite_conformance.py measures the verdicts
against the JSON-Schema-Test-Suite; this file pins the messages, paths and docs.)
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main
from pydantic import ValidationError

from .conftest import import_file
from .workflow_support import schema_project

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Toolbox",
    "type": "object",
    "properties": {
        "tools": {
            "type": "array",
            "uniqueItems": True,
            "items": {"$ref": "#/$defs/Tool"},
        },
        "tags": {"type": "array", "items": {"type": "string"}},
        "size": {"type": "integer", "multipleOf": 4},
        "step": {"type": "number", "multipleOf": 0.01},
        "labels": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1,
            "maxProperties": 2,
        },
    },
    "required": ["tools"],
    "additionalProperties": False,
    "$defs": {
        "Tool": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "size": {"type": "number"}},
            "required": ["name"],
        },
        "Scores": {"type": "array", "uniqueItems": True, "items": {"type": "number"}},
    },
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = schema_project(
        tmp_path_factory.mktemp("keywords"),
        "toolbox.json",
        SCHEMA,
        'strict = true\ntargets = ["dataclasses", "typeddicts", "pydantic", "docs"]\n',
    )
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _load(project: Path, flavor: str) -> ModuleType:
    path = project / "generated" / "python" / "toolbox" / f"{flavor}.py"
    return import_file(path, f"polytype_keywords.toolbox.{flavor}")


def _error(project: Path, flavor: str, function: str, data: Any) -> str:
    models = _load(project, flavor)
    with pytest.raises(ValueError) as caught:
        getattr(models, function)(data)
    return str(caught.value)


REPEATED = {"tools": [{"name": "a"}, {"name": "b"}, {"size": 1.0, "name": "a"}, {"name": "a"}]}


@pytest.mark.parametrize(
    ("flavor", "function"),
    [("dataclass_models", "decode_toolbox"), ("typed_dicts", "validate_toolbox")],
)
def test_the_error_is_at_the_repeated_item_and_names_the_earlier(
    project: Path, flavor: str, function: str
) -> None:
    assert _error(project, flavor, function, REPEATED) == (
        "$.tools[3]: items are not unique (equal to $.tools[0])"
    )
    nested = {"tools": [{"name": "a", "size": 1}, {"size": 1.0, "name": "a"}]}
    assert _error(project, flavor, function, nested) == (
        "$.tools[1]: items are not unique (equal to $.tools[0])"
    )


@pytest.mark.parametrize(
    ("flavor", "function"),
    [("dataclass_models", "decode_scores"), ("typed_dicts", "validate_scores")],
)
def test_json_equality(project: Path, flavor: str, function: str) -> None:
    models = _load(project, flavor)
    decode = getattr(models, function)
    assert _error(project, flavor, function, [1, 2, 1.0]) == (
        "$[2]: items are not unique (equal to $[0])"
    )
    assert decode([1, 1.5, 2]) == [1, 1.5, 2]


def test_true_and_1_differ(project: Path) -> None:
    models = _load(project, "dataclass_models")
    data = {"tools": [{"name": "a", "x": True}, {"name": "a", "x": 1}]}
    assert models.encode_toolbox(models.decode_toolbox(data)) == data


def test_pydantic_rejects_with_the_keyword(project: Path) -> None:
    models = _load(project, "pydantic_models")
    with pytest.raises(ValidationError) as caught:
        models.Toolbox.model_validate(REPEATED)
    assert "items are not unique ([3] is equal to [0])" in str(caught.value)
    assert caught.value.errors()[0]["loc"] == ("tools",)
    models.Toolbox.model_validate({"tools": [{"name": "a"}, {"name": "a", "size": 1}]})


@pytest.mark.parametrize(
    "items",
    [[1, 2, 1.0], [1, True], [{"a": 1, "b": [1]}, {"b": [1.0], "a": 1}], [[1], [True]], []],
)
def test_drift_judges_as_the_decoders(project: Path, items: list[Any]) -> None:
    """`polytype drift` reports a uniqueItems violation exactly when the decoders reject."""
    from polytype import ir
    from polytype.workflow.observe import _broken

    models = _load(project, "dataclass_models")
    try:  # the decoders' own check, on any JSON array
        rejected = False
        models._unique_items(items)
    except models.DecodeError:
        rejected = True
    constraints = ir.Constraints(unique_items=True)
    assert bool(_broken(constraints, items)) == rejected
    assert (("uniqueItems", True) in _broken(constraints, items)) == rejected


@pytest.mark.parametrize(
    ("flavor", "function"),
    [("dataclass_models", "decode_toolbox"), ("typed_dicts", "validate_toolbox")],
)
def test_multiple_of(project: Path, flavor: str, function: str) -> None:
    decode = getattr(_load(project, flavor), function)
    assert _error(project, flavor, function, {"tools": [], "size": 6}) == (
        "$.size: must be a multiple of 4"
    )
    assert _error(project, flavor, function, {"tools": [], "step": 0.015}) == (
        "$.step: must be a multiple of 0.01"
    )
    decode({"tools": [], "size": -8, "step": 1.1})
    decode({"tools": [], "size": 10**30, "step": 3})
    # floats as jsonschema judges them: 19.99 / 0.01 is 1998.9999999999998, not whole
    assert _error(project, flavor, function, {"tools": [], "step": 19.99}).startswith("$.step")


def test_pydantic_multiple_of(project: Path) -> None:
    models = _load(project, "pydantic_models")
    with pytest.raises(ValidationError) as caught:
        models.Toolbox.model_validate({"tools": [], "step": 0.015})
    assert "must be a multiple of 0.01" in str(caught.value)
    models.Toolbox.model_validate({"tools": [], "size": -8, "step": 1.1})


@pytest.mark.parametrize(
    ("value", "divisor"),
    [(6, 4), (8, 4), (8.0, 4), (7.5, 2), (0.0075, 0.0001), (0.00751, 0.0001), (1e308, 0.123456789),
     (12391239123, 1e-8), (19.99, 0.01), (0.3, 0.1)],
)  # fmt: skip
def test_drift_judges_multiple_of_as_the_decoders(
    project: Path, value: float, divisor: float
) -> None:
    from polytype import ir
    from polytype.workflow.observe import _broken

    models = _load(project, "dataclass_models")
    accepted = models._multiple_of(value, divisor)
    broken = _broken(ir.Constraints(multiple_of=divisor), value)
    assert (broken == [("multipleOf", divisor)]) == (not accepted)


@pytest.mark.parametrize(
    ("flavor", "function"),
    [("dataclass_models", "decode_toolbox"), ("typed_dicts", "validate_toolbox")],
)
def test_map_entries_are_counted(project: Path, flavor: str, function: str) -> None:
    decode = getattr(_load(project, flavor), function)
    assert _error(project, flavor, function, {"tools": [], "labels": {}}) == (
        "$.labels: must have at least 1 propert(ies)"
    )
    too_many = {"tools": [], "labels": {"a": "1", "b": "2", "c": "3"}}
    assert _error(project, flavor, function, too_many) == (
        "$.labels: must have at most 2 propert(ies)"
    )
    decode({"tools": [], "labels": {"a": "1", "b": "2"}})


def test_pydantic_map_entries_are_counted(project: Path) -> None:
    models = _load(project, "pydantic_models")
    with pytest.raises(ValidationError):
        models.Toolbox.model_validate({"tools": [], "labels": {}})
    models.Toolbox.model_validate({"tools": [], "labels": {"a": "1"}})
