"""The Pydantic target on a schema made of edge cases, next to the dataclass flavor.

A synthetic module exercises what the shipped schemas do not: integer and boolean
tags, a union that needs a callable discriminator for its tag, a structural union
with a non-object member, `x-extra: ignore`, `additionalProperties: false`, a
lookahead `pattern`, number and array constraints, defaults of every kind, x-aliases
on an optional key, field names that differ from JSON keys, frozen records, and
hostile text in descriptions and enum values. Every case is fed to both flavors,
which must agree; built-in-code semantics are checked on the Pydantic models.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main
from polytype.diagnostics import InputError
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.reading.loader import load
from polytype.targets import python_pydantic
from polytype.targets.base.render import make_env
from pydantic import BaseModel, ValidationError

from .conftest import import_file

HOSTILE = 'quote " triple """ backslash \\ brace #{x} {y} newline\nsecond line \t tab'

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "edge cases " + HOSTILE,
    "description": HOSTILE,
    "x-polytype": {"module": "edge"},
    "$defs": {
        "Kind": {
            "description": HOSTILE,
            "type": "string",
            "enum": ['a"b', "c\\d", 'tri"""ple', "plain"],
            "x-python": {"enum-base": "plain"},
        },
        "Mode": {"type": "string", "enum": ["on", "off"], "x-python": {"enum-base": "literal"}},
        "Ping": {
            "description": HOSTILE,
            "type": "object",
            "x-extra": "ignore",
            "properties": {
                "kind": {"const": 1},
                "note": {"type": "string", "pattern": "^x(?=y)", "description": HOSTILE},
                "mode": {"$ref": "#/$defs/Mode", "default": "off"},
            },
            "required": ["kind"],
        },
        "Pong": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "kind": {"const": 2},
                "count": {"type": "number", "minimum": 0, "maximum": 1},
                "items": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "maxItems": 2,
                },
                "label": {"type": "string", "maxLength": 3, "default": "abc"},
                "tags": {"type": "array", "items": {"type": "string"}, "default": ["t"]},
                "kinds": {
                    "type": "object",
                    "additionalProperties": {"$ref": "#/$defs/Kind"},
                    "default": {},
                },
            },
            "required": ["kind"],
        },
        "PingPong": {"oneOf": [{"$ref": "#/$defs/Ping"}, {"$ref": "#/$defs/Pong"}]},
        "On": {
            "type": "object",
            "x-frozen": True,
            "properties": {"switch": {"const": True}, "sinceMs": {"type": "integer"}},
            "required": ["switch"],
        },
        "Off": {
            "type": "object",
            "properties": {"switch": {"const": False, "x-field": "state"}},
            "required": ["switch"],
        },
        "Switch": {"oneOf": [{"$ref": "#/$defs/On"}, {"$ref": "#/$defs/Off"}]},
        "Session": {
            "type": "object",
            "properties": {
                "sessionKey": {"type": "string", "x-aliases": ["session_key", "key"]},
                "maxTurns": {"type": ["integer", "null"]},
                "note": {"type": "string"},
            },
        },
        "Strict": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"runId": {"type": "string"}},
            "required": ["runId"],
        },
        "Either": {"oneOf": [{"$ref": "#/$defs/Kind"}, {"$ref": "#/$defs/Session"}]},
    },
}

