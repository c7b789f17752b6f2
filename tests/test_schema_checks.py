"""Schema checks (issues 18 and 19): `not`, `if`/`then`/`else`, `dependentSchemas` and the
other parts of a consumed schema no type expresses are validated by every Python flavor on
the JSON value as it arrives, with jsonschema's own semantics: verdicts equal jsonschema's,
every accepted value re-encodes exactly, a failure names its path and the rule it breaks,
`drift` judges as the decoders do, and a module without checks does not import jsonschema.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import jsonschema.validators
import pytest
from polytype import ir
from polytype.cli import main
from polytype.compile import read_schema
from polytype.ir.json_types import freeze_json
from polytype.targets.base.helper_names import function_suffix
from polytype.workflow.observe import Observer
from polytype.workflow.variance import compare
from pydantic import ValidationError

from .conftest import import_file

SHORT = {"type": "string", "maxLength": 3}
NOT_BOTH = {"required": ["a", "href"]}
IF_A = {"required": ["a"]}
THEN_B = {"required": ["b"]}
ELSE_SHORT_REL = {"properties": {"rel": {"$ref": "#/$defs/Short"}}}
DEPENDENT = {"b": {"properties": {"a": {"minimum": 3}}}}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Checks",
    "$defs": {
        "Link": {
            "type": "object",
            "properties": {
                "href": {"type": "string"},
                "rel": {"type": "string"},
                "a": {"type": "integer"},
                "b": {"type": "integer"},
            },
            "not": NOT_BOTH,
            "if": IF_A,
            "then": THEN_B,
            "else": ELSE_SHORT_REL,
            "dependentSchemas": DEPENDENT,
        },
        "Short": SHORT,
        "Named": {
            "type": "object",
            "properties": {"name": {"type": "string", "not": {"pattern": "^x"}}},
        },
        # a type name JSON Schema does not define (continue-config's "str") matches nothing
        "Odd": {
            "type": "object",
            "properties": {"p": {"type": "string"}},
            "if": {"properties": {"p": {"type": "str"}}},
            "then": {"required": ["q"]},
        },
        "Pair": {"anyOf": [{"$ref": "#/$defs/Link"}, {"type": "string"}], "not": {"const": "bad"}},
    },
}

VALUES: dict[str, list[Any]] = {
    "Link": [
        {},
        {"a": 1, "href": "x"},
        {"href": "x"},
        {"a": 1},
        {"a": 5, "b": 1},
        {"a": 1, "b": 1},
        {"b": 1},
        {"rel": "abcd"},
        {"rel": "abc", "kept": [1, {"k": None}]},
        {"b": 4, "a": 3, "rel": "abcd"},
        {"a": "x"},
        "not an object",
    ],
    "Named": [{}, {"name": "ab"}, {"name": "xy"}, {"name": 1}, {"name": "a", "other": 2.5}],
    "Odd": [{}, {"p": "x"}, {"p": "x", "q": 1}, {"q": 1}],
    "Pair": ["ok", "bad", {"href": "x"}, {"a": 1}, {"a": 5, "b": 9}, 3],
}

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}
FLAVORS = ("dataclass_models", "typed_dicts", "pydantic_models")


def _valid(type_name: str, value: Any) -> bool:
    """jsonschema's verdict; a type name it does not know matches nothing (as the corpus's
    validate.py has it)."""
    root = {"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{type_name}"}
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("str", lambda *_: False)
    kind = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return bool(kind(root).is_valid(value))


def _cases() -> Iterator[tuple[str, Any, bool]]:
    for type_name, values in VALUES.items():
        for value in values:
            yield type_name, value, _valid(type_name, value)


def _check(schema: dict[str, Any], keywords: tuple[str, ...], pointer: str) -> ir.SchemaCheck:
    return ir.SchemaCheck(freeze_json(schema), keywords, pointer)


def _has_checks(module: ir.Module) -> bool:
    return "schema_checks" in ir.runtime_checks(module) or any(
        isinstance(named, (ir.Record, ir.UnionType)) and named.schema_checks
        for named in module.types
    )


def _read(root: Path, schema: dict[str, Any] = SCHEMA) -> ir.Module:
    (root / "schema").mkdir(parents=True, exist_ok=True)
    path = root / "schema" / "checks.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return read_schema(path, "schema/checks.json", strict=False).module


def _project(root: Path, schema: dict[str, Any] = SCHEMA) -> Path:
    """A project of SCHEMA, generated through the CLI as a user would."""
    _read(root, schema)
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n'
        'targets = ["dataclasses", "typeddicts", "pydantic", "docs"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _generated(root: Path) -> dict[str, Path]:
    directory = root / "generated" / "python" / "checks"
    return {name: directory / f"{name}.py" for name in FLAVORS}


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> ir.Module:
    return _read(tmp_path_factory.mktemp("schema_checks_ir"))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _project(tmp_path_factory.mktemp("schema_checks"))


@pytest.fixture(scope="module")
def generated(project: Path) -> dict[str, Path]:
    return _generated(project)


def _flavor(generated: dict[str, Path], flavor: str) -> ModuleType:
    path = generated[flavor]
    return import_file(path, f"schema_checks_{flavor}_{abs(hash(path))}")


def _round_trip(models: ModuleType, flavor: str, type_name: str, value: Any) -> Any:
    """The value decoded and encoded back by `flavor` (raises when it rejects it)."""
    suffix = function_suffix(type_name)
    if flavor == "dataclass_models":
        return getattr(models, "encode_" + suffix)(getattr(models, "decode_" + suffix)(value))
    if flavor == "typed_dicts":
        return getattr(models, "validate_" + suffix)(value)
    if hasattr(models, type_name + "Adapter"):
        adapter = getattr(models, type_name + "Adapter")
        encoded = adapter.dump_python(adapter.validate_python(value), **_DUMP)
        from_text = adapter.dump_python(adapter.validate_json(json.dumps(value)), **_DUMP)
        assert from_text == encoded
        return encoded
    model = getattr(models, type_name)
    encoded = model.model_validate(value).model_dump(**_DUMP)
    assert model.model_validate_json(json.dumps(value)).model_dump(**_DUMP) == encoded
    return encoded


def test_lowering_makes_the_checks(module: ir.Module) -> None:
    link, named, pair = (module.get(name) for name in ("Link", "Named", "Pair"))
    assert isinstance(link, ir.Record) and isinstance(pair, ir.UnionType)
    assert {k for check in link.schema_checks for k in check.keywords} == set(_CHECK_KEYWORDS)
    assert [check.described for check in pair.schema_checks] == ["'not' at /$defs/Pair"]
    assert isinstance(named, ir.Record) and isinstance(named.fields[0].type, ir.Checked)
    assert dict(module.check_defs) == {"Short": freeze_json(SHORT)}


def test_the_cases_exercise_every_check() -> None:
    verdicts = {(type_name, valid) for type_name, _, valid in _cases()}
    assert verdicts == {(name, valid) for name in VALUES for valid in (True, False)}


@pytest.mark.parametrize("flavor", FLAVORS)
def test_python_flavors_agree_with_jsonschema(generated: dict[str, Path], flavor: str) -> None:
    models = _flavor(generated, flavor)
    for type_name, value, valid in _cases():
        try:
            encoded = _round_trip(models, flavor, type_name, value)
        except (ValueError, ValidationError):
            assert not valid, (flavor, type_name, value)
            continue
        assert valid, (flavor, type_name, value)
        assert encoded == value, (flavor, type_name, value, encoded)


def _described(module: ir.Module, type_name: str, keyword: str) -> str:
    """How a DecodeError names the check of `type_name` (a record's or union's) that holds `keyword`."""
    named = module.get(type_name)
    assert isinstance(named, (ir.Record, ir.UnionType))
    return next(c.described for c in named.schema_checks if keyword in c.keywords)


def test_errors_name_the_path_and_the_rule(module: ir.Module, generated: dict[str, Path]) -> None:
    link_not = _described(module, "Link", "not")
    link_if = _described(module, "Link", "if")
    link_dependent = _described(module, "Link", "dependentSchemas")
    named = module.get("Named")
    assert isinstance(named, ir.Record) and isinstance(named.fields[0].type, ir.Checked)
    name_not = named.fields[0].type.checks[0].described
    expected = {
        ("Link", json.dumps({"a": 1, "href": "x"})): f"$: breaks {link_not}",
        ("Link", json.dumps({"a": 1})): f"$: breaks {link_if}: 'b' is a required property",
        ("Link", json.dumps({"a": 1, "b": 1})): (
            f"$: breaks {link_dependent}: at $.a: 1 is less than the minimum of 3"
        ),
        ("Link", json.dumps({"rel": "abcd"})): f"$: breaks {link_if}: at $.rel: 'abcd' is too long",
        ("Named", json.dumps({"name": "xy"})): f"$.name: breaks {name_not}",
        ("Pair", json.dumps("bad")): f"$: breaks {_described(module, 'Pair', 'not')}",
    }
    dataclasses = _flavor(generated, "dataclass_models")
    typed = _flavor(generated, "typed_dicts")
    pydantic = _flavor(generated, "pydantic_models")
    for (type_name, text), message in expected.items():
        suffix = function_suffix(type_name)
        for decode in (
            getattr(dataclasses, "decode_" + suffix),
            getattr(typed, "validate_" + suffix),
        ):
            with pytest.raises(ValueError) as caught:
                decode(json.loads(text))
            assert str(caught.value).startswith(message), (str(caught.value), message)
        validate = (
            getattr(pydantic, type_name + "Adapter").validate_json
            if hasattr(pydantic, type_name + "Adapter")
            else getattr(pydantic, type_name).model_validate_json
        )
        with pytest.raises(ValidationError) as error:
            validate(text)
        [detail] = error.value.errors()
        path, reason = message.split(": ", 1)
        assert detail["type"] == "schema_check"
        assert detail["loc"] == (() if path == "$" else ("name",))
        assert detail["msg"].startswith(reason), (detail["msg"], reason)


def test_generated_code_passes_mypy_strict(generated: dict[str, Path]) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            *map(str, generated.values()),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checks_are_stated_and_need_jsonschema(generated: dict[str, Path]) -> None:
    # the check constants once, beside the three flavor files that import them
    constants = next(iter(generated.values())).parent / "_checks.py"
    assert "_CHECK_DEFS: dict[str, object] = {" in constants.read_text(encoding="utf-8")
    for path in generated.values():
        text = path.read_text(encoding="utf-8")
        assert "import jsonschema" in text and "jsonschema" in text.split('"""')[1], path
        assert "from ._checks import" in text and "_CHECK_DEFS: dict" not in text, path
        words = " ".join(text.split())  # docstrings and comments say what a check demands
        assert 'must not match `{"required": ["a", "href"]}`' in words, path


