"""The corpus ratchet (issue 18): polytype on 18 published schemas, measured by tests/corpus.py.

Every schema of `../shared/corpus` is lowered, generated, type-checked, compiled and
round-tripped in every flavor, its instances mutated and judged against jsonschema; the
numbers must equal tests/corpus_expected.json: lower is a regression, higher means the
file must be raised in the same commit (the failure says which numbers, and
`python -m tests.corpus --update` writes them). A refused schema costs one capped child
process, so the whole corpus takes seconds while polytype refuses it and minutes once it
generates.

A small corpus built here, of a schema polytype takes today, shows that the harness
counts what it claims to: every instance round-trips in every flavor and every verdict
agrees.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from . import corpus

ELIXIR = corpus.elixir_available()


def _require_elixir_under_ci() -> None:
    if not ELIXIR and os.environ.get("CI") == "true":
        pytest.fail("elixir is not installed, and CI must measure the Elixir flavor")


@pytest.fixture(scope="module")
def results() -> dict[str, corpus.Result]:
    assert (
        corpus.CORPUS / "index.json"
    ).is_file(), f"the corpus is read in place from {corpus.CORPUS} (or $POLYTYPE_CORPUS)"
    _require_elixir_under_ci()
    return {result.name: result for result in corpus.measure()}


def test_every_corpus_schema_is_measured_and_expected(results: dict[str, corpus.Result]) -> None:
    names = [schema.name for schema in corpus.read_index()]
    assert len(names) == 18
    assert list(results) == names
    assert sorted(corpus.read_expected()) == sorted(names)
    assert sum(result.instances for result in results.values()) == 191


def test_the_corpus_numbers_equal_the_expectation(results: dict[str, corpus.Result]) -> None:
    expected = corpus.read_expected()
    regressed: list[str] = []
    improved: list[str] = []
    for name, result in results.items():
        worse, better = corpus.compare(name, corpus.expectation(result), expected[name], ELIXIR)
        regressed += worse
        improved += better
    print(corpus.table(list(results.values())))
    assert not (regressed or improved), corpus.ratchet_message(regressed, improved)


# --- the ratchet itself ----------------------------------------------------------------


def _numbers(**changes: Any) -> dict[str, Any]:
    numbers = corpus.expectation(corpus.Result("x", instances=3))
    numbers.update(changes)
    return numbers


def test_the_ratchet_fails_when_a_number_falls_or_rises() -> None:
    expected = _numbers(generates=True, round_trip={**_numbers()["round_trip"], "pydantic": 2})
    same = corpus.compare("s", expected, expected, elixir=True)
    assert same == ([], [])
    fell = _numbers(generates=True)
    regressed, improved = corpus.compare("s", fell, expected, elixir=True)
    assert regressed == ["s: round_trip.pydantic fell from 2 to 0"] and not improved
    rose = _numbers(generates=True, round_trip={**_numbers()["round_trip"], "pydantic": 3})
    regressed, improved = corpus.compare("s", rose, expected, elixir=True)
    assert improved == ["s: round_trip.pydantic rose from 2 to 3"] and not regressed
    assert "raise them" in corpus.ratchet_message(regressed, improved)
    started = corpus.compare("s", _numbers(generates=True), _numbers(), elixir=True)
    assert started == ([], ["s: generates rose from 0 to 1"])


def test_the_corpus_counts_must_match_exactly_and_elixir_counts_only_with_elixir() -> None:
    changed = corpus.compare("s", _numbers(mutations=5), _numbers(mutations=4), True)
    assert changed == ([], ["s: mutations is 5, recorded 4"])
    fewer = corpus.compare("s", _numbers(mutations=3), _numbers(mutations=4), True)
    assert fewer == ([], ["s: mutations is 3, recorded 4"])
    no_elixir = _numbers(round_trip={**_numbers()["round_trip"], "elixir": 3})
    assert corpus.compare("s", _numbers(), no_elixir, elixir=False) == ([], [])
    assert corpus.compare("s", _numbers(), no_elixir, elixir=True)[0]
    unformatted = _numbers(elixir_formatted=True)
    assert corpus.compare("s", _numbers(), unformatted, elixir=False) == ([], [])
    assert corpus.compare("s", _numbers(), unformatted, elixir=True)[0]


# --- mutations ---------------------------------------------------------------------------


def test_mutations_prefer_what_jsonschema_rejects() -> None:
    data = {"kind": "circle", "radius": 2, "meta": {"a b": [1]}}

    def judge(value: Any) -> bool:  # `kind` and `radius` required, radius a number
        return (
            isinstance(value, dict)
            and value.get("kind") == "circle"
            and isinstance(value.get("radius"), (int, float))
        )

    found = {m.kind: m for m in corpus.mutations(data, frozenset({"kind"}), judge)}
    assert found["drop"] == corpus.Mutation(
        "drop", {"radius": 2, "meta": {"a b": [1]}}, "$.kind", False
    )
    assert found["retype"].path == "$.kind" and not found["retype"].valid
    assert found["tag"].data["kind"] == corpus.UNKNOWN_TAG and found["tag"].path == "$.kind"
    assert data == {
        "kind": "circle",
        "radius": 2,
        "meta": {"a b": [1]},
    }, "mutating changed the input"


def test_a_mutation_jsonschema_accepts_is_kept_as_valid() -> None:
    found = corpus.mutations({"memo": [1]}, frozenset(), lambda value: True)
    assert [(m.kind, m.valid) for m in found] == [("drop", True), ("retype", True)]
    assert found[1].data == {"memo": "polytype-corpus-retyped"}
    assert corpus.segment("a b") + corpus.segment(0) == '["a b"][0]'


# --- the harness on a schema polytype takes ------------------------------------------------

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "Circle": {
            "type": "object",
            "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
            "required": ["kind", "radius"],
            "additionalProperties": False,
        },
        "Square": {
            "type": "object",
            "properties": {
                "kind": {"const": "square"},
                "side": {"type": "integer"},
                "label": {"type": "string"},
            },
            "required": ["kind", "side"],
        },
        "Shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]},
        "Drawing": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "shapes": {"type": "array", "items": {"$ref": "#/$defs/Shape"}},
            },
            "required": ["name", "shapes"],
        },
        "Note": {"type": "object", "properties": {"text": {"type": "string"}}},
    },
}
INSTANCES = {
    "Shape.circle.json": ("Shape", {"kind": "circle", "radius": 1.5}),
    "Shape.square.json": ("Shape", {"kind": "square", "side": 2, "label": "a", "color": "red"}),
    "Drawing.one.json": ("Drawing", {"name": "d", "shapes": [{"kind": "square", "side": 1}]}),
    "Note.free.json": ("Note", {"memo": {"x": [1, None]}}),
}


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> corpus.CorpusSchema:
    """A corpus of one schema, laid out as ../shared/corpus is (with its validate.py)."""
    root = tmp_path_factory.mktemp("corpus")
    shutil.copy(corpus.CORPUS / "validate.py", root / "validate.py")
    folder = root / "shapes"
    (folder / "instances").mkdir(parents=True)
    (folder / "schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    instances = []
    for file, (type_name, value) in INSTANCES.items():
        (folder / "instances" / file).write_text(json.dumps(value), encoding="utf-8")
        instances.append({"file": f"instances/{file}", "root": f"schema.json#/$defs/{type_name}"})
    entry = {
        "draft": "2020-12",
        "schema": "schema.json",
        "resources": {"schema.json": "https://corpus.invalid/shapes/schema.json"},
        "external_refs": {},
        "instances": instances,
    }
    (root / "index.json").write_text(json.dumps({"schemas": {"shapes": entry}}), "utf-8")
    [schema] = corpus.read_index(root)
    return schema


def test_the_harness_counts_every_flavor_on_a_schema_polytype_takes(
    small_corpus: corpus.CorpusSchema, tmp_path: Path
) -> None:
    _require_elixir_under_ci()
    result = corpus.measure_one(small_corpus, tmp_path, ELIXIR)
    assert result.generates and result.mypy, result.note
    assert result.typed == result.instances == 4
    flavors = corpus.FLAVORS if ELIXIR else corpus.PYTHON_FLAVORS
    assert result.elixir_compiles == ELIXIR
    assert result.elixir_formatted == ELIXIR
    for flavor in flavors:
        assert result.round_trip[flavor] == 4, (flavor, result)
        assert result.verdicts[flavor] == result.mutations, (flavor, result)
    # 3 instances x 3 kinds, Note: drop and retype (accepted), no tag
    assert result.mutations == 11
    invalid = list((tmp_path / "tests" / "fixtures").rglob("invalid/*.json"))
    assert len(invalid) == 9


# --- reading the generated suites' results ----------------------------------------------

JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite>
<testcase classname="t" name="test_dataclass_round_trip[m/T/a.json]"/>
<testcase classname="t" name="test_pydantic_round_trip[m/T/a.json]"><failure message="AssertionError: assert 1 == 2"/></testcase>
<testcase classname="t" name="test_dataclass_rejects[m/T/invalid/b.json]"><failure message="Failed: DID NOT RAISE &lt;class 'DecodeError'&gt;"/></testcase>
<testcase classname="t" name="test_typeddict_rejects[m/T/invalid/b.json]"><failure message="AssertionError: $.x: expected string"/></testcase>
<testcase classname="t" name="test_pydantic_rejects[m/T/invalid/b.json]"><failure message="TypeError: boom"/></testcase>
<testcase classname="t" name="test_module_has_fixtures"/>
</testsuite></testsuites>"""


