"""Helpers shared by the tests of the workflow commands (tests/test_workflow_*.py)."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from polytype.cli import main

from .conftest import REPO

PYPROJECT = '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n'


def small_project(
    destination: Path, *modules: str, fixtures: bool = True, generated: bool = False
) -> Path:
    """A project with only some shipped schemas (loading all five takes seconds per command).

    `generated` copies the shipped generated/ too (an up-to-date output directory).
    """
    (destination / "schema").mkdir(parents=True)
    if generated:
        shutil.copytree(
            REPO / "generated",
            destination / "generated",
            ignore=shutil.ignore_patterns("_build", "deps", "__pycache__"),
        )
    (destination / "tests" / "fixtures").mkdir(parents=True)
    for module in modules:
        shutil.copy(REPO / "schema" / f"{module}.yaml", destination / "schema")
        if fixtures:
            shutil.copytree(
                REPO / "tests" / "fixtures" / module, destination / "tests" / "fixtures" / module
            )
    (destination / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return destination


def schema_project(root: Path, name: str, schema: Any, settings: str) -> Path:
    """A project of one schema file `schema/<name>` (a dict is written as JSON) whose
    `[tool.polytype]` table holds `schema-dir = "schema"` and then `settings`."""
    (root / "schema").mkdir(parents=True, exist_ok=True)
    text = schema if isinstance(schema, str) else json.dumps(schema)
    (root / "schema" / name).write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\n' + settings, encoding="utf-8"
    )
    return root


def run(project: Path, *args: str) -> int:
    return main(["--project", str(project), *args])


def fixture(module: str, relative: str) -> Any:
    """A shipped fixture's value."""
    path = REPO / "tests" / "fixtures" / module / relative
    return json.loads(path.read_text(encoding="utf-8"))


def write_lines(path: Path, lines: list[Any]) -> Path:
    """A .jsonl file: values are dumped compactly, strings are written as they are (bad lines)."""
    text = "".join(
        (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n"
        for line in lines
    )
    path.write_text(text, encoding="utf-8")
    return path


def tree(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def require_fork_and_two_cores() -> None:
    """Tests that compare a build in this process with one in forked workers need both
    (CI has them): without, they would compare the in-process build with itself."""
    if "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2:
        pytest.fail("these tests need fork and two cores, as CI has")