def test_a_module_without_checks_does_not_import_jsonschema(tmp_path: Path) -> None:
    plain = {
        **SCHEMA,
        "$defs": {
            name: {key: value for key, value in schema.items() if key not in _CHECK_KEYWORDS}
            for name, schema in SCHEMA["$defs"].items()
        },
    }
    plain["$defs"]["Named"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    assert not _has_checks(_read(tmp_path / "ir", plain))
    for path in _generated(_project(tmp_path / "project", plain)).values():
        assert "jsonschema" not in path.read_text(encoding="utf-8"), path


_CHECK_KEYWORDS = ("not", "if", "then", "else", "dependentSchemas")


def test_drift_judges_as_the_decoders_do(module: ir.Module) -> None:
    for type_name, value, valid in _cases():
        observer = Observer(module)
        observer.observe(value, type_name, "sample.jsonl:1")
        seen = observer.seen
        rejected = seen.missing or seen.mismatches or seen.constraints or seen.enum_values
        assert (not rejected) == valid, (type_name, value, seen.mismatches, seen.constraints)
    observer = Observer(module)
    observer.observe({"a": 5, "b": 3, "href": "x"}, "Link", "sample.jsonl:3")
    [(where, rule, schema)] = observer.seen.constraints
    assert (where, rule) == ("Link", _described(module, "Link", "not"))
    assert schema.startswith('{"not": {"required": ["a", "href"]}, "if": ')  # cut when long


def test_diff_sees_a_check_added_as_a_tightening(module: ir.Module) -> None:
    named = module.get("Named")
    assert isinstance(named, ir.Record)
    checked = named.fields[0].type
    assert isinstance(checked, ir.Checked)
    types = module.types_by_name
    assert compare(checked.inner, checked, types, types).verdict == "narrowed"
    assert compare(checked, checked.inner, types, types).verdict == "widened"
    other = ir.Checked(checked.inner, (_check({"not": {"const": "x"}}, ("not",), "/x"),))
    assert compare(checked, other, types, types).verdict == "changed"


def test_drift_reports_a_value_that_breaks_a_check(
    project: Path, module: ir.Module, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = project / "recorded.jsonl"
    recorded.write_text('{"a": 5, "b": 3, "href": "x"}\n{"a": 5, "b": 3}\n', encoding="utf-8")
    capsys.readouterr()
    code = main(["--project", str(project), "drift", "--type", "Link", "checks", str(recorded)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert f"Link: breaks {_described(module, 'Link', 'not')}: " in out
    assert "1 constraint violation(s)" in out
