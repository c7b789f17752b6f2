"""The dataclass flavor behaves as the nano-agent seed shows and as DESIGN.md promises."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from .conftest import load_generated

nano = load_generated("nano_agent")
search = load_generated("search_agent")
bedrock = load_generated("bedrock_swarm")


def test_positional_construction_follows_the_seed() -> None:
    message = nano.Message(nano.Role.USER, "Hello")
    assert message.to_dict() == {"role": "user", "content": "Hello"}
    assert nano.TextContent(text="Hello").to_dict() == {"type": "text", "text": "Hello"}


def test_tags_are_fixed_and_not_constructor_arguments() -> None:
    with pytest.raises(TypeError):
        nano.TextContent(text="x", type="text")
    assert nano.TextContent("x").type == "text"
    with pytest.raises(nano.DecodeError) as raised:
        nano.decode_text_content({"type": "thinking", "text": "x"})
    assert str(raised.value) == "$.type: expected 'text', got 'thinking'"


def test_frozen_and_mutable_records_follow_x_frozen() -> None:
    block = nano.TextContent("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.text = "y"
    usage = nano.Usage(input_tokens=1)
    usage.output_tokens = 5
    assert usage.to_dict() == {"input_tokens": 1, "output_tokens": 5}
    assert not hasattr(usage, "__dict__"), "records use slots"


def test_pattern_matching_works_as_in_the_seed() -> None:
    def describe(block: Any) -> str:
        match block:
            case nano.TextContent(text=t):
                return f"Text: {t}"
            case nano.ToolUseContent(name=n, input=i):
                return f"Tool: {n}({i})"
        return "other"

    blocks = nano.decode_response(
        {
            "id": "msg_1",
            "model": "m",
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "c1", "name": "Bash", "input": {"command": "ls"}},
            ],
            "stop_reason": None,
            "usage": {"input_tokens": 1, "output_tokens": 2},
        }
    )
    assert [describe(b) for b in blocks.content] == ["Text: hi", "Tool: Bash({'command': 'ls'})"]


def test_response_methods_from_the_template_block() -> None:
    response = nano.Response(
        id="r",
        model="m",
        role=nano.Role.ASSISTANT,
        content=[
            nano.TextContent("a"),
            nano.ToolUseContent("c", "Bash", None),
            nano.TextContent("b"),
        ],
        stop_reason=None,
        usage=nano.Usage(),
    )
    assert response.get_text() == "ab"
    assert [t.id for t in response.get_tool_use()] == ["c"]
    assert response.has_tool_use()
    assert not dataclasses.replace(response, content=[]).has_tool_use()


def test_presence_tracking_writes_back_explicit_defaults_and_nulls() -> None:
    explicit = {"type": "thinking", "thinking": "t", "signature": "", "summary": []}
    assert nano.decode_thinking_content(explicit).to_dict() == explicit
    absent = {"type": "thinking", "thinking": "t"}
    assert nano.decode_thinking_content(absent).to_dict() == absent
    with_null = {"type": "tool_use", "id": "c", "name": "n", "input": None, "item_id": None}
    assert nano.decode_tool_use_content(with_null).to_dict() == with_null
    built = nano.ThinkingContent("t", signature="")
    assert built.to_dict() == {
        "type": "thinking",
        "thinking": "t",
    }, "values built in code omit defaults"


def test_tuple_sequences_in_frozen_records() -> None:
    decoded = nano.decode_thinking_content(
        {"type": "thinking", "thinking": "t", "summary": [{"a": 1}]}
    )
    assert decoded.summary == ({"a": 1},)
    assert decoded.to_dict()["summary"] == [{"a": 1}]


def test_unknown_keys_are_kept_and_written_back() -> None:
    data = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
    decoded = nano.decode_text_content(data)
    assert decoded.extra == {"cache_control": {"type": "ephemeral"}}
    assert decoded.to_dict() == data


def test_additional_properties_false_rejects_unknown_keys() -> None:
    with pytest.raises(nano.DecodeError) as raised:
        nano.decode_truncation_config({"max_chars": 1, "surprise": True})
    assert raised.value.path == "$.surprise"


@pytest.mark.parametrize(
    ("decode", "data", "message"),
    [
        ("decode_usage", {"input_tokens": True}, "$.input_tokens: expected integer, got boolean"),
        ("decode_text_content", {"type": "text"}, "$.text: missing required key"),
        (
            "decode_message",
            {"role": "user", "content": 5},
            "$.content: expected string or array, got integer",
        ),
        (
            "decode_message",
            {"role": "robot", "content": "x"},
            "$.role: unknown value 'robot'; expected one of 'user', 'assistant'",
        ),
        (
            "decode_content_block",
            {"type": 5},  # an unlisted string tag is kept (x-unknown: keep); 5 is no tag
            "$.type: unknown tag 5; expected one of 'text', 'thinking', 'tool_use', 'tool_result'",
        ),
        ("decode_content_block", [], "$: expected object, got array"),
        ("decode_node_data", {"content": "x"}, "$: matches no member of NodeData"),
    ],
)
def test_strict_errors_name_the_path(decode: str, data: Any, message: str) -> None:
    with pytest.raises(nano.DecodeError) as raised:
        getattr(nano, decode)(data)
    assert str(raised.value).startswith(message)
    assert isinstance(raised.value, ValueError)


def test_nested_error_paths() -> None:
    data = {
        "role": "user",
        "content": [{"type": "text", "text": "a"}, {"type": "tool_use", "id": 1}],
    }
    with pytest.raises(nano.DecodeError) as raised:
        nano.decode_message(data)
    assert raised.value.path == "$.content[1].id"


def test_integers_are_numbers_and_stay_integers() -> None:
    data = {
        "tool_name": "t",
        "temp_file_path": "/x",
        "original_chars": 1,
        "original_lines": 2,
        "created_at": 17,
    }
    decoded = nano.decode_truncated_output(data)
    assert decoded.to_json() == json.dumps(data)


def test_strings_are_not_sequences() -> None:
    with pytest.raises(nano.DecodeError) as raised:
        nano.decode_tool_result_content(
            {"type": "tool_result", "tool_use_id": "x", "content": "text"}
        )
    assert raised.value.path == "$.content"


def test_structural_union_dispatch() -> None:
    assert isinstance(nano.decode_node_data({"role": "user", "content": "hi"}), nano.Message)
    assert isinstance(
        nano.decode_node_data({"type": "system_prompt", "content": "hi"}), nano.SystemPrompt
    )


def test_deep_nesting_never_escapes_as_recursion_error() -> None:
    value: Any = {}
    for _ in range(100_000):
        value = {"a": value}
    data = {"type": "tool_use", "id": "x", "name": "n", "input": value}
    try:
        decoded = nano.decode_tool_use_content(data)
    except nano.DecodeError as error:  # a clean, located refusal is fine
        assert "nesting" in str(error)
    else:  # free-form JSON of any depth is valid JSON and may be kept as it is
        assert decoded.input is value


def test_json_entry_points() -> None:
    decoded = nano.TextContent.from_json('{"type": "text", "text": "\\u00e9"}')
    assert decoded.to_json() == '{"type": "text", "text": "é"}'
    with pytest.raises(nano.DecodeError, match="invalid JSON"):
        nano.TextContent.from_json("{")
    with pytest.raises(nano.DecodeError, match=r"^\$\.input_tokens: NaN and infinity are not"):
        nano.Usage.from_json('{"input_tokens": NaN}')


def test_plain_and_literal_enums() -> None:
    assert search.TokenStatus.GREEN.value == "green"
    assert not isinstance(search.TokenStatus.GREEN, str), "x-python enum-base: plain"
    assert bedrock.decode_event_type("tool_start") == "tool_start"
    # an open Literal enum (x-unknown: keep) keeps an unlisted value; a closed one rejects it
    assert bedrock.decode_event_type("tool_started") == bedrock.UnknownEventType("tool_started")
    assert bedrock.encode_event_type(bedrock.UnknownEventType("tool_started")) == "tool_started"
    with pytest.raises(search.DecodeError):
        search.decode_token_status("blue")


def test_required_nullable_keys_must_be_present() -> None:
    with pytest.raises(bedrock.DecodeError) as raised:
        bedrock.decode_tool_result({"success": True, "result": "8"})
    assert raised.value.path == "$.error"
    ok = {"success": True, "result": "8", "error": None}
    assert bedrock.decode_tool_result(ok).to_dict() == ok


def test_every_named_type_has_decode_and_encode() -> None:
    # an open union's Unknown<Union> member and an open enum's Unknown<Enum> value are no
    # schema types: their union or enum decodes them
    kept = {"UnknownContentBlock", "UnknownNodeData", "UnknownTaskStatus", "UnknownTodoStatus"}
    assert kept <= set(nano.__all__)
    for name in nano.__all__:
        if name[0].isupper() and name not in ("DecodeError", "JSONValue", *kept):
            suffix = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
            assert callable(getattr(nano, f"decode_{suffix}")), name
            assert callable(getattr(nano, f"encode_{suffix}")), name
