"""Schema checks in the Elixir flavor: the runtime's JSON Schema evaluator, and the decoders
that call it.

What a consumed schema says that no type can express (`not`, `if`/`then`/`else`,
`dependentSchemas` beyond required keys, an `allOf` part that cannot merge) reaches the
targets as `ir.SchemaCheck`s: the decoder checks the JSON value as it arrives against the
JSON Schema fragment, with JSON Schema's own semantics. The Mix project's runtime carries a
small 2020-12 evaluator for it (`matches?/3`), generated only where a module has checks;
each such module's `<Namespace>.PolytypeChecks.rules/0` gives it the module's definitions,
patterns and asserted formats.

The evaluator is proved on the official JSON-Schema-Test-Suite (every case of the keyword
files, in one `elixir` run; the groups it does not claim are listed with their reason),
and the generated decoders against jsonschema on hand-written values.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from polytype import ir
from polytype.ir.json_types import freeze_json
from polytype.targets import elixir
from polytype.targets.base.render import make_env
from polytype.targets.elixir.terms import check_schema, ex_json_literal

from .conftest import REPO

needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")

SUITE = REPO.parent / "shared" / "json-schema-test-suite" / "tests" / "draft2020-12"


def _thaw(value: ir.JSONData) -> Any:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def _jiffy_ebin() -> str:
    found = sorted(Path("/usr/lib/erlang/lib").glob("jiffy-*/ebin"))
    if not found:
        pytest.skip("jiffy is not installed (apt-get install erlang-jiffy)")
    return str(found[-1])


def _compile(sources: list[Path], ebin: Path) -> None:
    ebin.mkdir(parents=True, exist_ok=True)
    compiled = subprocess.run(
        ["elixirc", "--warnings-as-errors", "-o", str(ebin), *map(str, sources)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def _runtime_module() -> ir.Module:
    """The smallest module for which the runtime carries the evaluator: one checked alias."""
    check = ir.SchemaCheck(freeze_json({"not": {"type": "null"}}), ("not",), "/$defs/Value")
    value = ir.Alias("Value", ir.Checked(ir.AnyJSON(), (check,)))
    return ir.Module("suite", "Suite", "", "suite.json", "0" * 64, None, (value,))


# --- the JSON-Schema-Test-Suite -----------------------------------------------------

# Whole files about what the evaluator does not do. Schema checks hold 2020-12 fragments
# whose `$ref`s are all `#/$defs/Name`, bundled by the front end, so identifiers,
# anchors, dynamic and remote references never reach it. `format` is an annotation (its
# file is run: every case there is valid).
_FILES_NOT_CLAIMED = {
    "anchor.json": "$anchor (the front end resolves anchors before checks are built)",
    "dynamicRef.json": "$dynamicRef/$dynamicAnchor (resolved statically by the front end)",
    "refRemote.json": "remote $refs (bundled into check_defs by the front end)",
    "defs.json": "validates against the remote 2020-12 meta-schema",
    "vocabulary.json": "$vocabulary in a custom meta-schema",
}


_EMBEDDED_ID = "an embedded $id (a new base for the references under it)"
_ELSEWHERE = "$ref to something else than `#/$defs/Name`"
_ROOT = "$ref to `#` (the root, not a definition)"


def _unclaimed_reason(schema: Any, root: bool = True) -> str | None:
    """Why a group's schema uses what the evaluator does not do, or None."""
    if isinstance(schema, list):
        return next((r for item in schema if (r := _unclaimed_reason(item, False))), None)
    if not isinstance(schema, dict):
        return None
    dynamic = [key for key in ("$anchor", "$dynamicAnchor", "$dynamicRef") if key in schema]
    if dynamic:
        return dynamic[0]
    for key, value in schema.items():
        if key == "$id" and not root:
            return _EMBEDDED_ID
        if key == "$ref" and isinstance(value, str):
            if value == "#":
                return _ROOT
            if not value.startswith("#/$defs/"):
                return _ELSEWHERE
            if "/" in value[len("#/$defs/") :]:
                return "$ref into a definition (`#/$defs/a/...`)"
        if key in ("enum", "const", "default", "examples"):
            continue  # data, not schemas
        reason = _unclaimed_reason(value, False)
        if reason:
            return reason
    return None


