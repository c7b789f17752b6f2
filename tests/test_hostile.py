"""Injection: names, keys, descriptions, defaults and enum values that try to break the output.

`tests/hostile/hostile.yaml` names its types like things a generated module uses
itself (`json`, `re`, `dataclass`, `field`, `Enum`, `list`, `type`, `object`,
`cast`, `JSONValue`, `DecodeError`, a dunder) and fills keys, descriptions,
defaults, tags and enum values with quotes, triple quotes, backslashes,
newlines, `#{...}`, `</script>`, NUL and other controls, bidirectional marks,
emoji, CJK, Python and Elixir keywords. It is generated into a temporary
project together with fixtures full of the same strings. Then:

- the dataclass module imports, its own imports are intact, every docstring,
  default, tag and enum value is the exact schema string, and every fixture
  round-trips exactly (invalid ones fail at the recorded path);
- no generated Python file (this module's or a shipped one's, any flavor)
  defines a top-level name twice, lets a type take a name the module uses, or
  lets a field shadow a name its class body uses;
- no generated file contains a raw control or invisible character;
- every Python flavor's generated round-trip suite passes, the Python files
  are `mypy --strict` clean, and the Elixir project compiles and passes its
  tests when `mix` is installed.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import enum
import json
import os
import re
import shutil
import subprocess
import sys
import typing
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype import ir, naming
from polytype.cli import main
from polytype.lowering.lower import lower
from polytype.reading.loader import load
from polytype.targets.python import names as python_names

from .conftest import CHECKOUT_PATH, REPO, import_file

HOSTILE = Path(__file__).resolve().parent / "hostile" / "hostile.yaml"
SCHEMA: dict[str, Any] = load(HOSTILE).data
DEFS: dict[str, Any] = SCHEMA["$defs"]
NASTY: str = DEFS["json"]["description"]
ENUM_VALUES: list[str] = DEFS["list"]["enum"]
ENUM_TAG: str = DEFS["Enum"]["properties"]["kind"]["const"]
PYTHON_FLAVORS = ("dataclass_models", "typed_dicts", "pydantic_models")


def py(name: str) -> str:
    """The Python name of the hostile schema's type `name`."""
    return naming.python_type_name(name)


EVERYTHING: dict[str, Any] = {
    "class": NASTY,
    "type": "'''",
    "from": 3,
    "def": NASTY,
    "end": False,
    "nil": None,
    "do": '"""',
    "__init__": "\x00",
    "__slots__": "\u202e",
    "field": "#{x}",
    "list": ["</script>", NASTY],
    "dict": {NASTY: [NASTY, {"\x00": None}], "": 1.5},
    "object": -1,
    "self": "s",
    "cls": "c",
    "re": "r",
    "dataclass": "d",
    "Enum": "e",
    "cast": "c",
    "str": "\\",
    "int": 10**30,
    "extra": "x",
    "to_dict": "t",
    "model_dump": "m",
    '"quoted" key': "q",
    "back\\slash": "b",
    "new\nline": "n",
    "#{interp}": "#{1+1}",
    "</script>": "</script>",
    "rtl\u202ekey": "r",
    "日本語": "日本語",
    "\U0001f600": "\U0001f600",
    "": "",
    "nul\x00key": "\x00",
    "sp ace": " ",
    'unknown """ key': {"nested": [NASTY, "\\u0000"]},
}

VALID: dict[str, dict[str, Any]] = {
    "json": {"everything": EVERYTHING, "minimal": {"class": "", "type": ""}},
    "list": {f"value{index}": value for index, value in enumerate(ENUM_VALUES)},
    "Enum": {"tagged": {"kind": ENUM_TAG, "value": ENUM_VALUES[-1]}, "bare": {"kind": ENUM_TAG}},
    "type": {"tagged": {"kind": "t\\2", "items": ["'''", NASTY]}, "default": {"kind": "t\\2"}},
    "field": {"enum": {"kind": ENUM_TAG}, "type": {"kind": "t\\2", "items": []}},
    "object": {"mixed": [{"kind": "t\\2"}, {"kind": ENUM_TAG, "value": "\x00"}], "empty": []},
    "cast": {
        "full": {
            "re": "plain text is fine",
            "dataclass": {NASTY: ENUM_VALUES[0], "": "\u202e"},
            "JSONValue": None,
            "fields": [{"kind": "t\\2"}],
            "json": EVERYTHING,
            "strs": [{"s": NASTY}],
            "plain": [NASTY],
            "dash": "a-b",
            "under": "a_b",
        },
        "empty": {},
    },
    "dataclass": {"map": dict(zip(["a", "\x00", NASTY, ""], ENUM_VALUES, strict=False))},
    "re": {"ok": "no quotes here"},
    "JSONValue": {"null": None, "int": 7, "str": NASTY},
    "Str": {"s": {"s": NASTY}},
    "DecodeError": {"message": {"message": NASTY}, "empty": {}},
    "__init__": {"a": "a"},
}

