"""Generated Python is formatted by ruff, and black (the verifier) agrees with every byte.

Also: the generated trees pass the linters their users run (`ruff check` with the
project's rule set; `mix format --check-formatted` when Elixir is installed).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import black
import pytest
from polytype.cli import main
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.project import fixtures
from polytype.project.config import find_project
from polytype.reading.loader import load
from polytype.targets import elixir, module_targets
from polytype.targets.base import formatting
from polytype.targets.base.formatting import (
    LINE_LENGTH,
    RUFF_SETTINGS,
    FormattingError,
    format_files,
    format_python,
    ruff_command,
)
from polytype.targets.base.render import make_env

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import synthetic  # noqa: E402

BLACK = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion.PY311})


def _python_outputs(schema: Path, module_fixtures: Path | None = None) -> list[tuple[str, str]]:
    document = load(schema, schema.name)
    validate(document)
    module = lower(document)
    index = (
        {module.name: fixtures.discover(module_fixtures, module.name)} if module_fixtures else {}
    )
    env = make_env("tests/fixtures", "generated", index)
    return [
        (output.text, output.path)
        for render in module_targets().values()
        for output in render(module, env)
        if output.kind == "python"
    ]


def _assert_clean(files: list[tuple[str, str]], out: Path) -> None:
    """black leaves ruff's layout as it is, and `ruff check` (the project's rules) passes."""
    for formatted, (_, path) in zip(format_files(files), files, strict=True):
        assert black.format_str(formatted, mode=BLACK) == formatted, path
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(formatted, encoding="utf-8")
    _assert_ruff_check(out)


def _assert_ruff_check(path: Path) -> None:
    result = subprocess.run(
        [*ruff_command(), "check", "--no-cache", "--config", str(ROOT / "pyproject.toml")]
        + ["--output-format", "concise", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_synthetic_outputs_are_clean(tmp_path: Path) -> None:
    _assert_clean(_python_outputs(synthetic.write(40, tmp_path)), tmp_path / "out")


def test_hostile_outputs_are_clean(tmp_path: Path) -> None:
    _assert_clean(_python_outputs(ROOT / "tests" / "hostile" / "hostile.yaml"), tmp_path)


def test_names_that_meet_an_import_leave_no_unused_code(tmp_path: Path) -> None:
    """Catalogue schemas whose output ruff flagged: a TypedDict key `json` kept `import
    json`, an enum member `VERSION` kept Pydantic's `VERSION`, both read as uses (F401),
    and a tuple without constraints bound its checked items to an unused name (F841)."""
    schema = tmp_path / "names.json"
    schema.write_text(
        """{
  "title": "Names",
  "type": "object",
  "properties": {
    "format": {"type": "object", "properties": {"json": {"type": "string"}}},
    "field": {"enum": ["version", "other"]},
    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "object"}]}
  }
}""",
        encoding="utf-8",
    )
    outputs = _python_outputs(schema)
    assert any("VERSION = " in text for text, _ in outputs)
    _assert_clean(outputs, tmp_path / "out")


@pytest.mark.parametrize("schema", ["hostile", "synthetic"])
def test_large_files_formatted_in_pieces_come_out_the_same(
    schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cutting a file before top-level definitions changes no byte of ruff's output."""
    path = (
        ROOT / "tests" / "hostile" / "hostile.yaml"
        if schema == "hostile"
        else synthetic.write(30, tmp_path)
    )
    files = _python_outputs(path)
    whole = format_files(files)
    monkeypatch.setattr(formatting, "PIECE_CHARS", 1500)
    assert max(len(formatting._pieces(text)) for text, _ in files) > 10
    assert format_files(files) == whole


def test_a_cut_inside_a_string_falls_back_to_the_whole_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = 'X = 1\n\n\ndef f() -> None:\n    pass\n\n\nclass A:\n    """Doc.\n\n\nclass B: not code\n    """\n'
    whole = format_files([(text, "x.py")])
    monkeypatch.setattr(formatting, "_pieces", lambda text: text.split("\n\n\n"))
    assert format_files([(text, "x.py")]) == whole


def test_formats_in_one_call_and_keeps_order() -> None:
    files = [("x = [1,\n  2]\n", "a/one.py"), ("def f( a ):\n  return a\n", "b/two.py")]
    assert format_files(files) == ["x = [1, 2]\n", "def f(a):\n    return a\n"]
    assert format_files([]) == []


