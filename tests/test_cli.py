"""The command line end to end: generate, check, exit codes, diagnostics, determinism."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from polytype import __version__
from polytype.cli import main

from .conftest import CHECKOUT_PATH, copy_project


def tree_hash(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def run(project: Path, *args: str) -> int:
    return main(["--project", str(project), *args])


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"polytype {__version__}"


@pytest.mark.parametrize("command", [[], ["generate"], ["check"]])
def test_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    assert "usage: polytype" in capsys.readouterr().out


def test_shipped_outputs_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    repo = Path(__file__).resolve().parents[1]
    assert run(repo, "check") == 0, capsys.readouterr().out[-3000:]


def test_generate_twice_is_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copy_project(tmp_path / "p", modules=("bedrock_swarm", "nano_agent"))
    assert run(project, "generate") == 0
    first = tree_hash(project / "generated")
    out = capsys.readouterr().out
    assert "wrote generated/python/nano_agent/dataclass_models.py" in out
    assert run(project, "generate") == 0
    assert tree_hash(project / "generated") == first
    assert "0 new, 0 updated, 0 removed" in capsys.readouterr().out


def test_hand_edit_makes_check_fail_with_diff(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "generated/python/nano_agent/dataclass_models.py"
    target.write_text(
        target.read_text(encoding="utf-8").replace(
            "class Usage(_Record):", "class Usage(_Record):  # tweaked"
        ),
        encoding="utf-8",
    )
    assert run(project, "check") == 1
    captured = capsys.readouterr()
    assert "--- a/python/nano_agent/dataclass_models.py" in captured.out
    assert "-class Usage(_Record):  # tweaked" in captured.out
    assert "+class Usage(_Record):" in captured.out
    assert "differ from the schemas" in captured.err


def test_check_reports_missing_and_extra_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "generated/python/bedrock_swarm/dataclass_models.py").unlink()
    (project / "schema/nano_agent.yaml").unlink()  # its outputs are now extra
    (project / "generated/python/stray.py").write_text("x = 1\n", encoding="utf-8")
    assert run(project, "check") == 1
    captured = capsys.readouterr()
    assert "+++ b/python/bedrock_swarm/dataclass_models.py" in captured.out
    assert "--- a/python/nano_agent/dataclass_models.py" in captured.out
    assert "stray.py" not in captured.out  # not polytype's: no difference, only a note
    assert "generated/python/stray.py: not written by polytype; left alone" in captured.err


def test_generate_removes_stale_files_and_nothing_else(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = project / "generated/python/stray.py"
    stray.write_text("x = 1\n", encoding="utf-8")
    (project / "schema/nano_agent.yaml").unlink()
    assert run(project, "generate") == 0
    assert stray.read_text(encoding="utf-8") == "x = 1\n"
    assert not (project / "generated/python/nano_agent").exists()
    assert "removed generated/python/nano_agent/dataclass_models.py" in capsys.readouterr().out


BROKEN = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  TextContent:
    type: object
    propertes:
      text: {type: string}
  Message:
    type: object
    properties:
      content: {$ref: "#/$defs/ContentBlok"}
      role: {type: strng}
"""


def test_invalid_schema_reports_every_problem_and_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree_hash(project / "generated")
    (project / "schema/broken.yaml").write_text(BROKEN, encoding="utf-8")
    assert run(project, "generate") == 2
    err = capsys.readouterr().err
    assert (
        "schema/broken.yaml:5:5: /$defs/TextContent/propertes: unknown keyword 'propertes'; did you mean 'properties'?"
        in err
    )
    assert (
        "schema/broken.yaml:10:17: /$defs/Message/properties/content/$ref: dangling reference '#/$defs/ContentBlok'"
        in err
    )
    assert (
        "schema/broken.yaml:11:14: /$defs/Message/properties/role/type: 'strng' is not one of"
        in err
    )
    assert "3 problem(s) found; nothing was written" in err
    assert "Traceback" not in err
    assert tree_hash(project / "generated") == before


def test_generate_selected_module_keeps_others(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree_hash(project / "generated")
    assert run(project, "generate", "nano_agent") == 0
    assert tree_hash(project / "generated") == before
    assert run(project, "generate", "no_such_module") == 2
    assert "no schema defines module 'no_such_module'" in capsys.readouterr().err


def test_output_does_not_depend_on_hash_seed(tmp_path: Path) -> None:
    hashes = []
    for seed in ("0", "12345"):
        project = copy_project(tmp_path / f"p{seed}", modules=("bedrock_swarm", "nano_agent"))
        # the generator under test, not whichever one happens to be installed
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": CHECKOUT_PATH}
        subprocess.run(
            [sys.executable, "-m", "polytype", "generate"],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
        hashes.append(tree_hash(project / "generated"))
    assert hashes[0] == hashes[1]
