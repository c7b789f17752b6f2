"""The TypedDict flavor: generator units, a hostile demo schema end to end, and mypy.

The demo schema exercises what the shipped schemas do not: keys that are Python
keywords or not identifiers (functional `TypedDict(...)` syntax), dunder keys,
x-aliases, `x-extra: ignore`, `additionalProperties: false`, recursion,
constraints, hostile descriptions. Its files are rendered in-process by the
TypedDict and dataclass targets only, then imported and type-checked.
"""

from __future__ import annotations

import ast
import copy
import json
import typing
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import mypy.api
import pytest
from polytype import ir
from polytype.lowering.lower import lower
from polytype.project import fixtures
from polytype.project.config import find_project
from polytype.project.pipeline import load_modules
from polytype.reading.loader import load
from polytype.targets import module_targets, python_dataclasses, python_typeddicts
from polytype.targets.base import depth
from polytype.targets.base.formatting import format_python
from polytype.targets.base.render import make_env
from polytype.targets.python_typeddicts.fixture_literals import (
    NotRepresentable,
    python_literal,
    unknown_keys,
)
from polytype.targets.python_typeddicts.records import class_syntax_key

from .conftest import import_file

REPO = Path(__file__).resolve().parents[1]

DEMO_SCHEMA = r'''
$schema: https://json-schema.org/draft/2020-12/schema
title: Demo
description: 'Edge cases for the TypedDict flavor: """quotes""", back\slashes.'
x-polytype: {module: demo}
$defs:
  Color:
    description: 'A color, with """quotes""" and a \ backslash'
    type: string
    enum: [red, "gr\"een"]
  Tree:
    description: "A recursive node.\nSecond line ends with a quote\""
    type: object
    properties:
      name: {type: string, minLength: 1, pattern: "^[a-z]+$"}
      children: {type: array, items: {$ref: "#/$defs/Tree"}, maxItems: 3}
      color: {$ref: "#/$defs/Color"}
    required: [name]
  Weird:
    description: Keys that are not identifiers.
    type: object
    additionalProperties: false
    properties:
      from: {type: string, description: "a keyword\nwith a newline and \"\"\" in it"}
      class: {type: [integer, "null"]}
      a-b: {type: number, minimum: 0}
      __dunder: {type: boolean, default: false, x-field: dunder}
      camelCase: {type: object}
      sessionId:
        type: string
        x-aliases: [session_id]
    required: [from, class, sessionId]
  Ignored:
    type: object
    x-extra: ignore
    properties:
      kind: {const: ignored}
      size: {type: integer, default: 3}
    required: [kind]
  Twin:
    description: The keys and checks of Ignored under another name (one validator for both).
    type: object
    x-extra: ignore
    properties:
      kind: {const: ignored}
      size: {type: integer, default: 3}
    required: [kind]
  Kept:
    type: object
    properties:
      kind: {const: kept}
      value: {}
      map: {type: object, additionalProperties: {type: integer}}
      either:
        oneOf: [{type: string}, {type: array, items: {type: integer}}]
    required: [kind]
  Node:
    oneOf: [{$ref: "#/$defs/Ignored"}, {$ref: "#/$defs/Kept"}]
  Shape:
    oneOf: [{$ref: "#/$defs/Tree"}, {$ref: "#/$defs/Weird"}]
  Forest:
    type: array
    items: {$ref: "#/$defs/Tree"}
'''

DEMO_FIXTURES: dict[str, Any] = {
    "Tree/nested.json": {"name": "root", "children": [{"name": "leaf", "color": 'gr"een'}]},
    "Tree/unknown_key.json": {"name": "root", "children": [{"name": "leaf", "note": "kept"}]},
    "Weird/keywords.json": {
        "from": "x",
        "class": None,
        "a-b": 1.5,
        "__dunder": True,
        "sessionId": "s",
    },
    "Weird/alias.json": {"from": "x", "class": 3, "session_id": "s", "camelCase": {"a": [1, None]}},
    "Node/kept.json": {"kind": "kept", "value": {"deep": [1, 2.5, "\U0001f600"]}, "either": [1, 2]},
    "Node/ignored.json": {"kind": "ignored", "size": 4, "whatever": {"x": 1}},
    "Twin/sized.json": {"kind": "ignored", "size": 5},
    "Shape/weird.json": {"from": "y", "class": 1, "sessionId": "t"},
    "Forest/two.json": [{"name": "a"}, {"name": "b", "color": "red"}],
    "Color/red.json": "red",
}

