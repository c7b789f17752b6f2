"""Tuples (`prefixItems` + `items`, issues 18 and 19): every flavor's verdict is
jsonschema's, each rejection names the offending item's path, every accepted value
encodes back exactly, and the Python types say what each position holds.
"""

from __future__ import annotations

import base64
import copy
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.cli import main
from polytype.compile import read_schema
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.elixir.terms import ex_json_literal
from polytype.workflow.observe import Observer
from pydantic import ValidationError

from .conftest import import_file

NUMBER = {"type": "number"}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Shapes",
    "type": "object",
    "properties": {
        "point": {"$ref": "#/$defs/Point"},
        "label": {"type": "string"},
        "corner": {
            "type": "array",
            "prefixItems": [NUMBER, {"type": "string"}],
            "items": False,
            "default": [0, "nw"],
        },
    },
    "$defs": {
        "Point": {
            "type": "array",
            "prefixItems": [NUMBER, NUMBER],
            "items": False,
            "minItems": 2,
        },
        "Short": {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "items": False,
        },
        "Open": {
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "items": {"type": "integer"},
        },
        "Loose": {"type": "array", "prefixItems": [{"type": "boolean"}]},
        "Nested": {
            "type": "array",
            "prefixItems": [
                {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
                {"$ref": "#/$defs/Color"},
            ],
            "items": False,
            "uniqueItems": True,
        },
        "Either": {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/$defs/Pair"}]},
            ]
        },
        "Bounded": {
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "items": NUMBER,
            "minItems": 1,
            "maxItems": 5,
        },
        "Long": {
            "type": "array",
            "prefixItems": [{"type": "integer"}] * 5,
            "items": False,
        },
        "Twins": {"type": "array", "prefixItems": [NUMBER, NUMBER], "uniqueItems": True},
        "Never": {
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "items": False,
            "minItems": 2,
        },
        "Color": {"enum": ["red", "green"]},
        "Pair": {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "required": ["a"],
        },
    },
}

VALUES: dict[str, list[Any]] = {
    "Shapes": [
        {"point": [1, 2.5]},
        {"point": [1, "x"]},
        {"point": [1]},
        {"point": [1, 2, 3]},
        {"corner": [1.5]},
        {"corner": [1, "se"]},
        {"corner": ["se"]},
    ],
    "Point": [[0, 0], [1.5, -2], [1], [], [1, 2, 3], [1, "2"], [True, 1], {"0": 1}],
    "Short": [[], [1], [1, "a"], [1, "a", 2], ["a"], [1, 2], [1.5]],
    "Open": [[], ["a"], ["a", 1, 2], ["a", 1, "b"], [1], ["a", 1.5], ["a", True]],
    "Loose": [[], [True], [False, {"x": [1]}, None, "s"], [1], ["true"]],
    "Nested": [
        [],
        [["a"]],
        [["a"], "red"],
        [[], "green"],
        [["a", "b"], "red"],
        [["a"], "blue"],
        [["a"], "red", 1],
        [[1], "red"],
    ],
    "Either": ["s", [], ["s"], ["s", {"a": 1}], ["s", {"a": 1}, 5, None], ["s", {}], [1], 3],
    "Bounded": [["a"], ["a", 1, 2.5, 3, 4], [], ["a", 1, 2, 3, 4, 5], [1], ["a", "b"]],
    "Long": [[], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], [1, "2"], [1, 2, 3, 4]],
    "Twins": [[1, 2], [1, 1.0], [1, 2, 1], [1, 2, "x"], [1.5]],
    "Never": [[], ["a"], ["a", "b"]],  # minItems past a closed prefix: nothing is valid
}

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}


def _valid(type_name: str, value: Any) -> bool:
    root = (
        SCHEMA
        if type_name == "Shapes"
        else {"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{type_name}"}
    )
    return bool(jsonschema.Draft202012Validator(root).is_valid(value))


def _cases() -> Iterator[tuple[str, Any, bool]]:
    for type_name, values in VALUES.items():
        for value in values:
            yield type_name, value, _valid(type_name, value)


def _project(root: Path, strict: bool = True) -> Path:
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "shapes.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[tool.polytype]\nstrict = {"true" if strict else "false"}\nschema-dir = "schema"\n',
        encoding="utf-8",
    )
    return root


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("tuples"))
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _flavor(root: Path, flavor: str) -> ModuleType:
    path = root / "generated" / "python" / "shapes" / f"{flavor}.py"
    return import_file(path, f"tuples_{flavor}_{abs(hash(root))}")


