"""The Elixir target: naming, generated snippets, and a hostile schema compiled and run for real.

The end-to-end test renders a schema full of hostile strings (descriptions with
`#{System.halt()}` and `\"\"\"`, enum values and keys with quotes, `#{}` and
spaces) into a throwaway mix-less build, compiles it with `elixirc
--warnings-as-errors`, and checks its decoders against the Python dataclass
decoders rendered from the same IR: the same successes, the same round trips,
the same error paths.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype import ir
from polytype.dialect.validate import validate
from polytype.ir import formats
from polytype.ir.fixtures import FixtureCase
from polytype.lowering.lower import lower
from polytype.reading.loader import load
from polytype.targets import elixir, python_dataclasses
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import make_env
from polytype.targets.elixir import names as elixir_names
from polytype.targets.elixir import terms as elixir_terms
from polytype.targets.elixir.names import type_module

from tests.conftest import REPO, SHIPPED_MODULES, load_generated

HOSTILE_SCHEMA = r'''
$schema: https://json-schema.org/draft/2020-12/schema
title: 'Hostile #{System.halt()} """ title'
description: "Module doc with #{System.halt()}, \"\"\" and a \\ backslash."
x-polytype:
  module: hostile
  elixir-namespace: Hostile
$defs:
  Mode:
    description: "#{System.halt()}\n\"\"\"\nSystem.halt()\n\"\"\"\n"
    type: string
    enum: ["acceptEdits", "nil", "#{x}", "with space", "\"quoted\""]
    x-elixir: {atoms: true}
  Plain:
    description: 'ends with a backslash \'
    type: string
    enum: ["a\"b", "#{y}"]
  Thing:
    description: '  """ closes a heredoc if you let it'
    type: object
    properties:
      type: {const: "thing"}
      "odd key\"#{k}":
        type: string
        description: '"""'
      sessionId:
        type: string
        x-aliases: [session_id]
      mode:
        $ref: "#/$defs/Mode"
        default: acceptEdits
      plain:
        $ref: "#/$defs/Plain"
      count:
        type: integer
        minimum: 1
      ratio:
        type: number
        maximum: 1.5
        default: 0.5
      name:
        type: string
        pattern: "^[a-z\"#{}]+$"
        maxLength: 5
      tags:
        type: array
        items: {type: string}
        minItems: 1
      meta:
        type: object
        additionalProperties: {type: integer}
      either:
        oneOf:
          - type: string
          - type: array
            items: {$ref: "#/$defs/Mode"}
      maybe:
        type: [string, "null"]
    required: [type, "odd key\"#{k}", sessionId]
  Other:
    type: object
    additionalProperties: false
    properties:
      type: {const: other}
      n: {type: integer}
    required: [type]
  Either:
    description: Tagged on type.
    oneOf:
      - $ref: "#/$defs/Thing"
      - $ref: "#/$defs/Other"