# (type suffix, data): both flavors must reject each with the same path and message
DEMO_INVALID: list[tuple[str, Any]] = [
    ("tree", []),
    ("tree", {}),
    ("tree", {"name": ""}),
    ("tree", {"name": "UPPER"}),
    ("tree", {"name": "a", "children": [{"name": "b"}, {"name": 3}]}),
    ("tree", {"name": "a", "children": [{"name": "b"}] * 4}),
    ("tree", {"name": "a", "color": "blue"}),
    ("tree", {"name": "a", "color": 1}),
    ("tree", {"name": "a", "extra": float("nan")}),
    ("weird", {"from": "x", "class": 1}),
    ("weird", {"from": "x", "class": True, "sessionId": "s"}),
    ("weird", {"from": "x", "class": 1, "sessionId": "s", "session_id": "t"}),
    ("weird", {"from": "x", "class": 1, "sessionId": "s", "unknown": 1}),
    ("weird", {"from": "x", "class": 1, "sessionId": "s", "a-b": -1}),
    ("weird", {"from": "x", "class": 1, "session_id": 5}),
    ("weird", {"from": "x", "class": 1, "sessionId": "s", "camelCase": []}),
    ("node", {"kind": "other"}),
    ("node", {"size": 1}),
    ("node", {"kind": "kept", "either": {}}),
    ("node", {"kind": "kept", "either": ["x"]}),
    ("node", {"kind": "kept", "map": {"a": 1, "b": "2"}}),
    ("node", {"kind": "ignored", "size": "3"}),
    ("twin", {"kind": "ignored", "size": "3"}),
    ("twin", {"kind": "kept"}),
    ("shape", {"neither": 1}),
    ("shape", "text"),
    ("forest", [{"name": "a"}, {}]),
    ("color", "blue"),
    ("color", None),
]


def _import(path: Path, name: str) -> ModuleType:
    return import_file(path, name)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    root = tmp_path_factory.mktemp("demo")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', encoding="utf-8"
    )
    (root / "schema").mkdir()
    (root / "schema" / "demo.yaml").write_text(DEMO_SCHEMA, encoding="utf-8")
    for relative, data in DEMO_FIXTURES.items():
        path = root / "tests" / "fixtures" / "demo" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    project = find_project(root)
    (module,) = load_modules(project)
    env = make_env(
        project.relative(project.fixtures_dir),
        "generated",
        {"demo": fixtures.discover(project.fixtures_dir, "demo")},
    )
    outputs = python_typeddicts.render(module, env) + python_dataclasses.render(module, env)
    files: dict[str, str] = {}
    for output in outputs:
        text = format_python(output.text, output.path)
        files[output.path] = text
        target = root / "generated" / output.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    models = root / "generated" / "python" / "demo"
    return SimpleNamespace(
        root=root,
        module=module,
        env=env,
        files=files,
        outputs=outputs,
        td=_import(models / "typed_dicts.py", "polytype_demo.typed_dicts"),
        dc=_import(models / "dataclass_models.py", "polytype_demo.dataclass_models"),
    )


# --- units -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("name", True),
        ("camelCase", True),
        ("_private", True),
        ("type", True),  # a builtin, not a keyword
        ("match", True),  # a soft keyword is a fine attribute
        ("from", False),
        ("class", False),
        ("None", False),
        ("a-b", False),
        ("1st", False),
        ("with space", False),
        ("__dunder", False),  # would be mangled to _Name__dunder
        ("caf\u00e9", False),  # non-ASCII: NFKC normalisation could change it
        ("", False),
    ],
)
def test_class_syntax_key(key: str, expected: bool) -> None:
    assert class_syntax_key(key) is expected


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -12345678901234567890,
        1.5,
        1e-300,
        "",
        'quote " and \'single\' and """triple"""',
        "back\\slash \\n not a newline",
        "new\nline\ttab\r\x00nul\x7f",
        "\u2028\u2029\u202e bidi",
        "\U0001f600 astral, \ud800 lone surrogate",
        {"nested": [1, {"a": None, "b": [True, "x"]}], "": {}},
        [],
    ],
)
def test_python_literal_is_exact_and_ascii(value: Any) -> None:
    literal = python_literal(value)
    assert literal.isascii()
    assert "\n" not in literal
    evaluated = ast.literal_eval(literal)
    assert evaluated == value and type(evaluated) is type(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1, 2}, object()])
def test_python_literal_rejects_non_json(value: Any) -> None:
    with pytest.raises(NotRepresentable):
        python_literal(value)


def test_typeddicts_target_is_registered() -> None:
    assert module_targets()["python-typeddicts"] is python_typeddicts.render


