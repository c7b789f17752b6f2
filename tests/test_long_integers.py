"""Integers Python's json cannot write are refused when read, with a path (issue 17).

Python converts integers of at most 4,300 digits to text (`sys.get_int_max_str_digits`);
`json.dumps` of a longer one raises, and `json.loads` refuses one in JSON text. A decoder
that accepted such an integer from Python data would hand back a value whose `to_json`
raises. So every Python flavor refuses it where it sits (an `integer` field, a `number`
field, a free-form value or a kept unknown key) and accepts 4,300 digits, which round-trip.
Elixir reads JSON text through jiffy, whose integers have no such limit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from polytype import ir
from polytype.project.fixtures import discover
from pydantic import ValidationError

from .conftest import SHIPPED_MODULES, load_generated
from .test_flavors_agree import FIXTURES, _module_ir
from .test_json_limits import NUMBER_FIELDS, _decoders, _paths, records_keeping_unknown_keys

LONGEST = 10**4300 - 1  # 4,300 digits: the longest Python's json writes
TOO_LONG = [10**4300, -(10**4300), 7 * 10**5000]
MESSAGE = "integers of more than 4300 digits are not written by Python's json"


def _integer_fields() -> Iterator[tuple[str, str, str, str]]:
    """(module, record, JSON key, fixture) for one `integer` field per record with one."""
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
                if (
                    isinstance(inner, ir.Prim)
                    and inner.kind == "int"
                    and inner.constraints.is_empty()
                    and not item.aliases
                ):
                    yield module, named.name, item.json_key, fixtures[named.name]
                    break


INTEGER_FIELDS = list(_integer_fields())
FIELDS = INTEGER_FIELDS + NUMBER_FIELDS


def _unbounded(module: str, record: str, key: str) -> bool:
    """Whether the field takes any number (no `minimum`, `maximum`, ...)."""
    named = _module_ir(module).get(record)
    assert isinstance(named, ir.Record)
    item = next(item for item in named.fields if item.json_key == key)
    inner = item.type.inner if isinstance(item.type, ir.Nullable) else item.type
    return isinstance(inner, ir.Prim) and inner.constraints.is_empty()


UNBOUNDED_FIELDS = [field for field in FIELDS if _unbounded(*field[:3])]


def _fixture(fixture: str) -> dict[str, Any]:
    data = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_there_are_integer_and_number_fields() -> None:
    assert len({module for module, *_ in INTEGER_FIELDS}) >= 3
    assert len(NUMBER_FIELDS) >= 3
    assert len(UNBOUNDED_FIELDS) >= 5


@pytest.mark.parametrize(("module", "record", "key", "fixture"), FIELDS)
def test_too_long_integers_are_rejected_at_their_field(
    module: str, record: str, key: str, fixture: str
) -> None:
    data = _fixture(fixture)
    for value in TOO_LONG:
        for flavor, decode in _decoders(module, record).items():
            with pytest.raises(ValueError) as caught:
                decode(dict(data, **{key: value}))
            if flavor == "pydantic":
                assert key in _paths(caught.value), flavor
                assert MESSAGE in str(caught.value)
            else:
                assert caught.value.path in (f"$.{key}", f'$["{key}"]'), (flavor, caught.value)
                assert str(caught.value).endswith(MESSAGE)


@pytest.mark.parametrize(("module", "record", "key", "fixture"), UNBOUNDED_FIELDS)
def test_the_longest_writable_integer_round_trips(
    module: str, record: str, key: str, fixture: str
) -> None:
    data = _fixture(fixture)
    for value in (LONGEST, -LONGEST):
        given = dict(data, **{key: value})
        dataclass = getattr(load_generated(module, "dataclass_models"), record)
        decoded = dataclass.from_dict(given)
        assert json.loads(decoded.to_json()) == given
        assert _decoders(module, record)["typed_dicts"](given) == given
        model = getattr(load_generated(module, "pydantic_models"), record)
        dumped = model.model_validate(given).model_dump(
            mode="json", by_alias=True, exclude_unset=True
        )
        assert json.loads(json.dumps(dumped)) == given


@pytest.mark.parametrize("module", SHIPPED_MODULES)
def test_too_long_integers_in_free_form_values_are_rejected(module: str) -> None:
    """Kept unknown keys hold free-form JSON: a too-long integer there is refused with its path."""
    checked = 0
    for type_name, data in records_keeping_unknown_keys(module):
        unknown = "zz_unknown_key"
        for value in TOO_LONG:
            bad = dict(data, **{unknown: {"a": [1, value]}})
            for flavor, decode in _decoders(module, type_name).items():
                with pytest.raises(ValueError) as caught:
                    decode(bad)
                assert MESSAGE in str(caught.value), flavor
                if flavor != "pydantic":
                    assert caught.value.path == f"$.{unknown}.a[1]"
        checked += 1
        break
    assert checked or module == "bedrock_swarm", f"{module}: no record keeps unknown keys"


@pytest.mark.parametrize(("module", "record", "key", "fixture"), INTEGER_FIELDS)
def test_too_long_integers_in_json_text_are_refused(
    module: str, record: str, key: str, fixture: str, json_parser: str
) -> None:
    sentinel = "918273645546372819"
    text = json.dumps(dict(_fixture(fixture), **{key: int(sentinel)}))
    text = text.replace(sentinel, "9" * 4301)
    dataclass = getattr(load_generated(module, "dataclass_models"), record)
    model = getattr(load_generated(module, "pydantic_models"), record)
    with pytest.raises(ValueError, match="4300"):
        dataclass.from_json(text)
    with pytest.raises(ValidationError):
        model.model_validate_json(text)
