"""Defaults that a plain Python literal would mistype are decoded (issue 31).

A default of a field typed `list[Kind]`, `Version | list[Version]` or a union of an enum
and a list of one is JSON strings, but the field's values are `Enum` members: written as
the literal (`= "posix"`), mypy --strict rejects the module ([assignment], [list-item])
and a model built in code holds a plain string. Each such default is decoded as the
field is, so every flavor type-checks and a default is a value of its field's type.
"""

from __future__ import annotations

import subprocess
import sys
from enum import Enum
from pathlib import Path

import pytest
from polytype.cli import main

from .conftest import import_file
from .workflow_support import schema_project

MODULE = "polytype_defaults"
SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: Holder
type: object
properties:
  kinds:
    type: array
    items: {enum: [localized, plain]}
    uniqueItems: true
    default: [localized, plain]
  image:
    anyOf:
      - {$ref: '#/$defs/Version'}
      - {type: array, items: {$ref: '#/$defs/Version'}}
    default: xcode9
  shell:
    oneOf:
      - {enum: [posix, bash]}
      - {type: array, items: {enum: [posix, bash]}}
    default: posix
  plain: {type: array, items: {type: string}, default: [a]}
$defs:
  Version: {enum: [xcode9, xcode10]}
"""


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = schema_project(
        tmp_path_factory.mktemp("defaults"),
        f"{MODULE}.yaml",
        SCHEMA,
        'strict = false\ntargets = ["dataclasses", "typeddicts", "pydantic"]\n',
    )
    assert main(["--project", str(root), "generate"]) == 0
    return root / "generated" / "python"


def test_every_flavor_type_checks(python: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", MODULE],
        cwd=python,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_defaults_are_values_of_their_types_and_are_not_written(python: Path) -> None:
    folder = python / MODULE
    dataclasses = import_file(folder / "dataclass_models.py", "polytype_defaults_dataclasses")
    pydantic = import_file(folder / "pydantic_models.py", "polytype_defaults_pydantic")
    for built in (dataclasses.Holder(), pydantic.Holder()):
        assert [type(kind).__name__ for kind in built.kinds] == ["HolderKindsItem"] * 2
        assert built.image is dataclasses.Version.XCODE9 or built.image == "xcode9"
        assert isinstance(built.image, Enum) and isinstance(built.shell, Enum)
        assert built.plain == ["a"]
    assert dataclasses.encode_holder(dataclasses.Holder()) == {}
    assert pydantic.Holder().model_dump(mode="json", by_alias=True, exclude_unset=True) == {}
    decoded = dataclasses.decode_holder({})
    assert decoded == dataclasses.Holder() and dataclasses.encode_holder(decoded) == {}
