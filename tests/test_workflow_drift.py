"""`polytype drift`: compare recorded JSON with the schema, every problem at once."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from polytype import ir
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.project.config import find_project
from polytype.reading.loader import load
from polytype.workflow.drift import DriftReport, compare, render
from polytype.workflow.patch import suggest
from polytype.workflow.recordings import read, recording_files
from polytype.workflow.schemas import project_schema
from ruamel.yaml import YAML

from .conftest import RECORDED, REPO
from .workflow_support import fixture, run, small_project, write_lines

FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return small_project(tmp_path / "project", "claude_code", "ag_ui", fixtures=False)


def _drifting_stream(directory: Path) -> Path:
    result = fixture("claude_code", "Message/result_success.json")
    odd = copy.deepcopy(result)
    odd["duration_ms"] = "12"  # type mismatch
    odd["subtype"] = "error_quota"  # enum value not listed
    odd["brand_new"] = [1, 2.5]  # unknown key
    del odd["session_id"]  # required key missing
    return write_lines(
        directory / "stream.jsonl",
        [
            result,
            odd,
            "{broken",
            {"type": "system", "subtype": "teleport_started"},  # unlisted nested tag (kept)
            {"type": "user", "message": {"role": "user", "content": "hi"}, "brand_new": None},
        ],
    )


def test_report_lists_every_kind_of_drift_with_locations(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = _drifting_stream(tmp_path)
    assert run(project, "drift", "claude_code", str(stream)) == 1
    out = capsys.readouterr().out
    assert "drift: module claude_code, 4 value(s) from 1 file(s), read as Message" in out
    assert (
        "ResultMessage.brand_new: in 1 of 2 ResultMessage value(s), array; kept in `extra`" in out
    )
    assert f"e.g. [1, 2.5] at {stream}:2 $.brand_new" in out
    assert "UserMessage.brand_new: in 1 of 1 UserMessage value(s), null" in out
    assert "ResultMessage.session_id: missing 1x" in out
    assert f"first at {stream}:2 $.session_id" in out
    assert "ResultMessage.duration_ms: expected integer, got string (1x)" in out
    assert 'ResultSubtype: "error_quota" (1x)' in out
    assert (
        'SystemEvent: subtype = "teleport_started" (1x); unlisted tag, kept as '
        "UnknownSystemEvent (x-unknown: keep)" in out
    )
    assert f"{stream}:3: invalid JSON" in out
    assert "schema fields never seen (in types that were seen):" in out
    assert "polytype: drift found in 4 value(s): 2 unknown key(s), 1 missing required key(s)" in out


def test_no_drift_exits_0(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ("result_success", "user_stdin", "assistant_tool_use", "system_init", "stream_event")
    stream = write_lines(
        tmp_path / "ok.jsonl", [fixture("claude_code", f"Message/{n}.json") for n in names]
    )
    assert run(project, "drift", "claude_code", str(stream)) == 0
    out = capsys.readouterr().out
    assert "polytype: no drift in 5 value(s)" in out
    assert "unknown keys (in the data, not in the schema): none" in out


def test_fields_never_seen_are_listed(project: Path, tmp_path: Path) -> None:
    block = {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}
    stream = write_lines(tmp_path / "one.jsonl", [block])
    report = _report(project, stream, "ContentBlock")
    assert not report.found
    assert "ToolResultBlock (1 value(s)): is_error" in render(report)


def test_type_mismatches_inside_lists_and_unions(project: Path, tmp_path: Path) -> None:
    assistant = fixture("claude_code", "Message/assistant_tool_use.json")
    assistant["message"]["content"].append({"type": "text", "text": 5})
    assistant["message"]["content"].append({"type": "video"})
    report = _report(project, write_lines(tmp_path / "a.jsonl", [assistant]), "Message")
    text = render(report)
    assert "TextBlock.text: expected string, got integer (1x)" in text
    assert 'ContentBlock: type = "video" (1x)' in text
    assert "$.message.content[1].text" in text


def test_patch_is_a_fragment_that_removes_the_drift_once_merged(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = _drifting_stream(tmp_path)
    assert run(project, "drift", "claude_code", str(stream), "--patch") == 1
    out = capsys.readouterr().out
    patch_text = out[out.index("# Suggested by `polytype drift claude_code`") :]
    assert "add a member type" not in patch_text, "a string tag gets a drafted member"
    assert (
        "# needs a decision: ResultMessage.duration_ms: declared integer, recorded string"
        in patch_text
    )
    fragment = YAML(typ="safe").load(patch_text)
    result_patch = fragment["$defs"]["ResultMessage"]
    assert result_patch["properties"]["brand_new"]["type"] == "array"
    assert result_patch["properties"]["brand_new"]["items"] == {"type": "number"}
    assert "session_id" not in result_patch["required"]
    assert fragment["$defs"]["ResultSubtype"]["enum"][-1] == "error_quota"
    assert fragment["$defs"]["UserMessage"]["properties"]["brand_new"] == {
        "description": "Seen in 1 of 1 recorded UserMessage value(s)."
    }
    schema_path = project / "schema" / "claude_code.yaml"
    data = YAML(typ="safe").load(schema_path.read_text(encoding="utf-8"))
    _merge(data, fragment)
    patched = YAML(typ="safe")
    with schema_path.open("w", encoding="utf-8") as handle:
        patched.dump(data, handle)
    document = load(schema_path)
    validate(document)
    lower(document)
    report = _report(project, stream, "Message")
    assert not report.seen.unknown_keys and not report.seen.enum_values and not report.seen.missing
    assert not report.seen.unknown_tags, "the drafted member takes the unlisted tag"
    assert report.seen.mismatches, "what needs a decision stays"


def test_patch_suggests_aliases_for_respelled_keys(project: Path, tmp_path: Path) -> None:
    snake = {"type": "RUN_STARTED", "thread_id": "t", "run_id": "r"}
    stream = write_lines(tmp_path / "agui.jsonl", [snake])
    config = find_project(project)
    schema = project_schema(config, "ag_ui")
    report = compare(schema, read([stream]), "Event", 1)
    assert set(report.seen.missing) == {
        ("RunStartedEvent", "threadId"),
        ("RunStartedEvent", "runId"),
    }
    fragment = YAML(typ="safe").load(suggest(schema, report))
    started = fragment["$defs"]["RunStartedEvent"]
    assert started["properties"]["threadId"]["x-aliases"] == ["thread_id"]
    assert started["properties"]["runId"]["x-aliases"] == ["run_id"]
    assert "required" not in started, "an alias fixes the missing key; it stays required"


def test_patch_is_empty_without_drift(project: Path, tmp_path: Path) -> None:
    stream = write_lines(tmp_path / "ok.jsonl", [{"type": "text", "text": "hi"}])
    config = find_project(project)
    schema = project_schema(config, "claude_code")
    text = suggest(schema, compare(schema, read([stream]), "TextBlock", 1))
    assert text.endswith("{}\n")


def test_forbidden_keys_are_labelled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = small_project(tmp_path / "project", "nano_agent", fixtures=False)
    schema = project_schema(find_project(project), "nano_agent")
    forbidding = next(
        named
        for named in schema.module.types
        if isinstance(named, ir.Record) and named.extra_policy == "forbid"
    )
    example = sorted((FIXTURES / "nano_agent" / forbidding.name).glob("*.json"))[0]
    value = fixture("nano_agent", f"{forbidding.name}/{example.name}")
    value["surprise"] = True
    stream = write_lines(tmp_path / "n.jsonl", [value])
    assert run(project, "drift", "nano_agent", str(stream), "--type", forbidding.name) == 1
    out = capsys.readouterr().out
    assert f"{forbidding.name}.surprise: in 1 of 1 {forbidding.name} value(s), boolean" in out
    assert "rejected (additionalProperties: false)" in out


def test_directory_input(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recordings = tmp_path / "recordings"
    (recordings / "nested").mkdir(parents=True)
    write_lines(recordings / "b.jsonl", [{"type": "text", "text": "x"}])
    write_lines(recordings / "nested" / "a.jsonl", [{"type": "text", "text": "y", "new": 1}])
    (recordings / "c.json").write_text('{"type": "text", "text": "z"}', encoding="utf-8")
    (recordings / "ignored.txt").write_text("not a recording", encoding="utf-8")
    assert recording_files(str(recordings)) == [
        recordings / "b.jsonl",
        recordings / "c.json",
        recordings / "nested" / "a.jsonl",
    ]
    assert run(project, "drift", "claude_code", str(recordings), "--type", "TextBlock") == 1
    out = capsys.readouterr().out
    assert "3 value(s) from 3 file(s), read as TextBlock" in out
    assert f"at {recordings / 'nested' / 'a.jsonl'}:1 $.new" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "x.jsonl"], "no schema defines module 'nope'"),
        (["claude_code", "missing.jsonl"], "missing.jsonl: no such file or directory"),
        (
            ["claude_code", "x.jsonl", "--type", "Nothing"],
            "module 'claude_code' has no type 'Nothing'",
        ),
    ],
)
def test_bad_arguments_exit_2(
    project: Path,
    tmp_path: Path,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_lines(tmp_path / "x.jsonl", [{}])
    monkeypatch.chdir(tmp_path)
    assert run(project, "drift", *args) == 2
    assert message in capsys.readouterr().err


def test_empty_directory_exits_2(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert run(project, "drift", "claude_code", str(tmp_path / "empty")) == 2
    assert "no .json or .jsonl files" in capsys.readouterr().err


pytestmark_recorded = pytest.mark.skipif(
    not RECORDED.is_dir(), reason="../shared/recorded is not present"
)


@pytestmark_recorded
def test_recorded_claude_code(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real CLI recordings, read as the root union: unknown keys are only ever undeclared ones."""
    recorded = RECORDED / "claude_code"
    code = run(project, "drift", "claude_code", str(recorded))
    out = capsys.readouterr().out
    report = _report(project, recorded, "Message")
    assert code == (1 if report.found else 0)
    assert "from 8 file(s), read as Message" in out
    assert not report.seen.unknown_tags and not report.seen.mismatches and not report.unreadable
    for owner, key in report.seen.unknown_keys:
        record = report.module.get(owner)
        assert isinstance(record, ir.Record)
        assert key not in {spelling for f in record.fields for spelling in (f.json_key, *f.aliases)}