VALID: list[tuple[str, Any]] = [
    ("Kind", 'a"b'),
    ("Kind", 'tri"""ple'),
    ("Mode", "on"),
    ("Ping", {"kind": 1}),
    ("Ping", {"kind": 1, "note": "xy", "mode": "off"}),
    (
        "Pong",
        {
            "kind": 2,
            "count": 1,
            "items": ["a"],
            "label": "abc",
            "tags": [],
            "kinds": {"k": "plain"},
        },
    ),
    ("Pong", {"kind": 2, "count": 0.5}),
    ("PingPong", {"kind": 2}),
    ("PingPong", {"kind": 1, "note": "xyz"}),
    ("Switch", {"switch": True, "sinceMs": 3}),
    ("Switch", {"switch": False, "extra": [1, {"a": None}]}),
    ("Switch", {"switch": False, "state": "a field name, so an unknown key", "sinceMs": 1.5}),
    ("Session", {}),
    ("Session", {"session_key": "s", "maxTurns": None}),
    ("Session", {"key": "s", "maxTurns": 3, "unknown": True}),
    ("Session", {"sessionKey": "s"}),
    ("Session", {"session_id": "not the field: an unknown key, kept"}),
    ("Session", {"max_turns": "a Python name is an unknown key on the wire"}),
    ("Strict", {"runId": "r"}),
    ("Either", "plain"),
    ("Either", {"note": "n"}),
]

INVALID: list[tuple[str, Any, str]] = [
    ("Kind", "nope", "$"),
    ("Mode", "ON", "$"),
    ("Ping", {"kind": True}, "$.kind"),
    ("Ping", {"kind": 1.0}, "$.kind"),
    ("Ping", {}, "$.kind"),
    ("Ping", {"kind": 1, "note": "xz"}, "$.note"),
    ("Ping", {"kind": 1, "note": None}, "$.note"),
    ("Ping", {"kind": 1, "mode": None}, "$.mode"),
    ("Pong", {"kind": 2, "count": 2}, "$.count"),
    ("Pong", {"kind": 2, "count": True}, "$.count"),
    ("Pong", {"kind": 2, "count": "0.5"}, "$.count"),
    ("Pong", {"kind": 2, "items": []}, "$.items"),
    ("Pong", {"kind": 2, "items": ["a", "b", "c"]}, "$.items"),
    ("Pong", {"kind": 2, "label": "abcd"}, "$.label"),
    ("Pong", {"kind": 2, "other": 1}, "$.other"),
    ("Pong", {"kind": 2, "kinds": {"k": "nope"}}, "$.kinds.k"),
    ("PingPong", {"kind": 3}, "$.kind"),
    ("PingPong", {"kind": "1"}, "$.kind"),
    ("PingPong", {}, "$.kind"),
    ("PingPong", {"kind": 2, "count": -1}, "$.count"),
    ("Switch", {"switch": 1}, "$.switch"),
    ("Switch", {"switch": True, "sinceMs": 1.5}, "$.sinceMs"),
    ("Session", {"sessionKey": "a", "key": "b"}, "$.key"),
    ("Session", {"session_key": 1}, "$.session_key"),
    ("Session", {"note": None}, "$.note"),
    ("Strict", {"run_id": "r"}, "$.run_id"),
    ("Strict", {}, "$.runId"),
    ("Either", 5, "$"),
    ("Either", [], "$"),
]


def _import(path: Path, name: str) -> ModuleType:
    return import_file(path, name)


@pytest.fixture(scope="module")
def flavors(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, ModuleType]:
    project = tmp_path_factory.mktemp("edge")
    (project / "schema").mkdir()
    (project / "schema" / "edge.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', encoding="utf-8"
    )
    assert main(["--project", str(project), "generate"]) == 0
    base = project / "generated" / "python" / "edge"
    return (
        _import(base / "dataclass_models.py", "polytype_edge.dataclass_models"),
        _import(base / "pydantic_models.py", "polytype_edge.pydantic_models"),
    )


def _suffix(name: str) -> str:
    return {"PingPong": "ping_pong"}.get(name, name.lower())


def _pydantic(models: ModuleType, name: str, data: Any, json_mode: bool = False) -> Any:
    dump: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}
    model = getattr(models, name)
    if isinstance(model, type) and issubclass(model, BaseModel):
        value = (
            model.model_validate_json(json.dumps(data)) if json_mode else model.model_validate(data)
        )
        return value.model_dump(**dump)
    adapter = getattr(models, f"{name}Adapter")
    value = adapter.validate_json(json.dumps(data)) if json_mode else adapter.validate_python(data)
    return adapter.dump_python(value, **dump)


