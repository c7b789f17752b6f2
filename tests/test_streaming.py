"""A project of many schema files streams (`polytype.project.streaming`): each file is read,
lowered and rendered in a forked worker, and no process holds every module's IR. What a
run writes and reports is what the serial build writes and reports.

Each test runs the same project both ways (`STREAM_MIN_FILES` set low or high) and
compares: the files written, the exit code and every line on stderr, in order.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from polytype import ir
from polytype.cli import main
from polytype.compile import Read
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.project import pipeline, rendering, streaming
from polytype.project.config import Project, find_project

from .conftest import REPO
from .workflow_support import require_fork_and_two_cores, tree

SHIPPED = ("bedrock_swarm", "nano_agent")


def _small(title: str, extra: str = "") -> str:
    return (
        f"title: {title}\n"
        "type: object\n"
        "properties:\n"
        "  id: {type: string, format: uuid}\n"
        "  count: {type: integer, minimum: 0}\n"
        "  tags: {type: array, items: {type: string}}\n"
        "  kind: {enum: [a, b]}\n"
        # approximated in a project that is not strict: a warning a file
        "  body:\n"
        "    type: string\n"
        "    contentMediaType: application/json\n"
        "    contentSchema: {type: object}\n"
        "required: [id]\n" + extra
    )


def make_project(destination: Path, schemas: dict[str, str] | None = None) -> Path:
    """The shipped modules with their fixtures and a few small schemas (more files than
    the streaming threshold the tests set), in a project that is not strict."""
    (destination / "schema").mkdir(parents=True)
    for module in SHIPPED:
        shutil.copy(REPO / "schema" / f"{module}.yaml", destination / "schema")
        shutil.copytree(
            REPO / "tests" / "fixtures" / module, destination / "tests" / "fixtures" / module
        )
    for name in ("alpha", "beta", "gamma", "delta"):
        (destination / "schema" / f"{name}.yaml").write_text(_small(f"{name} things"), "utf-8")
    for name, text in (schemas or {}).items():
        (destination / "schema" / name).write_text(text, "utf-8")
    (destination / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = false\nschema-dir = "schema"\npython-package = "things"\n',
        "utf-8",
    )
    return destination


@pytest.fixture(autouse=True)
def _two_cores() -> None:
    require_fork_and_two_cores()


def both_ways(
    project: Path,
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[tuple[int, str, dict[str, bytes]], tuple[int, str, dict[str, bytes]]]:
    """(exit code, stderr, files written) of `args` in a serial and in a streamed copy."""
    results = []
    for streamed in (False, True):
        copy = project.parent / f"{project.name}-{'streamed' if streamed else 'serial'}"
        shutil.copytree(project, copy)
        monkeypatch.setattr(streaming, "STREAM_MIN_FILES", 1 if streamed else 10**9)
        monkeypatch.chdir(copy)  # where a schema path given is found
        capsys.readouterr()
        code = main(["--project", str(copy), *args])
        err = capsys.readouterr().err.replace(str(copy), "<project>")
        results.append((code, err, tree(copy / "generated")))
    return results[0], results[1]


def test_a_streamed_build_writes_what_the_serial_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Same files, same warnings in the same order; every file read in a worker."""
    project = make_project(tmp_path / "p")
    seen = tmp_path / "seen"
    seen.mkdir()
    real = streaming.read_one

    def recorded(project: Project, path: Path, scans: dict[Path, dict[str, Path]]) -> Read:
        (seen / f"{os.getpid()}-{path.stem}").touch()
        return real(project, path, scans)

    monkeypatch.setattr(streaming, "read_one", recorded)  # the workers fork with it
    serial, streamed = both_ways(project, ["generate"], monkeypatch, capsys)
    assert serial[0] == streamed[0] == 0
    assert streamed[2] == serial[2]
    assert "things/_runtime.py" in "".join(serial[2])  # the project targets, from summaries
    assert streamed[1] == serial[1]
    warned = [line.split(".yaml")[0] for line in serial[1].splitlines() if ": warning: " in line]
    assert warned == ["schema/alpha", "schema/beta", "schema/delta", "schema/gamma"]  # file order
    readers = [name.split("-", 1) for name in os.listdir(seen)]
    assert sorted(stem for _, stem in readers) == sorted(
        path.stem for path in (project / "schema").iterdir()
    )
    assert str(os.getpid()) not in {pid for pid, _ in readers}


