"""Exit 0 means the output builds (issue 17): valid schemas that used to give output that
did not import or compile, or a polytype bug (exit 3), now generate working code.

All the valid cases live in one project (one schema file each), generated once; every
Python flavor of each is imported, the Elixir of all of them is compiled in one
`elixirc` run (skipped without Elixir, except under CI), and the behaviours the fixes
are about are checked: fractional bounds accept exactly the same numbers in every
flavor, a one-member union validates, PCRE reads the translated patterns as Python does.
The cases that must be refused instead live in `tests/bad_schemas/`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype.cli import main

from .conftest import import_file

SCHEMAS = {
    "one_member_union": """\
$defs:
  Only:
    type: object
    properties: {x: {type: string}}
    required: [x]
  Wrapper:
    oneOf: [{$ref: "#/$defs/Only"}]
  Twice:
    anyOf: [{$ref: "#/$defs/Wrapper"}]
  Maybe:
    type: [integer, "null"]
    minimum: 0.5
  MaybeUnion:
    description: Elixir encoded its `nil` member with an unbound `value`.
    anyOf: [{$ref: "#/$defs/Maybe"}]
  Number:
    type: number
    minimum: 1
  NumberUnion:
    description: Pydantic saw the member's own `int | float` choices untagged (found by the fuzzer).
    anyOf: [{$ref: "#/$defs/Number"}]
  Bullet:
    type: string
    pattern: "^\\\\N{BULLET}"
  BulletUnion:
    description: Its adapter needs Python's regex engine too (found by the fuzzer).
    oneOf: [{$ref: "#/$defs/Bullet"}]
""",
    "fractional_bounds": """\
$defs:
  Bounded:
    type: object
    properties:
      number: {type: number, minimum: 0.5, maximum: 2.5}
      nullable: {type: [number, "null"], exclusiveMinimum: 0.5, exclusiveMaximum: 2.5}
      integer: {type: integer, minimum: 0.5, maximum: 2.5}
      exclusive: {type: integer, exclusiveMinimum: -1.5, exclusiveMaximum: 3.0}
      huge: {type: number, minimum: -1.5e300, maximum: 2.5e300}
""",
    "unicode_patterns": r"""
$defs:
  Accented:
    type: string
    pattern: "^\\u00e9[\\u0041-\\u005A]+\\U0001F600$"
  Pair:
    description: A UTF-16 surrogate pair is one code point for PCRE (as in ECMA-262).
    type: string
    pattern: "^\\uD83D\\uDE00$"
  Named:
    type: string
    pattern: "^\\N{LATIN SMALL LETTER E WITH ACUTE}\\U0001F600\\\\u$"
""",
    "tag_only": """\
$defs:
  Ping:
    description: Its to_json/1 wrote only constants and left `value` unused (warnings as errors).
    type: object
    properties:
      type: {const: ping}
    required: [type]
    additionalProperties: false
  Pong:
    type: object
    properties:
      type: {const: pong}
      kind: {const: reply}
    required: [type, kind]
    additionalProperties: false
  Nothing:
    type: object
    additionalProperties: false
  Event:
    oneOf: [{$ref: "#/$defs/Ping"}, {$ref: "#/$defs/Pong"}]
""",
    "recursive_alias": """\
$defs:
  Tree:
    description: An array of itself, which every target recursed into forever.
    type: array
    items: {$ref: "#/$defs/Tree"}