def _paths(error: ValidationError, data: Any) -> list[str]:
    """Error paths as the generated pydantic tests compute them (same walk)."""
    generated = sys.modules.get("polytype_edge.pydantic_tests_walk")
    if generated is None:
        text = (
            Path(__file__).resolve().parents[1] / "templates/python_pydantic/test_module.py.j2"
        ).read_text()
        start = text.index("def _segment(")
        end = text.index("{% if valid %}", start)
        generated = ModuleType("polytype_edge.pydantic_tests_walk")
        exec(
            "from __future__ import annotations\nimport json\nfrom typing import Any\nfrom pydantic import ValidationError\n"
            + text[start:end],
            generated.__dict__,
        )
        sys.modules[generated.__name__] = generated
    return list(generated.wire_paths(error, data))


@pytest.mark.parametrize(
    ("name", "data"), VALID, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VALID)]
)
def test_valid_round_trips_in_both_flavors(
    flavors: tuple[ModuleType, ModuleType], name: str, data: Any
) -> None:
    dataclasses, pydantic_models = flavors
    assert _pydantic(pydantic_models, name, data) == data
    assert _pydantic(pydantic_models, name, data, json_mode=True) == data
    suffix = _suffix(name)
    decoded = getattr(dataclasses, f"decode_{suffix}")(data)
    assert getattr(dataclasses, f"encode_{suffix}")(decoded) == data


@pytest.mark.parametrize(
    ("name", "data", "path"), INVALID, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(INVALID)]
)
def test_invalid_rejected_by_both_flavors_at_the_same_path(
    flavors: tuple[ModuleType, ModuleType], name: str, data: Any, path: str
) -> None:
    dataclasses, pydantic_models = flavors
    with pytest.raises(ValidationError) as validation_error:
        _pydantic(pydantic_models, name, data)
    assert path in _paths(validation_error.value, data), str(validation_error.value)
    with pytest.raises(dataclasses.DecodeError) as decode_error:
        getattr(dataclasses, f"decode_{_suffix(name)}")(data)
    assert decode_error.value.path == path


def test_hostile_text_is_inert(flavors: tuple[ModuleType, ModuleType]) -> None:
    _, models = flavors
    assert (models.Ping.__doc__ or "").replace("\n    ", "\n").strip("\n ") == HOSTILE
    assert models.Ping.model_fields["note"].description == HOSTILE
    assert [member.value for member in models.Kind] == ['a"b', "c\\d", 'tri"""ple', "plain"]
    assert HOSTILE in (models.__doc__ or "")


def test_building_in_code(flavors: tuple[ModuleType, ModuleType]) -> None:
    _, m = flavors
    dump: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}
    # tags are filled in and written; absent optional keys stay absent
    assert m.Ping().model_dump(**dump) == {"kind": 1}
    assert m.Pong(count=1).model_dump(**dump) == {"kind": 2, "count": 1}
    assert m.PingPongAdapter.dump_python(m.Pong(), **dump) == {"kind": 2}
    assert m.Off().model_dump(**dump) == {"switch": False}
    assert m.SwitchAdapter.dump_python(m.On(since_ms=1), **dump) == {"switch": True, "sinceMs": 1}
    # fields by Python name or by JSON key; defaults are fresh objects
    assert m.Session(session_key="s").model_dump(**dump) == {"sessionKey": "s"}
    assert m.Session(key="s").model_dump(**dump) == {"key": "s"}
    assert m.Pong().tags == ["t"] and m.Pong().tags is not m.Pong().tags
    assert m.Ping().mode == "off"
    # an explicit None for a key that may be absent but not null is refused
    with pytest.raises(ValidationError):
        m.Session(note=None)
    # frozen records
    with pytest.raises(ValidationError):
        m.On().since_ms = 2
    # the spelling read is written back, also after a copy
    read = m.Session.model_validate({"session_key": "s"})
    assert read.model_copy().model_dump(**dump) == {"session_key": "s"}
    assert read.model_dump(mode="json", exclude_unset=True) == {"session_key": "s"}


