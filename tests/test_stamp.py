"""A no-op `generate`/`check` answers from the stamp, and any change to inputs or outputs voids it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator import entry, stamp
from generator.config import find_project

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
