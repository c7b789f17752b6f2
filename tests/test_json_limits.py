"""What JSON cannot hold, every flavor refuses alike, with a path (issues 17 and 21).

- NaN and infinity (from Python data, or `NaN`, `Infinity`, `1e400` in JSON text) in a
  `number` field or a free-form value: every Python flavor rejects them at that field.
  No flavor reads one and writes back something else (Pydantic wrote `null`).
- Keys of Python dicts that are not strings are a `DecodeError` at the object, not an
  `AttributeError` while the path is built.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from polytype import ir
from polytype.project.fixtures import discover
from polytype.targets.base import depth
from polytype.targets.base.helper_names import function_suffix
from pydantic import ValidationError

from .conftest import SHIPPED_MODULES, load_generated
from .test_flavors_agree import FIXTURES, _module_ir

NON_FINITE = [float("nan"), float("inf"), float("-inf")]
NON_FINITE_TEXT = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]


def _number_fields() -> Iterator[tuple[str, str, str, str]]:
    """(module, record, JSON key, fixture) for one number field of each record that has one."""
    for module in SHIPPED_MODULES:
        fixtures: dict[str, str] = {}
        for case in discover(FIXTURES, module):
            if "/invalid/" not in case.relative_path:
                fixtures.setdefault(case.type_name, case.relative_path)
        for named in _module_ir(module).types:
            if not isinstance(named, ir.Record) or named.name not in fixtures:
                continue
            for item in named.fields:
                inner = item.type.inner if isinstance(item.type, ir.Nullable) else item.type
                if isinstance(inner, ir.Prim) and inner.kind == "float" and not item.aliases:
                    yield module, named.name, item.json_key, fixtures[named.name]
                    break


NUMBER_FIELDS = list(_number_fields())


def records_keeping_unknown_keys(module: str) -> Iterator[tuple[str, Any]]:
    """(type name, fixture data) of every valid fixture of a record that keeps unknown keys."""
    for case in discover(FIXTURES, module):
        named = _module_ir(module).get(case.type_name)
        if "/invalid/" in case.relative_path or not isinstance(named, ir.Record):
            continue
        if named.extra_policy == "keep":
            yield case.type_name, json.loads((FIXTURES / case.relative_path).read_text("utf-8"))


def _decoders(module: str, record: str) -> dict[str, Any]:
    suffix = function_suffix(record)
    dataclasses = load_generated(module, "dataclass_models")
    typed = load_generated(module, "typed_dicts")
    pydantic = load_generated(module, "pydantic_models")
    return {
        "dataclasses": getattr(dataclasses, f"decode_{suffix}"),
        "typed_dicts": getattr(typed, f"validate_{suffix}"),
        "pydantic": getattr(pydantic, record).model_validate,
    }


def _paths(error: Exception) -> set[str]:
    if isinstance(error, ValidationError):
        return {".".join(str(part) for part in item["loc"][:1]) for item in error.errors()}
    return {error.path}  # type: ignore[attr-defined]


def test_there_are_number_fields() -> None:
    assert len({module for module, *_ in NUMBER_FIELDS}) >= 3


@pytest.mark.parametrize(("module", "record", "key", "fixture"), NUMBER_FIELDS)
def test_non_finite_python_numbers_are_rejected_at_their_field(
    module: str, record: str, key: str, fixture: str
) -> None:
    data = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    for value in NON_FINITE:
        bad = dict(data, **{key: value})
        for flavor, decode in _decoders(module, record).items():
            with pytest.raises(ValueError) as caught:
                decode(copy.deepcopy(bad))
            if flavor == "pydantic":
                assert key in _paths(caught.value), (flavor, value)
            else:
                assert caught.value.path == f"$.{key}" or caught.value.path == f'$["{key}"]'
                assert "NaN and infinity are not JSON numbers" in str(caught.value)


@pytest.mark.parametrize(("module", "record", "key", "fixture"), NUMBER_FIELDS)
def test_non_finite_numbers_in_json_text_are_rejected_at_their_field(
    module: str, record: str, key: str, fixture: str, json_parser: str
) -> None:
    data = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    dataclass = getattr(load_generated(module, "dataclass_models"), record)
    model = getattr(load_generated(module, "pydantic_models"), record)
    for literal in NON_FINITE_TEXT:
        text = json.dumps(dict(data, **{key: 0.5})).replace("0.5", literal)
        with pytest.raises(ValueError) as caught:
            dataclass.from_json(text)
        assert caught.value.path in (f"$.{key}", f'$["{key}"]'), caught.value
        with pytest.raises(ValidationError) as refused:
            model.model_validate_json(text)
        assert key in _paths(refused.value)


@pytest.mark.parametrize("module", SHIPPED_MODULES)
def test_non_finite_numbers_in_free_form_values_are_rejected(module: str) -> None:
    """Kept unknown keys hold free-form JSON: NaN there is refused with its path too."""
    for type_name, data in records_keeping_unknown_keys(module):
        unknown = "zz_unknown_key"
        for value in NON_FINITE:
            bad = dict(data, **{unknown: {"a": [1, value]}})
            for flavor, decode in _decoders(module, type_name).items():
                with pytest.raises(ValueError) as caught:
                    decode(bad)
                if flavor != "pydantic":
                    assert caught.value.path == f"$.{unknown}.a[1]"
        dataclass = getattr(load_generated(module, "dataclass_models"), type_name)
        model = getattr(load_generated(module, "pydantic_models"), type_name)
        for literal in NON_FINITE_TEXT:
            text = json.dumps(dict(data, **{unknown: [0.5]})).replace("0.5", literal)
            with pytest.raises(ValueError) as caught:
                dataclass.from_json(text)
            assert caught.value.path == f"$.{unknown}[0]"
            with pytest.raises(ValidationError):
                model.model_validate_json(text)
        return
    pytest.skip(f"{module}: no record keeps unknown keys")


@pytest.mark.parametrize("module", SHIPPED_MODULES)
def test_keys_that_are_not_strings_are_a_decode_error(module: str) -> None:
    """`{1: "x"}` under an object or a map: DecodeError (ValidationError), never AttributeError."""
    checked = 0
    for case in discover(FIXTURES, module):
        named = _module_ir(module).get(case.type_name)
        if "/invalid/" in case.relative_path or not isinstance(named, ir.Record):
            continue
        data = json.loads((FIXTURES / case.relative_path).read_text(encoding="utf-8"))
        for key in (1, None, ("a",)):
            bad: dict[Any, Any] = dict(data)
            bad[key] = "x"
            for decode in _decoders(module, case.type_name).values():
                with pytest.raises(ValueError):
                    decode(bad)
            checked += 1
        maps = [
            item
            for item in named.fields
            if isinstance(item.type, (ir.MapOf, ir.AnyJSON)) and item.json_key in data
        ]
        for item in maps:
            value = data[item.json_key]
            if not isinstance(value, dict):
                continue
            bad = dict(data, **{item.json_key: {**value, 1: "x"}})
            for flavor, decode in _decoders(module, case.type_name).items():
                with pytest.raises(ValueError) as caught:
                    decode(bad)
                if flavor != "pydantic":
                    assert caught.value.path.startswith(f"$.{item.json_key}"), caught.value
            checked += 1
    assert checked


def _nested(levels: int) -> Any:
    """An object `levels` deep, objects and arrays in turn: {"k": [{"k": [...]}]}."""
    value: Any = 1
    for index in range(levels):
        value = {"k": value} if (levels - index) % 2 == 1 else [value]
    return value


def _free_form_fields() -> Iterator[tuple[str, str, str, str]]:
    """(module, record, JSON key, fixture) for one free-form field per module."""
    for module in SHIPPED_MODULES:
        fixtures = {
            case.type_name: case.relative_path
            for case in discover(FIXTURES, module)
            if "/invalid/" not in case.relative_path
        }
        for named in _module_ir(module).types:
            if not isinstance(named, ir.Record) or named.name not in fixtures:
                continue
            spots = [item for item in named.fields if isinstance(item.type, ir.AnyJSON)]
            if spots and not spots[0].aliases:
                yield module, named.name, spots[0].json_key, fixtures[named.name]
                break


FREE_FORM_FIELDS = list(_free_form_fields())


@pytest.mark.parametrize(("module", "record", "key", "fixture"), FREE_FORM_FIELDS)
def test_one_depth_limit_in_every_flavor(
    module: str, record: str, key: str, fixture: str, json_parser: str
) -> None:
    """100 levels of arrays and objects are read; 101 are refused at `$`, from data and text."""
    limit, message = depth.MAX_DEPTH, depth.DEPTH_MESSAGE
    data = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    dataclass = getattr(load_generated(module, "dataclass_models"), record)
    model = getattr(load_generated(module, "pydantic_models"), record)
    for levels in (limit, limit + 1, 201, 256, 3000):
        value = dict(data, **{key: _nested(levels - 1)})  # the record is one more level
        text = json.dumps(value) if levels < 900 else None
        runs: list[tuple[str, Any, Any]] = [
            (flavor, decode, value) for flavor, decode in _decoders(module, record).items()
        ]
        if text is not None:
            runs.append(("dataclasses (text)", dataclass.from_json, text))
            runs.append(("pydantic (text)", model.model_validate_json, text))
        for flavor, run, argument in runs:
            if levels <= limit:
                run(argument)
                continue
            with pytest.raises(ValueError) as caught:
                run(argument)
            if isinstance(caught.value, ValidationError):
                assert [(e["type"], e["loc"], e["msg"]) for e in caught.value.errors()] == [
                    ("too_deep", (), message)
                ], flavor
            else:
                assert str(caught.value) == f"$: {message}", flavor


@pytest.mark.parametrize(("module", "record", "key", "fixture"), FREE_FORM_FIELDS)
def test_non_finite_numbers_deep_in_free_form_text_are_rejected_at_their_field(
    module: str, record: str, key: str, fixture: str, json_parser: str
) -> None:
    """From JSON text the Pydantic models check a free-form value for NaN and infinity
    alone (their parser refuses the rest), at any depth."""
    data = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    dataclass = getattr(load_generated(module, "dataclass_models"), record)
    model = getattr(load_generated(module, "pydantic_models"), record)
    for literal in NON_FINITE_TEXT:
        value = {"a": [1, {"b": [0.5]}], "c": "0.5"}
        text = json.dumps(dict(data, **{key: value})).replace("[0.5]", f"[{literal}]")
        with pytest.raises(ValueError) as caught:
            dataclass.from_json(text)
        assert caught.value.path.startswith(f"$.{key}"), caught.value
        with pytest.raises(ValidationError) as refused:
            model.model_validate_json(text)
        assert [(e["type"], e["loc"]) for e in refused.value.errors()] == [("json_value", (key,))]
    assert model.model_validate_json(json.dumps(dict(data, **{key: {"k": [1.5, {"x": None}]}})))
