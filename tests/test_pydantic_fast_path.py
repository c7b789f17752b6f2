"""The Pydantic models' fast path keeps every wire rule it leaves to the full validator.

`model_validate`, `model_validate_json` and the adapters first try a validator without
`_CheckedModel`'s checks and with a string tag read by Pydantic itself; whatever it
refuses is validated again by the full one. So a field's Python name used as a JSON key
must still be an unknown key (kept, not the field, and not counted as set), a tag the
schema does not list must still decode to the unknown member, and errors must still be
the full validator's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType, FunctionType, ModuleType
from typing import Any

import pytest
from polytype.cli import main
from pydantic import ValidationError

from .conftest import import_file, load_generated

DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}


@pytest.fixture(scope="module")
def models() -> ModuleType:
    return load_generated("ag_ui", "pydantic_models")


def _run_input(**extra: Any) -> dict[str, Any]:
    message = {"id": "t-1", "role": "tool", "content": "ok", "toolCallId": "c-1"}
    return {
        "threadId": "t",
        "runId": "r",
        "messages": [message],
        "tools": [],
        "context": [],
        "forwardedProps": None,
        **extra,
    }


def _both(models: ModuleType, data: dict[str, Any]) -> list[Any]:
    adapter = models.RunAgentInput
    text = json.dumps(data)
    return [
        adapter.model_validate(data),
        adapter.model_validate_json(text),
        adapter.model_validate_json(text.encode()),
        adapter.model_validate_json(json.dumps(data, indent=1)),  # `"thread_id": ` spaced
        adapter.model_validate_json(text.replace("_", "\\u005f")),  # `"thread\\u005fid"`
        adapter.model_validate_json(text.replace("_", "\\u005F")),
    ]


def test_the_fast_path_leaves_out_the_python_checks(models: ModuleType) -> None:
    runtime = __import__(models.__package__ + "._pydantic_runtime", fromlist=["_fast"])
    models.RunAgentInput.model_validate(_run_input())
    fast = runtime._FAST[models.RunAgentInput]  # built on first use
    assert fast is not None
    text = repr(fast[0])
    assert "_check_wire" not in text and "_put_back" not in text
    assert "_message_member" not in text  # the role tag is read by Pydantic
    # JSON text is read by the fast validator itself where Pydantic shows it the field
    # names among the keys (2.14 and later), else where a search finds none there
    assert (fast[1] is None) is runtime._NAMES_IN_TEXT


@pytest.mark.parametrize("name", ["parent_run_id", "thread_id"])
def test_a_field_name_as_a_key_is_an_unknown_key(models: ModuleType, name: str) -> None:
    data = _run_input(**{name: "by name"})
    for model in _both(models, data):
        assert model.__pydantic_extra__ == {name: "by name"}
        assert name not in model.model_fields_set or name == "thread_id"
        assert model.model_dump(**DUMP) == data
        assert model.thread_id == "t" and model.parent_run_id is None


def test_a_field_name_in_a_nested_model_is_an_unknown_key(models: ModuleType) -> None:
    data = _run_input()
    data["messages"][0]["tool_call_id"] = "by name"
    for model in _both(models, data):
        message = model.messages[0]
        assert message.tool_call_id == "c-1"
        assert message.__pydantic_extra__ == {"tool_call_id": "by name"}
        assert model.model_dump(**DUMP) == data


def test_a_field_name_alone_does_not_fill_the_field(models: ModuleType) -> None:
    data = _run_input()
    del data["threadId"]
    data["thread_id"] = "t"
    for validate, given in (
        (models.RunAgentInput.model_validate, data),
        (models.RunAgentInput.model_validate_json, json.dumps(data)),
    ):
        with pytest.raises(ValidationError) as caught:
            validate(given)
        assert [error["loc"] for error in caught.value.errors()] == [("threadId",)]


def test_an_unlisted_tag_is_the_unknown_member(models: ModuleType) -> None:
    message = {"id": "n-1", "role": "newcomer", "mood": "curious"}
    data = _run_input(messages=[message])
    for model in _both(models, data):
        assert type(model.messages[0]) is models.UnknownMessage
        assert model.model_dump(**DUMP) == data
    assert type(models.MessageAdapter.validate_python(message)) is models.UnknownMessage
    assert type(models.MessageAdapter.validate_json(json.dumps(message))) is models.UnknownMessage


def test_errors_are_the_full_validators(models: ModuleType) -> None:
    data = _run_input()
    data["messages"][0]["content"] = 7
    for validate, given in (
        (models.RunAgentInput.model_validate, data),
        (models.RunAgentInput.model_validate_json, json.dumps(data)),
    ):
        with pytest.raises(ValidationError) as caught:
            validate(given)
        [error] = caught.value.errors()
        assert error["loc"] == ("messages", 0, "ToolMessage", "content")


def test_names_in_json_text_are_found_by_the_search(models: ModuleType) -> None:
    """Before Pydantic 2.14 the fast validator reads JSON text itself only where no field
    name can be a key; the search may say yes where none is, never no where one is."""
    runtime = __import__(models.__package__ + "._pydantic_runtime", fromlist=["_NameKeys"])
    names = runtime._NameKeys(frozenset({"thread_id", "class_", "kind"}))
    for text in (
        '{"thread_id": 1}',
        '{"a": {"thread_id"\n:1}}',
        '{"class_":1}',
        '{"kind" :1}',
        '{"thread\\u005fid": 1}',
        '{"\\u0074hread_id": 1}',
        '{"x_y": 1}',  # not a name, but a key with `_`: parsed first, which is only slower
    ):
        assert names(text) and names(text.encode()) and names(bytearray(text.encode())), text
    for text in ('{"threadId": "thread_id", "kinds": "kind"}', '["class_", "\\u00e9"]'):
        assert not names(text) and not names(text.encode()), text
    assert names(memoryview(b"{}"))  # not text it knows: parsed first
    assert runtime._NameKeys(frozenset({"caf\u00e9"}))("{}")  # not an ASCII identifier


def test_text_without_names_is_read_by_the_fast_validator(
    models: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = __import__(models.__package__ + "._pydantic_runtime", fromlist=["from_json"])
    parsed: list[object] = []
    real = runtime.from_json
    monkeypatch.setattr(runtime, "from_json", lambda data: parsed.append(data) or real(data))
    data = _run_input(state={"snake": "thread_id"})
    text = json.dumps(data)
    assert models.RunAgentInput.model_validate_json(text).model_dump(**DUMP) == data
    assert parsed == []  # read by the fast validator itself
    named = json.dumps(_run_input(thread_id="by name"))
    assert models.RunAgentInput.model_validate_json(named).__pydantic_extra__ == {
        "thread_id": "by name"
    }
    assert parsed == ([] if runtime._NAMES_IN_TEXT else [named])


class _Text(str):
    """A string subclass: not JSON data as read (it would be written as a plain string)."""


_FREE_FORM_VALUES: list[Any] = [
    {"a": [1, 2.5, None, True, "x", {"b": []}]},
    [[], {}, [[{}]]],
    {"é": 1},  # a key that is not ASCII, but has a UTF-8 spelling
    {"\ud800": 1},  # a lone surrogate as a key
    {1: "a"},
    {True: "a"},
    {_Text("a"): 1},
    {"a": _Text("b")},
    [float("nan")],
    {"a": [1, float("inf")]},
    [-float("inf")],
    [10**4300],
    [10**4300 - 1, -(10**4300) + 1],
    [(1, 2)],
    [{1, 2}],
    [b"bytes"],
    ["\ud800"],  # a lone surrogate in a value is kept
    [1j],
    {"a": {"b": {"c": [object()]}}},
]


@pytest.mark.parametrize("value", _FREE_FORM_VALUES)
def test_the_lean_free_form_pass_is_sure_only_of_json_data(models: ModuleType, value: Any) -> None:
    """`_is_json` is the lean pass of a free-form value: whenever it says the value is JSON
    data, the exact pass (`_not_json`, whose verdict and messages stand) finds nothing."""
    runtime = __import__(models.__package__ + "._pydantic_runtime", fromlist=["_is_json"])
    if runtime._is_json(value, 0):
        assert runtime._not_json(value, 0) is None
    problem = runtime._not_json(value, 0)
    field = models.Tool
    data = {"name": "n", "description": "d", "parameters": {"v": value}}
    if problem is None:
        assert field.model_validate(data).model_dump(**DUMP) == data
    else:
        with pytest.raises(ValidationError) as error:
            field.model_validate(data)
        assert problem in str(error.value)


# A plain model (no model validator of its own) holding an open union, which a Python
# function dispatches, nested in another plain model: Pydantic reuses a plain model's own
# validator wherever its class appears, so the fast path must build these afresh.
_SHAPES = {
    "x-polytype": {"module": "shapes"},
    "$defs": {
        "Envelope": {
            "type": "object",
            "properties": {"note": {"$ref": "#/$defs/Note"}},
            "required": ["note"],
        },
        "Note": {
            "type": "object",
            "properties": {
                "shape": {"$ref": "#/$defs/Shape"},
                "payload": {},
                "label": {"$ref": "#/$defs/Label"},
            },
            "required": ["shape"],
        },
        "Label": {  # a field named `extra_`: checked by `_check_wire`
            "type": "object",
            "properties": {"extra": {"type": "string"}},
            "additionalProperties": True,
        },
        "Shape": {
            "x-unknown": "keep",
            "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
        },
        "Circle": {
            "type": "object",
            "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
            "required": ["kind", "radius"],
        },
        "Square": {
            "type": "object",
            "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
            "required": ["kind", "side"],
        },
    },
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    project = tmp_path_factory.mktemp("shapes")
    (project / "schema").mkdir()
    (project / "schema" / "shapes.json").write_text(json.dumps(_SHAPES), encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', encoding="utf-8"
    )
    assert main(["--project", str(project), "generate"]) == 0
    path: Path = project / "generated" / "python" / "shapes" / "pydantic_models.py"
    return import_file(path, "polytype_shapes.pydantic_models")


def _calls(function: FunctionType, action: Callable[[], object]) -> int:
    """How many times `action` calls `function` (Pydantic calls it from Rust: a profiler sees it)."""
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" and frame.f_code is function.__code__:
            calls += 1

    sys.setprofile(count)
    try:
        action()
    finally:
        sys.setprofile(None)
    return calls


def _envelope(kind: str) -> dict[str, Any]:
    shape = {"kind": kind, "radius": 1.5} if kind != "square" else {"kind": kind, "side": 2.0}
    return {"note": {"shape": shape, "payload": {"a": [1, None]}, "label": {"extra": "x"}}}


def test_the_fast_path_reaches_a_union_in_nested_plain_models(shapes: ModuleType) -> None:
    for model in (shapes.Envelope, shapes.Note):
        assert model.__pydantic_decorators__.model_validators == {}  # plain models
    data = _envelope("circle")
    for validate in (
        lambda: shapes.Envelope.model_validate(data),
        lambda: shapes.Envelope.model_validate_json(json.dumps(data)),
        lambda: shapes.Note.model_validate(data["note"]),
        lambda: shapes.Note.model_validate_json(json.dumps(data["note"])),
    ):
        validate()  # the fast validator is built on first use
        assert _calls(shapes._shape_member, validate) == 0
        assert _calls(shapes.Label._check_wire.__func__, validate) == 0


def test_an_unlisted_tag_in_nested_plain_models_is_the_unknown_member(shapes: ModuleType) -> None:
    for kind, member in (("circle", "Circle"), ("square", "Square"), ("hexagon", "UnknownShape")):
        data = _envelope(kind)
        for model in (
            shapes.Envelope.model_validate(data),
            shapes.Envelope.model_validate_json(json.dumps(data)),
        ):
            assert type(model.note.shape) is getattr(shapes, member)
            assert model.model_dump(**DUMP) == data
    data = _envelope("circle")
    data["note"]["label"]["extra_"] = "by name"  # a field's name: an unknown key
    for model in (
        shapes.Envelope.model_validate(data),
        shapes.Envelope.model_validate_json(json.dumps(data)),
    ):
        assert model.note.label.extra_ == "x"
        assert model.note.label.__pydantic_extra__ == {"extra_": "by name"}
        assert model.model_dump(**DUMP) == data
    data = _envelope("square")
    data["note"]["shape"]["side"] = "wide"
    with pytest.raises(ValidationError) as caught:
        shapes.Envelope.model_validate(data)
    with pytest.raises(ValidationError) as full:
        shapes.Envelope.__pydantic_validator__.validate_python(data)
    assert caught.value.errors() == full.value.errors()
    assert caught.value.errors()[0]["loc"][:4] == ("note", "shape", "Square", "side")