def test_files_handed_over_in_batches_come_back_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each `flush` of enough text starts a ruff process on the files added since the last
    one (more than RUNNING_AT_ONCE of them, some finished before the next starts); the
    texts come back in the order of the files, as from one batch."""
    files = [(f"x{n}  =  [{n},\n  {n}]\n", f"p/f{n}.py") for n in range(9)]
    whole = format_files(files)
    pending = formatting.PendingFormat()
    started = []
    real = formatting._start_ruff
    monkeypatch.setattr(
        formatting, "_start_ruff", lambda names, cwd: started.append(names) or real(names, cwd)
    )
    for number, (text, path) in enumerate(files):
        pending.add(text, path)
        pending.flush(at_least=40 if number < 6 else 10**9)  # small files: one ruff for 2-3
    pending.start()
    assert pending.result() == whole
    assert len(started) > formatting.RUNNING_AT_ONCE
    assert sorted(name for names in started for name in names) == sorted(
        f"{n}/p/f{n}.py" for n in range(9)
    )


def test_a_batch_ruff_cannot_format_is_reported_and_leaves_nothing() -> None:
    pending = formatting.PendingFormat()
    pending.add("x = 1\n", "python/ok.py")
    pending.flush()
    pending.add("def f(:\n", "python/m/broken.py")
    pending.flush()
    with pytest.raises(FormattingError) as raised:
        pending.result()
    assert "python/m/broken.py:1:" in str(raised.value)
    assert pending._scratch is None and pending._running == []


def test_user_configuration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruff.toml or pyproject.toml where polytype runs must not change a byte."""
    source = "x = {'a': 1, 'b': 2, 'c': 3, 'd': 4, 'e': 5, 'f': 6, 'g': 7}\n"
    expected = format_python(source, "x.py")
    assert expected == 'x = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}\n'
    (tmp_path / "ruff.toml").write_text(
        "line-length = 20\n[format]\nquote-style = 'single'\nline-ending = 'cr-lf'\n"
    )
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 20\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RUFF_LINE_LENGTH", "20")
    assert format_python(source, "x.py") == expected


def test_paths_ruff_would_exclude_are_still_formatted() -> None:
    texts = format_files([("x  =  1\n", "build/x.py"), ("y  =  2\n", ".git/y.py")])
    assert texts == ["x = 1\n", "y = 2\n"]


def test_unparsable_output_is_a_polytype_bug_naming_the_file() -> None:
    with pytest.raises(FormattingError) as raised:
        format_files([("x = 1\n", "python/ok.py"), ("def f(:\n", "python/m/broken.py")])
    message = str(raised.value)
    assert "polytype bug" in message
    assert "python/m/broken.py:1:" in message


