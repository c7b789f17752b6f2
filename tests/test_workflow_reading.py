"""Reading recordings (bad lines never stop the rest), shapes, dispatch, and the progress bar."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from polytype.project.config import find_project
from polytype.workflow.classify import NoMember, concrete_type
from polytype.workflow.progress import Progress
from polytype.workflow.recordings import Recorded, Unreadable, count_units, read, recording_files
from polytype.workflow.schemas import project_schema
from polytype.workflow.shape import shape, shape_id

from .workflow_support import run, small_project, write_lines


def test_stream_lines_keep_their_numbers(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"a": 1}\n'  # BOM on line 1
        b"\n"
        b"   \n"
        b"[1,\n"
        b'"\xff"\n'
        b"Infinity\n"
        b'{"b": [true, null]}\n'
        b"1 2\n"
        b'{"last": "no newline"}'
    )
    readings = list(read([path]))
    assert readings == [
        Recorded(str(path), 1, {"a": 1}),
        Unreadable(str(path), 4, "invalid JSON: Expecting value (column 4)"),
        Unreadable(str(path), 5, "not valid UTF-8"),
        Unreadable(str(path), 6, "invalid JSON: Infinity is not a JSON value"),
        Recorded(str(path), 7, {"b": [True, None]}),
        Unreadable(str(path), 8, "invalid JSON: Extra data (column 3)"),
        Recorded(str(path), 9, {"last": "no newline"}),
    ]
    assert count_units([path]) == 9
    assert readings[1].where == f"{path}:4"


def test_a_json_file_is_one_value(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{\n  "a": [1, 2]\n}\n', encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "a": [1, 2\n}\n', encoding="utf-8")
    assert list(read([good, bad])) == [
        Recorded(str(good), None, {"a": [1, 2]}),
        Unreadable(str(bad), 3, "invalid JSON: Expecting ',' delimiter (column 1)"),
    ]
    assert Recorded(str(good), None, {}).where == str(good)


def test_shape_ignores_values_and_item_counts() -> None:
    assert shape({"b": 1, "a": ["x", "y"]}) == {"a": ["array", "string"], "b": "integer"}
    assert shape_id({"a": 1, "b": ["x"]}) == shape_id({"b": ["y", "z"], "a": 2})
    assert shape_id({"a": 1}) != shape_id({"a": 1.5})
    assert shape_id({"a": 1}) != shape_id({"a": 1, "b": None})
    assert shape_id([{"a": 1}, {"b": 1}]) == shape_id([{"b": 2}, {"a": 3}, {"a": 4}])
    assert len(shape_id(None)) == 10


def test_dispatch_follows_nested_and_structural_unions(tmp_path: Path) -> None:
    project = find_project(
        small_project(tmp_path / "p", "claude_code", "nano_agent", fixtures=False)
    )
    claude = project_schema(project, "claude_code").module
    nano = project_schema(project, "nano_agent").module
    assert (
        concrete_type(claude, "Message", {"type": "system", "subtype": "init"}) == "SystemMessage"
    )
    assert concrete_type(claude, "Message", {"type": "result"}) == "ResultMessage"
    assert concrete_type(nano, "NodeData", {"role": "user", "content": "x"}) == "Message"
    assert concrete_type(nano, "NodeData", {"type": "stop_reason"}) == "StopReason"
    with pytest.raises(NoMember) as raised:
        concrete_type(claude, "Message", {"type": "system"})
    assert (raised.value.path, raised.value.message) == ("$.subtype", "missing required key")
    with pytest.raises(NoMember) as raised:
        concrete_type(claude, "Message", ["not", "an", "object"])
    assert str(raised.value) == "$: expected object, got array"
    with pytest.raises(NoMember) as raised:
        concrete_type(claude, "Message", {"type": True})
    assert raised.value.message.startswith("unknown tag True; expected one of 'system'")
    with pytest.raises(NoMember) as raised:
        concrete_type(nano, "NodeData", {"neither": 1})
    assert "matches no member of NodeData" in raised.value.message


def test_progress_bar_draws_on_a_terminal_and_clears_its_line() -> None:
    stream = io.StringIO()
    with Progress("importing", 4, stream=stream, enabled=True, delay=0) as progress:
        progress.advance()
        assert stream.getvalue().endswith("importing [#######.......................] 1/4  25%")
    final = stream.getvalue()
    assert final.startswith("\rimporting [")
    assert final.endswith("\r" + " " * len(progress.line()) + "\r")


def test_progress_without_a_total_counts() -> None:
    progress = Progress("comparing", None, stream=io.StringIO(), enabled=True, delay=0)
    progress.advance(3)
    assert progress.line() == "comparing 3"


def test_progress_is_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()  # isatty() is False
    with Progress("importing", 10, stream=stream, delay=0) as progress:
        for _ in range(10):
            progress.advance()
    assert stream.getvalue() == ""


def test_piped_commands_print_no_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p", "claude_code", fixtures=False)
    stream = write_lines(
        tmp_path / "s.jsonl", [{"type": "text", "text": str(n)} for n in range(300)]
    )
    assert run(project, "drift", "claude_code", str(stream), "--type", "TextBlock") == 0
    assert (
        run(project, "fixtures", "import", "claude_code", str(stream), "--type", "TextBlock") == 0
    )
    assert "\r" not in capsys.readouterr().err


def test_recording_files_of_a_file_is_itself(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", [1])
    assert recording_files(str(path)) == [path]
    assert recording_files("-") == [Path("-")]
    assert count_units([Path("-")]) is None
