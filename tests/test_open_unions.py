"""Open unions (`x-unknown: keep`): an unlisted tag survives in every flavor; nothing else does.

A stream from a newer producer carries event types this schema does not list. In an
open union such a value decodes to the generated `Unknown<Union>` member and encodes
back to exactly the JSON it came from; a known tag with a wrong shape, a missing tag
and a tag that is not a string are still rejected at their path.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.diagnostics import InputError
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.project.config import find_project
from polytype.project.export import wire_schema
from polytype.reading.loader import load
from polytype.targets.elixir import exunit
from polytype.workflow.schemas import project_schema
from pydantic import ValidationError

from .conftest import REPO, load_generated, schema_data
from .test_elixir import flat_files
from .workflow_support import small_project

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}

INVENTED_STREAM = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TOOL_CALL_PROGRESS", "toolCallId": "c", "progress": 0.5, "detail": {"a": [1, None]}},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "hi"},
]


class _Flavors:
    """Decode and encode one named type of a shipped module in each Python flavor."""

    def __init__(self, module: str, type_name: str, suffix: str) -> None:
        self.dataclasses = load_generated(module, "dataclass_models")
        self.typeddicts = load_generated(module, "typed_dicts")
        self.pydantic = load_generated(module, "pydantic_models")
        self.type_name, self.suffix = type_name, suffix

    def round_trips(self, data: Any) -> dict[str, tuple[str, Any]]:
        """flavor -> (class name of the decoded value, the value encoded again)."""
        decoded = getattr(self.dataclasses, f"decode_{self.suffix}")(copy.deepcopy(data))
        encoded = getattr(self.dataclasses, f"encode_{self.suffix}")(decoded)
        adapter = getattr(self.pydantic, f"{self.type_name}Adapter")
        model = adapter.validate_python(copy.deepcopy(data))
        checked = getattr(self.typeddicts, f"validate_{self.suffix}")(copy.deepcopy(data))
        return {
            "dataclasses": (type(decoded).__name__, encoded),
            "pydantic": (type(model).__name__, adapter.dump_python(model, **_DUMP)),
            "typeddicts": (type(checked).__name__, checked),
        }

    def error_paths(self, data: Any) -> dict[str, str]:
        """flavor -> where the decoder says the value is wrong (`$.a.b`, or Pydantic's loc)."""
        paths: dict[str, str] = {}
        with pytest.raises(ValueError) as dataclass_error:
            getattr(self.dataclasses, f"decode_{self.suffix}")(data)
        paths["dataclasses"] = str(dataclass_error.value).split(": ")[0]
        with pytest.raises(ValueError) as typeddict_error:
            getattr(self.typeddicts, f"validate_{self.suffix}")(data)
        paths["typeddicts"] = str(typeddict_error.value).split(": ")[0]
        with pytest.raises(ValidationError) as pydantic_error:
            getattr(self.pydantic, f"{self.type_name}Adapter").validate_python(data)
        first = pydantic_error.value.errors()[0]
        paths["pydantic"] = ".".join(str(step) for step in first["loc"])
        return paths


def test_an_invented_event_type_decodes_to_the_unknown_member_in_every_python_flavor() -> None:
    events = _Flavors("ag_ui", "Event", "event")
    for event in INVENTED_STREAM:
        results = events.round_trips(event)
        for flavor, (_, encoded) in results.items():
            assert encoded == event, f"{flavor} changed {event}"
    invented = events.round_trips(INVENTED_STREAM[1])
    assert invented["dataclasses"][0] == "UnknownEvent"
    assert invented["pydantic"][0] == "UnknownEvent"
    assert invented["typeddicts"][0] == "dict", "the TypedDict flavor returns the dict itself"
    kept = events.dataclasses.decode_event(INVENTED_STREAM[1])
    assert kept.tag == "TOOL_CALL_PROGRESS" and kept.data == INVENTED_STREAM[1]
    model = events.pydantic.EventAdapter.validate_python(INVENTED_STREAM[1])
    assert model.tag == "TOOL_CALL_PROGRESS" and model.data == INVENTED_STREAM[1]


def test_the_unknown_member_is_built_in_code_and_encodes_its_tag() -> None:
    models = load_generated("ag_ui", "dataclass_models")
    value = models.UnknownEvent("NEW", {"type": "NEW", "x": 1})
    assert models.encode_event(value) == {"type": "NEW", "x": 1}
    assert json.loads(value.to_json()) == {"type": "NEW", "x": 1}
    with pytest.raises(AttributeError):
        value.tag = "OTHER"  # type: ignore[misc]  # frozen


@pytest.mark.parametrize(
    ("data", "dataclass_path", "pydantic_loc"),
    [
        # a known tag with a wrong shape: strict as before, at the field
        (
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": 5, "delta": "x"},
            "$.messageId",
            "TextMessageContentEvent.messageId",
        ),
        ({"type": 7}, "$.type", ""),  # a tag that is not a string
        ({"threadId": "t"}, "$.type", ""),  # no tag at all
        # not an object: the fallback model says so (its wire path is `$`)
        ("TOOL_CALL_PROGRESS", "$", "UnknownEvent"),
    ],
)
def test_what_an_open_union_still_rejects(
    data: Any, dataclass_path: str, pydantic_loc: str
) -> None:
    paths = _Flavors("ag_ui", "Event", "event").error_paths(data)
    assert paths["dataclasses"] == dataclass_path
    assert paths["typeddicts"] == dataclass_path
    assert paths["pydantic"] == pydantic_loc


def test_nested_open_unions_keep_at_their_own_level() -> None:
    """Claude Code: Message is open on `type`, its member SystemEvent on `subtype`."""
    messages = _Flavors("claude_code", "Message", "message")
    new_subtype = {"type": "system", "subtype": "teleport_started", "session_id": "s"}
    new_type = {"type": "keep_alive_ping", "n": 1}
    assert {name for name, _ in messages.round_trips(new_subtype).values()} >= {
        "UnknownSystemEvent"
    }
    assert {name for name, _ in messages.round_trips(new_type).values()} >= {"UnknownMessage"}
    for data in (new_subtype, new_type):
        assert all(encoded == data for _, encoded in messages.round_trips(data).values())
    assert messages.error_paths({"type": "system", "subtype": 3})["dataclasses"] == "$.subtype"


def test_open_structural_union_keeps_an_unlisted_node() -> None:
    """nano-agent NodeData: Message by its `role` key, the others by `type`."""
    nodes = _Flavors("nano_agent", "NodeData", "node_data")
    node = {"type": "checkpoint", "label": "before tools"}
    results = nodes.round_trips(node)
    assert results["dataclasses"][0] == results["pydantic"][0] == "UnknownNodeData"
    assert all(encoded == node for _, encoded in results.values())
    message = {"type": "checkpoint", "role": "user", "content": "hi"}
    assert nodes.round_trips(message)["dataclasses"][0] == "Message", "a member's key wins"
    paths = nodes.error_paths({"type": 5})
    assert paths["dataclasses"] == paths["typeddicts"] == "$"


def test_the_shipped_stream_unions_are_open() -> None:
    expected = {
        "ag_ui": {"Event", "Message"},
        "claude_code": {"Message", "SystemEvent", "ContentBlock"},
        "nano_agent": {"ContentBlock", "NodeData"},
        "search_agent": {"ContentBlock", "ContentBlockDelta", "MessageStreamEvent"},
        "bedrock_swarm": set(),
    }
    project = find_project(REPO)
    for module, names in expected.items():
        lowered = project_schema(project, module).module
        open_unions = {
            named.name
            for named in lowered.types
            if isinstance(named, ir.UnionType) and named.unknown is not None
        }
        assert open_unions == names, module
        table = (REPO / "generated" / "docs" / f"{module}.md").read_text(encoding="utf-8")
        for name in names:
            assert f"[`{name}`](#type-{name.lower()})" in table.split("## Class diagram")[0]
            assert f"`Unknown{name}`" in table


def test_the_wire_schema_spells_out_the_kept_member() -> None:
    events = jsonschema.Draft202012Validator(wire_schema(schema_data("ag_ui"), "Event"))
    assert events.is_valid(INVENTED_STREAM[1])
    assert not events.is_valid({"type": 7})
    assert not events.is_valid({"type": "TEXT_MESSAGE_CONTENT", "messageId": 5, "delta": "x"})
    # nested: the kept SystemEvent is pinned to type "system", so a result is still one member
    messages = jsonschema.Draft202012Validator(wire_schema(schema_data("claude_code"), "Message"))
    assert messages.is_valid({"type": "system", "subtype": "teleport_started"})
    assert messages.is_valid({"type": "keep_alive_ping"})


def test_elixir_keeps_the_tag_as_a_string() -> None:
    module = project_schema(find_project(REPO), "ag_ui").module
    files = flat_files(module)
    union = files["elixir/lib/ag_ui/event.ex"]
    assert "{:ok, tag} when is_binary(tag) -> AgUi.UnknownEvent.decode(data)" in union
    assert (
        "def to_json(%AgUi.UnknownEvent{} = value), do: AgUi.UnknownEvent.to_json(value)" in union
    )
    assert "AgUi.UnknownEvent.t()" in union
    kept = files["elixir/lib/ag_ui/unknown_event.ex"]
    assert "@type t :: %__MODULE__{tag: String.t(), data: R.json_object()}" in kept
    assert "Map.put(data, @tag_key, tag)" in kept
    assert "String.to_atom" not in kept and "String.to_existing_atom" not in kept
    test_text = files[exunit.test_path(module)]
    assert "assert_kept_without_new_atoms(AgUi.Event," in test_text


# --- the dialect and the project default ---------------------------------------------

_SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
x-polytype: {{module: shapes}}
$defs:
  A:
    type: object
    properties: {{kind: {{const: a}}, n: {{type: integer}}}}
    required: [kind, n]
  B:
    type: object
    properties: {{kind: {{const: b}}}}
    required: [kind]
  Shape:
{keyword}    oneOf: [{{$ref: "#/$defs/A"}}, {{$ref: "#/$defs/B"}}]
{extra}"""


def _lowered(tmp_path: Path, keyword: str = "", extra: str = "", unknown_tags: Any = None) -> Any:
    path = tmp_path / "shapes.yaml"
    path.write_text(_SCHEMA.format(keyword=keyword, extra=extra), encoding="utf-8")
    document = load(path, "shapes.yaml")
    validate(document)
    return lower(document) if unknown_tags is None else lower(document, unknown_tags)


def test_x_unknown_keep_names_the_member(tmp_path: Path) -> None:
    shape = _lowered(tmp_path, "    x-unknown: keep\n").get("Shape")
    assert shape.unknown == "UnknownShape" and shape.open_tag == "kind"
    assert _lowered(tmp_path).get("Shape").unknown is None, "closed by default"


def test_project_default_and_the_override(tmp_path: Path) -> None:
    assert _lowered(tmp_path, unknown_tags="keep").get("Shape").unknown == "UnknownShape"
    closed = _lowered(tmp_path, "    x-unknown: reject\n", unknown_tags="keep").get("Shape")
    assert closed.unknown is None


def test_unknown_tags_setting(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p", "nano_agent", fixtures=False)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        '[tool.polytype]\nschema-dir = "schema"\nunknown-tags = "keep"\n', encoding="utf-8"
    )
    config = find_project(project)
    assert config.unknown_tags == "keep"
    module = project_schema(config, "nano_agent").module
    tool_output = module.get("ToolOutputContent")
    assert isinstance(tool_output, ir.UnionType) and tool_output.unknown, "every tagged union"
    pyproject.write_text(
        '[tool.polytype]\nschema-dir = "schema"\nunknown-tags = "yes"\n', encoding="utf-8"
    )
    with pytest.raises(InputError) as error:
        find_project(project)
    assert "/tool/polytype/unknown-tags: must be one of 'reject', 'keep'" in str(
        error.value.diagnostics[0]
    )


def test_a_misspelled_x_unknown_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        _lowered(tmp_path, "    x-unknwon: keep\n")
    assert "did you mean 'x-unknown'?" in str(error.value.diagnostics[0])
    with pytest.raises(InputError) as error:
        _lowered(tmp_path, "    x-unknown: always\n")
    assert "/$defs/Shape/x-unknown" in str(error.value.diagnostics[0])


def test_x_unknown_keep_needs_a_tag(tmp_path: Path) -> None:
    text = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  A: {type: object, properties: {a: {type: string}}, required: [a]}
  B: {type: string}
  AorB:
    x-unknown: keep
    oneOf: [{$ref: "#/$defs/A"}, {$ref: "#/$defs/B"}]
"""
    path = tmp_path / "untagged.yaml"
    path.write_text(text, encoding="utf-8")
    document = load(path, "untagged.yaml")
    validate(document)
    with pytest.raises(InputError) as error:
        lower(document)
    assert "x-unknown: keep needs a tag" in str(error.value.diagnostics[0])


def test_the_unknown_member_name_must_be_free(tmp_path: Path) -> None:
    extra = "  UnknownShape: {type: object}\n"
    with pytest.raises(InputError) as error:
        _lowered(tmp_path, "    x-unknown: keep\n", extra)
    assert "'UnknownShape', which is already a type name" in str(error.value.diagnostics[0])