@pytestmark_recorded
def test_recorded_claude_code_shows_kept_unknown_keys(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Take `stop_details` out of the schema: the recordings carry it, drift reports it as kept."""
    schema_path = project / "schema" / "claude_code.yaml"
    text = schema_path.read_text(encoding="utf-8")
    declared = "      stop_details:\n        description: Extra stop information (usually null).\n        x-notes: Not in the seed.\n"
    assert declared in text
    schema_path.write_text(text.replace(declared, ""), encoding="utf-8")
    assert run(project, "drift", "claude_code", str(RECORDED / "claude_code"), "--patch") == 1
    out = capsys.readouterr().out
    assert (
        "AssistantMessageBody.stop_details: in 5 of 5 AssistantMessageBody value(s), null; kept in `extra`"
        in out
    )
    assert re.search(
        r"e\.g\. null at \S+/claude_code/cc_\w+\.jsonl:\d+ \$\.message\.stop_details", out
    )
    assert (
        "      stop_details:\n        description: Seen in 5 of 5 recorded AssistantMessageBody value(s)."
        in out
    )


@pytestmark_recorded
def test_recorded_anthropic_stream_reports_beta_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p", "search_agent", fixtures=False)
    recording = RECORDED / "anthropic" / "stream_events_via_claude_code.jsonl"
    code = run(project, "drift", "search_agent", str(recording))
    out = capsys.readouterr().out
    report = _report(project, recording, "MessageStreamEvent", "search_agent")
    assert code == (1 if report.found else 0)
    assert "21 value(s) from 1 file(s), read as MessageStreamEvent" in out
    assert not report.seen.mismatches and not report.seen.unknown_tags


def _report(project: Path, path: Path, type_name: str, module: str = "claude_code") -> DriftReport:
    schema = project_schema(find_project(project), module)
    files = recording_files(str(path))
    return compare(schema, read(files), type_name, len(files))


def _merge(target: dict[str, Any], fragment: dict[str, Any]) -> None:
    """Mappings merge, lists replace: how a suggested patch applies."""
    for key, value in fragment.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        else:
            target[key] = value


# --- open unions (x-unknown: keep): decoded, but still drift -----------------------


def _invented_events(directory: Path) -> Path:
    return write_lines(
        directory / "invented.jsonl",
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TOOL_CALL_PROGRESS", "toolCallId": "c1", "progress": 0.5},
            {"type": "TOOL_CALL_PROGRESS", "toolCallId": "c2", "progress": 1, "note": "n"},
        ],
    )


def test_kept_unlisted_tags_are_drift(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The decoders accept the invented event (UnknownEvent), and drift still reports it."""
    stream = _invented_events(tmp_path)
    assert run(project, "drift", "ag_ui", str(stream)) == 1
    out = capsys.readouterr().out
    assert (
        'Event: type = "TOOL_CALL_PROGRESS" (2x); unlisted tag, kept as UnknownEvent '
        "(x-unknown: keep)" in out
    )
    assert (
        f'e.g. {{"type": "TOOL_CALL_PROGRESS", "toolCallId": "c1", "progress": 0.5}} at {stream}:2 $.type'
        in out
    )
    assert "other rejections by the generated decoders: none" in out
    assert "1 unlisted tag(s)" in out


def test_patch_drafts_the_member_an_open_union_kept(project: Path, tmp_path: Path) -> None:
    stream = _invented_events(tmp_path)
    schema = project_schema(find_project(project), "ag_ui")
    report = compare(schema, read([stream]), "Event", 1)
    fragment = YAML(typ="safe").load(suggest(schema, report))
    drafted = fragment["$defs"]["ToolCallProgressEvent"]
    assert drafted["type"] == "object"
    assert drafted["properties"] == {
        "type": {"const": "TOOL_CALL_PROGRESS"},
        "toolCallId": {"type": "string"},
        "progress": {"type": "number"},
        "note": {"type": "string"},
    }
    assert drafted["required"] == ["type", "toolCallId", "progress"], "note was not in every value"
    options = fragment["$defs"]["Event"]["oneOf"]
    assert options[-1] == {"$ref": "#/$defs/ToolCallProgressEvent"}
    assert {"$ref": "#/$defs/RunStartedEvent"} in options, "lists replace: the old members stay"
    schema_path = project / "schema" / "ag_ui.yaml"
    data = YAML(typ="safe").load(schema_path.read_text(encoding="utf-8"))
    _merge(data, fragment)
    with schema_path.open("w", encoding="utf-8") as handle:
        YAML(typ="safe").dump(data, handle)
    after = _report(project, stream, "Event", "ag_ui")
    assert not after.found, render(after)


def test_patch_for_a_nested_open_union_keeps_the_parent_tag(project: Path, tmp_path: Path) -> None:
    """SystemEvent is reached through Message's `type`: the drafted member pins it."""
    stream = write_lines(
        tmp_path / "system.jsonl",
        [{"type": "system", "subtype": "teleport_started", "session_id": "s"}],
    )
    schema = project_schema(find_project(project), "claude_code")
    report = compare(schema, read([stream]), "Message", 1)
    fragment = YAML(typ="safe").load(suggest(schema, report))
    drafted = fragment["$defs"]["TeleportStartedSystemEvent"]
    assert drafted["properties"]["type"] == {"const": "system"}
    assert drafted["properties"]["subtype"] == {"const": "teleport_started"}
    assert drafted["required"] == ["subtype", "type", "session_id"]
    schema_path = project / "schema" / "claude_code.yaml"
    data = YAML(typ="safe").load(schema_path.read_text(encoding="utf-8"))
    _merge(data, fragment)
    with schema_path.open("w", encoding="utf-8") as handle:
        YAML(typ="safe").dump(data, handle)
    module = project_schema(find_project(project), "claude_code").module
    system = module.get("SystemEvent")
    assert isinstance(system, ir.UnionType)
    assert ("teleport_started", "TeleportStartedSystemEvent") in system.tag_values
    assert not _report(project, stream, "Message").found


def test_open_structural_union_keeps_and_reports_unlisted_nodes(tmp_path: Path) -> None:
    """nano-agent's NodeData: Message by `role`, the others by `type`; a new `type` is kept."""
    project = small_project(tmp_path / "nano", "nano_agent", fixtures=False)
    node = {"type": "checkpoint", "label": "before tools"}
    stream = write_lines(tmp_path / "nodes.jsonl", [node, {"role": "user", "content": "hi"}])
    report = _report(project, stream, "NodeData", "nano_agent")
    assert set(report.seen.unknown_tags) == {("NodeData", "type", '"checkpoint"')}
    assert report.seen.unknown_tags[("NodeData", "type", '"checkpoint"')].kept == "UnknownNodeData"
    assert not report.seen.rejections and not report.seen.mismatches
