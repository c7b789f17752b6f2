"""`format` as an opt-in assertion (`[tool.polytype] formats = [...]`, issue 19).

The oracle is jsonschema 4.26's Draft 2020-12 format checker: on every string case of
the official suite's `optional/format/<name>.json` (read in place), each flavor's verdict
must equal jsonschema's (where jsonschema and the suite disagree, jsonschema wins: the
decoders promise its judgement). `KNOWN_GAPS` lists, with the reason, the cases a flavor
does not match yet (strict xfail).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.compile import read_schema
from polytype.diagnostics import InputError
from polytype.ir.formats import SUPPORTED
from polytype.project.config import find_project

from . import suite_conformance as suite
from .conftest import CHECKOUT_PATH, REPO, import_file
from .test_suite_conformance import _disagreements
from .workflow_support import run, write_lines

FORMAT_DIR = suite.SUITES / suite.REFERENCE / "optional" / "format"
CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER

# group id -> why a flavor does not match jsonschema on it yet
KNOWN_GAPS: dict[str, str] = {}


def _oracle_group(name: str, index: int, group: dict[str, Any], typed: bool) -> suite.Group:
    """A suite group of `name`, its tests judged by jsonschema (not the suite).

    `typed`: the schema gets `type: string` (a string type carries the format) and only
    the string tests count; else the schema stays as written (`{format: ...}`, free-form
    JSON: a schema check asserts the format) and every test counts, under the keyword
    `<name>-untyped`."""
    reference = suite.DRAFTS_BY_NAME[suite.REFERENCE]
    read = suite._group(reference, name, index, group, "string" if typed else None)
    chosen = jsonschema.FormatChecker(())
    # a format jsonschema cannot check here (a missing optional dependency) fails
    # test_every_format_the_dialect_lists_has_a_jsonschema_checker, not the collection
    chosen.checkers = {name: CHECKER.checkers[name]} if name in CHECKER.checkers else {}
    judged = tuple(
        suite.Test(
            test.description,
            test.data,
            jsonschema.Draft202012Validator(read.schema, format_checker=chosen).is_valid(test.data),
        )
        for test in read.tests
    )
    keyword = name if typed else f"{name}-untyped"
    return suite.Group(keyword, index, read.description, read.schema, judged, read.off_type)


def format_groups() -> list[suite.Group]:
    found = []
    for typed in (True, False):
        for name in SUPPORTED:
            groups = json.loads((FORMAT_DIR / f"{name}.json").read_text(encoding="utf-8"))
            found.extend(
                _oracle_group(name, index, group, typed) for index, group in enumerate(groups)
            )
    return found


GROUPS = format_groups()
SETTINGS = f"formats = {json.dumps(list(SUPPORTED))}\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> suite.Built:
    root = tmp_path_factory.mktemp("formats") / "project"
    return suite.build(root, GROUPS, elixir=True, settings=SETTINGS)


def _param(group: suite.Group) -> Any:
    gap = KNOWN_GAPS.get(group.id)
    marks = [pytest.mark.xfail(strict=True, reason=gap)] if gap else []
    return pytest.param(group, id=group.id, marks=marks)


def _formats_the_dialect_documents() -> list[str]:
    """The formats docs/dialect.md lists as asserted (the first column of its format table)."""
    text = (REPO / "docs" / "dialect.md").read_text(encoding="utf-8")
    table = text[text.index("| format | accepted") :].split("\n\n", 1)[0].splitlines()[2:]
    return [name for row in table for name in re.findall(r"`([a-z0-9-]+)`", row.split("|")[1])]


def test_every_format_the_dialect_lists_has_a_jsonschema_checker() -> None:
    """jsonschema registers some checkers only when an optional package imports
    (`date-time` and `time` need rfc3339-validator, the JSON pointers jsonpointer): a
    missing dependency must fail here, not silently leave a format unchecked."""
    documented = _formats_the_dialect_documents()
    assert sorted(documented) == sorted(SUPPORTED)
    missing = [name for name in documented if name not in CHECKER.checkers]
    assert missing == [], f"jsonschema cannot check {missing}: a dependency is not installed"
    assert all(group.tests for group in GROUPS)


@pytest.mark.parametrize("group", [_param(group) for group in GROUPS])
def test_verdicts_equal_jsonschema(built: suite.Built, group: suite.Group) -> None:
    problems = _disagreements(built, group)
    assert not problems, "\n".join([group.description, *problems])


# --- mutated strings: Python and Elixir against jsonschema ---------------------------

# Strings near the edges of each format (the suite's plus edits of them)
_SEEDS = {
    "date-time": ["2020-01-01T00:00:00Z", "2020-02-29t23:59:59.5+23:59", "2021-02-29T00:00:00Z"],
    "date": ["2020-02-29", "2021-02-29", "0001-01-01", "0000-01-01"],
    "time": ["23:59:59Z", "10:00:00.1-01:00", "24:00:00Z"],
    "ipv4": ["1.2.3.4", "255.255.255.255", "256.1.1.1", "01.2.3.4"],
    "ipv6": ["::1", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "1::2::3", "fe80::1%eth0"],
    "uuid": ["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"],
    "json-pointer": ["", "/a~0b/~1", "/~2", "a/b"],
    "relative-json-pointer": ["0", "1#", "10/a", "01", "100", "#"],
    "email": ["a@b", "ab"],
}


def _mutations(text: str) -> list[str]:
    found = {text, text + "\n", text.upper(), text.lower(), " " + text, text[:-1], text[1:]}
    for index in range(len(text)):
        found.add(text[:index] + text[index + 1 :])
        found.add(text[:index] + "0" + text[index + 1 :])
        found.add(text[:index] + ":" + text[index:])
    return sorted(found)


MUTATED = [
    (name, value) for name, seeds in _SEEDS.items() for seed in seeds for value in _mutations(seed)
]


@pytest.fixture(scope="module")
def mutated_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One module with a field per format; a fixture per mutated string."""
    root = tmp_path_factory.mktemp("mutated")
    (root / "schema").mkdir()
    (root / "pyproject.toml").write_text(
        f"[tool.polytype]\nstrict = true\n{SETTINGS}", encoding="utf-8"
    )
    properties = {name.replace("-", "_"): {"type": "string", "format": name} for name in _SEEDS}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Formats",
        "$defs": {"Sample": {"type": "object", "properties": properties}},
    }
    (root / "schema" / "mutated.json").write_text(json.dumps(schema), encoding="utf-8")
    folder = root / "tests" / "fixtures" / "mutated" / "Sample"
    for number, (name, value) in enumerate(MUTATED):
        valid = CHECKER.conforms(value, name)
        target = folder if valid else folder / "invalid"
        target.mkdir(parents=True, exist_ok=True)
        data = {name.replace("-", "_"): value}
        (target / f"m{number}.json").write_text(json.dumps(data), encoding="utf-8")
        if not valid:
            (target / f"m{number}.path").write_text(f"$.{name.replace('-', '_')}\n", "utf-8")
    assert run(root, "generate") == 0
    return root


