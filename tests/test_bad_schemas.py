"""Hostile schemas: every broken file is refused with located diagnostics, and nothing is written.

Each file in `tests/bad_schemas/` sits in a temporary project beside a valid
module; `polytype generate` must exit 2, print only `file:line:col: /pointer:
message` diagnostics (plus the summary line), include every line of the file's
`<name>.expected`, never show a traceback, and leave `generated/` byte for byte
as it was. A sample runs the real command in a subprocess; the rest call
`polytype.cli.main` in-process.

Recursive types that do terminate (a tree whose children are a list of trees,
an expression union whose members contain expressions) are valid: the valid
module defines them, and a test decodes and round-trips deep values with them.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main
from polytype.reading.loader import MAX_SCHEMA_BYTES

from .conftest import REPO, import_file

CORPUS = Path(__file__).resolve().parent / "bad_schemas"
CASES = sorted(path for path in CORPUS.iterdir() if path.suffix != ".expected")

# These run as a real `python -m generator` process (exit code, stderr, no traceback).
SUBPROCESS_SAMPLE = {
    "binary_garbage.yaml",
    "deep_flow_nesting.yaml",
    "empty.yaml",
    "json_trailing_comma.json",
    "lone_surrogate.yaml",
    "names_collide_after_case.yaml",
    "ref_cycle.yaml",
    "union_ambiguous_records.yaml",
    "yaml_alias_bomb.yaml",
    "yaml_python_tag.yaml",
}

VALID = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: A valid module beside the broken one
$defs:
  Note:
    description: A note.
    type: object
    properties:
      text: {type: string}
    required: [text]
  TreeNode:
    description: A tree whose children are trees (recursion that terminates at leaves).
    type: object
    properties:
      label: {type: string}
      children:
        type: array
        items: {$ref: "#/$defs/TreeNode"}
      parent: {$ref: "#/$defs/TreeNode"}
    required: [label, children]
  Expr:
    description: An expression; Add contains expressions, Num ends the recursion.
    oneOf:
      - $ref: "#/$defs/Num"
      - $ref: "#/$defs/Add"
  Num:
    type: object
    properties:
      kind: {const: num}
      value: {type: number}
    required: [kind, value]
  Add:
    type: object
    properties:
      kind: {const: add}
      left: {$ref: "#/$defs/Expr"}
      right: {$ref: "#/$defs/Expr"}
    required: [kind, left, right]
"""

SUMMARY = re.compile(r"^polytype: \d+ problem\(s\) found; nothing was written$")


