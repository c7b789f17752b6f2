"""The Python flavors agree: same instances, same accept/reject decision, same encoded output.

Every fixture of every module, valid and invalid, goes through
- the dataclasses (`decode_<x>` / `encode_<x>`; rejection is `DecodeError`),
- the Pydantic models (`X.model_validate` or `XAdapter.validate_python`, dumped with
  `mode="json", by_alias=True, exclude_unset=True`; rejection is `ValidationError`),
- the TypedDicts when `typed_dicts.py` has been generated (`validate_<x>` returns its
  input; rejection is any `ValueError`).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest
from polytype import ir
from polytype.lowering.lower import lower
from polytype.project.fixtures import discover
from polytype.reading.loader import load
from polytype.targets.base.helper_names import function_suffix
from pydantic import ValidationError

from .conftest import REPO, SHIPPED_MODULES, load_generated

FIXTURES = REPO / "tests" / "fixtures"
REJECTED = object()

Flavor = Callable[[str, Any], Any]  # (type name, JSON data) -> encoded JSON data, or REJECTED


@functools.cache
def _module_ir(module: str) -> ir.Module:
    return lower(load(REPO / "schema" / f"{module}.yaml", f"schema/{module}.yaml"))


def _dataclasses(module: str) -> Flavor:
    models = load_generated(module, "dataclass_models")

    def run(type_name: str, data: Any) -> Any:
        suffix = function_suffix(type_name)
        try:
            value = getattr(models, f"decode_{suffix}")(data)
        except models.DecodeError:
            return REJECTED
        return getattr(models, f"encode_{suffix}")(value)

    return run


def _pydantic(module: str) -> Flavor:
    models = load_generated(module, "pydantic_models")
    records = {t.name for t in _module_ir(module).types if isinstance(t, ir.Record)}
    dump: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}

    def run(type_name: str, data: Any) -> Any:
        try:
            if type_name in records:
                return getattr(models, type_name).model_validate(data).model_dump(**dump)
            adapter = getattr(models, f"{type_name}Adapter")
            return adapter.dump_python(adapter.validate_python(data), **dump)
        except ValidationError:
            return REJECTED

    return run


def _typed_dicts(module: str) -> Flavor | None:
    path = REPO / "generated" / "python" / module / "typed_dicts.py"
    if not path.is_file():
        return None
    models = load_generated(module, "typed_dicts")
    if not any(name.startswith("validate_") for name in dir(models)):
        return None

    def run(type_name: str, data: Any) -> Any:
        try:
            return getattr(models, f"validate_{function_suffix(type_name)}")(data)
        except ValueError:
            return REJECTED

    return run


@functools.cache
def _flavors(module: str) -> dict[str, Flavor]:
    flavors = {"dataclasses": _dataclasses(module), "pydantic": _pydantic(module)}
    typed = _typed_dicts(module)
    if typed is not None:
        flavors["typed_dicts"] = typed
    return flavors


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for module in SHIPPED_MODULES:
        names = {named.name for named in _module_ir(module).types}
        for case in discover(FIXTURES, module):
            if case.type_name in names:
                cases.append((module, case.type_name, case.relative_path))
    return cases


CASES = _cases()


def test_there_are_cases() -> None:
    assert {module for module, _, _ in CASES} == set(SHIPPED_MODULES)
    assert any("/invalid/" in path for _, _, path in CASES)


@pytest.mark.parametrize(("module", "type_name", "path"), CASES, ids=[case[2] for case in CASES])
def test_flavors_agree(module: str, type_name: str, path: str) -> None:
    data = json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    outcomes = {}
    for flavor, run in _flavors(module).items():
        result = run(type_name, copy.deepcopy(data))
        outcomes[flavor] = "rejects" if result is REJECTED else json.dumps(result, sort_keys=True)
    assert len(set(outcomes.values())) == 1, json.dumps(outcomes, indent=2)
    expected = "rejects" if "/invalid/" in path else json.dumps(data, sort_keys=True)
    assert outcomes["dataclasses"] == expected
