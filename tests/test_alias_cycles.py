"""Module-level aliases on a cycle import in every Python flavor (issue 31).

A union of one member ahead of the cycle it names (`Schema -> Types -> Union_ -> Schema`,
as Avro's schema writes it), a union naming itself through an array and then named by
another union (`Command | PerOs`), a map whose values name the map, and a member that is
`{type: null, nullable: true}`: each flavor writes the first alias of a cycle lazily (a
string in dataclasses and TypedDicts, `TypeAliasType` in Pydantic) and every alias that
names a string one as a string too, so the modules import with warnings as errors,
type-check and round-trip nested values.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main

from .conftest import import_file
from .workflow_support import schema_project

MODULE = "polytype_cycles"
FLAVORS = ("dataclass_models", "typed_dicts", "pydantic_models")
SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: Cycles
type: object
properties:
  avro: {$ref: '#/$defs/Schema'}
  command: {$ref: '#/$defs/Command'}
  nested: {$ref: '#/$defs/Nested'}
$defs:
  Schema:
    oneOf: [{$ref: '#/$defs/Types'}]
  Types:
    oneOf:
      - {type: string, enum: [int, string]}
      - {type: object, properties: {type: {type: string}}, required: [type]}
      - {$ref: '#/$defs/Union'}
  Union: {type: array, items: {$ref: '#/$defs/Schema'}, minItems: 1}
  Command:
    anyOf:
      - {type: string}
      - {type: array, items: {$ref: '#/$defs/Command'}}
      - {$ref: '#/$defs/PerShell'}
  PerShell:
    type: object
    properties:
      posix: {anyOf: [{$ref: '#/$defs/Command'}, {$ref: '#/$defs/PerOs'}]}
    additionalProperties: false
  PerOs:
    type: object
    properties: {linux: {$ref: '#/$defs/Command'}}
    additionalProperties: false
  Nested:
    type: object
    additionalProperties: {$ref: '#/$defs/NestedValue'}
  NestedValue:
    anyOf: [{type: string}, {$ref: '#/$defs/Nested'}, {type: 'null', nullable: true}]
"""
VALID: list[dict[str, Any]] = [
    {},
    {"avro": ["int", [{"type": "x"}, "string"]]},
    {"command": ["a", ["b"], {"posix": {"linux": ["c"]}}]},
    {"command": {"posix": "d"}, "nested": {"a": None, "b": {"c": "d", "e": {}}}},
]


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = schema_project(
        tmp_path_factory.mktemp("cycles"),
        f"{MODULE}.yaml",
        SCHEMA,
        'strict = false\ntargets = ["dataclasses", "typeddicts", "pydantic"]\n',
    )
    assert main(["--project", str(root), "generate"]) == 0
    return root / "generated" / "python"


def _run(python: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *command], cwd=python, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("flavor", FLAVORS)
def test_each_flavor_imports_without_a_warning(python: Path, flavor: str) -> None:
    done = _run(python, "-W", "error", "-c", f"import {MODULE}.{flavor}")
    assert done.returncode == 0, done.stderr


def test_every_flavor_type_checks(python: Path) -> None:
    done = _run(python, "-m", "mypy", "--strict", "--no-incremental", MODULE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_nested_values_round_trip(python: Path) -> None:
    flavors: dict[str, ModuleType] = {
        flavor: import_file(python / MODULE / f"{flavor}.py", f"polytype_cycles_{flavor}")
        for flavor in FLAVORS
    }
    dataclasses, typed, pydantic = (flavors[flavor] for flavor in FLAVORS)
    for value in VALID:
        assert dataclasses.encode_cycles(dataclasses.decode_cycles(value)) == value
        assert typed.validate_cycles(value) == value
        dumped = pydantic.Cycles.model_validate(value).model_dump(
            mode="json", by_alias=True, exclude_unset=True
        )
        assert dumped == value
    for flavor in (dataclasses, typed):
        with pytest.raises(ValueError):
            (getattr(flavor, "decode_cycles", None) or flavor.validate_cycles)({"avro": []})
    with pytest.raises(ValueError):
        pydantic.Cycles.model_validate({"avro": []})