""",
    "deep_maps": "$defs:\n  Deep:\n    type: object\n    properties:\n      m: "
    + "{type: object, additionalProperties: " * 28
    + "{type: string}"
    + "}" * 28
    + "\n",
}

# name -> (value, accepted): checked against every Python flavor
BOUND_CASES: list[tuple[dict[str, Any], bool]] = [
    ({"number": 0.5}, True),
    ({"number": 1}, True),
    ({"number": 0}, False),
    ({"number": 2.6}, False),
    ({"number": 3}, False),
    ({"nullable": None}, True),
    ({"nullable": 0.5}, False),
    ({"nullable": 1}, True),
    ({"nullable": 2.5}, False),
    ({"integer": 0}, False),
    ({"integer": 1}, True),
    ({"integer": 2}, True),
    ({"integer": 3}, False),
    ({"exclusive": -2}, False),
    ({"exclusive": -1}, True),
    ({"exclusive": 2}, True),
    ({"exclusive": 3}, False),
    ({"huge": 10**299}, True),
    ({"huge": -(10**301)}, False),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("builds") / "project"
    (root / "schema").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    for name, text in SCHEMAS.items():
        (root / "schema" / f"{name}.yaml").write_text(text, encoding="utf-8")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def _nested_maps(depth: int) -> str:
    return (
        "$defs:\n  Deep:\n    type: object\n    properties:\n      m: "
        + "{type: object, additionalProperties: " * depth
        + "{type: string}"
        + "}" * depth
        + "\n"
    )


def test_docs_describe_nested_maps_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The docs target once took 2^depth calls for nested maps (a hang at depth 28):
    counted, not timed, the work grows with the depth."""
    from polytype.lowering.lower import lower
    from polytype.reading.loader import load as load_schema
    from polytype.targets import docs
    from polytype.targets.base.render import make_env

    calls = 0
    original = docs.Describer.type_text

    def counting(self: docs.Describer, type_ref: Any, plural: bool = False) -> str:
        nonlocal calls
        calls += 1
        return original(self, type_ref, plural)

    monkeypatch.setattr(docs.Describer, "type_text", counting)
    counts = []
    for depth in (10, 20, 40):
        schema = tmp_path / f"deep{depth}.yaml"
        schema.write_text(_nested_maps(depth), encoding="utf-8")
        calls = 0
        docs.render(lower(load_schema(schema, schema.name)), make_env())
        counts.append(calls)
    assert counts[2] - counts[1] == 2 * (counts[1] - counts[0]), counts  # linear in depth


def load(project: Path, module: str, flavor: str) -> ModuleType:
    path = project / "generated" / "python" / module / f"{flavor}.py"
    return import_file(path, f"polytype_builds.{module}.{flavor}")


FLAVORS = ("dataclass_models", "typed_dicts", "pydantic_models")


@pytest.mark.parametrize("module", sorted(SCHEMAS))
@pytest.mark.parametrize("flavor", FLAVORS)
def test_every_python_flavor_imports(project: Path, module: str, flavor: str) -> None:
    load(project, module, flavor)


def decoders(project: Path, module: str, type_name: str, snake: str) -> dict[str, Any]:
    dataclasses = load(project, module, "dataclass_models")
    typed = load(project, module, "typed_dicts")
    pydantic = load(project, module, "pydantic_models")
    adapter = getattr(pydantic, f"{type_name}Adapter", None)
    return {
        "dataclasses": getattr(dataclasses, f"decode_{snake}"),
        "typeddicts": getattr(typed, f"validate_{snake}"),
        "pydantic": (
            adapter.validate_python if adapter else getattr(pydantic, type_name).model_validate
        ),
    }


@pytest.mark.parametrize(("value", "accepted"), BOUND_CASES, ids=repr)
def test_fractional_bounds_accept_the_same_numbers_everywhere(
    project: Path, value: dict[str, Any], accepted: bool
) -> None:
    for flavor, decode in decoders(project, "fractional_bounds", "Bounded", "bounded").items():
        try:
            decode(value)
            got = True
        except ValueError:
            got = False
        assert got is accepted, f"{flavor}: {value}"


def test_a_one_member_union_validates(project: Path) -> None:
    for type_name, snake in (("Wrapper", "wrapper"), ("Twice", "twice")):
        for flavor, decode in decoders(project, "one_member_union", type_name, snake).items():
            decode({"x": "a"})
            with pytest.raises(ValueError):
                decode({"x": 1})
            with pytest.raises(ValueError):
                decode([])
            assert flavor


def test_one_member_unions_of_numbers_and_patterns_validate(project: Path) -> None:
    for flavor, decode in decoders(
        project, "one_member_union", "NumberUnion", "number_union"
    ).items():
        decode(1)
        decode(2.5)
        with pytest.raises(ValueError):
            decode(0.5)
        assert flavor
    for flavor, decode in decoders(
        project, "one_member_union", "BulletUnion", "bullet_union"
    ).items():
        decode("\u2022 item")
        with pytest.raises(ValueError):
            decode("- item")
        assert flavor


def test_unicode_escapes_in_patterns_match_in_python(project: Path) -> None:
    for flavor, decode in decoders(project, "unicode_patterns", "Accented", "accented").items():
        decode("\u00e9AZ\U0001f600")
        with pytest.raises(ValueError):
            decode("eAZ\U0001f600")
        assert flavor
    for flavor, decode in decoders(project, "unicode_patterns", "Named", "named").items():
        decode("\u00e9\U0001f600\\u")
        assert flavor


