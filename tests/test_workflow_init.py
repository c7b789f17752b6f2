"""`polytype init` scaffolds a project that generates right away; `polytype schema-dialect`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from polytype.dialect.keywords import dialect_schema
from polytype.project.config import find_project
from polytype.project.export import wire_schema
from polytype.workflow.init import scaffold
from ruamel.yaml import YAML

from .workflow_support import run, tree

EXPECTED = {
    "pyproject.toml",
    "schema/example.yaml",
    "schema/.polytype-dialect.json",
    "tests/fixtures/example/Greeting/basic.json",
}


def init(*args: str) -> int:
    from polytype.cli import main

    return main(["init", *args])


def test_init_then_generate_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "fresh"
    assert init(str(target)) == 0
    out = capsys.readouterr().out
    assert set(tree(target)) == EXPECTED
    for name in sorted(EXPECTED):
        assert f"created {(target / name).as_posix()}" in out
    assert run(target, "generate") == 0
    assert "1 module(s)" in capsys.readouterr().out
    assert (target / "generated/python/example/dataclass_models.py").is_file()
    assert (target / "generated/tests/python/test_example.py").is_file()
    assert run(target, "check") == 0


def test_init_defaults_to_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert init() == 0
    assert set(tree(tmp_path)) == EXPECTED
    assert find_project(tmp_path).schema_files() == [tmp_path / "schema" / "example.yaml"]


def test_the_schema_points_editors_at_the_meta_schema(tmp_path: Path) -> None:
    assert init(str(tmp_path)) == 0
    schema_file = tmp_path / "schema" / "example.yaml"
    first_line = schema_file.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first_line.startswith(prefix)
    meta_path = schema_file.parent / first_line[len(prefix) :]
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    assert meta == dialect_schema()
    data = YAML(typ="safe").load(schema_file.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(meta).validate(data)


def test_the_fixture_is_valid(tmp_path: Path) -> None:
    assert init(str(tmp_path)) == 0
    data = YAML(typ="safe").load((tmp_path / "schema/example.yaml").read_text(encoding="utf-8"))
    value = json.loads(
        (tmp_path / "tests/fixtures/example/Greeting/basic.json").read_text(encoding="utf-8")
    )
    jsonschema.Draft202012Validator(wire_schema(data, "Greeting")).validate(value)
    jsonschema.Draft202012Validator(wire_schema(data, "Event")).validate(value)


@pytest.mark.parametrize("existing", sorted(EXPECTED))
def test_init_refuses_to_overwrite_and_writes_nothing(
    tmp_path: Path, existing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / existing).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / existing).write_text("mine\n", encoding="utf-8")
    assert init(str(tmp_path)) == 2
    assert tree(tmp_path) == {existing: b"mine\n"}
    err = capsys.readouterr().err
    assert f"refusing to overwrite {existing}; nothing was written" in err


def test_init_into_a_file_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert init(str(tmp_path / "file")) == 2
    assert "not a directory" in capsys.readouterr().err


def test_hidden_files_in_the_schema_directory_are_not_schemas(tmp_path: Path) -> None:
    assert init(str(tmp_path)) == 0
    (tmp_path / "schema" / ".draft.yaml").write_text("not: [a schema\n", encoding="utf-8")
    assert [p.name for p in find_project(tmp_path).schema_files()] == ["example.yaml"]


def test_scaffold_is_deterministic() -> None:
    assert scaffold() == scaffold()


def test_schema_dialect_prints_the_meta_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from polytype.cli import main

    assert main(["schema-dialect"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == dialect_schema()
    assert out.endswith("}\n")