def test_model_json_schema_states_the_wire(flavors: tuple[ModuleType, ModuleType]) -> None:
    import jsonschema

    _, m = flavors
    ping = jsonschema.Draft202012Validator(m.Ping.model_json_schema(by_alias=True))
    assert ping.is_valid({"kind": 1}) and not ping.is_valid({}), "a tag is required on the wire"
    session = jsonschema.Draft202012Validator(m.Session.model_json_schema(by_alias=True))
    assert session.is_valid({"key": "k"}) and not session.is_valid({"key": "k", "sessionKey": "s"})
    assert not session.is_valid({"note": None})
    switch = jsonschema.Draft202012Validator(m.SwitchAdapter.json_schema(by_alias=True))
    assert switch.is_valid({"switch": False}) and not switch.is_valid({"switch": 0})


def _render(schema: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    document = load(path, "schema/bad.json")
    validate(document)
    python_pydantic.render(lower(document), make_env())


def test_names_pydantic_cannot_take_are_renamed(tmp_path: Path) -> None:
    """Lowering renames fields that would shadow BaseModel or be private, and types the
    module's own names would shadow; the wire keys stay as they are."""
    schema = {
        "x-polytype": {"module": "names"},
        "$defs": {
            "Field": {
                "type": "object",
                "properties": {
                    "model_dump": {"type": "string"},
                    "schema": {"type": "string"},
                    "_id": {"type": "string"},
                    "Tag": {"$ref": "#/$defs/Tag"},
                },
            },
            "Tag": {"type": "string", "enum": ["x"]},
        },
    }
    project = tmp_path / "names"
    (project / "schema").mkdir(parents=True)
    (project / "schema" / "names.json").write_text(json.dumps(schema), encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', "utf-8"
    )
    assert main(["--project", str(project), "generate"]) == 0
    models = _import(
        project / "generated/python/names/pydantic_models.py", "polytype_names.pydantic"
    )
    data = {"model_dump": "a", "schema": "b", "_id": "c", "Tag": "x"}
    value = models.Field_.model_validate(data)
    assert (value.model_dump_, value.schema_, value.id_) == ("a", "b", "c")
    assert value.model_dump(mode="json", by_alias=True, exclude_unset=True) == data
    assert models.Tag_Adapter.validate_python("x") == "x"


def test_adapter_names_that_collide_are_diagnosed(tmp_path: Path) -> None:
    schema = {
        "$defs": {
            "Color": {"type": "string", "enum": ["red"]},
            "ColorAdapter": {"type": "object", "properties": {"a": {"type": "string"}}},
        }
    }
    with pytest.raises(InputError) as raised:
        _render(schema, tmp_path)
    assert "ColorAdapter (its TypeAdapter) collides with a type of that name" in str(raised.value)


def test_models_built_in_code_type_check_by_field_name(tmp_path: Path) -> None:
    """Pydantic's mypy plugin sees constructors that take field names and optional tags.

    JSON data is read by JSON key only (`validate_by_name` is off at run time), but the
    plugin reads the configuration literal, where it is on: code builds models by name.
    """

    repo = Path(__file__).resolve().parent.parent
    snippet = tmp_path / "snippet.py"
    snippet.write_text(
        "from ag_ui.pydantic_models import AssistantMessage, ToolCall, FunctionCall, ToolMessage\n"
        'call = ToolCall(id="c", function=FunctionCall(name="f", arguments="{}"))\n'
        'message = AssistantMessage(id="a", tool_calls=[call])\n'
        'result = ToolMessage(id="t", content="ok", tool_call_id="c")\n'
        'missing = ToolMessage(id="t", content="ok")  # no tool_call_id\n',
        encoding="utf-8",
    )
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(snippet)],
        env={**os.environ, "MYPYPATH": str(repo / "generated" / "python")},
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in completed.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, completed.stdout
    assert "snippet.py:5:" in errors[0] and '"tool_call_id"' in errors[0], completed.stdout
    runtime = python_models_module(repo)
    built = runtime.ToolMessage(id="t", content="ok", tool_call_id="c")
    assert built.model_dump(mode="json", by_alias=True, exclude_unset=True) == {
        "id": "t",
        "role": "tool",
        "content": "ok",
        "toolCallId": "c",
    }


