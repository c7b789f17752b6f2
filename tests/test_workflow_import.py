"""`polytype fixtures import`: split a recorded stream into per-type fixtures."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest
from polytype.project.export import wire_schema
from polytype.reading.loader import load

from .conftest import RECORDED, REPO
from .workflow_support import fixture, run, small_project, tree, write_lines

MESSAGES = "tests/fixtures/claude_code"


@pytest.fixture
def empty_project(tmp_path: Path) -> Path:
    """The claude_code schema and no fixtures at all."""
    return small_project(tmp_path / "project", "claude_code", fixtures=False)


def _imported(project: Path) -> dict[str, object]:
    base = project / MESSAGES
    return {
        path.relative_to(base).as_posix(): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(base.rglob("imported_*.json"))
    }


def test_stream_is_split_by_the_root_union_and_bad_lines_are_reported(
    empty_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = fixture("claude_code", "Message/result_success.json")
    system_init = fixture("claude_code", "Message/system_init.json")
    stream = write_lines(
        tmp_path / "stream.jsonl",
        [
            result,
            system_init,
            "{not json",
            "",
            {"type": "bogus"},
            {"type": "system", "subtype": "teleport_started"},
            {"type": 7},
            {"type": "user", "message": {"role": "user", "content": "héllo ✓"}},
        ],
    )
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 1
    captured = capsys.readouterr()
    imported = _imported(empty_project)
    by_type = {name.split("/")[0]: value for name, value in imported.items()}
    # nested dispatch: type "system" -> SystemEvent -> subtype "init" -> SystemMessage;
    # unlisted string tags are fixtures of the open union that keeps them (x-unknown: keep)
    assert set(by_type) == {
        "ResultMessage",
        "SystemMessage",
        "UserMessage",
        "Message",
        "SystemEvent",
    }
    assert by_type["ResultMessage"] == result
    assert by_type["SystemMessage"] == system_init
    assert by_type["Message"] == {"type": "bogus"}
    assert by_type["SystemEvent"] == {"type": "system", "subtype": "teleport_started"}
    assert f"{stream}:3: invalid JSON" in captured.err
    assert f"{stream}:7: not a Message: $.type: unknown tag 7" in captured.err
    assert ":4:" not in captured.err, "blank lines are skipped, not reported"
    assert "7 value(s): 5 new fixture(s)" in captured.out
    assert "2 not placed" in captured.out
    for name in imported:
        assert f"wrote {MESSAGES}/{name}" in captured.out


def test_fixture_files_are_stable_and_formatted(empty_project: Path, tmp_path: Path) -> None:
    value = {"type": "user", "message": {"role": "user", "content": "héllo ✓"}}
    stream = write_lines(tmp_path / "one.jsonl", [value])
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 0
    (path,) = (empty_project / MESSAGES / "UserMessage").glob("*.json")
    assert path.name.startswith("imported_") and len(path.stem) == len("imported_") + 10
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    assert "héllo ✓" in text
    # the same shape elsewhere gets the same name: names depend on the shape only
    other = small_project(tmp_path / "other", "claude_code", fixtures=False)
    changed = {"type": "user", "message": {"role": "user", "content": "different text"}}
    assert (
        run(
            other,
            "fixtures",
            "import",
            "claude_code",
            str(write_lines(tmp_path / "b.jsonl", [changed])),
        )
        == 0
    )
    assert [p.name for p in (other / MESSAGES / "UserMessage").glob("*.json")] == [path.name]


def test_rerunning_is_idempotent(
    empty_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = [
        fixture("claude_code", f"Message/{name}.json")
        for name in ("result_success", "user_stdin", "stream_event")
    ]
    stream = write_lines(tmp_path / "stream.jsonl", values)
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 0
    first = tree(empty_project / "tests")
    capsys.readouterr()
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 0
    assert tree(empty_project / "tests") == first
    assert "0 new fixture(s), 3 already covered" in capsys.readouterr().out


def test_one_fixture_per_shape(empty_project: Path, tmp_path: Path) -> None:
    def text_block(text: str, extra: dict[str, object] | None = None) -> dict[str, object]:
        return {"type": "text", "text": text, **(extra or {})}

    stream = write_lines(
        tmp_path / "blocks.jsonl",
        [
            text_block("one"),
            text_block("two"),  # same keys and types: same shape
            text_block("three", {"citations": None}),  # one more key: new shape
            text_block("four", {"citations": None}),
        ],
    )
    assert (
        run(
            empty_project,
            "fixtures",
            "import",
            "claude_code",
            str(stream),
            "--type",
            "ContentBlock",
        )
        == 0
    )
    assert sorted(v["text"] for v in _imported(empty_project).values()) == ["one", "three"]  # type: ignore[index]


def test_existing_fixtures_of_the_same_shape_are_not_duplicated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "project", "claude_code")
    before = tree(project / "tests")
    recorded = fixture("claude_code", "ResultMessage/recorded_success.json")
    recorded["result"] = "other words, same shape"
    stream = write_lines(tmp_path / "stream.jsonl", [recorded])
    assert run(project, "fixtures", "import", "claude_code", str(stream)) == 0
    assert tree(project / "tests") == before
    assert "1 value(s): 0 new fixture(s), 1 already covered" in capsys.readouterr().out


def test_duplicate_report_names_the_existing_fixture(tmp_path: Path) -> None:
    from polytype.project.config import find_project
    from polytype.workflow.importer import import_values
    from polytype.workflow.recordings import read
    from polytype.workflow.schemas import project_schema

    project_dir = small_project(tmp_path / "project", "claude_code")
    project = find_project(project_dir)
    schema = project_schema(project, "claude_code")
    stream = write_lines(
        tmp_path / "s.jsonl", [fixture("claude_code", "ResultMessage/recorded_success.json")]
    )
    report = import_values(project, schema, read([stream]), "Message")
    assert not report.written and not report.not_placed
    (duplicate,) = report.duplicates
    assert duplicate.type_name == "ResultMessage"
    assert duplicate.existing.startswith("tests/fixtures/claude_code/ResultMessage/")
    assert duplicate.where == f"{stream}:1"


def test_values_the_schema_rejects_are_not_placed(
    empty_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = fixture("claude_code", "Message/result_success.json")
    result["is_error"] = "no"
    stream = write_lines(tmp_path / "stream.jsonl", [result])
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 1
    err = capsys.readouterr().err
    assert (
        f"{stream}:1: not a valid ResultMessage: $.is_error: 'no' is not of type 'boolean'" in err
    )
    assert _imported(empty_project) == {}


def test_every_imported_fixture_validates_against_the_wire_schema(
    empty_project: Path, tmp_path: Path
) -> None:
    values = [
        fixture("claude_code", f"Message/{path.name}")
        for path in sorted((Path(__file__).parent / "fixtures/claude_code/Message").glob("*.json"))
    ]
    stream = write_lines(tmp_path / "all.jsonl", values)
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 0
    data = load(empty_project / "schema/claude_code.yaml").data
    imported = _imported(empty_project)
    assert len(imported) == len(values)
    for name, value in imported.items():
        schema = wire_schema(data, name.split("/")[0])
        jsonschema.Draft202012Validator(schema).validate(value)


def test_type_option(
    empty_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = write_lines(
        tmp_path / "s.jsonl",
        [{"type": "text", "text": "hi"}, {"type": "thinking", "thinking": "hm", "signature": "x"}],
    )
    assert (
        run(
            empty_project,
            "fixtures",
            "import",
            "claude_code",
            str(stream),
            "--type",
            "ContentBlock",
        )
        == 0
    )
    assert {name.split("/")[0] for name in _imported(empty_project)} == {
        "TextBlock",
        "ThinkingBlock",
    }
    assert (
        run(empty_project, "fixtures", "import", "claude_code", str(stream), "--type", "TextBlok")
        == 2
    )
    assert "has no type 'TextBlok'; did you mean 'TextBlock'?" in capsys.readouterr().err


def test_a_module_without_a_root_needs_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    (project / "schema").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    (project / "schema" / "tiny.yaml").write_text(
        "$defs:\n  Point:\n    type: object\n    properties:\n      x: {type: integer}\n    required: [x]\n",
        encoding="utf-8",
    )
    stream = write_lines(tmp_path / "points.jsonl", [{"x": 1}, {"x": "one"}, {"x": 2}])
    assert run(project, "fixtures", "import", "tiny", str(stream)) == 2
    assert "has no root type (x-polytype: root); pass --type" in capsys.readouterr().err
    assert run(project, "fixtures", "import", "tiny", str(stream), "--type", "Point") == 1
    assert [p.name for p in (project / "tests/fixtures/tiny/Point").iterdir()] != []
    assert (
        f"{stream}:2: not a valid Point: $.x: 'one' is not of type 'integer'"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["no_such_module", "x.jsonl"],
            "no schema defines module 'no_such_module' (known: claude_code)",
        ),
        (["claude_code", "missing.jsonl"], "missing.jsonl: no such file or directory"),
    ],
)
def test_bad_arguments_exit_2(
    empty_project: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(empty_project, "fixtures", "import", *args) == 2
    assert message in capsys.readouterr().err


def test_every_line_malformed_writes_nothing(
    empty_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = tmp_path / "broken.jsonl"
    stream.write_bytes(b'{"type": \n[1, 2\n\xff\xfe not utf-8\nNaN\n')
    assert run(empty_project, "fixtures", "import", "claude_code", str(stream)) == 1
    err = capsys.readouterr().err
    for number, text in (
        (1, "invalid JSON"),
        (2, "invalid JSON"),
        (3, "not valid UTF-8"),
        (4, "invalid JSON: NaN is not a JSON value"),
    ):
        assert f"{stream}:{number}: {text}" in err
    assert not (empty_project / MESSAGES).exists()


def test_reads_stdin(
    empty_project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"type": "text", "text": "piped"}) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line.encode())))
    assert run(empty_project, "fixtures", "import", "claude_code", "-", "--type", "TextBlock") == 0
    assert "1 new fixture(s)" in capsys.readouterr().out


@pytest.mark.skipif(not RECORDED.is_dir(), reason="../shared/recorded is not present")
def test_recorded_claude_code_stream_is_placed_completely(
    empty_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = RECORDED / "claude_code" / "cc_tool_read_stream.jsonl"
    assert run(empty_project, "fixtures", "import", "claude_code", str(recording)) == 0
    out = capsys.readouterr().out
    assert "0 not placed" in out
    types = {name.split("/")[0] for name in _imported(empty_project)}
    assert {"StreamEventMessage", "AssistantMessage", "ResultMessage"} <= types


@pytest.mark.skipif(not RECORDED.is_dir(), reason="../shared/recorded is not present")
def test_rejections_point_where_the_decoders_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Lines the schema rejects are reported at the path tests/recorded_samples expects."""
    project = small_project(tmp_path / "project", "ag_ui", fixtures=False)
    name = "ag_ui/agui_NONCONFORMANT_handrolled_snake_case.jsonl"
    assert run(project, "fixtures", "import", "ag_ui", str(RECORDED / name)) == 1
    err = capsys.readouterr().err
    expected = json.loads((REPO / "tests/recorded_samples/ag_ui.json").read_text(encoding="utf-8"))
    rejections = {
        key.rsplit(":", 1)[1]: entry["path"]
        for key, entry in expected["expected_rejections"].items()
        if key.startswith(name + ":")
    }
    assert rejections
    for line, path in rejections.items():
        assert re.search(rf"{re.escape(name)}:{line}: not a valid \w+: {re.escape(path)}: ", err), (
            line,
            path,
        )


