"""Shared helpers for the generator's own tests."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO.parent / "shared" / "recorded"


def copy_project(destination: Path, with_generated: bool = True) -> Path:
    """A copy of this repository's polytype project (schemas, fixtures, outputs) to work on."""
    (destination / "tests").mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO / "schema", destination / "schema")
    shutil.copytree(REPO / "tests" / "fixtures", destination / "tests" / "fixtures")
    if with_generated:
        shutil.copytree(
            REPO / "generated",
            destination / "generated",
            ignore=shutil.ignore_patterns("_build", "deps", "__pycache__"),
        )
    (destination / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\n', encoding="utf-8"
    )
    return destination


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def load_generated(module: str, flavor: str = "dataclass_models") -> ModuleType:
    """Import a generated module from generated/python/<module>/<flavor>.py by path."""
    name = f"polytype_generated.{module}.{flavor}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, REPO / "generated" / "python" / module / f"{flavor}.py"
    )
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    spec.loader.exec_module(loaded)
    return loaded


def schema_data(module: str) -> dict[str, Any]:
    """The parsed schema file of a shipped module."""
    from generator.loader import load

    data = load(REPO / "schema" / f"{module}.yaml").data
    assert isinstance(data, dict)
    return data


SHIPPED_MODULES = sorted(path.stem for path in (REPO / "schema").glob("*.yaml"))
