"""Aliases that contain themselves through lists and maps build and round-trip (issue 17).

`L: {type: array, items: {$ref: L}}` made every target recurse forever while rendering
(exit 3). Now each flavor writes such an alias so that it imports and type-checks
(quoted in dataclasses and TypedDicts, `TypeAliasType` in Pydantic), decodes nested
values, rejects a wrong leaf at its path and keeps the depth limit. The Elixir side is
compiled by the fuzz replay of tests/fuzz_regressions/issue17_recursive_array_alias.yaml.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main
from pydantic import ValidationError

from .conftest import REPO, import_file

SCHEMA = REPO / "tests" / "fuzz_regressions" / "issue17_recursive_array_alias.yaml"
MODULE = "polytype_generated"
FLAVORS = ("dataclass_models", "typed_dicts", "pydantic_models")

VALID: dict[str, list[Any]] = {
    "L": [[], [[]], [[], [[], [[]]]]],
    "M": [{}, {"a": {}}, {"a": {"b": {}, "c": {"d": {}}}}],
    "A": [[], [{}], [{"x": []}, {"y": [{}, {"z": []}]}]],
    "Holder": [{"tree": []}, {"tree": [[[]]], "forest": [{"k": [{}]}]}],
    "T": [[], [1.5], [2, [3], [4, [5.5]]]],
}
INVALID: dict[str, list[tuple[Any, str]]] = {
    "L": [([[1]], "$[0][0]"), ({}, "$")],
    "M": [({"a": {"b": []}}, "$.a.b"), ({"a": 1}, "$.a")],
    "A": [([{"x": [1]}], "$[0].x[0]"), ([[]], "$[0]")],
    "Holder": [({"tree": [["x"]]}, "$.tree[0][0]"), ({"forest": []}, "$.tree")],
    "T": [([[1]], "$[0]"), ([1, [[1]]], "$[1][0]")],
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("recursive") / "project"
    (root / "schema").mkdir(parents=True)
    shutil.copy(SCHEMA, root / "schema" / f"{MODULE}.yaml")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses", "typeddicts", "pydantic"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(root), "generate"]) == 0
    return root


@pytest.fixture(scope="module")
def flavors(project: Path) -> dict[str, ModuleType]:
    folder = project / "generated" / "python" / MODULE
    return {
        flavor: import_file(folder / f"{flavor}.py", f"polytype_recursive_{flavor}")
        for flavor in FLAVORS
    }


def _round_trips(modules: dict[str, ModuleType], name: str) -> dict[str, Callable[[Any], Any]]:
    """JSON data in, JSON data out, through each flavor's decoder and encoder."""
    suffix = name.lower()
    dataclasses, typed, pydantic = (modules[flavor] for flavor in FLAVORS)
    decode, encode = getattr(dataclasses, f"decode_{suffix}"), getattr(
        dataclasses, f"encode_{suffix}"
    )
    model = getattr(pydantic, name if name == "Holder" else f"{name}Adapter")

    def through_pydantic(data: Any) -> Any:
        validated = model.validate_python(data) if name != "Holder" else model.model_validate(data)
        if name == "Holder":
            return validated.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return model.dump_python(validated, mode="json", by_alias=True, exclude_unset=True)

    return {
        "dataclasses": lambda data: encode(decode(data)),
        "typed_dicts": getattr(typed, f"validate_{suffix}"),
        "pydantic": through_pydantic,
    }


@pytest.mark.parametrize("name", sorted(VALID))
def test_nested_values_round_trip_in_every_flavor(
    flavors: dict[str, ModuleType], name: str
) -> None:
    for flavor, round_trip in _round_trips(flavors, name).items():
        for value in VALID[name]:
            assert round_trip(value) == value, (flavor, value)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_wrong_value_is_rejected_at_its_path(flavors: dict[str, ModuleType], name: str) -> None:
    for flavor, round_trip in _round_trips(flavors, name).items():
        for value, path in INVALID[name]:
            with pytest.raises((ValueError, ValidationError)) as caught:
                round_trip(value)
            if flavor != "pydantic":
                assert caught.value.path == path, (flavor, value)  # type: ignore[attr-defined]


def test_the_depth_limit_holds_for_a_self_nesting_alias(flavors: dict[str, ModuleType]) -> None:
    deep: list[Any] = []
    innermost = deep
    for _ in range(150):
        innermost.append([])
        innermost = innermost[0]
    for round_trip in _round_trips(flavors, "L").values():
        with pytest.raises((ValueError, ValidationError), match="nesting deeper than 100"):
            round_trip(deep)


def test_the_recursive_aliases_type_check(project: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", MODULE],
        cwd=project / "generated" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