# (data, path of the first error) per type; the helpers for `list[Str]` and `list[str]`,
# and for the consts "a-b" and "a_b", must not be mixed up.
INVALID: dict[str, dict[str, tuple[Any, str]]] = {
    "cast": {
        "wrong_literal": ({"under": "a-b"}, "$.under"),
        "other_literal": ({"dash": "a_b"}, "$.dash"),
        "string_not_str": ({"strs": ["x"]}, "$.strs[0]"),
        "str_not_string": ({"plain": [{"s": "x"}]}, "$.plain[0]"),
        "unknown_key": ({"'''": 1}, "$[\"'''\"]"),
    },
    "re": {"quote": ('a"b', "$"), "too_long": ("x" * 65, "$")},
    "list": {"near_miss": ("clas", "$"), "not_nul": ("\x01", "$")},
    "field": {"unknown_tag": ({"kind": "t\\\\2"}, "$.kind"), "no_tag": ({}, "$.kind")},
    "json": {
        "missing": ({"class": NASTY}, "$.type"),
        "wrong": ({"class": 1, "type": ""}, "$.class"),
    },
}


def write_fixtures(fixtures: Path) -> None:
    """Fixture folders named after the schema's type names (`json`), not the Python ones."""
    for type_name, cases in VALID.items():
        folder = fixtures / "hostile" / type_name
        folder.mkdir(parents=True, exist_ok=True)
        for case, value in cases.items():
            (folder / f"{case}.json").write_text(json.dumps(value, ensure_ascii=False), "utf-8")
    for type_name, invalid in INVALID.items():
        folder = fixtures / "hostile" / type_name / "invalid"
        folder.mkdir(parents=True, exist_ok=True)
        for case, (value, path) in invalid.items():
            (folder / f"{case}.json").write_text(json.dumps(value, ensure_ascii=False), "utf-8")
            (folder / f"{case}.path").write_text(path + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "project"
    (root / "schema").mkdir(parents=True)
    shutil.copy(HOSTILE, root / "schema" / "hostile.yaml")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', "utf-8"
    )
    write_fixtures(root / "tests" / "fixtures")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def load_flavor(project: Path, flavor: str) -> ModuleType:
    name = f"polytype_hostile_{abs(hash(str(project)))}.{flavor}"
    if name in sys.modules:
        return sys.modules[name]
    return import_file(project / "generated" / "python" / "hostile" / f"{flavor}.py", name)


@pytest.fixture(scope="module")
def models(project: Path) -> ModuleType:
    return load_flavor(project, "dataclass_models")


# --- the dataclass module ------------------------------------------------------------


def test_module_imports_with_its_own_names_intact(models: ModuleType) -> None:
    for name in models.__all__:
        assert hasattr(models, name), name
    # the module's imports were not shadowed by types named like them (a module imports
    # only what its code uses: this one reads no JSON text, so it has no `json`)
    for imported, value in {
        "json": json, "re": re, "dataclass": dataclasses.dataclass, "field": dataclasses.field,
        "Enum": enum.Enum, "cast": typing.cast,
    }.items():  # fmt: skip
        assert getattr(models, imported, value) is value, imported
    assert models.re is re and models.cast is typing.cast  # the checks use them
    assert issubclass(models.DecodeError, ValueError)
    for schema_name in DEFS:
        assert py(schema_name) != schema_name or schema_name in ("Str",)
        assert hasattr(models, py(schema_name)), schema_name


def test_docstrings_are_the_exact_descriptions(models: ModuleType) -> None:
    checked = 0
    for schema_name, schema in DEFS.items():
        target = getattr(models, py(schema_name))
        # records and enums; aliases (`re_ = str`) carry no docstring of their own
        if isinstance(target, type) and target.__module__ == models.__name__:
            assert target.__doc__ == schema["description"], schema_name
            checked += 1
    assert checked >= 7
    assert NASTY in models.Json.__doc__
    assert SCHEMA["title"] in (models.__doc__ or "")