def test_every_problem_of_every_file_is_reported_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Problems of several files and a duplicate module name: one report, as the serial
    build words and orders it, and nothing written."""
    project = make_project(
        tmp_path / "p",
        {
            "broken_one.yaml": _small("one", "x-polytype:\n  nonsense: 1\n"),
            "broken_two.yaml": _small("two", "properties: [\n"),
            # the name alpha.yaml has: blamed on the file that sets it
            "zeta.yaml": _small("zeta", "x-polytype:\n  module: alpha\n"),
        },
    )
    serial, streamed = both_ways(project, ["generate"], monkeypatch, capsys)
    assert serial[0] == streamed[0] == 2
    assert streamed[1] == serial[1]
    assert "schema/broken_one.yaml" in serial[1] and "schema/broken_two.yaml" in serial[1]
    assert "schema/zeta.yaml:" in serial[1] and "is also used by schema/alpha.yaml" in serial[1]
    assert "Traceback" not in serial[1]
    assert streamed[2] == serial[2] == {}


@pytest.mark.parametrize(
    "args",
    [["generate", "beta"], ["generate", "schema/gamma.yaml"], ["generate", "no_such_module"]],
)
def test_a_selected_module_is_rendered_alone_after_every_file_is_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    project = make_project(tmp_path / "p")
    serial, streamed = both_ways(project, args, monkeypatch, capsys)
    assert streamed == serial
    if args[1] == "no_such_module":
        assert serial[0] == 2 and "no schema defines module 'no_such_module'" in serial[1]
    else:
        assert serial[0] == 0 and serial[2]


def test_a_selected_module_does_not_hide_another_files_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(
        tmp_path / "p", {"broken.yaml": _small("b", "x-polytype:\n  nonsense: 1\n")}
    )
    serial, streamed = both_ways(project, ["generate", "beta"], monkeypatch, capsys)
    assert streamed == serial
    assert serial[0] == 2 and "schema/broken.yaml" in serial[1]


def test_a_module_named_like_the_package_runtime_is_refused_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(tmp_path / "p", {"_runtime.yaml": _small("runtime")})
    serial, streamed = both_ways(project, ["generate"], monkeypatch, capsys)
    assert streamed == serial
    assert serial[0] == 2 and "is taken by the runtime" in serial[1]


def test_rendering_problems_of_several_modules_come_in_the_serial_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker's InputError travels as its diagnostics; those of several modules and
    targets are reported in the serial build's job order (Python first), nothing written
    and no scratch file left."""
    project = make_project(tmp_path / "p")
    real = rendering.render_target

    def failing(module: ir.Module, target: str, env: object) -> object:
        if target in ("docs", "python-pydantic") and module.name in ("gamma", "alpha"):
            raise InputError(
                [Diagnostic(module.schema_path, Position(2, 1), "", f"{target} said no")]
            )
        return real(module, target, env)  # type: ignore[arg-type]

    monkeypatch.setattr(rendering, "render_target", failing)  # the workers fork with it
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    # as the serial build reports them when its pool renders (in this process it stops at the first)
    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 1)
    serial, streamed = both_ways(project, ["generate"], monkeypatch, capsys)
    assert serial[0] == streamed[0] == 2
    assert streamed[1] == serial[1]
    said = [line for line in serial[1].splitlines() if "said no" in line]
    assert len(said) == 4 and sum("docs said no" in line for line in said) == 2
    assert streamed[2] == serial[2] == {}
    assert list(scratch.iterdir()) == []


def test_small_projects_and_vendoring_keep_the_serial_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The five shipped modules are read here (below the threshold); a build that keeps
    the IR (`polytype vendor`) never streams."""
    shipped = find_project(REPO)
    assert not streaming.streams(shipped, shipped.schema_files())

    def refused(*args: object) -> object:
        raise AssertionError("streamed")

    monkeypatch.setattr(streaming, "build", refused)
    monkeypatch.setattr(streaming, "STREAM_MIN_FILES", 1)
    project = find_project(make_project(tmp_path / "p"))
    built = pipeline.build(project, keep_modules=True)
    try:
        assert {module.name for module in built.modules} == set(built.schema_paths)
    finally:
        built.close()