def python_models_module(repo: Path) -> ModuleType:
    path = repo / "generated" / "python" / "ag_ui" / "pydantic_models.py"
    return import_file(path, "polytype_ag_ui_models_for_typing")


def test_every_attribute_a_model_reaches_is_a_reserved_field_name() -> None:
    """Pydantic warns at import (and a catalogue module failed `-W error`) when a field
    shadows anything `BaseModel` reaches, its metaclass's `register` and `mro` included:
    every such public name must be one a derived field name avoids."""
    import pydantic
    from polytype import naming

    reached = {
        name
        for name in (*dir(pydantic.BaseModel), *dir(type(pydantic.BaseModel)))
        if not name.startswith("_") and hasattr(pydantic.BaseModel, name)
    }
    assert reached - naming.PYTHON_CLASS_BODY_NAMES == set()
    assert naming.python_field_name("register") == "register_"


def test_a_checked_model_under_a_pattern_has_an_adapter_without_config(tmp_path: Path) -> None:
    """The value of a `patternProperties` key that is a model with schema checks beside it
    (`Annotated[Model, _checks(...)]`) brings its own config: Pydantic refuses one on its
    TypeAdapter (`PydanticUserError` at import, an openHAB catalogue schema)."""
    schema = {
        "title": "Rules",
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {
            "^x-": {
                "type": "object",
                "properties": {"kind": {"type": "string"}, "n": {"type": "integer"}},
                "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                "then": {"required": ["n"]},
            }
        },
    }
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "rules.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\nstrict = false\ntargets = ["pydantic"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    script = (
        "import rules.pydantic_models as m\n"
        "assert m.Rules.model_validate({'x-1': {'kind': 'b'}}).model_dump("
        "mode='json', by_alias=True, exclude_unset=True) == {'x-1': {'kind': 'b'}}\n"
        "try:\n    m.Rules.model_validate({'x-1': {'kind': 'a'}})\n"
        "except ValueError:\n    pass\nelse:\n    raise AssertionError('accepted')\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", script],
        cwd=tmp_path / "generated" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_keys_named_like_plugin_and_module_names_type_check_and_lint(tmp_path: Path) -> None:
    """A property `kwargs` of a model that allows extra keys met the `**kwargs` Pydantic's
    mypy plugin gives its `__init__` ("already defined", a cloudify catalogue schema), and
    a TypedDict key `json` kept the unused `import json` (ruff F401, apollo-router): the
    field is renamed, and a key binds no name."""
    schema = {
        "title": "Logging",
        "type": "object",
        "properties": {
            "kwargs": {"type": "object"},
            "format": {
                "type": "object",
                "properties": {"json": {"type": "string"}, "re": {"type": "boolean"}},
            },
        },
    }
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "settings.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses", "typeddicts", "pydantic"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    package = tmp_path / "generated" / "python" / "settings"
    assert "kwargs_: " in (package / "pydantic_models.py").read_text(encoding="utf-8")
    assert "import json\n" not in (package / "typed_dicts.py").read_text(encoding="utf-8")
    repo = Path(__file__).resolve().parent.parent
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(repo / "pyproject.toml"),
         "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "settings"],
        cwd=package.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout
    linted = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "F", "."],
        cwd=package, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert linted.returncode == 0, linted.stdout
