"""A no-op `generate`/`check` answers from the stamp, and any change to inputs or outputs voids it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from polytype import entry
from polytype.project import stamp
from polytype.project.config import find_project

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("POLYTYPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("POLYTYPE_NO_CACHE", raising=False)
    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    shutil.copy(ROOT / "schema" / "nano_agent.yaml", root / "schema" / "nano_agent.yaml")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nfixtures-dir = "fixtures"\n'
    )
    return root


def test_noop_is_answered_from_the_stamp(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["--project", str(project), "generate"]) == 0
    configured = find_project(project)
    assert stamp.unchanged(configured) is not None
    capsys.readouterr()
    assert entry.main(["--project", str(project), "generate"]) == 0
    assert "0 new, 0 updated, 0 removed" in capsys.readouterr().out
    assert entry.main(["--project", str(project), "check"]) == 0
    assert "is up to date" in capsys.readouterr().out


def test_a_changed_output_or_schema_voids_the_stamp(project: Path) -> None:
    assert entry.main(["--project", str(project), "generate"]) == 0
    configured = find_project(project)
    generated = project / "generated" / "python" / "nano_agent" / "dataclass_models.py"
    generated.write_text(generated.read_text() + "# hand edit\n")
    assert stamp.unchanged(configured) is None
    assert entry.main(["--project", str(project), "check"]) == 1  # the edit is found
    assert entry.main(["--project", str(project), "generate"]) == 0
    assert stamp.unchanged(configured) is not None
    schema = project / "schema" / "nano_agent.yaml"
    schema.write_text(schema.read_text() + "\n")
    assert stamp.unchanged(configured) is None


def test_stamps_can_be_turned_off(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLYTYPE_NO_CACHE", "1")
    assert entry.main(["--project", str(project), "generate"]) == 0
    assert stamp.unchanged(find_project(project)) is None


def test_an_edit_of_the_same_size_with_the_old_mtime_is_found(project: Path) -> None:
    """Names, sizes and times can be forged; `check` and `generate` still read the bytes."""
    assert entry.main(["--project", str(project), "generate"]) == 0
    generated = project / "generated" / "python" / "nano_agent" / "dataclass_models.py"
    before = generated.stat()
    text = generated.read_text()
    edited = text.replace("DO NOT EDIT", "DO NOT EDXT", 1)
    assert edited != text and len(edited) == len(text)
    generated.write_text(edited)
    os.utime(generated, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert generated.stat().st_size == before.st_size
    assert (
        stamp.outputs_signature(find_project(project)) == stamp.read(find_project(project)).outputs
    )
    assert stamp.unchanged(find_project(project)) is None
    assert entry.main(["--project", str(project), "check"]) == 1
    assert entry.main(["--project", str(project), "generate"]) == 0
    assert generated.read_text() == text


def test_a_file_a_reference_reads_is_an_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A consumed schema's `$ref` into a file outside the schema directory: the manifest
    records that file's hash, and editing it voids the stamp, so `check` finds the
    output stale instead of answering "up to date" from the cache."""
    monkeypatch.setenv("POLYTYPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("POLYTYPE_NO_CACHE", raising=False)
    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    (root / "common").mkdir()
    common = root / "common" / "defs.json"
    point = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    common.write_text(json.dumps({"$defs": {"Point": point}}))
    (root / "schema" / "shape.yaml").write_text(
        "title: Shape\ntype: object\nproperties:\n"
        "  at: {$ref: '../common/defs.json#/$defs/Point'}\n"
    )
    (root / "pyproject.toml").write_text('[tool.polytype]\ntargets = ["dataclasses"]\n')
    assert entry.main(["--project", str(root), "generate"]) == 0
    manifest = json.loads((root / "generated" / "manifest.json").read_text())
    assert list(manifest["references"]) == ["common/defs.json"]
    configured = find_project(root)
    assert stamp.unchanged(configured) is not None
    point["properties"]["y"] = {"type": "string"}
    common.write_text(json.dumps({"$defs": {"Point": point}}))
    assert stamp.unchanged(configured) is None
    capsys.readouterr()
    assert entry.main(["--project", str(root), "check"]) == 1
    assert "run `polytype generate`" in capsys.readouterr().err
    assert entry.main(["--project", str(root), "generate"]) == 0
    assert entry.main(["--project", str(root), "check"]) == 0
    assert stamp.unchanged(configured) is not None
