"""Object keywords beside a record's properties (issues 18 and 19): `patternProperties`, an
`additionalProperties` schema, `propertyNames`, `dependentRequired` and min/maxProperties
are checked by every flavor on the JSON object as it arrives, with verdicts equal to
jsonschema's, and every accepted value (unknown keys included) re-encodes exactly.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.cli import main
from polytype.compile import read_schema
from polytype.diagnostics import InputError
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.elixir.terms import ex_json_literal
from polytype.workflow.observe import Observer
from pydantic import ValidationError

from .conftest import import_file

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Rules",
    "$defs": {
        # openapi's `paths`: declared keys, `^x-` extensions, and path items under `^/`
        "Paths": {
            "type": "object",
            "properties": {"info": {"type": "string"}},
            "patternProperties": {
                "^x-": {"$ref": "#/$defs/vendorExtension"},
                "^/": {"$ref": "#/$defs/Item"},
            },
            "additionalProperties": False,
        },
        # renamed (VendorExtension) after lowering: the rules follow
        "vendorExtension": {"description": "Any JSON."},
        "Item": {
            "type": "object",
            "properties": {"summary": {"type": "string"}},
            "required": ["summary"],
        },
        # every kind of rule at once
        "Thing": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "a": {"type": "integer"},
                "b": {"type": "integer"},
            },
            "patternProperties": {
                "^x-": {"type": "integer"},
                "^n": {"type": "string", "minLength": 2},
            },
            "additionalProperties": {"type": "boolean"},
            "propertyNames": {"maxLength": 5},
            "dependentRequired": {"a": ["b"]},
            "minProperties": 1,
            "maxProperties": 4,
        },
        # maps and free-form objects: propertyNames and dependentRequired
        "Labels": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "propertyNames": {"pattern": "^[a-z]+$"},
            "maxProperties": 2,
        },
        "Loose": {
            "type": "object",
            "propertyNames": {"minLength": 2},
            "dependentRequired": {"bar": ["foo"]},
        },
        # patternProperties without properties: maps
        "Extensions": {
            "type": "object",
            "patternProperties": {"^x-": {"$ref": "#/$defs/Item"}},
            "additionalProperties": False,
        },
        "Mixed": {
            "type": "object",
            "patternProperties": {"^i": {"type": "integer"}, "^s": {"type": "string"}},
            "additionalProperties": {"type": "boolean"},
            "minProperties": 1,
        },
        "Keys": {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "propertyNames": {"enum": ["id", "kind", "size"]},
            "additionalProperties": {"type": "integer"},
        },
    },
}

VALUES: dict[str, list[Any]] = {
    "Paths": [
        {},
        {"info": "i"},
        {"info": "i", "/pets": {"summary": "s"}, "x-foo": [1, {"a": None}]},
        {"/pets": {"summary": "s", "kept": True}, "info": "i"},
        {"/pets": {}},
        {"/pets": {"summary": 1}},
        {"other": 1},
        {"info": 1},
        [],
    ],
    "Thing": [
        {"name": "xy"},
        {"name": "x"},
        {},
        {"x-a": 1},
        {"x-a": "s"},
        {"nm": "ab"},
        {"nm": "a"},
        {"zz": True},
        {"zz": 1},
        {"toolongkey": True},
        {"a": 1},
        {"a": 1, "b": 2},
        {"b": 2},
        {"a": 1, "b": 2, "name": "qq", "zz": True},
        {"a": 1, "b": 2, "name": "qq", "zz": True, "x-y": 2},
    ],
    "Labels": [
        {},
        {"a": "x"},
        {"a": "x", "b": "y"},
        {"a": "x", "b": "y", "c": "z"},
        {"A": "x"},
        {"a": 1},
    ],
    "Loose": [
        {},
        {"foo": 1, "bar": [2]},
        {"bar": 2},
        {"x": 1},
        {"xy": None, "foo": {"a": [1]}},
        "not an object",
    ],
    "Extensions": [{}, {"x-a": {"summary": "s", "k": 1}}, {"x-a": {}}, {"y": {"summary": "s"}}],
    "Mixed": [{}, {"i1": 1, "s1": "a", "b": True}, {"i1": "a"}, {"s": 1}, {"b": 1}, {"is": 1}],
    "Keys": [
        {"id": "a", "kind": 1},
        {"kind": 1, "size": 2},
        {"kind": "x"},
        {"colour": 1},
        {},
    ],
}

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}


def _valid(type_name: str, value: Any) -> bool:
    root = {"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{type_name}"}
    return bool(jsonschema.Draft202012Validator(root).is_valid(value))


def _cases() -> Iterator[tuple[str, Any, bool]]:
    for type_name, values in VALUES.items():
        for value in values:
            yield type_name, value, _valid(type_name, value)


def _project(root: Path, settings: str = "") -> Path:
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "rules.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\n' + settings, encoding="utf-8"
    )
    return root


def _read(tmp_path: Path, strict: bool) -> Any:
    path = _project(tmp_path) / "schema" / "rules.json"
    return read_schema(path, "schema/rules.json", strict=strict)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("object_rules"), "strict = true\n")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _flavor(root: Path, flavor: str) -> ModuleType:
    path = root / "generated" / "python" / "rules" / f"{flavor}.py"
    return import_file(path, f"object_rules_{flavor}_{abs(hash(root))}")


def test_the_ir_states_the_rules(tmp_path: Path) -> None:
    module = _read(tmp_path, strict=False).module
    paths = module.get("Paths")
    assert isinstance(paths, ir.Record)
    assert paths.extra_policy == "keep"  # the patterns' keys are kept, the rest refused
    assert paths.rules.closed
    assert [pattern for pattern, _ in paths.rules.pattern_properties] == ["^x-", "^/"]
    assert paths.rules.pattern_properties[1][1] == ir.Ref("Item")
    thing = module.get("Thing")
    assert isinstance(thing, ir.Record)
    assert thing.rules.dependent_required == (("a", ("b",)),)
    assert (thing.rules.min_properties, thing.rules.max_properties) == (1, 4)
    assert thing.rules.additional == ir.Prim("bool")


def test_consumed_schemas_no_longer_warn(tmp_path: Path) -> None:
    read = _read(tmp_path, strict=False)
    assert not [w for w in read.warnings if "not enforced" in w.message], read.warnings


@pytest.mark.parametrize("flavor", ["dataclass_models", "typed_dicts", "pydantic_models"])
def test_python_flavors_agree_with_jsonschema(generated: Path, flavor: str) -> None:
    models = _flavor(generated, flavor)
    for type_name, value, valid in _cases():
        suffix = function_suffix(type_name)
        try:
            if flavor == "dataclass_models":
                decoded = getattr(models, "decode_" + suffix)(value)
                encoded = getattr(models, "encode_" + suffix)(decoded)
            elif flavor == "typed_dicts":
                encoded = getattr(models, "validate_" + suffix)(value)
            elif hasattr(models, type_name + "Adapter"):
                adapter = getattr(models, type_name + "Adapter")
                encoded = adapter.dump_python(adapter.validate_python(value), **_DUMP)
                text = adapter.validate_json(json.dumps(value))
                assert adapter.dump_python(text, **_DUMP) == encoded
            else:
                model = getattr(models, type_name)
                encoded = model.model_validate(value).model_dump(**_DUMP)
                from_text = model.model_validate_json(json.dumps(value)).model_dump(**_DUMP)
                assert from_text == encoded
        except (ValueError, ValidationError):
            assert not valid, (flavor, type_name, value)
            continue
        assert valid, (flavor, type_name, value)
        assert (
            encoded == value and list(encoded) == list(value) or sorted(encoded) == sorted(value)
        ), (flavor, type_name, value, encoded)
        assert encoded == value


def test_errors_name_the_path_and_the_keyword(generated: Path) -> None:
    models = _flavor(generated, "dataclass_models")
    expected = {
        ("Thing", json.dumps({"a": 1})): "$: key 'a' requires key 'b' (dependentRequired)",
        ("Thing", json.dumps({})): "$: must have at least 1 propert(ies) (minProperties)",
        ("Thing", json.dumps({"x-a": "s"})): '$["x-a"]: expected integer, got string',
        ("Thing", json.dumps({"toolongkey": True})): (
            "$: key 'toolongkey' breaks propertyNames: must have at most 5 character(s)"
        ),
        ("Paths", json.dumps({"/pets": {}})): '$["/pets"].summary: missing required key',
        ("Paths", json.dumps({"other": 1})): (
            "$.other: unknown key (it matches no patternProperties and the schema forbids "
            "additional properties)"
        ),
    }
    typed = _flavor(generated, "typed_dicts")
    for (type_name, text), message in expected.items():
        with pytest.raises(ValueError) as caught:
            getattr(models, type_name).from_json(text)
        assert str(caught.value) == message
        with pytest.raises(ValueError) as caught:
            getattr(typed, "validate_" + function_suffix(type_name))(json.loads(text))
        assert str(caught.value) == message


def test_drift_judges_as_the_decoders_do(tmp_path: Path) -> None:
    module = _read(tmp_path, strict=False).module
    for type_name, value, valid in _cases():
        observer = Observer(module)
        observer.observe(value, type_name, "sample.jsonl:1")
        seen = observer.seen
        rejected = seen.missing or seen.mismatches or seen.constraints or seen.enum_values
        assert (not rejected) == valid, (type_name, value, seen.mismatches, seen.constraints)


def test_strict_mode_accepts_the_keywords(tmp_path: Path) -> None:
    try:
        _read(tmp_path, strict=True)
    except InputError as error:  # pragma: no cover - the failure message
        pytest.fail(str(error))


def test_docs_state_the_rules(generated: Path) -> None:
    text = (generated / "generated" / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "patternProperties" in text and "dependentRequired" in text


needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")


@needs_elixir
def test_elixir_agrees_with_jsonschema(tmp_path: Path) -> None:
    root = _project(tmp_path / "project", 'strict = true\ntargets = ["elixir"]\n')
    assert main(["--project", str(root), "generate"]) == 0
    lib = root / "generated" / "elixir" / "lib"
    ebin = tmp_path / "ebin"
    ebin.mkdir()
    sources = sorted(str(path) for path in lib.rglob("*.ex"))
    compiled = subprocess.run(
        ["elixirc", "--warnings-as-errors", "-o", str(ebin), *sources],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    cases = list(_cases())
    lines = [
        f"IO.puts(Probe.run(Rules.{type_name}, {ex_json_literal(_freeze(value))}))"
        for type_name, value, _ in cases
    ]
    script = (
        "defmodule Probe do\n"
        "  def run(module, data) do\n"
        "    case module.from_json(data) do\n"
        '      {:ok, value} -> "ok " <> to_string(module.to_json(value) === data)\n'
        '      {:error, {path, reason}} -> "error " <> Base.encode64(path <> ": " <> reason)\n'
        "    end\n"
        "  end\n"
        "end\n" + "\n".join(lines) + "\n"
    )
    run = subprocess.run(
        ["elixir", "-pa", str(ebin), "-e", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    output = run.stdout.splitlines()
    assert len(output) == len(cases)
    for (type_name, value, valid), line in zip(cases, output, strict=True):
        if valid:
            assert line == "ok true", (type_name, value, line)
        else:
            assert line.startswith("error "), (type_name, value, line)
    index = cases.index(("Thing", {"a": 1}, False))
    reason = base64.b64decode(output[index].split(" ")[1]).decode("utf-8")
    assert reason == "$: key 'a' requires key 'b' (dependentRequired)"


def _freeze(value: Any) -> ir.JSONData:
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value  # type: ignore[no-any-return]


def test_a_dependent_schema_of_required_keys_is_checked(tmp_path: Path) -> None:
    """dependentSchemas (draft-07 `dependencies` of schemas): one that only requires keys is
    a dependentRequired entry; any other is a schema check (tests/test_schema_check_lowering.py)."""
    schema = {
        "title": "Dependent",
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "dependentSchemas": {
            "a": {"required": ["b"]},
            "b": {"properties": {"a": {"minimum": 3}}},
        },
    }
    (tmp_path / "schema").mkdir()
    path = tmp_path / "schema" / "dependent.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    read = read_schema(path, "schema/dependent.json", strict=False)
    record = read.module.get("Dependent")
    assert isinstance(record, ir.Record)
    assert record.rules.dependent_required == (("a", ("b",)),)
    assert read.warnings == ()
    assert [check.keywords for check in record.schema_checks] == [("dependentSchemas",)]
