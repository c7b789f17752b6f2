"""Every flavor's verdict equals the JSON-Schema-Test-Suite's (issue 19).

One project holds a module per case group of the measured keywords
(`tests/suite_conformance.py` says how a group becomes a module, and which of its tests
are off-type); one `polytype generate` writes every target. The dataclass decoders, the
TypedDict validators and the Pydantic models are called here on each test's `data`; the
Elixir decoders run as one `mix test` over the same tests written as fixtures.

`KNOWN_GAPS` lists, with the reason, every group polytype does not get right yet. A
listed group must still fail (strict xfail), so the list shrinks as the work lands.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from . import suite_conformance as suite
from .conftest import import_file

_INTEGRAL_FLOAT = "1.0 is an integer to JSON Schema; polytype keeps it a float (exact round trip)"
_ENUM = "enum values other than strings are typed as free-form JSON (not checked)"
_CONST = "const of null, a number with a fraction, an array or an object is free-form JSON"
_CONST_NUMBER = "a const integer takes only the integer, not the equal float (0.0, 1.0)"
_PREFIX = "prefixItems (a tuple) is typed as free-form JSON"
_DEPENDENT_SCHEMAS = "dependentSchemas is not enforced yet (dropped with a warning)"

# group id -> why polytype does not match the suite's verdicts on it yet
KNOWN_GAPS: dict[str, str] = {
    "type/0": _INTEGRAL_FLOAT,
    "type/6": "a value that can only be null is typed as free-form JSON",
    "enum/0": _ENUM,
    "enum/1": _ENUM,
    "enum/6": _ENUM,
    "enum/8": _ENUM,
    "enum/9": _ENUM,
    "enum/10": _ENUM,
    "enum/11": _ENUM,
    "enum/12": _ENUM,
    "enum/14": "an empty enum is typed as free-form JSON (it accepts nothing)",
    "const/1": _CONST,
    "const/2": _CONST,
    "const/3": _CONST,
    "const/6": _CONST,
    "const/7": _CONST,
    "const/8": _CONST,
    "const/9": _CONST,
    "const/10": _CONST_NUMBER,
    "const/11": _CONST_NUMBER,
    "const/12": _CONST,
    "const/13": "a const integer above 2**53 does not take the equal float",
    "required/3": "refused: keys 'foo\\rbar' and 'foo\\tbar' both become the Elixir field foo_bar",
    "pattern/2": "\\p{Letter} (a Unicode property escape) is not supported by Python's re",
    "uniqueItems/1": _PREFIX,
    "uniqueItems/2": _PREFIX,
    "uniqueItems/5": _PREFIX,
    "propertyNames/3": "propertyNames: false (no key at all) is not lowered; only a schema is",
    "patternProperties/1": "a pattern's schema without type ({maximum: 20}) is free-form JSON, "
    "its bound unchecked",
    "patternProperties/3": "a pattern whose schema is false (no such key) is typed as free-form "
    "JSON, so its keys are accepted",
    "additionalProperties/5": "allOf is merged first, so the additionalProperties beside it "
    "sees the merged properties (JSON Schema: only its own)",
    "dependentSchemas/0": _DEPENDENT_SCHEMAS,
    "dependentSchemas/1": _DEPENDENT_SCHEMAS,
    "dependentSchemas/2": _DEPENDENT_SCHEMAS,
    "dependentSchemas/3": _DEPENDENT_SCHEMAS,
}

GROUPS = suite.groups()
REJECTED = object()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> suite.Built:
    return suite.build(tmp_path_factory.mktemp("suite") / "project", GROUPS, elixir=True)


def _flavors(root: Path, module: str) -> dict[str, Callable[[Any], bool]]:
    """flavor -> (data -> accepted) for the `Value` type of one generated module."""
    base = root / "generated" / "python" / module
    loaded = {
        flavor: import_file(base / f"{flavor}.py", f"polytype_suite.{module}.{flavor}")
        for flavor in ("dataclass_models", "typed_dicts", "pydantic_models")
    }

    def dataclasses(data: Any) -> bool:
        models = loaded["dataclass_models"]
        try:
            value = models.decode_value(data)
        except models.DecodeError:
            return False
        assert models.encode_value(value) == data, "accepted but not re-encoded exactly"
        return True

    def typeddicts(data: Any) -> bool:
        try:
            loaded["typed_dicts"].validate_value(data)
        except ValueError:
            return False
        return True

    def pydantic(data: Any) -> bool:
        models = loaded["pydantic_models"]
        adapter = getattr(models, "ValueAdapter", None)
        try:
            if adapter is not None:
                adapter.validate_python(data)
            else:
                models.Value.model_validate(data)
        except ValidationError:
            return False
        return True

    return {"dataclasses": dataclasses, "typeddicts": typeddicts, "pydantic": pydantic}


def _disagreements(built: suite.Built, group: suite.Group) -> list[str]:
    if group.id in built.refused:
        return [f"refused: {built.refused[group.id]}"]
    found = []
    flavors = _flavors(built.root, group.module)
    for number, test in enumerate(group.tests):
        for flavor, accepts in flavors.items():
            if accepts(copy.deepcopy(test.data)) != test.valid:
                found.append(f"{flavor}: {test.description!r} ({test.data!r}) valid={test.valid}")
        if built.elixir is not None and not built.elixir[suite.fixture_name(group, number)]:
            found.append(f"elixir: {test.description!r} ({test.data!r}) valid={test.valid}")
    return found


def _param(group: suite.Group) -> Any:
    marks = []
    if group.id in KNOWN_GAPS:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[group.id]))
    return pytest.param(group, id=group.id, marks=marks)


def test_every_gap_names_a_group() -> None:
    assert set(KNOWN_GAPS) <= {group.id for group in GROUPS}


def test_every_group_is_judged() -> None:
    """A group whose tests are all off-type would measure nothing."""
    assert all(group.tests for group in GROUPS), [g.id for g in GROUPS if not g.tests]


@pytest.mark.parametrize("group", [_param(group) for group in GROUPS])
def test_verdicts_equal_the_suite(built: suite.Built, group: suite.Group) -> None:
    problems = _disagreements(built, group)
    assert not problems, "\n".join([group.description, *problems])
