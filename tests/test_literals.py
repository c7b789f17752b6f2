"""`const` and `enum` of any JSON value, and `type: null` alone (issues 18 and 19): every
flavor's verdict equals jsonschema's (JSON equality: `1` equals `1.0`, `true` does not equal
`1`, objects compare without key order), every accepted value encodes back exactly, and a
rejection names the path and the allowed values.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.cli import main
from polytype.ir import literals
from polytype.ir.json_types import freeze_json
from polytype.targets.elixir.terms import ex_json_literal
from pydantic import ValidationError

from .conftest import import_file

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Holder",
    "type": "object",
    "properties": {
        "mixed": {"enum": [6, "foo", [], True, {"foo": 12}, None]},
        "numbers": {"enum": [1, 2, 3]},
        "nothing": {"const": None},
        "null_type": {"type": "null"},
        "fraction": {"const": -2.5},
        "whole": {"const": 2.0},
        "object": {"const": {"a": 1, "b": [True, {"c": None}]}},
        "array": {"const": [False, 0]},
        "scalars": {"enum": ["x", 1, False, None]},
        "listed": {"type": "array", "items": {"enum": [0.5, "half"]}},
        # a scalar const stays a literal (what tags are made of); untagged, it takes 1.0 too
        "one": {"const": 1},
        "yes": {"enum": [True]},
    },
    "additionalProperties": False,
    "$defs": {
        "Empty": {"enum": []},
        "Level": {"enum": [1, 2, 3]},
        "Null": {"description": "Nothing.", "type": "null"},
        # a member of nothing but null, named by its place (jsonapi's `data`)
        "Data": {
            "oneOf": [
                {"type": "array", "items": {"type": "string"}},
                {"type": "array", "items": {"type": "integer"}},
                {"description": "none", "type": "null"},
            ]
        },
    },
}

VALUES: list[Any] = [
    6, 6.0, "foo", [], True, False, 1, 1.0, 0, 0.0, 2, 2.0, -2.5, 3, 4, None, "x", "half",
    {"foo": 12}, {"foo": 12.0}, {"foo": 12, "bar": 1}, {},
    {"b": [True, {"c": None}], "a": 1}, {"a": 1.0, "b": [True, {"c": None}]},
    {"a": True, "b": [True, {"c": None}]}, [False, 0], [False, 0.0], [0, False], [False, False],
]  # fmt: skip

CASES: list[tuple[str, Any]] = [
    *((key, {key: value}) for key in SCHEMA["properties"] if key != "listed" for value in VALUES),
    ("listed", {"listed": [0.5, "half", 0.5]}),
    ("listed", {"listed": [0.5, 1]}),
    *(("Empty", value) for value in (None, 0, "", [], {})),
    *(("Level", value) for value in (1, 2.0, True, "1", 4)),
    *(("Null", value) for value in (None, 0, False, "")),
    *(("Data", value) for value in (None, [], ["a"], [1], 0, ["a", 1])),
]


def _valid(type_name: str, data: Any) -> bool:
    schema = SCHEMA if type_name in SCHEMA["properties"] else SCHEMA["$defs"][type_name]
    return jsonschema.Draft202012Validator(schema).is_valid(data)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("literals")
    (root / "schema").mkdir()
    (root / "schema" / "literals.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.polytype]\nschema-dir = "schema"\n', "utf-8")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _load(project: Path, flavor: str) -> ModuleType:
    path = project / "generated" / "python" / "literals" / f"{flavor}.py"
    return import_file(path, f"polytype_literals.{flavor}")


def _function(type_name: str, prefix: str) -> str:
    return f"{prefix}_{'holder' if type_name in SCHEMA['properties'] else type_name.lower()}"


@pytest.mark.parametrize(("type_name", "data"), CASES)
def test_python_flavors_agree_with_jsonschema(project: Path, type_name: str, data: Any) -> None:
    valid = _valid(type_name, data)
    dataclasses = _load(project, "dataclass_models")
    try:
        decoded = getattr(dataclasses, _function(type_name, "decode"))(data)
    except dataclasses.DecodeError:
        assert not valid, data
    else:
        assert valid, data
        encoded = getattr(dataclasses, _function(type_name, "encode"))(decoded)
        assert json.dumps(encoded) == json.dumps(data)  # exactly: 1.0 stays 1.0
    typed_dicts = _load(project, "typed_dicts")
    try:
        getattr(typed_dicts, _function(type_name, "validate"))(data)
    except ValueError:
        assert not valid, data
    else:
        assert valid, data
    pydantic = _load(project, "pydantic_models")
    try:
        if type_name in SCHEMA["properties"]:
            model = pydantic.Holder.model_validate(data)
            dumped = model.model_dump_json(exclude_unset=True, by_alias=True)
        else:
            adapter = getattr(pydantic, f"{type_name}Adapter")
            dumped = adapter.dump_json(adapter.validate_python(data)).decode()
    except ValidationError:
        assert not valid, data
    else:
        assert valid, data
        assert json.loads(dumped) == data and dumped == json.dumps(data, separators=(",", ":"))


def test_the_error_names_the_path_and_the_allowed_values(project: Path) -> None:
    dataclasses = _load(project, "dataclass_models")
    with pytest.raises(dataclasses.DecodeError) as caught:
        dataclasses.decode_holder({"numbers": True})
    assert str(caught.value) == "$.numbers: expected one of 1, 2, 3, got True"
    typed_dicts = _load(project, "typed_dicts")
    with pytest.raises(ValueError) as invalid:
        typed_dicts.validate_holder({"listed": [0.5, {"x": 1}]})
    assert str(invalid.value) == '$.listed[1]: expected one of 0.5, "half", got object'
    with pytest.raises(dataclasses.DecodeError) as empty:
        dataclasses.decode_empty(None)
    assert str(empty.value) == "$: expected nothing (the enum is empty), got None"
    pydantic = _load(project, "pydantic_models")
    with pytest.raises(ValidationError) as rejected:
        pydantic.Holder.model_validate({"whole": 3})
    assert "expected 2.0, got 3" in str(rejected.value)


def test_long_lists_are_shortened() -> None:
    node = literals.enum_type(tuple(f"value number {index}" for index in range(40)))
    text = literals.expected(node)
    assert text.startswith('one of "value number 0", ') and text.endswith(" more)")
    assert len(text) < 120


def test_python_types_narrow_where_honest(project: Path) -> None:
    """The annotations themselves (`Literal[...]` where honest, `JSONValue` where not) are
    pinned by tests/endtoend/literals; here mypy --strict accepts them."""
    code = subprocess.run(
        ["mypy", "--strict", str(project / "generated" / "python" / "literals")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert code.returncode == 0, code.stdout


def test_empty_enum_is_a_located_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "literals.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses"]\n', "utf-8"
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "/Empty/" in line]
    assert len(warnings) == 1 and "/$defs/Empty/enum: an empty enum accepts nothing" in warnings[0]


def test_strict_projects_take_literals_and_refuse_an_empty_enum(tmp_path: Path) -> None:
    (tmp_path / "schema").mkdir()
    strict = {**SCHEMA, "$defs": {"Level": SCHEMA["$defs"]["Level"]}}
    (tmp_path / "schema" / "literals.json").write_text(json.dumps(strict), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\ntargets = ["dataclasses"]\n',
        "utf-8",
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    (tmp_path / "schema" / "literals.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    assert main(["--project", str(tmp_path), "generate"]) == 2


needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")


@needs_elixir
def test_elixir_agrees_with_jsonschema(project: Path, tmp_path: Path) -> None:
    lib = project / "generated" / "elixir" / "lib"
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
    lines = [
        f"IO.puts(Probe.run(Literals.{'Holder' if name in SCHEMA['properties'] else name}, "
        f"{ex_json_literal(_frozen(data))}))"
        for name, data in CASES
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
    assert len(output) == len(CASES)
    for (name, data), line in zip(CASES, output, strict=True):
        if _valid(name, data):
            assert line == "ok true", (name, data, line)  # `===`: 1.0 stays 1.0
        else:
            assert line.startswith("error "), (name, data, line)
    rejected = output[next(i for i, (n, d) in enumerate(CASES) if n == "Level" and d is True)]
    assert base64.b64decode(rejected.split(" ")[1]).decode() == (
        "$: expected one of 1, 2, 3, got true"
    )


def _frozen(value: Any) -> ir.JSONData:
    return freeze_json(value)


def test_drift_judges_as_the_decoders(project: Path) -> None:
    """`polytype drift` notes a difference exactly where the decoders reject."""
    from polytype.compile import read_schema
    from polytype.workflow.observe import Observer

    path = project / "schema" / "literals.json"
    module = read_schema(path, path.name, strict=False).module
    for type_name, data in CASES:
        observer = Observer(module)
        name = "Holder" if type_name in SCHEMA["properties"] else type_name
        observer.observe(data, name, "recording")
        assert (observer.seen.differences == 0) == _valid(type_name, data), (type_name, data)


def test_diff_knows_fewer_values_narrow() -> None:
    from polytype.workflow.variance import compare

    wide = ir.JsonLiterals((1, 2, None))
    assert compare(wide, ir.JsonLiterals((2.0, 1)), {}, {}).verdict == "narrowed"
    assert compare(ir.LiteralValue(1), wide, {}, {}).verdict == "widened"
    assert compare(wide, ir.JsonLiterals((None, 1.0, 2)), {}, {}).verdict == "same"
    assert compare(wide, ir.JsonLiterals((True,)), {}, {}).verdict == "changed"
    assert compare(ir.AnyJSON(), wide, {}, {}).verdict == "narrowed"


def test_pydantic_json_schema_states_the_values(project: Path) -> None:
    pydantic = _load(project, "pydantic_models")
    assert pydantic.LevelAdapter.json_schema()["enum"] == [1, 2, 3]
    schema = pydantic.Holder.model_json_schema(by_alias=True)
    assert schema["properties"]["object"]["enum"] == [{"a": 1, "b": [True, {"c": None}]}]
    assert schema["properties"]["one"]["const"] == 1
