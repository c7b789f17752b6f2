"""What `pip install polytype` gets: the wheel and sdist carry the templates, docs, licence
and the `polytype` import name, and the installed command works outside this repository."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from hatchling.build import build_sdist, build_wheel

from .conftest import REPO


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("dist")
    here = os.getcwd()
    os.chdir(REPO)
    try:
        sdist = out / build_sdist(str(out))
        wheel = out / build_wheel(str(out))
    finally:
        os.chdir(here)
    return sdist, wheel


def test_sdist_has_docs_licence_templates_and_sources(built: tuple[Path, Path]) -> None:
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for expected in (
        "LICENSE",
        "README.md",
        "docs/templates.md",
        "docs/dialect.md",
        "docs/examples/templates/python_dataclasses/record_extra.py.j2",
        "templates/python_dataclasses/record.py.j2",
        "generator/polytype/cli.py",
        "generator/polytype/__main__.py",
        ".pre-commit-hooks.yaml",
        "constraints/dev.txt",
    ):
        assert expected in names, expected


def test_wheel_ships_templates_licence_and_metadata(built: tuple[Path, Path]) -> None:
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata_name = next(name for name in names if name.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode("utf-8"))
    assert "polytype/templates/python_common/header.py.j2" in names
    assert "polytype/dialect/dialect.schema.json" in names
    assert "polytype/__init__.py" in names and "polytype/__main__.py" in names
    # one import name: nothing but polytype and its metadata at the top of the wheel
    assert {
        name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")
    } == {"polytype"}
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert metadata["License-Expression"] == "MIT"
    classifiers = metadata.get_all("Classifier") or []
    assert "Topic :: Software Development :: Code Generators" in classifiers
    requires = " ".join(metadata.get_all("Requires-Dist") or [])
    # black verifies in the dev extra; the formatter that runs is ruff
    assert "ruff" in requires and "filelock" in requires and "platformdirs" in requires


def test_installed_wheel_renders_outside_the_repository(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """The wheel unpacked on its own (no checkout beside it) finds its templates."""
    _, wheel = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    (tmp_path / "work").mkdir()
    schema = b"title: Point\ntype: object\nproperties:\n  x: {type: integer}\nrequired: [x]\n"
    result = subprocess.run(
        [sys.executable, "-m", "polytype", "generate", "-", "--output-dir", "out"],
        cwd=tmp_path / "work",
        input=schema,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(site), "POLYTYPE_NO_CACHE": "1"},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / "work/out/python/stdin/dataclass_models.py").is_file()


def test_python_m_polytype_runs_polytype_beside_a_generator_package(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """A user's own `generator/` package in the working folder neither shadows polytype
    nor is shadowed by it: polytype installs no top-level `generator`."""
    _, wheel = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    work = tmp_path / "work"
    (work / "generator").mkdir(parents=True)
    (work / "generator" / "__init__.py").write_text("MINE = True\n", encoding="utf-8")
    (work / "generator" / "__main__.py").write_text("print('not polytype')\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(site), "POLYTYPE_NO_CACHE": "1"}
    version = subprocess.run(
        [sys.executable, "-m", "polytype", "--version"],
        cwd=work, capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert version.returncode == 0 and version.stdout.startswith("polytype "), version
    mine = subprocess.run(
        [sys.executable, "-c", "import generator; print(generator.MINE)"],
        cwd=work, capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert mine.stdout.strip() == "True", mine