def test_generous_mode_types_tuples_without_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(The `generated` fixture is a strict project: strict mode accepts tuples too.)"""
    root = _project(tmp_path, strict=False)
    assert main(["--project", str(root), "generate"]) == 0
    assert "warning:" not in capsys.readouterr().err


def test_the_ir_holds_each_position(tmp_path: Path) -> None:
    path = _project(tmp_path) / "schema" / "shapes.json"
    module = read_schema(path, "schema/shapes.json", strict=True).module
    point = module.get("Point")
    assert isinstance(point, ir.Alias)
    assert point.type == ir.TupleOf(
        (ir.Prim("float"), ir.Prim("float")), None, ir.Constraints(min_items=2)
    )
    loose = module.get("Loose")
    assert isinstance(loose, ir.Alias) and loose.type == ir.TupleOf(
        (ir.Prim("bool"),), ir.AnyJSON()
    )


@pytest.mark.parametrize(("type_name", "value", "valid"), list(_cases()))
def test_python_flavors_agree_with_jsonschema(
    generated: Path, type_name: str, value: Any, valid: bool
) -> None:
    suffix = function_suffix(type_name)
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
    adapter = getattr(pydantic, f"{type_name}Adapter", None)
    try:
        if adapter is None:
            model = getattr(pydantic, type_name).model_validate(copy.deepcopy(value))
            assert model.model_dump(**_DUMP) == value
        else:
            decoded = adapter.validate_python(copy.deepcopy(value))
            assert adapter.dump_python(decoded, **_DUMP) == value
            decoded = adapter.validate_json(json.dumps(value))
            assert adapter.dump_python(decoded, **_DUMP) == value
        verdicts["pydantic"] = True
    except ValidationError:
        verdicts["pydantic"] = False
    assert verdicts == dict.fromkeys(verdicts, valid), (type_name, value)


@pytest.mark.parametrize(
    ("flavor", "function"),
    [("dataclass_models", "decode_shapes"), ("typed_dicts", "validate_shapes")],
)
def test_the_error_names_the_offending_item(generated: Path, flavor: str, function: str) -> None:
    models = _flavor(generated, flavor)
    with pytest.raises(models.DecodeError) as error:
        getattr(models, function)({"point": [1, "x"]})
    assert str(error.value) == "$.point[1]: expected number, got string"
    with pytest.raises(models.DecodeError) as error:
        getattr(models, function)({"point": [1, 2, 3]})
    assert str(error.value) == "$.point[2]: no item allowed here: at most 2 item(s) (items: false)"
    with pytest.raises(models.DecodeError) as error:
        getattr(models, function)({"point": [1]})
    assert str(error.value) == "$.point: must have at least 2 item(s)"


def test_the_python_flavors_type_check(generated: Path) -> None:
    """Every tuple type (fixed shapes, their unions, `tuple[A | B, ...]`) is mypy --strict clean."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "shapes"],
        cwd=generated / "generated" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_pydantic_errors_name_the_item(generated: Path) -> None:
    models = _flavor(generated, "pydantic_models")
    with pytest.raises(ValidationError) as caught:
        models.Shapes.model_validate({"point": [1, "x"]})
    assert all(error["loc"][:2] == ("point", 1) for error in caught.value.errors())
    with pytest.raises(ValidationError) as caught:  # pydantic-core's variadic tuple
        models.BoundedAdapter.validate_python(["a", 1, "b"])
    assert all(2 in error["loc"] for error in caught.value.errors())


def test_diff_knows_tuples() -> None:
    from polytype.workflow.variance import compare, show

    closed = ir.TupleOf((ir.Prim("str"),), None)
    opened = ir.TupleOf((ir.Prim("str"),), ir.Prim("int"))
    assert compare(closed, opened, {}, {}).verdict == "widened"
    assert compare(opened, closed, {}, {}).verdict == "narrowed"
    assert compare(closed, ir.TupleOf((ir.Prim("int"),), None), {}, {}).verdict == "changed"
    assert show(opened) == "tuple[string, ...integer]"


def test_dataclasses_decode_tuples(generated: Path) -> None:
    models = _flavor(generated, "dataclass_models")
    assert models.decode_shapes({"point": [1, 2.5]}).point == (1, 2.5)
    assert models.decode_shapes({}).corner == (0, "nw")  # the default, decoded
    assert _flavor(generated, "pydantic_models").Shapes.model_validate({}).corner == (0, "nw")
    assert models.decode_nested([["a"], "red"]) == (("a",), models.Color.RED)


def test_drift_judges_as_the_decoders_do(tmp_path: Path) -> None:
    path = _project(tmp_path) / "schema" / "shapes.json"
    module = read_schema(path, "schema/shapes.json", strict=True).module
    for type_name, value, valid in _cases():
        observer = Observer(module)
        observer.observe(value, type_name, "sample.jsonl:1")
        seen = observer.seen
        rejected = seen.missing or seen.mismatches or seen.constraints or seen.enum_values
        assert not rejected == valid, (type_name, value)


def test_docs_describe_each_position(generated: Path) -> None:
    docs = (generated / "generated" / "docs" / "shapes.md").read_text(encoding="utf-8")
    assert "tuple (number, number, no more items)" in docs
    assert (
        "tuple (integer, integer, integer, integer, integer, no more items; shorter allowed)"
        in docs
    )


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
        f"IO.puts(Probe.run(Shapes.{type_name}, {ex_json_literal(_freeze(value))}))"
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
    extra = cases.index(("Shapes", {"point": [1, 2, 3]}, False))
    reason = base64.b64decode(output[extra].split(" ")[1]).decode("utf-8")
    assert reason == "$.point[2]: no item allowed here: at most 2 item(s) (items: false)"


def _freeze(value: Any) -> ir.JSONData:
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value  # type: ignore[no-any-return]


def test_modules_without_tuples_carry_none_of_their_helpers() -> None:
    """(tests/endtoend/tuples shows a module with tuples carrying them.)"""
    from .conftest import REPO

    shipped = REPO / "generated"
    for path in sorted((shipped / "python").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "def _tuple(" not in text and "class _Positional" not in text, path
    for path in sorted((shipped / "elixir" / "lib").rglob("*.ex")):
        assert "def tuple(" not in path.read_text(encoding="utf-8"), path