def test_mutated_strings_python(mutated_project: Path) -> None:
    base = mutated_project / "generated" / "python" / "mutated"
    models = import_file(base / "dataclass_models.py", "polytype_formats.mutated.dataclasses")
    typed = import_file(base / "typed_dicts.py", "polytype_formats.mutated.typeddicts")
    pydantic = import_file(base / "pydantic_models.py", "polytype_formats.mutated.pydantic")
    wrong = []
    for name, value in MUTATED:
        data = {name.replace("-", "_"): value}
        expected = CHECKER.conforms(value, name)
        for flavor, decode, error in (
            ("dataclasses", models.decode_sample, models.DecodeError),
            ("typeddicts", typed.validate_sample, ValueError),
            ("pydantic", pydantic.Sample.model_validate, ValueError),
        ):
            try:
                decode(copy.deepcopy(data))
                accepted = True
            except error:
                accepted = False
            if accepted != expected:
                wrong.append((flavor, name, value, expected))
    assert not wrong


@pytest.mark.skipif(shutil.which("mix") is None, reason="needs Elixir")
def test_mutated_strings_elixir(mutated_project: Path) -> None:
    """The generated ExUnit suite decodes every fixture: the valid ones round-trip, the
    invalid ones fail at the field's path."""
    _mix_test(mutated_project)


