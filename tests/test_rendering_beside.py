"""One large module renders its targets after the Python ones (Elixir, docs) in one forked
worker beside the Python ones (`rendering._render_beside`). What a run writes and reports
is what the build that renders every target in this process writes and reports.

Each test runs the same one-module project both ways (`PARALLEL_MIN_TYPES` set low or
high) and compares: the files written, the exit code and every line on stderr, in order.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from polytype import ir
from polytype.cli import main
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.project import pipeline, rendering

from .conftest import REPO
from .workflow_support import require_fork_and_two_cores, tree

MODULE = "nano_agent"
Outcome = tuple[int, str, dict[str, bytes]]


def make_project(destination: Path) -> Path:
    """One shipped module with its fixtures, alone in a project."""
    (destination / "schema").mkdir(parents=True)
    shutil.copy(REPO / "schema" / f"{MODULE}.yaml", destination / "schema")
    shutil.copytree(
        REPO / "tests" / "fixtures" / MODULE, destination / "tests" / "fixtures" / MODULE
    )
    (destination / "pyproject.toml").write_text('[tool.polytype]\nschema-dir = "schema"\n', "utf-8")
    return destination


@pytest.fixture(autouse=True)
def _two_cores() -> None:
    require_fork_and_two_cores()


def both_ways(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[Outcome, Outcome]:
    """(exit code, stderr, files written) of `generate` rendered here and beside a worker."""
    results = []
    for beside in (False, True):
        copy = project.parent / f"{project.name}-{'beside' if beside else 'here'}"
        shutil.copytree(project, copy)
        monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 1 if beside else 10**9)
        capsys.readouterr()
        code = main(["--project", str(copy), "generate"])
        err = capsys.readouterr().err.replace(str(copy), "<project>")
        results.append((code, err, tree(copy / "generated")))
    return results[0], results[1]


def recording(seen: Path, fails: frozenset[str] = frozenset()) -> object:
    """`render_target` noting which process renders each target, and failing for `fails`."""
    real = rendering.render_target

    def render(module: ir.Module, target: str, env: object) -> object:
        (seen / f"{os.getpid()}-{target}").touch()
        if target in fails:
            raise InputError(
                [Diagnostic(module.schema_path, Position(2, 1), "", f"{target} said no")]
            )
        return real(module, target, env)  # type: ignore[arg-type]

    return render


def test_a_large_module_renders_its_other_targets_beside_its_python_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Same bytes, same report; Elixir and docs rendered in one other process, the Python
    targets in this one."""
    seen = tmp_path / "seen"
    seen.mkdir()
    monkeypatch.setattr(rendering, "render_target", recording(seen))  # the worker forks with it
    here, beside = both_ways(make_project(tmp_path / "p"), monkeypatch, capsys)
    assert here[0] == beside[0] == 0
    assert beside == here
    assert any(path.endswith(".ex") for path in here[2]) and "docs/index.md" in here[2]
    where: dict[str, set[str]] = {}
    for name in os.listdir(seen):
        pid, target = name.split("-", 1)
        where.setdefault(target, set()).add(pid)
    me = str(os.getpid())
    python = [target for target in where if target.startswith("python")]
    assert python and all(where[target] == {me} for target in python)
    worker = where["elixir"] - {me}
    assert len(worker) == 1 and where["docs"] == worker | {me}  # once here, once there


@pytest.mark.parametrize(
    "fails",
    [
        frozenset({"python-pydantic", "elixir", "docs"}),
        frozenset({"python-dataclasses"}),
        frozenset({"docs"}),
    ],
    ids=["python-and-others", "python-only", "docs-only"],
)
def test_every_targets_problems_are_reported_together_in_the_same_order(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fails: frozenset[str],
) -> None:
    """A problem in the worker travels as its diagnostics: every failing target's, in one
    report as the other build's, nothing written and no scratch file left."""
    seen = tmp_path / "seen"
    seen.mkdir()
    monkeypatch.setattr(rendering, "render_target", recording(seen, fails))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    here, beside = both_ways(make_project(tmp_path / "p"), monkeypatch, capsys)
    assert here[0] == beside[0] == 2
    assert beside[1] == here[1]
    said = [line for line in here[1].splitlines() if "said no" in line]
    assert sorted(line.split(": ")[-1].removesuffix(" said no") for line in said) == sorted(fails)
    assert "Traceback" not in here[1]
    assert beside[2] == here[2] == {}
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("module_fails", [False, True], ids=["alone", "after-a-module"])
@pytest.mark.parametrize("error", ["input", "bug"])
def test_the_project_files_stop_the_run_only_after_every_modules_problems(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    module_fails: bool,
    error: str,
) -> None:
    """The worker renders the project targets' files after the module's (Elixir's Mix
    project, the docs index): what they raise is reported as the other build reports it,
    and not at all when a module's target has problems of its own."""
    seen = tmp_path / "seen"
    seen.mkdir()
    fails = frozenset({"elixir"} if module_fails else set())
    monkeypatch.setattr(rendering, "render_target", recording(seen, fails))

    def refused(*args: object) -> object:
        if error == "input":
            raise InputError([Diagnostic("schema/x.yaml", Position(1, 1), "", "project said no")])
        raise RuntimeError("project broke")

    monkeypatch.setattr(pipeline, "_project_files", refused)  # the worker forks with it
    here, beside = both_ways(make_project(tmp_path / "p"), monkeypatch, capsys)
    assert beside == here
    if module_fails:
        assert here[0] == 2 and "elixir said no" in here[1] and "project" not in here[1]
    elif error == "input":
        assert here[0] == 2 and "project said no" in here[1]
    else:
        assert here[0] == 3 and "project broke" in here[1]
    assert here[2] == {}