def test_defaults_tags_and_enum_values_are_literal(models: ModuleType) -> None:
    properties = DEFS["json"]["properties"]
    value = models.Json(class_="c", type="t")
    assert value.def_ == properties["def"]["default"] == NASTY
    assert value.do == '"""'  # Elixir keywords are plain names in Python
    assert value.field_ == "'''"
    assert value.str_ == "\\"
    assert value.list_ == [NASTY, "#{x}"]
    assert value.from_ == 3 and value.end is False
    assert value.to_dict() == {"class": "c", "type": "t"}
    assert models.Enum_().kind == ENUM_TAG
    assert models.Type_().kind == "t\\2"
    assert models.Type_().items == ("'''",)
    assert [member.value for member in models.List] == ENUM_VALUES
    assert models.decode_init("a") is models.Init.A


def test_field_names_are_safe_and_distinct(models: ModuleType) -> None:
    # `_present` is the record's own bookkeeping (which optional keys were present)
    names = [item.name for item in dataclasses.fields(models.Json) if item.name != "_present"]
    assert len(names) == len(set(names))
    for name in names:
        assert name.isidentifier() and name.isascii(), name
        assert not name.startswith("_"), name
    for expected in ("class_", "from_", "def_", "field_", "list_", "str_", "init_", "slots_"):
        assert expected in names
    assert {"extra_", "to_dict_", "u65e5_u672c_u8a9e", "u1f600", "empty"} <= set(names)


def test_every_fixture_round_trips_exactly(models: ModuleType) -> None:
    for schema_name, cases in VALID.items():
        suffix = naming.snake_case(py(schema_name)).lstrip("_")
        decode = getattr(models, f"decode_{suffix}")
        encode = getattr(models, f"encode_{suffix}")
        for case, data in cases.items():
            snapshot = copy.deepcopy(data)
            value = decode(data)
            assert encode(value) == data, (schema_name, case)
            assert data == snapshot, (schema_name, case)  # the input is not mutated
            if hasattr(value, "to_json"):
                text = value.to_json()
                assert json.loads(text) == data
                assert type(value).from_json(text).to_dict() == data
                assert type(value).from_json(text.encode("utf-8")).to_dict() == data


def test_invalid_data_fails_at_its_path(models: ModuleType) -> None:
    for schema_name, cases in INVALID.items():
        decode = getattr(models, f"decode_{naming.snake_case(py(schema_name)).lstrip('_')}")
        for case, (data, path) in cases.items():
            with pytest.raises(models.DecodeError) as raised:
                decode(data)
            assert raised.value.path == path, (schema_name, case, str(raised.value))


# --- names: nothing generated shadows what a generated module uses ---------------------


def generated_python_files(project: Path) -> list[tuple[Path, set[str]]]:
    """(file, the Python names of its module's types) for the hostile and every shipped module."""
    found: list[tuple[Path, set[str]]] = []
    sources = [(project, project / "schema" / "hostile.yaml")] + [
        (REPO, path) for path in sorted((REPO / "schema").glob("*.yaml"))
    ]
    for root, schema in sources:
        module = python_names.python_module(lower(load(schema)))  # as the flavors name it
        types = {named.name for named in module.types}
        # an open union's Unknown<Union> member and an open enum's Unknown<Enum>: type
        # names, refused by lowering when taken
        types |= {
            named.unknown
            for named in module.types
            if isinstance(named, (ir.UnionType, ir.EnumType)) and named.unknown is not None
        }
        for flavor in PYTHON_FLAVORS:
            path = root / "generated" / "python" / module.name / f"{flavor}.py"
            if path.is_file():
                found.append((path, types))
    return found


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [name for item in node.elts for name in _targets(item)]
    return []


