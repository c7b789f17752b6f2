"""Every flavor's verdict equals the JSON-Schema-Test-Suite's (issue 19).

One project holds a module per case group of the measured keywords
(`tests/suite_conformance.py` says how a group becomes a module, and which of its tests
are off-type); one `polytype generate` writes every target. The dataclass decoders, the
TypedDict validators and the Pydantic models are called here on each test's `data`; the
Elixir decoders run as one `mix test` over the same tests written as fixtures.

Every draft from 4 to 2020-12 is measured: a module of an older draft says so in
`$schema`, and the front end normalises it before lowering.

`KNOWN_GAPS` lists, with the reason, every group polytype does not get right yet. A
listed group must still fail (strict xfail), so the list shrinks as the work lands. A
group of an older draft with the same schema and tests as a listed 2020-12 group (its
twin) is a known gap for the same reason; the others are listed by their draft-prefixed
id (`draft7:dependencies/0`).
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

_STATIC_DYNAMIC_REF = (
    "$dynamicRef is resolved statically (a located warning): the extension that re-points "
    "it, and what it evaluates, is not followed"
)
_STATIC_RECURSIVE_REF = "$recursiveRef is resolved statically, as $dynamicRef"

# group id -> why polytype does not match the suite's verdicts on it yet
KNOWN_GAPS: dict[str, str] = {
    "type/0": _INTEGRAL_FLOAT,
    "unevaluatedProperties/21": _STATIC_DYNAMIC_REF,
    "unevaluatedItems/18": _STATIC_DYNAMIC_REF,
    "draft2019-09:unevaluatedProperties/21": _STATIC_RECURSIVE_REF,
    "draft2019-09:unevaluatedItems/19": _STATIC_RECURSIVE_REF,
}

GROUPS = suite.groups()
TWINS = suite.twins(GROUPS)


def known_gap(group: suite.Group) -> str | None:
    """Why polytype does not match the suite on `group` yet, or None."""
    if group.id in KNOWN_GAPS:
        return KNOWN_GAPS[group.id]
    twin = TWINS.get(group.id)
    if twin is not None and twin in KNOWN_GAPS:
        return f"{KNOWN_GAPS[twin]} (as {twin})"
    return None


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
    gap = known_gap(group)
    if gap is not None:
        marks.append(pytest.mark.xfail(strict=True, reason=gap))
    return pytest.param(group, id=group.id, marks=marks)


def test_every_gap_names_a_group() -> None:
    assert set(KNOWN_GAPS) <= {group.id for group in GROUPS}


def test_every_draft_is_measured() -> None:
    """Drafts 4 to 2020-12, each with the keywords it has (`dependencies` up to draft 7,
    `const` and `propertyNames` from draft 6, `dependentRequired` from 2019-09)."""
    by_draft: dict[str, set[str]] = {}
    for group in GROUPS:
        by_draft.setdefault(group.draft, set()).add(group.keyword)
    assert sorted(by_draft) == sorted(draft.name for draft in suite.DRAFTS)
    assert "dependencies" in by_draft["draft4"] and "const" not in by_draft["draft4"]
    assert "dependentRequired" in by_draft["draft2019-09"]
    assert "dependencies" not in by_draft["draft2020-12"]
    # most groups of the older drafts repeat a 2020-12 group: those share its verdicts
    assert len(TWINS) > len(GROUPS) // 2


def test_every_group_is_judged() -> None:
    """A group whose tests are all off-type would measure nothing."""
    assert all(group.tests for group in GROUPS), [g.id for g in GROUPS if not g.tests]


@pytest.mark.parametrize("group", [_param(group) for group in GROUPS])
def test_verdicts_equal_the_suite(built: suite.Built, group: suite.Group) -> None:
    problems = _disagreements(built, group)
    assert not problems, "\n".join([group.description, *problems])