'''

VALID_THING: dict[str, Any] = {
    "type": "thing",
    'odd key"#{k}': "v",
    "session_id": "s-1",
    "mode": "nil",
    "plain": "#{y}",
    "count": 3,
    "ratio": 1,
    "name": "ab#",
    "tags": ["x"],
    "meta": {"a b": 1, "c": 2},
    "either": ["acceptEdits", "with space", '"quoted"'],
    "maybe": None,
    "unknown": {"kept": [1, 2.5, None]},
}


def _mutated(**changes: Any) -> dict[str, Any]:
    data = dict(VALID_THING)
    for key, value in changes.items():
        if value is _DELETE:
            data.pop(key, None)
        else:
            data[key] = value
    return data


_DELETE = object()

CASES: list[tuple[str, Any]] = [
    ("Thing", VALID_THING),
    ("Thing", {"type": "thing", 'odd key"#{k}': "", "sessionId": "s"}),
    ("Thing", _mutated(ratio=0.25, mode="acceptEdits")),
    ("Thing", _mutated(**{'odd key"#{k}': 1})),
    ("Thing", _mutated(**{'odd key"#{k}': _DELETE})),
    ("Thing", _mutated(sessionId="both")),
    ("Thing", _mutated(mode="unknown-mode")),
    ("Thing", _mutated(mode="accept_edits")),
    ("Thing", _mutated(plain='a"b')),
    ("Thing", _mutated(plain="#{x}")),
    ("Thing", _mutated(count=0)),
    ("Thing", _mutated(count=True)),
    ("Thing", _mutated(count=1.0)),
    ("Thing", _mutated(ratio=2)),
    ("Thing", _mutated(ratio="1")),
    ("Thing", _mutated(name="ABC")),
    ("Thing", _mutated(name="abcdef")),
    ("Thing", _mutated(tags=[])),
    ("Thing", _mutated(tags=["a", 2])),
    ("Thing", _mutated(meta={"ok": 1, 'bad "key"\n': "x"})),
    ("Thing", _mutated(either="text")),
    ("Thing", _mutated(either=["nil", "nope"])),
    ("Thing", _mutated(either=3)),
    ("Thing", _mutated(maybe="x")),
    ("Thing", _mutated(maybe=3)),
    ("Thing", _mutated(type="other")),
    ("Thing", []),
    ("Other", {"type": "other", "n": 1}),
    ("Other", {"type": "other", "n": 1, "zz": 1}),
    ("Either", VALID_THING),
    ("Either", {"type": "other"}),
    ("Either", {"type": "#{System.halt()}"}),
    ("Either", {"no": "type"}),
    ("Either", "string"),
    ("Mode", "with space"),
    ("Mode", '"quoted"'),
    ("Mode", "#{x}"),
    ("Mode", "x"),
    ("Mode", None),
    ("Plain", 'a"b'),
]


def lower_text(tmp_path: Path, text: str, name: str = "hostile.yaml") -> ir.Module:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    document = load(path, name)
    validate(document)
    return lower(document)


def lower_shipped(name: str) -> ir.Module:
    """A shipped schema, lowered from where it is (never written)."""
    document = load(REPO / "schema" / f"{name}.yaml", f"schema/{name}.yaml")
    validate(document)
    return lower(document)


@pytest.fixture
def hostile(tmp_path: Path) -> ir.Module:
    return lower_text(tmp_path, HOSTILE_SCHEMA)


def render_files(module: ir.Module) -> dict[str, str]:
    """The module's files and the project's (the runtime they share among them)."""
    env = make_env(fixtures={module.name: ()})
    outputs = elixir.render(module, env) + elixir.render_project((module,), env)
    return {output.path: output.text for output in outputs}


def flat_files(module: ir.Module) -> dict[str, str]:
    """The files with what `mix format` breaks over lines joined again, for snippet checks."""
    return {path: _flat(text) for path, text in render_files(module).items()}


def _flat(text: str) -> str:
    text = re.sub(r"([(\[{])[ ]*\n\s*", r"\1", text)
    text = re.sub(r"\n\s*([)\]}])", r"\1", text)
    text = re.sub(r",[ ]*\n\s*(?=\S)", ", ", text)
    return re.sub(r"(do:|->|<-|!=|::)[ ]*\n\s*", r"\1 ", text)


# --- naming ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("module_name", "path"),
    [
        ("ClaudeCode.Message.SystemMessage", "lib/claude_code/message/system_message.ex"),
        ("NanoAgent.TextContent", "lib/nano_agent/text_content.ex"),
        ("AgUi.RunAgentInput", "lib/ag_ui/run_agent_input.ex"),
        ("SearchAgent.TrimState", "lib/search_agent/trim_state.ex"),
    ],
)
def test_module_file_follows_macro_underscore(module_name: str, path: str) -> None:
    assert elixir.module_file(module_name) == path


@pytest.mark.parametrize(
    "key", ["text", "toolCalls", "_x", "a b", 'q"uote', "new\nline", "ünïcode", "1st", "class", ""]
)
def test_path_segments_match_the_python_decoders(key: str) -> None:
    runtime = load_generated("nano_agent")
    assert elixir_names.path_segment(key) == runtime._segment(key)


def test_float_literals_are_elixir_floats() -> None:
    assert elixir_terms.ex_float(0.5) == "0.5"
    assert elixir_terms.ex_float(1e-05) == "1.0e-05"
    assert elixir_terms.ex_float(1e16) == "1.0e16"
    assert elixir_terms.ex_float(2.0) == "2.0"
    # as `mix format` writes them: digits grouped from six on
    assert elixir_terms.ex_float(-123456.5) == "-123_456.5"
    assert elixir_terms.ex_int(12345) == "12345"
    assert elixir_terms.ex_int(-1234567) == "-1_234_567"


# --- generated snippets ----------------------------------------------------


def test_no_atom_is_ever_made_from_input() -> None:
    generated = REPO / "generated" / "elixir"
    texts = [path.read_text(encoding="utf-8") for path in generated.rglob("*.ex")]
    assert texts, "run polytype generate first"
    for text in texts:
        for forbidden in (
            "String.to_atom",
            "String.to_existing_atom",
            "binary_to_atom",
            "list_to_atom",
            "Code.eval",
        ):
            assert forbidden not in text


def test_reserved_struct_fields(tmp_path: Path) -> None:
    from polytype.diagnostics import InputError

    derived = lower_text(
        tmp_path, "$defs:\n  A: {type: object, properties: {extra: {type: string}}}\n", "a.yaml"
    )
    text = flat_files(derived)["elixir/lib/a/a.ex"]
    assert "extra_: nil," in text and "extra: %{}" in text
    forced = lower_text(
        tmp_path,
        "$defs:\n  B: {type: object, properties: {x: {type: string, x-elixir: {field: extra}}}}\n",
        "b.yaml",
    )
    with pytest.raises(InputError, match="extra"):
        render_files(forced)


@pytest.mark.parametrize(
    ("module", "clash"),
    [
        ("PolytypeGenerated.Runtime", "the generated runtime"),
        ("PolytypeGenerated.Runtime.DecodeError", "the generated runtime"),
        ("PolytypeGenerated.RUNTIME", "the generated runtime's file"),
        ("PolytypeGenerated.TestSupport", "generated PolytypeGenerated.TestSupport"),
        ("PolytypeGenerated.MixProject", "generated PolytypeGenerated.MixProject"),
        ("A.PolytypeChecks", "a generated module of schema-check rules"),
        ("Other.PolytypeChecks", "a generated module of schema-check rules"),
        ("R.Thing", "the runtime, known as R in every generated module"),
    ],
)
def test_names_the_target_takes_are_refused(tmp_path: Path, module: str, clash: str) -> None:
    """The project's runtime and other modules, and any namespace's check rules."""
    from polytype.diagnostics import InputError

    derived = lower_text(
        tmp_path, f"$defs:\n  T: {{type: string, x-elixir: {{module: {module}}}}}\n", "a.yaml"
    )
    with pytest.raises(
        InputError, match=f"Elixir module '{re.escape(module)}' collides with {clash}"
    ):
        render_files(derived)


def test_one_runtime_for_the_mix_project(tmp_path: Path) -> None:
    """No module renders a runtime of its own; the project's holds what any module needs,
    whatever the order of the modules."""
    plain = lower_text(
        tmp_path, "$defs:\n  A: {type: object, properties: {x: {type: string}}}\n", "a.yaml"
    )
    unique = lower_text(
        tmp_path,
        "$defs:\n  B: {type: array, items: {type: string}, uniqueItems: true}\n",
        "b.yaml",
    )
    env = make_env()
    for module in (plain, unique):
        paths = [output.path for output in elixir.render(module, env)]
        assert not [path for path in paths if "runtime" in path], paths
    first = elixir.render_project((plain, unique), env)
    assert first == elixir.render_project((unique, plain), env)
    runtime = next(output for output in first if output.path.endswith("/runtime.ex"))
    assert runtime.path == "elixir/lib/polytype_generated/runtime.ex"
    assert "def unique_items(" in runtime.text
    alone = elixir.render_project((plain,), env)
    assert "def unique_items(" not in next(o.text for o in alone if o.path == runtime.path)


def test_tests_cover_every_fixture() -> None:
    module = lower_shipped("nano_agent")
    fixtures = (
        FixtureCase("nano_agent", "Role", "nano_agent/Role/user.json", True),
        FixtureCase("nano_agent", "Role", "nano_agent/Role/invalid/x.json", False, "$"),
        FixtureCase("nano_agent", "Role", "nano_agent/Role/invalid/no_path.json", False, None),
        FixtureCase("nano_agent", "Gone", "nano_agent/Gone/a.json", True),
    )
    env = make_env(fixtures={"nano_agent": fixtures})
    text = next(
        o.text for o in elixir.render(module, env) if o.path == "elixir/test/nano_agent_test.exs"
    )
    assert 'assert_round_trip(NanoAgent.Role, "nano_agent/Role/user.json")' in text
    assert 'assert_rejected(NanoAgent.Role, "nano_agent/Role/invalid/x.json", "$")' in text
    assert 'flunk("record the expected error path in nano_agent/Role/invalid/no_path.path")' in text
    assert "Gone" not in text
    assert 'assert_no_new_atoms(NanoAgent.Role, "\\"__POLYTYPE_UNKNOWN__\\"", "$")' in text
    assert "async: false" in text


def test_project_files() -> None:
    env = make_env(fixtures_dir="tests/fixtures", output_dir="generated")
    files = {o.path: o.text for o in elixir.render_project((), env)}
    assert set(files) == {
        "elixir/lib/polytype_generated/runtime.ex",
        "elixir/mix.exs",
        "elixir/.formatter.exs",
        "elixir/.gitignore",
        "elixir/test/test_helper.exs",
    }
    assert "app: :polytype_generated" in files["elixir/mix.exs"]
    assert 'elixir: "~> 1.14"' in files["elixir/mix.exs"]
    assert "warnings_as_errors: true" in files["elixir/mix.exs"]
    assert "deps: []" in files["elixir/mix.exs"]
    helper = files["elixir/test/test_helper.exs"]
    assert '@fixtures Path.expand("../../../tests/fixtures", __DIR__)' in helper
    assert "Code.prepend_path(jiffy_ebin)" in helper
    assert ":jiffy.decode(text, [:return_maps, {:null_term, nil}])" in helper


def test_shipped_modules_render_deterministically() -> None:
    for name in SHIPPED_MODULES:
        module = lower_shipped(name)
        first = render_files(module)
        second = render_files(module)
        assert first == second


# --- the real compiler -----------------------------------------------------

needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")


def _python_module(module: ir.Module) -> ModuleType:
    text = python_dataclasses.render(module, make_env())[0].text
    name = f"polytype_test_{module.name}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    exec(
        compile(text, f"{name}.py", "exec"), loaded.__dict__
    )  # noqa: S102 - our own generated code
    return loaded


def _python_result(python: ModuleType, type_name: str, data: Any) -> dict[str, Any]:
    suffix = function_suffix(type_name)
    try:
        return {
            "ok": getattr(python, f"encode_{suffix}")(getattr(python, f"decode_{suffix}")(data))
        }
    except python.DecodeError as error:
        return {"error": error.path}


def _elixir_term(value: Any) -> str:
    """An Elixir term for JSON data (what :jiffy would return)."""
    return elixir_terms.ex_json_literal(_freeze(value))


def _freeze(value: Any) -> ir.JSONData:
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value  # type: ignore[no-any-return]


@needs_elixir
def test_hostile_schema_compiles_and_agrees_with_python(hostile: ir.Module, tmp_path: Path) -> None:
    files = render_files(hostile)
    lib = tmp_path / "lib"
    for path, text in files.items():
        if path.startswith("elixir/lib/"):
            target = lib / path.removeprefix("elixir/lib/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
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
    assert "warning" not in compiled.stderr, compiled.stderr

    lines = []
    for type_name, data in CASES:
        module_name = type_module(hostile, hostile.get(type_name))
        lines.append(f"IO.puts(Probe.run({module_name}, {_elixir_term(data)}))")
    script = (
        "defmodule Probe do\n"
        "  def run(module, data) do\n"
        "    case module.from_json(data) do\n"
        "      {:ok, value} ->\n"
        "        json = module.to_json(value)\n"
        '        "ok " <> Base.encode64(:erlang.term_to_binary(json)) <> " " <> to_string(json === data)\n'
        "      {:error, {path, reason}} when is_binary(reason) ->\n"
        '        "error " <> Base.encode64(path)\n'
        "    end\n"
        "  end\n"
        "end\n" + "\n".join(lines) + '\nIO.puts("done")\n'
        '{:docs_v1, _, _, _, %{"en" => doc}, _, _} = Code.fetch_docs(Hostile.Mode)\n'
        "IO.puts(Base.encode64(doc))\n"
        '{:docs_v1, _, _, _, %{"en" => doc}, _, _} = Code.fetch_docs(Hostile.Thing)\n'
        "IO.puts(Base.encode64(doc))\n"
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
    assert output[len(CASES)] == "done", "the script stopped early"

    python = _python_module(hostile)
    for (type_name, data), line in zip(CASES, output[: len(CASES)], strict=True):
        expected = _python_result(python, type_name, data)
        kind, _, rest = line.partition(" ")
        if "error" in expected:
            assert kind == "error", (type_name, data, line)
            assert base64.b64decode(rest).decode("utf-8") == expected["error"], (type_name, data)
        else:
            assert kind == "ok", (type_name, data, expected)
            _payload, _, strict = rest.partition(" ")
            assert expected["ok"] == data, "the Python decoder should round-trip valid cases"
            assert strict == "true", (type_name, data)

    mode_doc = base64.b64decode(output[len(CASES) + 1]).decode("utf-8")
    assert mode_doc.startswith('#{System.halt()}\n"""\nSystem.halt()\n"""\n')
    thing_doc = base64.b64decode(output[len(CASES) + 2]).decode("utf-8")
    assert thing_doc.startswith(
        '""" closes a heredoc if you let it'
    )  # lowering strips descriptions
    assert '`odd key"#{k}`' in thing_doc


_RUNTIME_PARTS = (
    "json_literals",
    "multiple_of",
    "object_rules",
    "properties",
    "schema_checks",
    "tried_members",
    "tuples",
    "unique_items",
    *(formats.runtime_part(name) for name in formats.SUPPORTED),
)


@needs_elixir
@pytest.mark.skipif(shutil.which("mix") is None, reason="elixir is not installed")
def test_every_runtime_is_mix_formatted_and_compiles(tmp_path: Path) -> None:
    """Which optional parts the project's runtime has depends on every module of the
    project: with none, each alone, and all of them, it is laid out as `mix format` lays
    it out and compiles under warnings as errors."""
    choices = [(), *((part,) for part in _RUNTIME_PARTS), _RUNTIME_PARTS]
    sources = []
    for index, parts in enumerate(choices):
        text = elixir.render_runtime(frozenset(parts), make_env()).text
        source = tmp_path / f"runtime_{index}.ex"
        # one module name each, so that one compiler run takes them all
        source.write_text(text.replace("PolytypeGenerated.Runtime", f"Runtime{index}"), "utf-8")
        sources.append(str(source))
    formatted = subprocess.run(
        ["mix", "format", "--check-formatted", *sources],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
    compiled = subprocess.run(
        ["elixirc", "--warnings-as-errors", "-o", str(tmp_path), *sources],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_probe_cases_cover_errors_and_successes(hostile: ir.Module) -> None:
    python = _python_module(hostile)
    results = [_python_result(python, type_name, data) for type_name, data in CASES]
    assert sum("ok" in r for r in results) >= 8
    assert sum("error" in r for r in results) >= 20
    paths = {r["error"] for r in results if "error" in r}
    assert '$["odd key\\"#{k}"]' in paths
    assert '$.meta["bad \\"key\\"\\n"]' in paths
    assert json.dumps("$.either[1]") in {json.dumps(p) for p in paths}