def test_elixir_compiles(project: Path, tmp_path: Path) -> None:
    if shutil.which("elixirc") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("elixir is not installed, and CI must compile the generated Elixir")
        pytest.skip("elixir is not installed")
    lib = project / "generated" / "elixir" / "lib"
    sources = sorted(str(path) for path in lib.rglob("*.ex"))
    script = tmp_path / "check.exs"
    # compile, then run the translated patterns: PCRE must read them as Python's re does
    script.write_text(
        '{:ok, "éAZ😀"} = UnicodePatterns.Accented.from_json("éAZ😀")\n'
        '{:error, _} = UnicodePatterns.Accented.from_json("eAZ😀")\n'
        '{:ok, "é😀\\\\u"} = UnicodePatterns.Named.from_json("é😀\\\\u")\n'
        '{:ok, "😀"} = UnicodePatterns.Pair.from_json("😀")\n'
        '{:ok, _} = OneMemberUnion.Wrapper.from_json(%{"x" => "a"})\n'
        "{:ok, nil} = OneMemberUnion.MaybeUnion.from_json(nil)\n"
        "nil = OneMemberUnion.MaybeUnion.to_json(nil)\n"
        "3 = OneMemberUnion.MaybeUnion.to_json(3)\n"
        '{:error, _} = FractionalBounds.Bounded.from_json(%{"integer" => 3})\n'
        '{:ok, _} = FractionalBounds.Bounded.from_json(%{"integer" => 2, "number" => 0.5})\n'
        '{:ok, ping} = TagOnly.Event.from_json(%{"type" => "ping"})\n'
        '%{"type" => "ping"} = TagOnly.Event.to_json(ping)\n'
        '{:ok, pong} = TagOnly.Pong.from_json(%{"type" => "pong", "kind" => "reply"})\n'
        '%{"type" => "pong", "kind" => "reply"} = TagOnly.Pong.to_json(pong)\n'
        '{:error, _} = TagOnly.Ping.from_json(%{"type" => "ping", "x" => 1})\n'
        "{:ok, nothing} = TagOnly.Nothing.from_json(%{})\n"
        "%{} = TagOnly.Nothing.to_json(nothing)\n"
        "{:ok, [[], [[]]]} = RecursiveAlias.Tree.from_json([[], [[]]])\n"
        "[[], [[]]] = RecursiveAlias.Tree.to_json([[], [[]]])\n"
        "{:error, _} = RecursiveAlias.Tree.from_json([[1]])\n",
        encoding="utf-8",
    )
    out = tmp_path / "ebin"
    out.mkdir()
    compiled = subprocess.run(
        ["elixirc", "--warnings-as-errors", "-o", str(out), *sources],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert compiled.returncode == 0, compiled.stderr[-3000:]
    ran = subprocess.run(
        ["elixir", "-pa", str(out), str(script)], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr[-3000:]


def test_elixir_is_mix_formatted(project: Path) -> None:
    """Layouts the shipped schemas never produce (a struct of tags alone) are formatted too.

    (Not deep_maps: typespecs nested 28 maps deep are not laid out as `mix format` does.)
    """
    if shutil.which("mix") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("elixir is not installed, and CI must check the generated Elixir")
        pytest.skip("elixir is not installed")
    checked = subprocess.run(
        ["mix", "format", "--check-formatted", "lib/tag_only/*.ex", "lib/recursive_alias/*.ex"],
        cwd=project / "generated" / "elixir",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]


def test_generate_one_module_and_check_survive_a_non_utf8_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`generate MODULE` keeps another module's hand-broken file as it is; `check` reports it."""
    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    (root / "schema" / "a.yaml").write_text("$defs:\n  A: {type: string}\n", encoding="utf-8")
    (root / "schema" / "b.yaml").write_text("$defs:\n  B: {type: integer}\n", encoding="utf-8")
    assert main(["--project", str(root), "generate"]) == 0
    broken = root / "generated" / "python" / "b" / "dataclass_models.py"
    broken.write_bytes(broken.read_bytes() + b"\xff\xfe not UTF-8\n")
    data = broken.read_bytes()
    capsys.readouterr()
    assert main(["--project", str(root), "generate", "a"]) == 0
    assert broken.read_bytes() == data
    assert main(["--project", str(root), "check"]) == 1
    captured = capsys.readouterr()
    assert "internal error" not in captured.err
    assert "python/b/dataclass_models.py" in captured.out
    assert main(["--project", str(root), "generate"]) == 0
    assert main(["--project", str(root), "check"]) == 0
