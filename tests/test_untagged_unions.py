"""Unions whose members nothing tells apart decode as JSON Schema says, in every flavor.

A consumed schema's `oneOf`/`anyOf` may have members no tag or JSON type separates (a
JSON-RPC request and notification, two strings with different patterns, an integer
and a number, two objects of optional keys). Such a union tries each member after a
cheap pre-check (JSON type, required keys): `oneOf` accepts a value exactly one member
matches (two matches are an error naming both), `anyOf` takes the first that matches.
Generous mode says so in a located warning; strict mode still refuses.

jsonschema is the oracle: every flavor's verdict on hand-written values equals its
verdict, and every accepted value encodes back to exactly the JSON it came from.
The JSON-Schema-Test-Suite's oneOf and anyOf files run through the dataclass flavor.
"""

from __future__ import annotations

import base64
import copy
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
import yaml
from polytype import ir
from polytype.cli import main
from polytype.compile import read_schema
from polytype.diagnostics import InputError
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.elixir.terms import ex_json_literal
from polytype.workflow.observe import Observer
from pydantic import ValidationError

from .conftest import REPO, import_file

SCHEMA = """\
title: Untagged
type: object
properties:
  message: {$ref: "#/$defs/Message"}
$defs:
  Shape:
    oneOf:
      - {type: object, properties: {a: {type: string}}}
      - {type: object, properties: {a: {type: integer}}}
  Code:
    oneOf:
      - {type: string, pattern: "^a"}
      - {type: string, pattern: "b$"}
  Amount:
    oneOf:
      - {type: integer}
      - {type: number}
  Loose:
    anyOf:
      - {type: number}
      - {type: integer}
  Request:
    type: object
    properties:
      jsonrpc: {const: "2.0"}
      id: {type: [string, integer]}
      method: {type: string}
      params: {type: object}
    required: [jsonrpc, id, method]
  Notification:
    type: object
    properties:
      jsonrpc: {const: "2.0"}
      method: {type: string}
      params: {type: object}
    required: [jsonrpc, method]
  Message:
    oneOf: [{$ref: "#/$defs/Request"}, {$ref: "#/$defs/Notification"}]
  Either:
    anyOf:
      - {type: object, properties: {a: {type: string}}}
      - {type: object, properties: {a: {type: integer}}, required: [a]}
  Keyed:
    oneOf:
      - {type: object, properties: {bar: {type: integer}}, required: [bar]}
      - {type: object, properties: {foo: {type: string}}, required: [foo]}
  Nested:
    oneOf:
      - {$ref: "#/$defs/Code"}
      - {type: string, maxLength: 1}
  Batch:
    oneOf:
      - {type: array, items: {$ref: "#/$defs/Notification"}}
      - {type: array, items: {type: [string, integer]}}
"""

# type -> hand-written values, valid and invalid (jsonschema decides which)
VALUES: dict[str, list[Any]] = {
    "Shape": [{"a": "x"}, {"a": 1}, {}, {"b": 1}, {"a": None}, {"a": 1, "z": [1]}, 3, []],
    "Code": ["ab", "a", "b", "c", "", 1, None],
    "Amount": [1, 1.5, -0.25, "1", True, None],
    "Loose": [1, 1.5, "x", False],
    "Message": [
        {"jsonrpc": "2.0", "id": 1, "method": "m"},  # a request is a notification too
        {"jsonrpc": "2.0", "method": "m"},
        {"jsonrpc": "2.0", "method": "m", "params": {"x": [1, 2]}, "extra": True},
        {"jsonrpc": "2.0", "id": None, "method": "m"},
        {"jsonrpc": "1.0", "method": "m"},
        {"method": "m"},
        {"jsonrpc": "2.0", "method": 5},
        "m",
    ],
    "Either": [{"a": "x"}, {"a": 1}, {}, {"a": None}, {"a": 1.5}, {"q": "kept"}, 0],
    "Keyed": [{"bar": 1}, {"foo": "x"}, {"bar": 1, "foo": "x"}, {"bar": "x", "foo": "x"}, {}],
    "Nested": ["a", "b", "ab", "c", "xb", "", 1],
    # two list members: encoded by what the items are
    "Batch": [
        [],
        [{"jsonrpc": "2.0", "method": "m", "kept": 1}],
        [1, "a"],
        [1, {"jsonrpc": "2.0", "method": "m"}],
        {},
    ],
}

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}