def test_pytest_results_give_each_flavor_its_verdict(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    junit.write_text(JUNIT, encoding="utf-8")
    assert corpus._pytest_outcomes(junit, "m") == {
        ("dataclasses", "T/a.json"): True,
        ("pydantic", "T/a.json"): False,
        ("dataclasses", "T/invalid/b.json"): False,  # accepted what jsonschema rejects
        ("typeddicts", "T/invalid/b.json"): True,  # rejected, at another path
        ("pydantic", "T/invalid/b.json"): False,  # crashed
    }


MIX_OUTPUT = """
  1) test valid fixtures round-trip T/a.json (M.PolytypeRoundTripTest)
     test/m_test.exs:15
     Assertion with === failed

  2) test invalid fixtures are rejected at the recorded path T/invalid/b.json (M.PolytypeRoundTripTest)
     test/m_test.exs:30
     match (=) failed
     code:  assert {:error, {error_path, reason}} = module.from_json(data)

  3) test invalid fixtures are rejected at the recorded path T/invalid/c.json (M.PolytypeRoundTripTest)
     test/m_test.exs:40
     $.errors: missing required key
     code: assert_rejected(
     stacktrace:
       test/m_test.exs:41: (test)

  4) test invalid fixtures are rejected at the recorded path T/invalid/e.json (M.PolytypeRoundTripTest)
     test/m_test.exs:50
     match (=) failed
     code:  assert {:error, {error_path, reason}} = module.from_json(data)
     left:  {:error, {error_path, reason}}
     right: {:ok, %M.T{data: "retyped"}}
     stacktrace:
       test/test_helper.exs:44: PolytypeGenerated.TestSupport.assert_rejected/3
       test/m_test.exs:51: (test)

Finished in 0.1 seconds (0.1s async, 0.00s sync)
9 tests, 4 failures
"""


def test_exunit_results_give_the_elixir_verdict() -> None:
    fixtures = [
        corpus.Fixture("T/a.json", True, True),
        corpus.Fixture("T/d.json", True, True),
        corpus.Fixture("T/invalid/b.json", False, False),
        corpus.Fixture("T/invalid/c.json", False, False),
        corpus.Fixture("T/invalid/e.json", False, False),
    ]
    compiled, outcomes = corpus._exunit_outcomes(MIX_OUTPUT, fixtures)
    assert compiled
    # c.json was rejected at another path than the guessed one (the helper's message
    # names where): jsonschema's verdict all the same, as for the Python flavors
    assert outcomes == {
        "T/a.json": False,
        "T/d.json": True,
        "T/invalid/b.json": False,
        "T/invalid/c.json": True,
        "T/invalid/e.json": False,
    }
    assert corpus._exunit_outcomes("== Compilation error in file lib/x.ex ==", fixtures) == (
        False,
        {},
    )
