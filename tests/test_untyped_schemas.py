"""A schema without `type` whose keywords belong to one JSON type (issue 31).

`{properties: {...}}` constrains only objects and `{items: ...}` only arrays: JSON Schema
validates every value of another JSON type against them, so a string there is valid.
In a consumed schema such a schema is typed as exactly what it accepts (the object or
array, or any other JSON value, kept as it is), with one summary warning; a project's own
schema (strict) is refused there with a located error asking for the `type`.
jsonschema is the oracle for every value below.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype.compile import read_schema
from polytype.diagnostics import InputError

from .conftest import import_file
from .test_formats import _mix_test
from .workflow_support import run, schema_project

# The root, a definition and an inline property without `type`; a typed property beside.
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Plugin",
    "properties": {
        "permission": {"$ref": "#/definitions/permission"},
        "children": {"properties": {"depth": {"type": "integer"}}},
        "tags": {"items": {"type": "string"}},
        "name": {"type": "string"},
        # every other value matches both members: rejected
        "one": {
            "oneOf": [
                {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
            ]
        },
        # every other value matches a member: accepted
        "any": {"anyOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]}]},
    },
    "definitions": {
        "permission": {
            "properties": {"description": {"type": "string"}},
            "required": ["description"],
        }
    },
}

# Values of another JSON type where an untyped schema stands: every validator accepts them.
VALID = [
    "a string root",
    7,
    [1, {"x": None}],
    None,
    {"permission": True, "children": "all", "tags": {"any": "object"}},
    {"permission": 1.5, "children": [1, 2], "tags": "x", "name": "n"},
    {"permission": None, "children": None, "tags": 3},
    {"permission": {"description": "d"}, "children": {"depth": 2}, "tags": ["a"]},
    {"one": {"a": 1}, "any": {"a": 2}},
    {"one": {"b": 1}, "any": "x"},
    {"any": [None]},
]
# Values of the implied type that break it: still rejected.
INVALID = {
    "permission-key": ({"permission": {}}, "$.permission.description"),
    "permission-type": ({"permission": {"description": 1}}, "$.permission.description"),
    "children": ({"children": {"depth": "deep"}}, "$.children.depth"),
    "tags": ({"tags": ["a", 2]}, "$.tags[1]"),
    "name": ({"name": 2}, "$.name"),
    "one-string": ({"one": "x"}, "$.one"),
    "one-both": ({"one": {"a": 1, "b": 2}}, "$.one"),
    "any-key": ({"any": {"b": 1}}, "$.any.a"),
}


def test_the_cases_are_what_jsonschema_says() -> None:
    validator = jsonschema.Draft7Validator(SCHEMA)
    assert all(validator.is_valid(value) for value in VALID)
    assert not any(validator.is_valid(value) for value, _ in INVALID.values())


@pytest.fixture(scope="module")
def consumed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = schema_project(
        tmp_path_factory.mktemp("untyped"), "plugin.json", SCHEMA, "strict = false\n"
    )
    folder = root / "tests" / "fixtures" / "plugin" / "Plugin"
    (folder / "invalid").mkdir(parents=True)
    for index, value in enumerate(VALID):
        (folder / f"v{index}.json").write_text(json.dumps(value), encoding="utf-8")
    for case, (value, path) in INVALID.items():
        (folder / "invalid" / f"{case}.json").write_text(json.dumps(value), encoding="utf-8")
        (folder / "invalid" / f"{case}.path").write_text(path + "\n", encoding="utf-8")
    assert run(root, "generate") == 0
    return root


def _flavors(root: Path) -> list[tuple[str, Any, type[Exception]]]:
    base = root / "generated" / "python" / "plugin"
    models = import_file(base / "dataclass_models.py", "polytype_untyped.dataclasses")
    typed = import_file(base / "typed_dicts.py", "polytype_untyped.typeddicts")
    pydantic = import_file(base / "pydantic_models.py", "polytype_untyped.pydantic")

    def dataclasses(data: Any) -> Any:
        return models.encode_plugin(models.decode_plugin(data))

    def typeddicts(data: Any) -> Any:
        return typed.validate_plugin(data)

    def pydantic_models(data: Any) -> Any:
        value = pydantic.PluginAdapter.validate_python(data)
        return pydantic.PluginAdapter.dump_python(
            value, mode="json", by_alias=True, exclude_unset=True
        )

    return [
        ("dataclasses", dataclasses, models.DecodeError),
        ("typeddicts", typeddicts, ValueError),
        ("pydantic", pydantic_models, ValueError),
    ]


def test_other_json_types_round_trip_in_every_python_flavor(consumed: Path) -> None:
    for flavor, round_trip, _ in _flavors(consumed):
        for value in VALID:
            assert round_trip(copy.deepcopy(value)) == value, (flavor, value)


def test_values_of_the_implied_type_are_still_checked(consumed: Path) -> None:
    for flavor, round_trip, error in _flavors(consumed):
        for case, (value, _) in INVALID.items():
            with pytest.raises(error):
                round_trip(copy.deepcopy(value))
                pytest.fail(f"{flavor} accepted {case}")


def test_the_types_say_what_is_accepted(consumed: Path) -> None:
    text = (consumed / "generated" / "python" / "plugin" / "dataclass_models.py").read_text()
    assert "class PermissionObject(_Record):" in text and "class PluginObject(_Record):" in text
    assert (
        "Permission: TypeAlias = PermissionObject | list[JSONValue] | str | float | bool | None"
        in text
    )
    assert "tags: list[str] | dict[str, JSONValue] | str | float | bool | None = None" in text
    assert "PluginOne: TypeAlias = PluginOneA | PluginOneB" in text


@pytest.mark.skipif(shutil.which("mix") is None, reason="needs Elixir")
def test_elixir_round_trips_and_rejects_the_same(consumed: Path) -> None:
    _mix_test(consumed)


def test_one_summary_warning_names_the_places(consumed: Path) -> None:
    read = read_schema(consumed / "schema" / "plugin.json", "schema/plugin.json", strict=False)
    [warning] = [w for w in read.warnings if "without `type`" in w.message]
    assert warning.message.startswith("4 schemas without `type` constrain only objects")
    assert warning.message.endswith(
        "them: the root, /definitions/permission, /properties/children and 1 more"
    )


def test_an_owned_schema_is_refused_where_the_type_is_missing(tmp_path: Path) -> None:
    root = schema_project(tmp_path, "plugin.json", SCHEMA, "strict = true\n")
    with pytest.raises(InputError) as raised:
        read_schema(root / "schema" / "plugin.json", "schema/plugin.json", strict=True)
    found = {(d.pointer, d.message.split(";")[-1].strip()) for d in raised.value.diagnostics}
    assert ("/definitions/permission", "add `type: object` (or list the other types it takes)") in (
        found
    )
    assert ("/properties/tags", "add `type: array` (or list the other types it takes)") in found
    assert run(root, "generate") == 2