def test_unknown_keys_follows_unions_lists_and_aliases(demo: SimpleNamespace) -> None:
    module: ir.Module = demo.module
    assert unknown_keys(module, ir.Ref("Tree"), DEMO_FIXTURES["Tree/nested.json"]) == []
    assert unknown_keys(module, ir.Ref("Tree"), DEMO_FIXTURES["Tree/unknown_key.json"]) == [
        "$.children[0].note"
    ]
    assert (
        unknown_keys(module, ir.Ref("Weird"), DEMO_FIXTURES["Weird/alias.json"]) == []
    )  # aliases are declared
    assert unknown_keys(module, ir.Ref("Node"), DEMO_FIXTURES["Node/ignored.json"]) == [
        "$.whatever"
    ]
    assert (
        unknown_keys(module, ir.Ref("Node"), DEMO_FIXTURES["Node/kept.json"]) == []
    )  # JSONValue takes anything
    assert unknown_keys(module, ir.Ref("Forest"), [{"name": "a", "x-y": 1}]) == ['$[0]["x-y"]']
    with pytest.raises(NotRepresentable):
        unknown_keys(module, ir.Ref("Node"), {"kind": "nope"})


# --- the demo module, end to end ------------------------------------------------


def test_demo_outputs(demo: SimpleNamespace) -> None:
    assert sorted(demo.files) == [
        "python/demo/dataclass_models.py",
        "python/demo/typed_dicts.py",
        "tests/python/test_demo_typeddicts.py",
        "typecheck/demo_typeddicts_invalid.py",
        "typecheck/demo_typeddicts_snippets.py",
    ]
    for path, text in demo.files.items():
        compile(text, path, "exec")
        assert text.startswith("# Generated by polytype"), path
    typed_dicts = demo.files["python/demo/typed_dicts.py"]
    assert (
        "from __future__ import annotations" not in typed_dicts
    )  # it would break __required_keys__
    assert "typing_extensions" not in typed_dicts


def test_demo_keys_and_annotations(demo: SimpleNamespace) -> None:
    """How each class is spelled (keywords and dashes need the functional syntax) is pinned
    by tests/endtoend/typeddict_shapes; this checks what Python makes of it."""
    td = demo.td
    assert td.Tree.__required_keys__ == {"name"}
    assert td.Tree.__optional_keys__ == {"children", "color"}
    assert td.Weird.__required_keys__ == {"from", "class"}
    assert td.Weird.__optional_keys__ == {"a-b", "__dunder", "camelCase", "sessionId", "session_id"}
    assert td.Kept.__required_keys__ == {"kind"}
    hints = typing.get_type_hints(td.Weird)
    assert hints["class"] == int | None
    assert typing.get_origin(hints["camelCase"]) is dict
    assert typing.get_type_hints(td.Tree)["children"] == list[td.Tree]
    assert typing.get_type_hints(td.Kept)["kind"] == typing.Literal["kept"]
    assert td.Color == typing.Literal["red", 'gr"een']
    assert typing.get_args(td.Node) == (td.Ignored, td.Kept)
    assert "unknown keys are allowed and kept" in td.Tree.__doc__
    assert "unknown keys are allowed and ignored" in td.Ignored.__doc__
    assert "rejected by `validate_weird`" in td.Weird.__doc__
    assert '"""' not in td.Tree.__doc__.replace('\\"', "")  # the hostile description stayed inert


@pytest.mark.parametrize("relative", sorted(DEMO_FIXTURES))
def test_demo_validate_returns_its_input(demo: SimpleNamespace, relative: str) -> None:
    type_name = relative.split("/")[0]
    data = copy.deepcopy(DEMO_FIXTURES[relative])
    pristine = copy.deepcopy(data)
    suffix = "".join("_" + c.lower() if c.isupper() else c for c in type_name).lstrip("_")
    result = getattr(demo.td, f"validate_{suffix}")(data)
    assert result is data
    assert data == pristine


@pytest.mark.parametrize(
    ("suffix", "data"), DEMO_INVALID, ids=[f"{s}-{i}" for i, (s, _) in enumerate(DEMO_INVALID)]
)
def test_demo_errors_match_dataclass_flavor(demo: SimpleNamespace, suffix: str, data: Any) -> None:
    with pytest.raises(demo.dc.DecodeError) as expected:
        getattr(demo.dc, f"decode_{suffix}")(copy.deepcopy(data))
    pristine = copy.deepcopy(data)
    with pytest.raises(demo.td.DecodeError) as raised:
        getattr(demo.td, f"validate_{suffix}")(data)
    assert (raised.value.path, raised.value.reason) == (expected.value.path, expected.value.reason)
    assert repr(data) == repr(pristine)  # untouched (repr: NaN != NaN)


def test_a_typed_dict_of_an_earlier_ones_keys_and_checks_shares_its_validator(
    demo: SimpleNamespace,
) -> None:
    typed_dicts = demo.files["python/demo/typed_dicts.py"]
    assert demo.td._validate_twin is demo.td._validate_ignored
    assert "def _validate_twin(" not in typed_dicts
    assert "_TWIN_KEYS" not in typed_dicts
    data = {"kind": "ignored", "size": 5}
    assert demo.td.validate_twin(data) is data