def test_unparsable_output_exits_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from polytype.targets.python_dataclasses import tests as python_tests

    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    real = python_tests.render

    def broken(module, env):  # type: ignore[no-untyped-def]
        return [
            output.__class__(**{**output.__dict__, "text": output.text + "def (:\n"})
            for output in real(module, env)
        ]

    monkeypatch.setattr(python_tests, "render", broken)
    monkeypatch.setenv("POLYTYPE_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "nano_agent"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "tests/python/test_nano_agent.py:" in err
    assert not (tmp_path / "generated").exists()


# --- the shipped tree passes its users' linters ---------------------------------------------


def test_generated_python_passes_ruff_check() -> None:
    """The project's own rule set ([tool.ruff.lint]) over the generated Python."""
    _assert_ruff_check(ROOT / "generated")


def test_generated_python_is_ruff_formatted() -> None:
    result = subprocess.run(
        [*ruff_command(), "format", "--check", "--no-cache", *RUFF_SETTINGS, "generated"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


LONG_NAMES = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  AVeryLongRecordNameThatGoesOnAndOnForeverAndEver:
    type: object
    properties:
      someExtraordinarilyLongPropertyNameThatKeepsGoing:
        type: string
        pattern: "^[a-z]+(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)$"
      anotherExtraordinarilyLongPropertyNameThatKeepsGoingAndGoing:
        oneOf: [{$ref: "#/$defs/TheUnionOfLongRecordNames"}, {type: "null"}]
      yetAnotherExtraordinarilyLongPropertyNameThatKeepsGoingAndGoing:
        type: integer
        x-aliases: [yet_another_long_property_name]
    required: [someExtraordinarilyLongPropertyNameThatKeepsGoing]
  AnotherVeryLongRecordNameThatGoesOnAndOnForever:
    type: object
    properties:
      kind: {const: another_very_long_tag_value_that_goes_on_and_on_and_on_forever}
    required: [kind]
  YetAnotherVeryLongRecordNameThatGoesOnAndOnForever:
    type: object
    properties:
      kind: {const: yet_another_very_long_tag_value_that_goes_on_and_on_and_on_forever}
    required: [kind]
  TheUnionOfLongRecordNames:
    oneOf:
      - {$ref: "#/$defs/AnotherVeryLongRecordNameThatGoesOnAndOnForever"}
      - {$ref: "#/$defs/YetAnotherVeryLongRecordNameThatGoesOnAndOnForever"}
"""


@pytest.mark.skipif(shutil.which("mix") is None, reason="elixir is not installed")
def test_hostile_and_synthetic_elixir_is_mix_formatted(tmp_path: Path) -> None:
    """Long names, keys, literals and defaults: laid out as `mix format` would."""
    paths: list[str] = []
    long_names = tmp_path / "long_names.yaml"
    long_names.write_text(LONG_NAMES, encoding="utf-8")
    hostile = ROOT / "tests" / "hostile" / "hostile.yaml"
    for schema in (hostile, synthetic.write(60, tmp_path), long_names):
        document = load(schema, schema.name)
        validate(document)
        module = lower(document)
        for output in elixir.render(module, make_env("tests/fixtures", "generated", {})):
            target = tmp_path / "out" / output.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(output.text, encoding="utf-8")
            paths.append(str(target))
    result = subprocess.run(
        ["mix", "format", "--check-formatted", *paths],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# A JSON Schema (not polytype's dialect) with the shapes published schemas have and the
# shipped ones lack, each once laid out other than `mix format` lays it out: decoding
# tables of long tuples (filled element by element), a long list default (after its key
# and after `!=`), map typespecs and `fn`s too long for a line, `do:` bodies under a
# broken head, long union and list-of-union typespecs, a `with` pattern too long for its
# line.
UNTUNED = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn:
    type: object
    properties:
      sessionIdentifier: {type: string}
      toolCallIdentifier: {type: string}
    required: [sessionIdentifier, toolCallIdentifier]
  TerminalRequestWithAnExtraordinarilyLongNameToo:
    type: object
    properties:
      terminalIdentifier: {type: string}
    required: [terminalIdentifier]
  AgentRequest:
    oneOf:
      - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
      - {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}
      - {type: [array, boolean, integer, "null", number, string]}
  NodeWithDefaultsAndCollections:
    type: object
    properties:
      matrix:
        type: array
        items: {type: number}
        default: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
      requestsByName:
        type: object
        additionalProperties: {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
      eitherRequestByName:
        type: object
        additionalProperties:
          oneOf:
            - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
            - {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}
      aPropertyWhoseNameIsSoLongThatItsVariableDoesNotFitInAWithStepPatternOfItsOwn:
        type: boolean
      optionalListOfPermissionRequestsWithAnExtraordinarilyLongName:
        type: array
        items: {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
  ListOfEitherRequestWithAnExtraordinarilyLongName:
    type: array
    items:
      oneOf:
        - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
        - {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}
  EitherRequestOrNothingWithAnExtraordinarilyLongName:
    oneOf:
      - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
      - {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}
      - {type: "null"}
  ListOfRequestsOrNamesWithAnExtraordinarilyLongName:
    type: array
    items:
      oneOf:
        - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
        - {type: string}
        - {type: array, items: {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}}
  RequestOrNamesOrNothing:
    oneOf:
      - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
      - {type: array, items: {$ref: "#/$defs/TerminalRequestWithAnExtraordinarilyLongNameToo"}}
      - {type: "null"}
  NodeWithDependencies:
    type: object
    properties:
      dependencies:
        type: object
        additionalProperties:
          oneOf:
            - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
            - {type: array, items: {type: string}}
  PairWithAnExtraordinarilyLongItemName:
    # a tuple whose item's encoder call does not fit its clause's line
    type: array
    prefixItems:
      - {type: boolean}
      - {$ref: "#/$defs/PermissionRequestWithAnExtraordinarilyLongNameThatGoesOnAndOn"}
"""


@pytest.mark.skipif(shutil.which("mix") is None, reason="elixir is not installed")
def test_elixir_of_untuned_shapes_is_mix_formatted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\ntargets = ["elixir"]\n', encoding="utf-8"
    )
    (tmp_path / "untuned.yaml").write_text(UNTUNED, encoding="utf-8")
    monkeypatch.setenv("POLYTYPE_NO_CACHE", "1")
    out = tmp_path / "out"
    project = ["--project", str(tmp_path)]
    assert (
        main([*project, "generate", str(tmp_path / "untuned.yaml"), "--output-dir", str(out)]) == 0
    )
    result = subprocess.run(
        ["mix", "format", "--check-formatted"],
        cwd=out / "elixir",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("mix") is None, reason="elixir is not installed")
def test_generated_elixir_is_mix_formatted() -> None:
    result = subprocess.run(
        ["mix", "format", "--check-formatted"],
        cwd=ROOT / "generated" / "elixir",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_project_settings_match_the_formatter() -> None:
    """`black --check` in `nox -s lint` reads [tool.black]: the same layout ruff is given."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["black"]["line-length"] == LINE_LENGTH
    assert project["tool"]["black"]["target-version"] == ["py311"]
    assert find_project(ROOT).output_dir == ROOT / "generated"


def test_a_fixture_snippet_too_long_for_one_line_is_declared_apart() -> None:
    """black parenthesises a long annotation and ruff does not: the snippet avoids the
    construct (found on search_agent's long type names)."""
    from polytype.targets.python_typeddicts.typecheck import SnippetView

    long_type = "BashCodeExecutionToolResultContent"
    variable = "bash_code_execution_tool_result_content__error_invalid_tool_input"
    assert SnippetView(variable, long_type, "f.json", '{"a": 1}').declared_apart
    assert not SnippetView("short", long_type, "f.json", '{"a": 1}').declared_apart
