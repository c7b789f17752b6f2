"""polytype never deletes or overwrites what it did not write (issue 17, data loss).

- `generate` removes only files the previous `manifest.json` lists as its own output and
  whose bytes still match the recorded hash; a hand-edited stale file is reported and kept
  (`--force` removes it); a file polytype did not write is left alone.
- An output directory holding files polytype did not write and no manifest is refused
  (exit 2) before anything is written; so is one that is, or contains, the project root,
  the schema directory or a `.git` directory.
- `vendor --dest FILE` overwrites only a file with polytype's vendored-copy header.
- `--project` naming a missing directory, a project without a schema directory and one
  without schemas are exit 2, and nothing is created.

Every refusal is checked against a hash of every byte of the user's tree, `.git` included.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from polytype.cli import main

from .conftest import CHECKOUT_PATH

SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  Note:
    description: A note.
    type: object
    properties:
      text: {type: string}
    required: [text]
"""


def snapshot(directory: Path) -> dict[str, str]:
    """Every file (and directory, and symlink) under `directory`, with a hash of its bytes."""
    result: dict[str, str] = {}
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if path.is_symlink():
            result[name] = "link:" + str(path.readlink())
        elif path.is_dir():
            result[name] = "dir"
        else:
            result[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return result


def user_project(root: Path, output_dir: str | None = None, git: bool = True) -> Path:
    """A user's project: a schema, pyproject, some other files of theirs and a git repository."""
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "notes.yaml").write_text(SCHEMA, encoding="utf-8")
    settings = "[tool.polytype]\nstrict = true\n" + (
        f'output-dir = "{output_dir}"\n' if output_dir else ""
    )
    (root / "pyproject.toml").write_text(settings, encoding="utf-8")
    (root / "main.py").write_text("print('mine')\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("APP = 1\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# my docs\n", encoding="utf-8")
    if git and shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    else:
        (root / ".git").mkdir()
        (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return root


def run(project: Path, *args: str) -> int:
    return main(["--project", str(project), *args])


@pytest.mark.parametrize("output_dir", [".", "src", "docs", "schema", ".git/out", ".."])
def test_output_dir_holding_user_files_is_refused_and_nothing_changes(
    output_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = user_project(tmp_path / "user", output_dir)
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    err = capsys.readouterr().err
    assert "polytype:" in err and "Traceback" not in err
    assert snapshot(tmp_path) == before
    assert run(project, "generate", "--force") == 2  # --force never overrides these
    assert snapshot(tmp_path) == before


def test_output_dir_containing_a_git_repository_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = user_project(tmp_path / "user", "out", git=False)
    nested = project / "out" / "vendored"
    nested.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(nested)], check=True)
    before = snapshot(tmp_path)
    assert run(project, "generate", "--force") == 2
    assert "contains a git repository" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_real_command_with_output_dir_dot_keeps_the_tree(tmp_path: Path) -> None:
    """The reported case, through the installed entry point (stamps and all)."""
    project = user_project(tmp_path / "user", ".")
    before = snapshot(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from polytype.entry import main; sys.exit(main())",
         "generate"],
        cwd=project,
        env={"PYTHONPATH": CHECKOUT_PATH, "PATH": "/usr/bin:/bin", "POLYTYPE_NO_CACHE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "is the project root" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(tmp_path) == before


def test_foreign_files_and_no_manifest_are_refused_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = user_project(tmp_path / "user", "out")
    (project / "out").mkdir()
    (project / "out" / "keep.txt").write_text("mine\n", encoding="utf-8")
    (project / "out" / "manifest.json").write_text('{"name": "my web app"}\n', encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    err = capsys.readouterr().err
    assert "polytype did not write" in err and "no manifest.json" in err
    assert snapshot(tmp_path) == before


def generated_project(tmp_path: Path) -> Path:
    project = user_project(tmp_path / "user")
    assert run(project, "generate") == 0
    return project


def test_only_unchanged_listed_outputs_are_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = generated_project(tmp_path)
    out = project / "generated"
    (project / "schema" / "other.yaml").write_text(SCHEMA, encoding="utf-8")
    assert run(project, "generate") == 0
    mine = out / "python" / "my_notes.py"
    mine.write_text("# mine, not polytype's\n", encoding="utf-8")
    edited = out / "docs" / "other.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nhand-written\n", encoding="utf-8")
    capsys.readouterr()
    (project / "schema" / "other.yaml").unlink()
    assert run(project, "generate") == 0
    captured = capsys.readouterr()
    assert "removed generated/python/other/dataclass_models.py" in captured.out
    assert not (out / "python" / "other").exists()
    assert mine.read_text(encoding="utf-8") == "# mine, not polytype's\n"
    assert "generated/python/my_notes.py: not written by polytype; left alone" in captured.err
    assert edited.exists() and "hand-written" in edited.read_text(encoding="utf-8")
    assert "generated/docs/other.md: hand-edited since polytype wrote it; kept" in captured.err
    assert run(project, "check") == 0  # nothing generate could still do
    assert run(project, "generate", "--force") == 0
    assert not edited.exists()
    assert mine.exists()


def test_a_foreign_file_where_an_output_goes_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = generated_project(tmp_path)
    (project / "schema" / "other.yaml").write_text(SCHEMA, encoding="utf-8")
    target = project / "generated" / "docs" / "other.md"
    target.write_text("my own notes\n", encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    assert "docs/other.md was not written by polytype" in capsys.readouterr().err
    assert snapshot(tmp_path) == before
    assert run(project, "generate", "--force") == 0
    assert target.read_text(encoding="utf-8") != "my own notes\n"


def test_a_manifest_naming_paths_outside_the_output_dir_removes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = generated_project(tmp_path)
    manifest_path = project / "generated" / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    main_sha = hashlib.sha256((project / "main.py").read_bytes()).hexdigest()
    for path in ("../main.py", str(project / "main.py"), "./../main.py"):
        manifest["outputs"].append({"path": path, "module": "gone", "sha256": main_sha})
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    assert run(project, "generate", "--force") == 0
    assert (project / "main.py").read_text(encoding="utf-8") == "print('mine')\n"


def test_vendor_refuses_to_overwrite_a_file_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = generated_project(tmp_path)
    dest = project / "main.py"
    before = snapshot(tmp_path)
    args = ["vendor", "notes", "--flavor", "dataclasses", "--dest", str(dest)]
    assert run(project, *args) == 2
    assert "not a copy vendored by polytype" in capsys.readouterr().err
    assert snapshot(tmp_path) == before
    # its own copy is refreshed; --force overwrites anything
    copy = project / "src" / "notes_models.py"
    assert run(project, "vendor", "notes", "--flavor", "dataclasses", "--dest", str(copy)) == 0
    copy.write_text(copy.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert run(project, "vendor", "notes", "--flavor", "dataclasses", "--dest", str(copy)) == 0
    assert "# edited" not in copy.read_text(encoding="utf-8")
    assert run(project, *args, "--force") == 0
    assert dest.read_text(encoding="utf-8").startswith("# Vendored by polytype")


@pytest.mark.parametrize("command", [["generate"], ["check"], ["generate", "notes"]])
def test_missing_project_or_schemas_is_exit_2_and_creates_nothing(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nonexistent" / "deeper"
    assert run(missing, *command) == 2
    assert "no such directory" in capsys.readouterr().err
    assert not (tmp_path / "nonexistent").exists()

    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(bare, *command) == 2
    assert "no schema directory schema/" in capsys.readouterr().err
    (bare / "schema").mkdir()
    (bare / "schema" / "README.md").write_text("not a schema\n", encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(bare, *command) == 2
    assert "no schemas (*.yaml, *.yml, *.json) in schema/" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_something_else_where_an_output_or_its_folder_goes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory where an output file goes, a file where its folder goes, or a file as
    the output directory: exit 2 with a message, not a polytype bug (exit 3)."""
    project = generated_project(tmp_path)
    out = project / "generated"
    index = out / "docs" / "notes.md"
    index.unlink()
    index.mkdir()
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    assert "is not a regular file; docs/notes.md cannot be written" in capsys.readouterr().err
    assert snapshot(tmp_path) == before
    index.rmdir()
    shutil.rmtree(out / "elixir" / "lib")
    (out / "elixir" / "lib").write_text("mine\n", encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    assert "lib is not a directory" in capsys.readouterr().err
    assert snapshot(tmp_path) == before
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\noutput-dir = "main.py"\n', "utf-8"
    )
    before = snapshot(tmp_path)
    assert run(project, "generate") == 2
    assert "main.py is not a directory" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_temporaries_of_a_first_run_killed_mid_write_are_cleared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No manifest yet, but the leftovers are polytype's own temporaries: not foreign."""
    project = user_project(tmp_path / "user")
    out = project / "generated" / "python" / "notes"
    out.mkdir(parents=True)
    leftover = out / ".dataclass_models.py.ab12cd_9.tmp"
    leftover.write_text("half a file", encoding="utf-8")
    assert run(project, "generate") == 0
    assert not leftover.exists()
    stranger = out / ".mine.py.ab12cd_9.tmp"  # not the temporary of any output: left alone
    stranger.write_text("mine", encoding="utf-8")
    assert run(project, "generate") == 0
    assert stranger.read_text(encoding="utf-8") == "mine"