def test_a_consumed_schema_checks_each_type_where_it_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A consumed schema's types are named by lowering (the root after its title, an inline
    type after its place, a definition in PascalCase), and the schema refers to another
    file through the ref-map: each value is checked against its type's own place in the
    schema as written, and a reference that leads nowhere is a line not placed (exit 1),
    never an internal error."""
    project = tmp_path / "project"
    (project / "schema").mkdir(parents=True)
    (project / "vendor").mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = false\n[tool.polytype.ref-map]\n"https://example.com/" = "vendor"\n',
        encoding="utf-8",
    )
    (project / "vendor" / "unit.json").write_text('{"enum": ["m", "km"]}', encoding="utf-8")
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "My Config",
        "type": "object",
        "properties": {
            "size": {"$ref": "#/definitions/size_spec"},
            "unit": {"$ref": "https://example.com/unit.json"},
            "gone": {"$ref": "https://nowhere.example/gone.json"},
            "inner": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
        "definitions": {"size_spec": {"type": "integer", "minimum": 0}},
    }
    (project / "schema" / "conf.json").write_text(json.dumps(schema), encoding="utf-8")
    values = [{"size": 1, "unit": "km"}, {"size": -1}, {"unit": "mile"}, {"gone": 1}]
    stream = write_lines(tmp_path / "conf.jsonl", values)
    assert run(project, "fixtures", "import", "conf", str(stream)) == 1
    err = capsys.readouterr().err
    assert f"{stream}:2: not a valid MyConfig: $.size: -1 is less than the minimum of 0" in err
    assert f"{stream}:3: not a valid MyConfig: $.unit: 'mile' is not one of ['m', 'km']" in err
    assert f"{stream}:4: MyConfig: cannot be checked against the schema" in err
    assert "internal error" not in err
    inner = write_lines(tmp_path / "inner.jsonl", [{"n": 1}, {"n": "one"}])
    assert run(project, "fixtures", "import", "conf", str(inner), "--type", "MyConfigInner") == 1
    assert "not a valid MyConfigInner: $.n: 'one' is not of type 'integer'" in (
        capsys.readouterr().err
    )
    written = sorted(p.parent.name for p in (project / "tests/fixtures/conf").glob("*/*.json"))
    assert written == ["MyConfig", "MyConfigInner"]