def test_demo_deep_nesting_is_a_decode_error(demo: SimpleNamespace) -> None:
    data: Any = {"name": "a"}
    for _ in range(5000):
        data = {"name": "a", "children": [data]}
    with pytest.raises(demo.td.DecodeError, match="nesting deeper than 100 levels"):
        demo.td.validate_tree(data)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for this module's mypy runs (they run one after another)."""
    return tmp_path_factory.mktemp("mypy_cache")


def _mypy(
    cache: Path, monkeypatch: pytest.MonkeyPatch, mypy_path: Path, *files: Path
) -> tuple[str, int]:
    monkeypatch.setenv("MYPYPATH", str(mypy_path))
    stdout, stderr, status = mypy.api.run(
        [
            "--strict",
            "--python-version",
            "3.11",
            "--no-error-summary",
            "--show-error-codes",
            "--cache-dir",
            str(cache),
            *map(str, files),
        ]
    )
    return stdout + stderr, status


def test_demo_typed_dicts_and_snippets_pass_mypy_strict(
    demo: SimpleNamespace, mypy_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generated = demo.root / "generated"
    models = generated / "python" / "demo" / "typed_dicts.py"
    output, status = _mypy(mypy_cache, monkeypatch, generated / "python", models)
    assert status == 0, output
    snippets = generated / "typecheck" / "demo_typeddicts_snippets.py"
    output, status = _mypy(mypy_cache, monkeypatch, generated / "python", snippets)
    assert status == 0, output


def _expected_errors(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "EXPECTED_ERRORS":
            assert node.value is not None
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(item) for item in value]
    raise AssertionError(f"{path} has no EXPECTED_ERRORS")


INVALID_SNIPPETS = sorted((REPO / "generated" / "typecheck").glob("*_typeddicts_invalid.py"))


@pytest.mark.parametrize("path", INVALID_SNIPPETS, ids=[path.name for path in INVALID_SNIPPETS])
def test_mypy_rejects_invalid_snippets(
    path: Path, mypy_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy must reject each broken literal, with the error EXPECTED_ERRORS names, and nothing else."""
    expected = _expected_errors(path)
    assert len(expected) >= 2, "expect at least a missing key and an unknown key"
    output, status = _mypy(mypy_cache, monkeypatch, REPO / "generated" / "python", path)
    assert status == 1, f"mypy accepted {path.name}:\n{output}"
    errors = [line for line in output.splitlines() if ": error: " in line]
    for message in expected:
        assert any(
            message in line for line in errors
        ), f"mypy did not report {message!r}:\n{output}"
    assert len(errors) == len(expected), output


def test_demo_invalid_snippets_are_rejected(
    demo: SimpleNamespace, mypy_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = demo.root / "generated" / "typecheck" / "demo_typeddicts_invalid.py"
    expected = _expected_errors(path)
    assert any(message.startswith("Missing key") for message in expected)
    assert any(message.startswith("Extra key") for message in expected)
    assert any(message.startswith("Incompatible types") for message in expected)
    output, status = _mypy(mypy_cache, monkeypatch, demo.root / "generated" / "python", path)
    assert status == 1
    errors = [line for line in output.splitlines() if ": error: " in line]
    assert len(errors) == len(expected) and all(
        any(m in line for line in errors) for m in expected
    ), output


# --- the shared runtime ------------------------------------------------------------


def _formatted_shared_runtime(module: str) -> str:
    """The shared runtime as `module`'s package holds it (its depth plan is the module's own:
    without `python-package` each module is its own output package)."""
    schema = REPO / "schema" / f"{module}.yaml"
    lowered = lower(load(schema, f"schema/{module}.yaml"))
    plan = depth.template_values(lowered)
    checks = sorted(ir.runtime_checks(lowered) - {"schema_checks"})
    text = make_env().render("python_common/runtime.py.j2", checks=checks, **plan)
    return format_python(text, "python_common/runtime.py.j2").strip()


@pytest.mark.parametrize(
    "folder",
    sorted(path.parent for path in (REPO / "generated" / "python").glob("*/_runtime.py")),
    ids=lambda path: path.name,
)
def test_both_stdlib_flavors_import_the_one_runtime(folder: Path) -> None:
    """Share the rules, not copies: the package's `_runtime.py` holds the shared runtime
    verbatim, and both flavors import it (neither defines `DecodeError`)."""
    runtime = (folder / "_runtime.py").read_text(encoding="utf-8")
    assert _formatted_shared_runtime(folder.name) in runtime
    assert runtime.count("class DecodeError(ValueError):") == 1
    for name in ("dataclass_models.py", "typed_dicts.py"):
        text = (folder / name).read_text(encoding="utf-8")
        assert "class DecodeError" not in text and "from ._runtime import (" in text


def test_typed_dicts_runtime_never_builds_new_containers() -> None:
    text = make_env().render("python_typeddicts/runtime.py.j2")
    assert "result" not in text and "append" not in text