def tree_hash(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="session")
def base_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with one valid module, generated once."""
    root = tmp_path_factory.mktemp("bad-schemas") / "project"
    (root / "schema").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', "utf-8"
    )
    (root / "schema" / "valid.yaml").write_text(VALID, encoding="utf-8")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def project_with(base: Path, destination: Path, name: str, content: bytes) -> Path:
    project = destination / "project"
    shutil.copytree(base, project)
    (project / "schema" / name).write_bytes(content)
    return project


def generate(
    project: Path, in_process: bool, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    if in_process:
        capsys.readouterr()
        code = main(["--project", str(project), "generate"])
        return code, capsys.readouterr().err
    env = {**os.environ, "PYTHONPATH": str(REPO / "generator")}
    done = subprocess.run(
        [sys.executable, "-m", "polytype", "--project", str(project), "generate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stderr


def expected_lines(case: Path) -> list[str]:
    text = case.with_suffix(".expected").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def check_refused(name: str, code: int, err: str) -> list[str]:
    """Exit 2, no traceback, every line located in the broken file; returns the diagnostics."""
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.splitlines()
    assert lines and SUMMARY.match(lines[-1]), err
    located = re.compile(rf"^schema/{re.escape(name)}:[1-9][0-9]*:[1-9][0-9]*: /.*?: \S")
    for line in lines[:-1]:
        assert located.match(line), f"not located in {name}: {line}"
    return lines


def test_corpus_is_complete() -> None:
    assert len(CASES) >= 50
    for case in CASES:
        assert case.with_suffix(".expected").is_file(), f"{case.name} has no .expected"
        assert expected_lines(case), f"{case.name}.expected is empty"
    stray = {p.stem for p in CORPUS.glob("*.expected")} - {case.stem for case in CASES}
    assert not stray, f".expected without a schema: {sorted(stray)}"
    assert SUBPROCESS_SAMPLE <= {case.name for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda path: path.name)
def test_broken_schema_is_refused(
    case: Path, base_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = project_with(base_project, tmp_path, case.name, case.read_bytes())
    before = tree_hash(project / "generated")
    code, err = generate(project, case.name not in SUBPROCESS_SAMPLE, capsys)
    lines = check_refused(case.name, code, err)
    for wanted in expected_lines(case):
        assert any(wanted in line for line in lines), f"missing: {wanted}\n--- got:\n{err}"
    assert tree_hash(project / "generated") == before


def _recording(opened: list[Path], real: Callable[..., Any]) -> Callable[..., Any]:
    def recording(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)):
            opened.append(Path(file))
        return real(file, *args, **kwargs)

    return recording


def test_huge_file_is_refused_without_reading_it(
    base_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = project_with(base_project, tmp_path, "huge.yaml", b"")
    huge = project / "schema" / "huge.yaml"
    chunk = b"  # " + b"x" * (1024 * 1024 - 5) + b"\n"
    with huge.open("wb") as handle:
        handle.write(b"$defs:\n")
        for _ in range(50):
            handle.write(chunk)
    size = huge.stat().st_size
    assert size > 50 * 1000 * 1000
    before = tree_hash(project / "generated")
    opened: list[Path] = []  # every file polytype opens or reads: the work it does
    real_open = Path.open

    def recording_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(self)
        return real_open(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        # Path.read_bytes and Path.read_text open the file through Path.open
        patch.setattr(Path, "open", recording_open)
        patch.setattr("builtins.open", _recording(opened, open))
        code, err = generate(project, True, capsys)
    assert huge.resolve() not in {path.resolve() for path in opened}, "the huge file was read"
    assert any(path.name.endswith(".yaml") for path in opened)  # the other schemas were
    lines = check_refused("huge.yaml", code, err)
    assert (
        f"schema/huge.yaml:1:1: /: file is {size:,} bytes; schemas are limited to "
        f"{MAX_SCHEMA_BYTES:,} bytes" in lines
    )
    assert tree_hash(project / "generated") == before


def test_every_problem_of_every_file_is_reported(
    base_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several broken files at once: all their diagnostics, in one run, nothing written."""
    chosen = [CORPUS / name for name in ("dangling_ref.yaml", "ref_cycle.yaml", "empty.yaml")]
    project = project_with(base_project, tmp_path, "placeholder.yaml", b"")
    (project / "schema" / "placeholder.yaml").unlink()
    for case in chosen:
        shutil.copy(case, project / "schema" / case.name)
    before = tree_hash(project / "generated")
    code, err = generate(project, True, capsys)
    assert code == 2 and "Traceback" not in err
    for case in chosen:
        for wanted in expected_lines(case):
            if not wanted.startswith("polytype:"):
                assert wanted in err
    assert tree_hash(project / "generated") == before


# --- recursion that terminates is fine -----------------------------------------------


def load_module(path: Path, name: str) -> ModuleType:
    return import_file(path, name)


def test_recursive_types_generate_and_round_trip(base_project: Path) -> None:
    models = load_module(
        base_project / "generated" / "python" / "valid" / "dataclass_models.py",
        "polytype_bad_schemas_valid.dataclass_models",
    )

    def tree(depth: int) -> dict[str, object]:
        node: dict[str, object] = {"label": "leaf", "children": []}
        for level in range(depth):
            node = {"label": f"n{level}", "children": [node, {"label": "x", "children": []}]}
        return node

    for depth in (0, 1, 5, 40):
        data = tree(depth)
        snapshot = copy.deepcopy(data)
        decoded = models.decode_tree_node(data)
        assert decoded.to_dict() == data
        assert data == snapshot  # decoding never mutates its input
    with_parent = {"label": "a", "children": [], "parent": {"label": "b", "children": []}}
    assert models.TreeNode.from_dict(with_parent).to_dict() == with_parent

    expr: dict[str, object] = {"kind": "num", "value": 1}
    for _ in range(40):
        expr = {"kind": "add", "left": expr, "right": {"kind": "num", "value": 2.5}}
    assert models.encode_expr(models.decode_expr(expr)) == expr

    # far too deep for the decoder: a clean DecodeError, not a RecursionError (deeper than
    # any recursion limit: mypy, run in-process by other tests, raises it to 16,384 frames)
    with pytest.raises(models.DecodeError, match="nesting deeper than 100 levels"):
        models.decode_tree_node(tree(50_000))
    with pytest.raises(models.DecodeError):
        models.decode_expr({"kind": "add", "left": {"kind": "num", "value": 1}})