def _suite_cases() -> tuple[list[tuple[str, str, str, Any, Any, bool]], dict[str, str]]:
    """(file, group, case, schema, data, valid) of every claimed case, and the unclaimed
    groups (`file: group`) with their reason."""
    cases: list[tuple[str, str, str, Any, Any, bool]] = []
    unclaimed: dict[str, str] = {}
    for path in sorted(SUITE.glob("*.json")):
        if path.name in _FILES_NOT_CLAIMED:
            unclaimed[path.name] = _FILES_NOT_CLAIMED[path.name]
            continue
        for group in json.loads(path.read_text(encoding="utf-8")):
            reason = _unclaimed_reason(group["schema"])
            if reason:
                unclaimed[f"{path.name}: {group['description']}"] = reason
                continue
            for case in group["tests"]:
                cases.append(
                    (
                        path.name,
                        group["description"],
                        case["description"],
                        group["schema"],
                        case["data"],
                        case["valid"],
                    )
                )
    return cases, unclaimed


# What the evaluator does not claim, each with its reason (a change here is a change in
# what it claims: update the list on purpose).
_EXPECTED_UNCLAIMED = {
    **_FILES_NOT_CLAIMED,
    "ref.json: root pointer ref": _ROOT,
    "ref.json: relative pointer ref to object": _ELSEWHERE,
    "ref.json: relative pointer ref to array": _ELSEWHERE,
    "ref.json: remote ref, containing refs itself": _ELSEWHERE,
    "ref.json: Recursive references between schemas": _ELSEWHERE,
    "ref.json: refs with relative uris and defs": _EMBEDDED_ID,
    "ref.json: relative refs with absolute uris and defs": _EMBEDDED_ID,
    "ref.json: $id must be resolved against nearest parent, not just immediate parent": _EMBEDDED_ID,
    "ref.json: order of evaluation: $id and $ref": _ELSEWHERE,
    "ref.json: order of evaluation: $id and $anchor and $ref": _ELSEWHERE,
    "ref.json: order of evaluation: $id and $ref on nested schema": _ELSEWHERE,
    "ref.json: simple URN base URI with $ref via the URN": _ELSEWHERE,
    "ref.json: URN base URI with URN and JSON pointer ref": _ELSEWHERE,
    "ref.json: URN base URI with URN and anchor ref": _ELSEWHERE,
    "ref.json: URN ref with nested pointer ref": _ELSEWHERE,
    "ref.json: ref to if": _ELSEWHERE,
    "ref.json: ref to then": _ELSEWHERE,
    "ref.json: ref to else": _ELSEWHERE,
    "ref.json: ref with absolute-path-reference": _EMBEDDED_ID,
    "ref.json: empty tokens in $ref json-pointer": "$ref into a definition (`#/$defs/a/...`)",
    "unevaluatedItems.json: unevaluatedItems with $dynamicRef": _ELSEWHERE,
    "unevaluatedProperties.json: unevaluatedProperties with $dynamicRef": _ELSEWHERE,
    "unevaluatedProperties.json: unevaluatedProperties + single cyclic ref": _ROOT,
}