def _project(root: Path, schema: str, settings: str = "") -> Path:
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "untagged.yaml").write_text(schema, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\n' + settings, encoding="utf-8"
    )
    return root


def _snake(name: str) -> str:
    return function_suffix(name)


def _valid(type_name: str, value: Any) -> bool:
    schema = yaml.safe_load(SCHEMA)
    root = {"$defs": schema["$defs"], "$ref": f"#/$defs/{type_name}"}
    return bool(jsonschema.Draft202012Validator(root).is_valid(value))


def _cases() -> Iterator[tuple[str, Any, bool]]:
    for type_name, values in VALUES.items():
        for value in values:
            yield type_name, value, _valid(type_name, value)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("untagged"), SCHEMA)
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _flavor(root: Path, flavor: str) -> ModuleType:
    path = root / "generated" / "python" / "untagged" / f"{flavor}.py"
    return import_file(path, f"untagged_{flavor}_{abs(hash(root))}")


# --- lowering and warnings ---------------------------------------------------------


def test_generous_mode_says_once_per_module_which_unions_try_each_member(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # trying each member loses no check, so the module gets one line, not one per union
    root = _project(tmp_path, SCHEMA, 'targets = ["docs"]\n')
    assert main(["--project", str(root), "generate"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning:" in line]
    [summary] = [line for line in warnings if "the decoder tries each member" in line]
    assert summary.startswith("schema/untagged.yaml:1:1: warning: /: 8 unions whose members ")
    assert "(oneOf: exactly one must match; anyOf: the first that matches)" in summary
    # the first three in the order they are written, each where it is written
    assert summary.endswith(
        "Shape (/$defs/Shape), Code (/$defs/Code), Amount (/$defs/Amount) and 5 more"
    ), summary
    assert not [line for line in warnings if "free-form" in line], warnings


def test_each_tried_union_is_said_in_the_generated_code(tmp_path: Path) -> None:
    root = _project(tmp_path, SCHEMA)
    assert main(["--project", str(root), "generate"]) == 0
    code = (root / "generated" / "python" / "untagged" / "dataclass_models.py").read_text()
    for name, rule in (("Message", "oneOf: exactly one member must match"), ("Either", "anyOf")):
        docstring = code.split(f"\n{name}: TypeAlias = ")[1].split('"""')[1]
        assert f"Decoding tries each member in turn ({rule}" in docstring


def test_strict_mode_still_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, SCHEMA, "strict = true\n")
    assert main(["--project", str(root), "generate"]) == 2
    err = capsys.readouterr().err
    assert "union Message cannot tell Notification from Request" in err
    assert "the decoder tries" not in err


def test_the_ir_says_how_each_union_matches(tmp_path: Path) -> None:
    path = _project(tmp_path, SCHEMA) / "schema" / "untagged.yaml"
    with pytest.raises(InputError, match="cannot tell"):
        read_schema(path, "schema/untagged.yaml", strict=True)
    read = read_schema(path, "schema/untagged.yaml", strict=False)
    module = read.module
    message = module.get("Message")
    assert isinstance(message, ir.UnionType) and message.match == "one_of"
    assert message.checks == (
        ir.MemberCheck("Request", ("object",), ("jsonrpc", "id", "method")),
        ir.MemberCheck("Notification", ("object",), ("jsonrpc", "method")),
    )
    loose = module.get("Loose")
    assert isinstance(loose, ir.UnionType) and loose.match == "any_of"
    nested = module.get("Nested")
    assert isinstance(nested, ir.UnionType) and nested.members[0] == "Code"
    # two required keys tell the members apart only when the others refuse unknown keys
    keyed = module.get("Keyed")
    assert isinstance(keyed, ir.UnionType) and keyed.tries_members and not keyed.cases


def test_drift_judges_as_the_decoders_do(tmp_path: Path) -> None:
    path = _project(tmp_path, SCHEMA) / "schema" / "untagged.yaml"
    module = read_schema(path, "schema/untagged.yaml", strict=False).module
    for type_name, value, valid in _cases():
        observer = Observer(module)
        observer.observe(value, type_name, "sample.jsonl:1")
        seen = observer.seen
        rejected = seen.missing or seen.mismatches or seen.constraints or seen.enum_values
        assert not rejected == valid, (type_name, value, seen.mismatches)
    observer = Observer(module)
    observer.observe({"jsonrpc": "2.0", "id": 1, "method": "m"}, "Message", "sample.jsonl:2")
    assert list(observer.seen.mismatches) == [
        ("Message", "exactly one Message member", "both Request and Notification")
    ]


def test_a_member_checked_less_than_its_schema_is_tried_last(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A oneOf member that matches more than its schema says (an unchecked `format`, a
    part typed as free-form JSON) cannot count towards "more than one": the exact members
    are tried first and the first match wins, so valid values are never refused."""
    schema = """\
$defs:
  Algorithm:
    oneOf:
      - {type: string, format: uri}
      - {type: string, enum: [ES256, RS256]}
      - {type: object, properties: {sub: {type: string, enum: [[]]}}}
"""
    root = _project(tmp_path, schema, 'targets = ["dataclasses"]\n')
    assert main(["--project", str(root), "generate"]) == 0
    err = capsys.readouterr().err
    assert "AlgorithmOption1, AlgorithmObject (checked less than the schema says) last" in err
    module = read_schema(root / "schema" / "untagged.yaml", "schema/untagged.yaml", False).module
    union = module.get("Algorithm")
    assert isinstance(union, ir.UnionType) and union.match == "any_of"
    assert [check.member for check in union.checks] == [
        "AlgorithmOption2",
        "AlgorithmOption1",
        "AlgorithmObject",
    ]
    models = _flavor(root, "dataclass_models")
    assert models.encode_algorithm(models.decode_algorithm("ES256")) == "ES256"
    assert type(models.decode_algorithm("ES256")).__name__ == "AlgorithmOption2"


# --- every flavor against jsonschema -----------------------------------------------


@pytest.mark.parametrize(("type_name", "value", "valid"), list(_cases()))
def test_python_flavors_agree_with_jsonschema(
    generated: Path, type_name: str, value: Any, valid: bool
) -> None:
    suffix = _snake(type_name)
    dataclasses = _flavor(generated, "dataclass_models")
    typeddicts = _flavor(generated, "typed_dicts")
    pydantic = _flavor(generated, "pydantic_models")
    verdicts: dict[str, bool] = {}
    try:
        decoded = getattr(dataclasses, f"decode_{suffix}")(copy.deepcopy(value))
        assert getattr(dataclasses, f"encode_{suffix}")(decoded) == value
        verdicts["dataclasses"] = True
    except dataclasses.DecodeError:
        verdicts["dataclasses"] = False
    try:
        checked = getattr(typeddicts, f"validate_{suffix}")(copy.deepcopy(value))
        assert checked == value
        verdicts["typeddicts"] = True
    except typeddicts.DecodeError:
        verdicts["typeddicts"] = False
    adapter = getattr(pydantic, f"{type_name}Adapter")
    try:
        model = adapter.validate_python(copy.deepcopy(value))
        assert adapter.dump_python(model, **_DUMP) == value
        model = adapter.validate_json(json.dumps(value))
        assert adapter.dump_python(model, **_DUMP) == value
        verdicts["pydantic"] = True
    except ValidationError:
        verdicts["pydantic"] = False
    assert verdicts == dict.fromkeys(verdicts, valid), (type_name, value)


def test_two_matches_name_both_members(generated: Path) -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "m"}
    dataclasses = _flavor(generated, "dataclass_models")
    with pytest.raises(dataclasses.DecodeError) as error:
        dataclasses.decode_message(request)
    assert str(error.value) == (
        "$: matches more than one member of Message (Request and Notification); "
        "oneOf: exactly one member must match"
    )
    pydantic = _flavor(generated, "pydantic_models")
    with pytest.raises(ValidationError) as invalid:
        pydantic.MessageAdapter.validate_python(request)
    assert "(Request and Notification)" in str(invalid.value)
    # anyOf takes the first member that matches
    assert type(dataclasses.decode_either({"a": 1})).__name__ == "EitherOption2"
    assert type(dataclasses.decode_either({})).__name__ == "EitherOption1"


def test_a_union_of_records_keeps_unknown_keys(generated: Path) -> None:
    dataclasses = _flavor(generated, "dataclass_models")
    notification = {"jsonrpc": "2.0", "method": "m", "later": {"x": [1, None]}}
    decoded = dataclasses.decode_message(notification)
    assert type(decoded).__name__ == "Notification"
    assert dataclasses.encode_message(decoded) == notification


needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")


@needs_elixir
def test_elixir_agrees_with_jsonschema(generated: Path, tmp_path: Path) -> None:
    lib = generated / "generated" / "elixir" / "lib"
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
        f"IO.puts(Probe.run(Untagged.{type_name}, {ex_json_literal(_freeze(value))}))"
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
    request = cases.index(("Message", {"jsonrpc": "2.0", "id": 1, "method": "m"}, False))
    reason = base64.b64decode(output[request].split(" ")[1]).decode("utf-8")
    assert reason == (
        "$: matches more than one member of Message (Request and Notification); "
        "oneOf: exactly one member must match"
    )


def _freeze(value: Any) -> ir.JSONData:
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value  # type: ignore[no-any-return]


# --- the JSON-Schema-Test-Suite -----------------------------------------------------

SUITE = REPO.parent / "shared" / "json-schema-test-suite" / "tests" / "draft2020-12"
# Groups whose cases turn on what polytype approximates, not on oneOf/anyOf: a bound
# without a type (`{minimum: 2}`), `false` members, a member of nothing but `null`.
_APPROXIMATED = {
    ("oneOf", "oneOf"),
    ("oneOf", "oneOf with boolean schemas, one true"),
    ("oneOf", "oneOf with boolean schemas, all false"),
    ("oneOf", "nested oneOf, to check validation semantics"),
    ("anyOf", "anyOf"),
    ("anyOf", "anyOf with boolean schemas, all false"),
    ("anyOf", "nested anyOf, to check validation semantics"),
}


def _suite_groups() -> list[tuple[str, int, dict[str, Any]]]:
    groups: list[tuple[str, int, dict[str, Any]]] = []
    for keyword in ("oneOf", "anyOf"):
        path = SUITE / f"{keyword}.json"
        if not path.exists():
            continue
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            if (keyword, group["description"]) not in _APPROXIMATED:
                groups.append((keyword, index, group))
    return groups


@pytest.mark.skipif(not SUITE.exists(), reason="the JSON-Schema-Test-Suite is not checked out")
def test_the_json_schema_test_suite_through_the_dataclass_flavor(tmp_path: Path) -> None:
    groups = _suite_groups()
    assert len(groups) >= 10
    (tmp_path / "schema").mkdir()
    for keyword, index, group in groups:
        schema = {k: v for k, v in group["schema"].items() if k != "$schema"}
        document = {"$defs": {"Root": schema}}
        (tmp_path / "schema" / f"{keyword.lower()}_{index}.json").write_text(
            json.dumps(document), encoding="utf-8"
        )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses"]\n', encoding="utf-8"
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    wrong: list[str] = []
    for keyword, index, group in groups:
        module = f"{keyword.lower()}_{index}"
        models = import_file(
            tmp_path / "generated" / "python" / module / "dataclass_models.py",
            f"suite_{module}_{abs(hash(tmp_path))}",
        )
        for case in group["tests"]:
            try:
                decoded = models.decode_root(copy.deepcopy(case["data"]))
                assert models.encode_root(decoded) == case["data"]
                accepted = True
            except models.DecodeError:
                accepted = False
            if accepted != case["valid"]:
                wrong.append(f"{keyword}.json: {group['description']}: {case['description']}")
    assert not wrong, wrong


def test_modules_without_such_unions_carry_none_of_their_helpers() -> None:
    """The shipped schemas dispatch every union by tag or structure: their generated
    modules, and the Mix project's runtime, have no member-trying helpers (they are
    generated only where a union of the project needs them)."""
    generated = REPO / "generated"
    for path in sorted((generated / "python").glob("*/*.py")):
        text = path.read_text(encoding="utf-8")
        assert "_try_members" not in text and "_encode_tried" not in text, path
    for path in sorted((generated / "elixir" / "lib").rglob("*.ex")):
        text = path.read_text(encoding="utf-8")
        assert "try_members" not in text and "encode_tried" not in text, path