def top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names.extend(name for target in node.targets for name in _targets(target))
        elif isinstance(node, ast.AnnAssign):
            names.extend(_targets(node.target))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.extend((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def string_annotation_names(node: ast.AST) -> set[str]:
    """Names inside string annotations (`"JSONValue"`), not the values of `Literal[...]`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "Literal":
            return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", node.value))
    return set().union(*(string_annotation_names(child) for child in ast.iter_child_nodes(node)))


def class_body_clashes(tree: ast.Module) -> list[str]:
    """Names a class body both binds (a field) and reads (annotation, default, decorator)."""
    clashes: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bound: set[str] = set()
        read: set[str] = set()
        for statement in node.body:
            annotations: list[ast.AST] = []
            values: list[ast.AST] = []
            if isinstance(statement, ast.AnnAssign):
                bound.update(_targets(statement.target))
                annotations.append(statement.annotation)
                if statement.value is not None:
                    values.append(statement.value)
            elif isinstance(statement, ast.Assign):
                bound.update(name for target in statement.targets for name in _targets(target))
                values.append(statement.value)
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bound.add(statement.name)
                values.extend(statement.decorator_list)
                annotations.extend(a.annotation for a in statement.args.args if a.annotation)
                if statement.returns is not None:
                    annotations.append(statement.returns)
            for part in [*annotations, *values]:
                for inner in ast.walk(part):
                    if isinstance(inner, ast.Name):
                        read.add(inner.id)
            for part in annotations:
                read.update(string_annotation_names(part))
        # lambdas (default factories) see module globals, not the class body: drop their names
        for statement in node.body:
            for inner in ast.walk(statement):
                if isinstance(inner, ast.Lambda):
                    for name in ast.walk(inner.body):
                        if isinstance(name, ast.Name) and name.id not in bound:
                            read.discard(name.id)
        clashes.extend(f"{node.name}.{name}" for name in sorted(bound & read))
    return clashes


def test_no_generated_name_shadows_what_the_module_uses(project: Path) -> None:
    files = generated_python_files(project)
    assert any(path.is_relative_to(project) for path, _ in files)
    for path, types in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = top_level_names(tree)
        duplicates = sorted({name for name in names if names.count(name) > 1})
        assert not duplicates, f"{path}: defined twice: {duplicates}"
        adapters = {f"{name}Adapter" for name in types}  # Pydantic reports a clash itself
        for name in names:
            if name in types or name in adapters or name == "__all__":
                continue
            # a type with this name would be renamed, so it can never collide with the helper
            assert naming.python_type_name(name) != name, f"{path}: {name} could be a type name"
        assert not class_body_clashes(tree), f"{path}: {class_body_clashes(tree)}"


def test_no_raw_control_or_invisible_characters_in_output(project: Path) -> None:
    for path in sorted((project / "generated").rglob("*")):
        if not path.is_file() or "_build" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        unsafe = sorted(
            {
                f"U+{ord(char):04X}"
                for char in text
                if char not in "\n\t"
                and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs")
            }
        )
        assert not unsafe, f"{path.relative_to(project)} contains {unsafe}"


# --- every flavor ----------------------------------------------------------------------


def run(command: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": CHECKOUT_PATH}
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_every_python_flavor_passes_its_generated_suite(project: Path) -> None:
    suites = sorted((project / "generated" / "tests" / "python").glob("test_hostile*.py"))
    assert project / "generated" / "tests" / "python" / "test_hostile.py" in suites
    done = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *map(str, suites)],
        project,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


def test_every_python_flavor_imports(project: Path) -> None:
    for flavor in PYTHON_FLAVORS:
        if (project / "generated" / "python" / "hostile" / f"{flavor}.py").is_file():
            load_flavor(project, flavor)


def test_python_flavors_are_mypy_strict_clean(project: Path) -> None:
    files = [
        str(path)
        for flavor in PYTHON_FLAVORS
        if (path := project / "generated" / "python" / "hostile" / f"{flavor}.py").is_file()
    ]
    done = run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", *files], project)
    assert done.returncode == 0, done.stdout[-5000:]


def test_elixir_output_compiles_and_round_trips(project: Path) -> None:
    elixir = project / "generated" / "elixir"
    assert (elixir / "mix.exs").is_file()
    # decoding never creates atoms: checked for unknown values and for unseen keys and strings
    suite = (elixir / "test" / "hostile_test.exs").read_text(encoding="utf-8")
    assert "assert_no_new_atoms(" in suite
    assert "assert_unseen_input_makes_no_atoms(" in suite
    if shutil.which("mix") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mix (Elixir) is not installed, and CI=true requires the Elixir tests")
        pytest.skip("mix (Elixir) is not installed")
    done = run(["mix", "test"], elixir)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-5000:]