@needs_elixir
@pytest.mark.skipif(not SUITE.exists(), reason="the JSON-Schema-Test-Suite is not checked out")
def test_the_evaluator_agrees_with_the_json_schema_test_suite(tmp_path: Path) -> None:
    cases, unclaimed = _suite_cases()
    assert unclaimed == _EXPECTED_UNCLAIMED
    assert len(cases) > 1100
    env = make_env("fixtures", "generated", {})
    runtime = next(
        output
        for output in elixir.render_project((_runtime_module(),), env)
        if output.path.endswith("/runtime.ex")
    )
    source = tmp_path / "runtime.ex"
    source.write_text(runtime.text, encoding="utf-8")
    _compile([source], tmp_path / "ebin")
    triples = []
    for _file, _group, _case, schema, data, _valid in cases:
        prepared = _thaw(check_schema(freeze_json(schema)))
        defs = prepared.get("$defs", {}) if isinstance(prepared, dict) else {}
        triples.append([prepared, defs, data])
    (tmp_path / "cases.json").write_text(json.dumps(triples), encoding="utf-8")
    script = (
        f"Code.prepend_path({json.dumps(_jiffy_ebin())})\n"
        f"cases = File.read!({json.dumps(str(tmp_path / 'cases.json'))}) "
        "|> :jiffy.decode([:return_maps, {:null_term, nil}])\n"
        "verdicts =\n"
        "  for [schema, defs, data] <- cases do\n"
        "    rules = %{defs: defs, regexes: %{}, formats: []}\n"
        "    matches = PolytypeGenerated.Runtime.matches?(data, schema, rules)\n"
        '    checked = PolytypeGenerated.Runtime.schema_check(data, schema, "suite", rules)\n'
        "    # the verdict, and a rejection's message (`why/4`) made without failing\n"
        '    if matches != (checked == :ok), do: raise("verdicts differ")\n'
        '    if matches, do: "1", else: "0"\n'
        "  end\n"
        "IO.puts(Enum.join(verdicts))\n"
    )
    run = subprocess.run(
        ["elixir", "-pa", str(tmp_path / "ebin"), "-e", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    verdicts = run.stdout.strip()
    assert len(verdicts) == len(cases)
    wrong = [
        f"{file}: {group}: {case} (expected {'valid' if valid else 'invalid'})"
        for (file, group, case, _, _, valid), verdict in zip(cases, verdicts, strict=True)
        if (verdict == "1") != valid
    ]
    assert not wrong, "\n".join(wrong)


# --- generated decoders against jsonschema ----------------------------------------

# The schema as written: `name` has a `not`, the record an `if`/`then`/`else` and a
# `dependentSchemas` whose subschema refers to a definition, the union a `not` beside it.
SCHEMA = """\
title: Checks
type: object
properties:
  name: {type: string, not: {pattern: "^x"}}
  kind: {type: string}
  size: {type: integer}
  shape: {$ref: "#/$defs/Shape"}
if: {properties: {kind: {const: big}}, required: [kind]}
then: {required: [size], properties: {size: {minimum: 100000}}}
else: {properties: {size: {maximum: 10}}}
dependentSchemas:
  size: {properties: {name: {$ref: "#/$defs/Short"}}}
$defs:
  Short: {maxLength: 3}
  Circle:
    type: object
    properties: {radius: {type: number}}
    required: [radius]
  Square:
    type: object
    properties: {side: {type: number}}
    required: [side]
  Shape:
    anyOf: [{$ref: "#/$defs/Circle"}, {$ref: "#/$defs/Square"}]
    not: {required: [radius, side]}
"""

VALUES: list[Any] = [
    {},
    {"kind": "big", "size": 100000},
    {"kind": "big", "size": 5},
    {"kind": "big"},
    {"kind": "small", "size": 5},
    {"kind": "small", "size": 50},
    {"size": 1},
    {"name": "xavier"},
    {"name": "avier"},
    {"name": "abc", "size": 3},
    {"name": "abcd", "size": 3},
    {"name": "abcd", "kept": [1, {"a": None}]},
    {"shape": {"radius": 1}},
    {"shape": {"radius": 1, "side": 2}},
    {"shape": {"side": 2.5, "kept": True}},
    {"name": 5},
    "big",
]

# Where each rule was written, as the lowering names it.
_NAME_NOT = ir.SchemaCheck(freeze_json({"not": {"pattern": "^x"}}), ("not",), "/properties/name")
_CONDITION = ir.SchemaCheck(
    freeze_json(
        {
            "if": {"properties": {"kind": {"const": "big"}}, "required": ["kind"]},
            "then": {"required": ["size"], "properties": {"size": {"minimum": 100000}}},
            "else": {"properties": {"size": {"maximum": 10}}},
        }
    ),
    ("if", "then", "else"),
    "",
)
_DEPENDENT = ir.SchemaCheck(
    freeze_json(
        {"dependentSchemas": {"size": {"properties": {"name": {"$ref": "#/$defs/Short"}}}}}
    ),
    ("dependentSchemas",),
    "",
)
_SHAPE_NOT = ir.SchemaCheck(
    freeze_json({"not": {"required": ["radius", "side"]}}), ("not",), "/$defs/Shape"
)


def _valid(value: Any) -> bool:
    import jsonschema
    import yaml

    return bool(jsonschema.Draft202012Validator(yaml.safe_load(SCHEMA)).is_valid(value))


def _hand_built_module(tmp_path: Path) -> ir.Module:
    """The schema without the keywords no type expresses, lowered, and the checks added
    to its IR by hand (as the lowering adds them)."""
    import dataclasses

    import yaml
    from polytype.compile import read_schema

    document = yaml.safe_load(SCHEMA)
    for keyword in ("if", "then", "else", "dependentSchemas"):
        del document[keyword]
    del document["properties"]["name"]["not"]
    del document["$defs"]["Shape"]["not"]
    del document["$defs"]["Short"]
    path = tmp_path / "checks.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    module = read_schema(path, "schema/checks.json", strict=False).module
    types: list[ir.NamedType] = []
    for named in module.types:
        if isinstance(named, ir.Record) and named.name == "Checks":
            fields = tuple(
                (
                    dataclasses.replace(item, type=ir.Checked(item.type, (_NAME_NOT,)))
                    if item.json_key == "name"
                    else item
                )
                for item in named.fields
            )
            named = dataclasses.replace(
                named, fields=fields, schema_checks=(_CONDITION, _DEPENDENT)
            )
        elif isinstance(named, ir.UnionType):
            named = dataclasses.replace(named, schema_checks=(_SHAPE_NOT,))
        types.append(named)
    return dataclasses.replace(
        module, types=tuple(types), check_defs=(("Short", freeze_json({"maxLength": 3})),)
    )


def _run_probe(lib: Path, tmp_path: Path, module: str, values: list[Any]) -> list[str]:
    """Each value through `module.from_json/1`: `ok <re-encoded exactly>` or `error path: reason`."""
    ebin = tmp_path / "ebin"
    _compile(sorted(lib.rglob("*.ex")), ebin)
    lines = [
        f"IO.puts(Probe.run({module}, {ex_json_literal(freeze_json(value))}))" for value in values
    ]
    script = (
        "defmodule Probe do\n"
        "  def run(module, data) do\n"
        "    case module.from_json(data) do\n"
        '      {:ok, value} -> "ok " <> to_string(module.to_json(value) === data)\n'
        '      {:error, {path, reason}} -> "error " <> path <> ": " <> reason\n'
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
    assert len(output) == len(values)
    return output


def _assert_verdicts(values: list[Any], output: list[str]) -> None:
    for value, line in zip(values, output, strict=True):
        if _valid(value):
            assert line == "ok true", (value, line)
        else:
            assert line.startswith("error "), (value, line)


@needs_elixir
def test_hand_built_checks_agree_with_jsonschema(tmp_path: Path) -> None:
    module = _hand_built_module(tmp_path)
    assert "schema_checks" in ir.runtime_checks(module)
    env = make_env("fixtures", "generated", {})
    for output in elixir.render(module, env) + elixir.render_project((module,), env):
        target = tmp_path / output.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output.text, encoding="utf-8")
    lib = tmp_path / "elixir" / "lib"
    sources = [str(path) for path in sorted(lib.rglob("*.ex"))]
    formatted = subprocess.run(
        ["mix", "format", "--check-formatted", *sources],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
    output = _run_probe(lib, tmp_path, "Checks.Checks", VALUES)
    _assert_verdicts(VALUES, output)
    errors = dict(zip(map(json.dumps, VALUES), output, strict=True))
    # the error names the value's path and the rule it breaks
    assert errors['{"name": "xavier"}'] == "error $.name: breaks 'not' at /properties/name"
    assert errors['{"kind": "big"}'] == (
        "error $: breaks 'if/then/else' at /: missing required key \"size\""
    )
    assert errors['{"kind": "big", "size": 5}'] == (
        "error $: breaks 'if/then/else' at /: at $.size: minimum 100000"
    )
    assert errors['{"name": "abcd", "size": 3}'] == (
        "error $: breaks 'dependentSchemas' at /: at $.name: maxLength 3"
    )
    shape = json.dumps({"shape": {"radius": 1, "side": 2}})
    assert errors[shape] == "error $.shape: breaks 'not' at /$defs/Shape"


# Checks wherever a type can be: list items, map values, tuple positions, a nullable and an
# inline union, an alias, a union whose members are told apart by tag and one by JSON type.
ANYWHERE = """\
title: Many
type: object
properties:
  tags:
    type: array
    items: {type: string, not: {const: forbidden}}
  scores:
    type: object
    additionalProperties: {type: integer, not: {multipleOf: 7}}
  maybe:
    type: [string, "null"]
    not: {const: ""}
  either:
    anyOf: [{type: string}, {type: integer}]
    not: {const: 0}
  tuple:
    type: array
    prefixItems: [{type: string}, {type: integer, not: {const: 1}}]
  pet: {$ref: "#/$defs/Pet"}
  thing: {$ref: "#/$defs/Thing"}
  code: {$ref: "#/$defs/Code"}
$defs:
  Code:
    type: string
    not: {pattern: "^[A-Z]"}
  Cat:
    type: object
    properties: {kind: {const: cat}, lives: {type: integer}}
    required: [kind]
  Dog:
    type: object
    properties: {kind: {const: dog}, good: {type: boolean}}
    required: [kind]
  Pet:
    oneOf: [{$ref: "#/$defs/Cat"}, {$ref: "#/$defs/Dog"}]
    if: {properties: {kind: {const: cat}}}
    then: {required: [lives]}
  Thing:
    oneOf: [{type: string}, {$ref: "#/$defs/Cat"}]
    not: {const: nothing}
"""

ANYWHERE_VALUES: list[Any] = [
    {},
    {"tags": ["a", "forbidden"]},
    {"tags": ["a"]},
    {"scores": {"a": 14}},
    {"scores": {"a": 15, "b": -1}},
    {"maybe": ""},
    {"maybe": None},
    {"maybe": "x"},
    {"either": 0},
    {"either": 0.0},
    {"either": 1},
    {"either": "0"},
    {"tuple": ["a", 1]},
    {"tuple": ["a", 1.0]},
    {"tuple": ["a", 2]},
    {"pet": {"kind": "cat"}},
    {"pet": {"kind": "cat", "lives": 9}},
    {"pet": {"kind": "dog"}},
    {"thing": "nothing"},
    {"thing": "x"},
    {"thing": {"kind": "cat", "kept": [None]}},
    {"code": "Abc"},
    {"code": "abc"},
]


@needs_elixir
def test_checks_anywhere_a_type_can_be(tmp_path: Path) -> None:
    import jsonschema
    import yaml
    from polytype.cli import main

    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "many.yaml").write_text(ANYWHERE, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["elixir"]\n', encoding="utf-8"
    )
    assert main(["--project", str(root), "generate"]) == 0
    lib = root / "generated" / "elixir" / "lib"
    output = _run_probe(lib, tmp_path, "Many.Many", ANYWHERE_VALUES)
    validator = jsonschema.Draft202012Validator(yaml.safe_load(ANYWHERE))
    for value, line in zip(ANYWHERE_VALUES, output, strict=True):
        if validator.is_valid(value):
            assert line == "ok true", (value, line)
        else:
            assert line.startswith("error "), (value, line)
    errors = dict(zip(map(json.dumps, ANYWHERE_VALUES), output, strict=True))
    assert errors['{"tags": ["a", "forbidden"]}'] == (
        "error $.tags[1]: breaks 'not' at /properties/tags/items"
    )
    assert errors['{"scores": {"a": 14}}'] == (
        "error $.scores.a: breaks 'not' at /properties/scores/additionalProperties"
    )
    assert errors['{"pet": {"kind": "cat"}}'] == (
        "error $.pet: breaks 'if/then' at /$defs/Pet: missing required key \"lives\""
    )


def test_modules_without_checks_carry_no_evaluator() -> None:
    """No cost when unused: the shipped schemas have no schema checks, so the Mix
    project's runtime has no evaluator, no namespace has check rules and no decoder
    calls them."""
    lib = REPO / "generated" / "elixir" / "lib"
    assert (lib / "polytype_generated" / "runtime.ex").is_file()
    assert not list(lib.rglob("polytype_checks.ex"))
    for path in sorted(lib.rglob("*.ex")):
        text = path.read_text(encoding="utf-8")
        assert "schema_check" not in text and "matches?" not in text, path


@needs_elixir
def test_generated_project_agrees_with_jsonschema(tmp_path: Path) -> None:
    """The schema as written, through `polytype generate`: the lowering makes the checks."""
    from polytype.cli import main

    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "checks.yaml").write_text(SCHEMA, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["elixir"]\n', encoding="utf-8"
    )
    assert main(["--project", str(root), "generate"]) == 0
    lib = root / "generated" / "elixir" / "lib"
    rules = (lib / "checks" / "polytype_checks.ex").read_text(encoding="utf-8")
    assert '@defs %{"Short" => %{"maxLength" => 3}}' in rules
    output = _run_probe(lib, tmp_path, "Checks.Checks", VALUES)
    _assert_verdicts(VALUES, output)
    errors = dict(zip(map(json.dumps, VALUES), output, strict=True))
    rules = "'if/then/else/dependentSchemas' at /"
    assert errors['{"name": "xavier"}'] == "error $.name: breaks 'not' at /properties/name"
    assert errors['{"kind": "big"}'] == f'error $: breaks {rules}: missing required key "size"'
    assert (
        errors['{"name": "abcd", "size": 3}'] == f"error $: breaks {rules}: at $.name: maxLength 3"
    )
    shape = json.dumps({"shape": {"radius": 1, "side": 2}})
    assert errors[shape] == "error $.shape: breaks 'not' at /$defs/Shape"


# Two modules of one project, with one runtime: `a` asserts `date-time`, `b` does not, so
# the same check is a format assertion in `a` and an annotation in `b`; only `b` has an
# array of unique items.
_SHARED = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  Thing:
    type: object
    properties:
      when: {type: string, not: {format: date-time}}
"""


@needs_elixir
def test_modules_share_one_runtime_and_keep_their_own_rules(tmp_path: Path) -> None:
    """One runtime module for the Mix project; what differs by module (here the formats
    asserted) comes from each namespace's `PolytypeChecks`. The runtime holds what any
    module needs, also when `generate` renders only some modules."""
    from polytype.cli import main

    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    (root / "schema" / "a.yaml").write_text(_SHARED, encoding="utf-8")
    unique = "      tags: {type: array, items: {type: string}, uniqueItems: true}\n"
    (root / "schema" / "b.yaml").write_text(_SHARED + unique, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["elixir"]\n'
        'formats = ["date-time"]\n[tool.polytype.modules.b]\nformats = []\n',
        encoding="utf-8",
    )
    assert main(["--project", str(root), "generate"]) == 0
    lib = root / "generated" / "elixir" / "lib"
    runtime = lib / "polytype_generated" / "runtime.ex"
    text = runtime.read_text(encoding="utf-8")
    assert "defmodule PolytypeGenerated.Runtime do" in text and "def unique_items(" in text
    assert sorted(path.relative_to(lib).as_posix() for path in lib.rglob("*.ex")) == [
        "a/polytype_checks.ex",
        "a/thing.ex",
        "b/polytype_checks.ex",
        "b/thing.ex",
        "polytype_generated/runtime.ex",
    ]
    assert '@formats ["date-time"]' in (lib / "a" / "polytype_checks.ex").read_text("utf-8")
    assert "@formats []" in (lib / "b" / "polytype_checks.ex").read_text("utf-8")
    assert main(["--project", str(root), "generate", "a"]) == 0
    assert runtime.read_text(encoding="utf-8") == text
    assert main(["--project", str(root), "check"]) == 0

    values = [{"when": "nope"}, {"when": "2020-01-01T00:00:00Z"}]
    assert _run_probe(lib, tmp_path / "a", "A.Thing", values) == [
        "ok true",
        "error $.when: breaks 'not' at /$defs/Thing/properties/when",
    ]
    # `format` an annotation: the `not` of an always-valid schema fails every value
    breaks = "error $.when: breaks 'not' at /$defs/Thing/properties/when"
    assert _run_probe(lib, tmp_path / "b", "B.Thing", values) == [breaks, breaks]


def test_unicode_properties_take_pcre_spelling() -> None:
    """ECMA-262's long General_Category names and `Script=` forms are PCRE's short ones;
    escaped backslashes and names PCRE knows stay as written."""
    from polytype.ir.patterns import pcre_pattern

    assert pcre_pattern(r"^\p{Letter}+$") == r"^\p{L}+$"
    assert pcre_pattern(r"\P{Uppercase_Letter}") == r"\P{Lu}"
    assert pcre_pattern(r"\p{gc=Decimal_Number}") == r"\p{Nd}"
    assert pcre_pattern(r"\p{Script=Greek}\p{scx=Latin}") == r"\p{Greek}\p{Latin}"
    assert pcre_pattern(r"\p{Lu}\\p{Letter}") == r"\p{Lu}\\p{Letter}"


def test_check_fragments_translate_patterns_only_where_they_are_keywords() -> None:
    fragment = freeze_json(
        {
            "not": {"pattern": r"\u0041", "patternProperties": {r"^\p{Letter}": True}},
            "properties": {"pattern": {"const": {"pattern": r"\u0041"}}},
            "enum": [{"pattern": r"\u0041"}],
        }
    )
    assert _thaw(check_schema(fragment)) == {
        "not": {"pattern": r"\x{41}", "patternProperties": {r"^\p{L}": True}},
        "properties": {"pattern": {"const": {"pattern": r"\u0041"}}},
        "enum": [{"pattern": r"\u0041"}],
    }


@pytest.mark.skipif(shutil.which("mix") is None, reason="elixir is not installed")
def test_fragments_are_laid_out_as_mix_format_lays_them_out(tmp_path: Path) -> None:
    """Random JSON terms as module attributes: `mix format` leaves every byte as it is."""
    import random

    from polytype.targets.elixir.terms import json_term

    rng = random.Random(7)

    def value(depth: int = 0) -> Any:
        roll = rng.random()
        if depth > 3 or roll < 0.35:
            scalars = [None, True, False, rng.randint(-(10**9), 10**9), rng.randint(0, 99)]
            scalars += [rng.random() * 1e6, "x" * rng.randint(0, 60), 'q"uo#{te}']
            return rng.choice(scalars)
        if roll < 0.65:
            return [value(depth + 1) for _ in range(rng.randint(0, 6))]
        return {
            "key" + "y" * rng.randint(0, 30) + str(index): value(depth + 1)
            for index in range(rng.randint(0, 6))
        }

    lines = ["defmodule Terms do"]
    for index in range(300):
        name = f"schema_check_{index}"
        lines.append(f"  @{name} {json_term(freeze_json(value()), 4 + len(name), 2)}")
    source = tmp_path / "terms.ex"
    source.write_text("\n".join([*lines, "end", ""]), encoding="utf-8")
    formatted = subprocess.run(
        ["mix", "format", "--check-formatted", str(source)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
