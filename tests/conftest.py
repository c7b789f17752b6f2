"""Shared helpers for the generator's own tests."""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[1]
# PYTHONPATH for a child process that runs polytype: this checkout's own code first
# (generator/ holds the package), whatever polytype is installed, then the repository
# root for `tests.*`.
CHECKOUT_PATH = os.pathsep.join((str(REPO / "generator"), str(REPO)))

# Property tests (tests/test_properties.py and others without their own settings) run
# under a bounded, reproducible profile so the suite stays within minutes on two cores.
# HYPOTHESIS_PROFILE=thorough runs many more examples.
settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
settings.register_profile("thorough", settings.get_profile("ci"), max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
RECORDED = REPO.parent / "shared" / "recorded"

# The end-to-end cases' expected output holds generated round-trip suites: data to
# compare byte for byte (tests/test_endtoend.py), not tests of this repository.
collect_ignore_glob = ["endtoend/*/expected/*"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-endtoend",
        action="store_true",
        default=False,
        help="rewrite tests/endtoend/*/expected/ from what polytype generates now",
    )


def copy_project(
    destination: Path, with_generated: bool = True, modules: tuple[str, ...] | None = None
) -> Path:
    """A copy of this repository's polytype project (schemas, fixtures, outputs) to work on.

    With `modules`, only those schemas and fixtures are copied (and no outputs): a
    small project for tests that must generate from scratch.
    """
    (destination / "tests").mkdir(parents=True, exist_ok=True)
    if modules is not None:
        (destination / "schema").mkdir(parents=True)
        for module in modules:
            shutil.copy(REPO / "schema" / f"{module}.yaml", destination / "schema")
            shutil.copytree(
                REPO / "tests" / "fixtures" / module, destination / "tests" / "fixtures" / module
            )
        with_generated = False
    else:
        shutil.copytree(REPO / "schema", destination / "schema")
        shutil.copytree(REPO / "tests" / "fixtures", destination / "tests" / "fixtures")
    if with_generated:
        shutil.copytree(
            REPO / "generated",
            destination / "generated",
            ignore=shutil.ignore_patterns("_build", "deps", "__pycache__"),
        )
    (destination / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', encoding="utf-8"
    )
    return destination


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def import_file(path: Path, name: str) -> ModuleType:
    """Import the Python file at `path` as module `name` (registered in sys.modules, which
    dataclasses and Pydantic need while the module's classes are built).

    A file of a generated package (an `__init__.py` beside it) imports its runtime from
    the package: it is imported as a submodule of its package, under a root package of
    its own per directory, and registered as `name` too."""
    packages: list[str] = []
    folder = path.parent
    while (folder / "__init__.py").is_file():
        packages.insert(0, folder.name)
        folder = folder.parent
    if not packages:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[name] = loaded
        spec.loader.exec_module(loaded)
        return loaded
    root = _package_root(folder, path.parent)
    dotted = ".".join([root, *packages, path.stem])
    sys.modules.pop(dotted, None)  # a file imported again may have been regenerated
    loaded = importlib.import_module(dotted)
    sys.modules[name] = loaded
    return loaded


_ROOTS: dict[tuple[str, bytes], str] = {}


def _package_root(folder: Path, package: Path) -> str:
    """A root package whose path is `folder`: one per folder and runtime, so that the
    flavors of one package share its runtime and a regenerated runtime is imported anew."""
    runtime = b"".join(
        candidate.read_bytes()
        for directory in (package, package.parent)
        for candidate in sorted(directory.glob("_*runtime.py"))
    )
    key = (str(folder.resolve()), runtime)
    if key not in _ROOTS:
        _ROOTS[key] = root = f"_polytype_generated_{len(_ROOTS)}"
        module = ModuleType(root)
        module.__path__ = [str(folder)]
        sys.modules[root] = module
    return _ROOTS[key]


def load_generated(module: str, flavor: str = "dataclass_models") -> ModuleType:
    """Import a generated module of generated/python/<module>/ as
    `polytype_generated.<module>.<flavor>`, as the generated suites do."""
    root = sys.modules.get("polytype_generated")
    if root is None:
        root = sys.modules["polytype_generated"] = ModuleType("polytype_generated")
        root.__path__ = []
    python = str(REPO / "generated" / "python")
    if python not in root.__path__:
        root.__path__.append(python)
    return importlib.import_module(f"polytype_generated.{module}.{flavor}")


def schema_data(module: str) -> dict[str, Any]:
    """The parsed schema file of a shipped module (a copy: callers may change it)."""
    return copy.deepcopy(_parsed_schema(module))


@functools.cache
def _parsed_schema(module: str) -> dict[str, Any]:
    """Parsed once per run: thousands of tests ask, and parsing YAML takes a good part of a second."""
    from polytype.reading.loader import load

    data = load(REPO / "schema" / f"{module}.yaml").data
    assert isinstance(data, dict)
    return data


SHIPPED_MODULES = sorted(path.stem for path in (REPO / "schema").glob("*.yaml"))


@pytest.fixture(params=["msgspec", "json"])
def json_parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once with msgspec parsing JSON text for the generated dataclasses (the
    optional accelerator, installed with the dev dependencies) and once with json alone,
    as where msgspec is not installed."""
    for module in SHIPPED_MODULES:
        runtime = load_generated(module, "_runtime")
        assert runtime._FAST_LOADS is not None, "msgspec is a dev dependency"
        if request.param == "json":
            monkeypatch.setattr(runtime, "_FAST_LOADS", None)
    return str(request.param)