def _mix_test(root: Path) -> None:
    """Run the generated Mix project's ExUnit suite; it must pass."""
    done = subprocess.run(
        ["mix", "test"],
        cwd=root / "generated" / "elixir",
        env={**suite._environ(), "MIX_ENV": "test"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]


# --- configuration ----------------------------------------------------------------


def _configured(root: Path, settings: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[tool.polytype]\n{settings}", encoding="utf-8")
    return root


def test_module_list_replaces_the_projects(tmp_path: Path) -> None:
    root = _configured(
        tmp_path,
        'formats = ["date-time", "uuid"]\n[tool.polytype.modules.plain]\nformats = []\n'
        '[tool.polytype.modules.ids]\nformats = ["uuid"]\n',
    )
    project = find_project(root)
    assert project.formats.for_module("other") == {"date-time", "uuid"}
    assert project.formats.for_module("plain") == frozenset()
    assert project.formats.for_module("ids") == {"uuid"}


@pytest.mark.parametrize(
    ("settings", "pointer"),
    [
        ('formats = ["date-time", "uri"]\n', "/tool/polytype/formats"),
        ('formats = "date-time"\n', "/tool/polytype/formats"),
        (
            '[tool.polytype.modules.events]\nformats = ["hostname"]\n',
            "/tool/polytype/modules/events/formats",
        ),
    ],
)
def test_a_format_polytype_cannot_assert_is_a_located_error(
    tmp_path: Path, settings: str, pointer: str
) -> None:
    root = _configured(tmp_path, settings)
    with pytest.raises(InputError) as raised:
        find_project(root)
    problem = raised.value.diagnostics[0]
    assert problem.file.endswith("pyproject.toml") and problem.pointer == pointer
    assert "date-time, date, time, email" in problem.message


def test_the_config_error_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _configured(tmp_path, 'formats = ["uri"]\n')
    (root / "schema").mkdir()
    assert run(root, "generate") == 2
    err = capsys.readouterr().err
    assert "pyproject.toml" in err and "/tool/polytype/formats" in err and "'uri'" in err
    assert "supported: date-time" in err


# --- lowering: what is asserted, and nothing when nothing is chosen -----------------

EVENTS = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: Events
$defs:
  Event:
    type: object
    properties:
      created: {type: string, format: date-time}
      day: {type: [string, "null"], format: date}
      id: {type: string, format: uuid, minLength: 36}
      count: {type: integer, format: date-time}
      link: {type: string, format: uri}
    required: [created]
    additionalProperties: false
"""


def _events(root: Path, settings: str) -> Path:
    _configured(root, f"strict = true\n{settings}")
    (root / "schema").mkdir()
    (root / "schema" / "events.yaml").write_text(EVENTS, encoding="utf-8")
    (root / "tests" / "fixtures").mkdir(parents=True)
    return root


def _field_constraints(root: Path) -> dict[str, ir.Constraints]:
    project = find_project(root)
    path = root / "schema" / "events.yaml"
    module = read_schema(path, "schema/events.yaml", chosen=project.formats).module
    record = module.get("Event")
    assert isinstance(record, ir.Record)
    found = {}
    for item in record.fields:
        type_ref = item.type
        while isinstance(type_ref, ir.Nullable):
            type_ref = type_ref.inner
        assert isinstance(type_ref, ir.Prim)
        found[item.json_key] = type_ref.constraints
    return found


def test_lowering_puts_a_chosen_format_on_strings_only(tmp_path: Path) -> None:
    found = _field_constraints(_events(tmp_path, 'formats = ["date-time", "date"]\n'))
    assert found["created"].format == "date-time"
    assert found["day"].format == "date"  # type: [string, null]
    assert found["id"].format is None and found["id"].min_length == 36  # uuid: not chosen
    assert found["count"].format is None  # format applies to strings only
    assert found["link"].format is None


def test_without_chosen_formats_nothing_changes(tmp_path: Path) -> None:
    found = _field_constraints(_events(tmp_path, ""))
    assert all(constraints.format is None for constraints in found.values())
    assert run(tmp_path, "generate") == 0
    for path in (tmp_path / "generated").rglob("*"):
        if path.suffix in (".py", ".ex"):
            text = path.read_text(encoding="utf-8")
            assert "_is_date" not in text and "format?(" not in text, path


# --- end to end: the real CLI, every flavor -----------------------------------------

GOOD = {
    "created": "2024-02-29T12:00:00.5+01:00",
    "day": "2024-02-29",
    "id": "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "count": 1,
    "link": "not a uri",
}
BAD = [
    ({"created": "2023-02-29T12:00:00Z"}, "$.created", "is not a 'date-time'"),
    ({"day": "2024-2-29"}, "$.day", "is not a 'date'"),
    ({"id": "2eb8aa08aa98-11ea-b4aa-73b441d16380-"}, "$.id", "is not a 'uuid'"),
]


def test_generate_then_decode_in_every_flavor(tmp_path: Path) -> None:
    root = _events(tmp_path, 'formats = ["date-time", "date", "uuid"]\n')
    fixtures = root / "tests" / "fixtures" / "events" / "Event"
    (fixtures / "invalid").mkdir(parents=True)
    (fixtures / "good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    for number, (change, path, _) in enumerate(BAD):
        (fixtures / "invalid" / f"bad{number}.json").write_text(
            json.dumps({**GOOD, **change}), encoding="utf-8"
        )
        (fixtures / "invalid" / f"bad{number}.path").write_text(path + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "polytype", "generate"],
        cwd=root,
        env={**suite._environ(), "PYTHONPATH": CHECKOUT_PATH},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    python = root / "generated" / "python" / "events"
    models = import_file(python / "dataclass_models.py", "polytype_formats.e2e.dataclasses")
    typed = import_file(python / "typed_dicts.py", "polytype_formats.e2e.typeddicts")
    pydantic = import_file(python / "pydantic_models.py", "polytype_formats.e2e.pydantic")
    event = models.decode_event(GOOD)
    assert event.created == GOOD["created"] and models.encode_event(event) == GOOD
    assert typed.validate_event(GOOD) is not None
    assert pydantic.Event.model_validate(GOOD).model_dump(mode="json", exclude_unset=True) == GOOD
    for change, path, message in BAD:
        data = {**GOOD, **change}
        with pytest.raises(models.DecodeError, match=rf"^\{path}: {message}$"):
            models.decode_event(data)
        with pytest.raises(typed.DecodeError, match=rf"^\{path}: {message}$"):
            typed.validate_event(data)
        with pytest.raises(ValueError, match=message):
            pydantic.Event.model_validate(data)
    if shutil.which("mix") is not None:  # the ExUnit suite runs the same fixtures
        _mix_test(root)
        exunit = next((root / "generated" / "elixir" / "test").glob("events*_test.exs"))
        assert exunit.read_text(encoding="utf-8").count("assert_rejected(Events.Event") == len(BAD)


# --- drift shares the decoders' judgement -----------------------------------------


def test_drift_reports_a_broken_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _events(tmp_path, 'formats = ["date-time"]\n')
    good = write_lines(tmp_path / "good.jsonl", [GOOD])
    assert run(root, "drift", "events", str(good), "--type", "Event") == 0
    capsys.readouterr()
    stream = write_lines(tmp_path / "bad.jsonl", [GOOD, {**GOOD, "created": "2024-01-01 12:00"}])
    assert run(root, "drift", "events", str(stream), "--type", "Event") == 1
    out = capsys.readouterr().out
    assert 'breaks format: "date-time"' in out and "bad.jsonl:2" in out


# --- unions: a checked format is no longer loose -------------------------------------

UNION = """\
$defs:
  Stamp:
    oneOf:
      - {type: string, format: date-time}
      - {type: string, enum: [now, never]}
"""


@pytest.mark.parametrize("chosen", [False, True])
def test_a_checked_format_does_not_make_a_union_member_loose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chosen: bool
) -> None:
    settings = 'targets = ["dataclasses"]\n' + ('formats = ["date-time"]\n' if chosen else "")
    root = _configured(tmp_path, settings)
    (root / "schema").mkdir()
    (root / "schema" / "stamps.yaml").write_text(UNION, encoding="utf-8")
    assert run(root, "generate") == 0
    warned = "checked less than the schema says" in capsys.readouterr().err
    assert warned is not chosen
    module = read_schema(
        root / "schema" / "stamps.yaml",
        "schema/stamps.yaml",
        False,
        chosen=find_project(root).formats,
    ).module
    union = module.get("Stamp")
    assert isinstance(union, ir.UnionType)
    assert union.match == ("one_of" if chosen else "any_of")


def test_drift_judges_a_format_in_a_schema_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`{format: date-time}` without `type` is free-form JSON with a check: strings must be
    date-times, other values pass (JSON Schema applies `format` to strings only)."""
    root = _configured(tmp_path, 'strict = true\nformats = ["date-time"]\n')
    (root / "schema").mkdir()
    (root / "schema" / "loose.yaml").write_text(
        "$defs:\n  Loose: {format: date-time}\n", encoding="utf-8"
    )
    good = write_lines(tmp_path / "good.jsonl", ['"2024-01-01T00:00:00Z"', 5, None])
    assert run(root, "drift", "loose", str(good), "--type", "Loose") == 0
    bad = write_lines(tmp_path / "bad.jsonl", [5, '"yesterday"'])
    assert run(root, "drift", "loose", str(bad), "--type", "Loose") == 1
    assert "bad.jsonl:2" in capsys.readouterr().out


def test_an_asserted_format_added_narrows_a_string() -> None:
    """`polytype breaking` compares asserted formats as it compares patterns."""
    from polytype.workflow.variance import constraints

    none, stamp = ir.Constraints(), ir.Constraints(format="date-time")
    assert constraints(none, stamp).verdict == "narrowed"
    assert constraints(stamp, none).verdict == "widened"
    assert constraints(stamp, ir.Constraints(format="date")).verdict == "changed"
    assert constraints(none, stamp).reasons == ('format none → "date-time"',)
