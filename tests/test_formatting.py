"""The fast formatter must write exactly what black writes (black stays the verifier)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from generator import fixtures, formatting
from generator.config import find_project
from generator.formatting import black_format, call_layout, format_python, literal_layout
from generator.loader import load
from generator.lower import lower
from generator.render import make_env
from generator.targets import module_targets
from generator.validate import validate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import synthetic  # noqa: E402


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


@pytest.mark.parametrize("module", ["ag_ui", "nano_agent"])
def test_shipped_outputs_match_black(module: str) -> None:
    project = find_project(ROOT)
    outputs = _python_outputs(ROOT / "schema" / f"{module}.yaml", project.fixtures_dir)
    fast = formatting.format_many(outputs)
    for (text, path), formatted in zip(outputs, fast, strict=True):
        assert formatted == black_format(text, path), path


def test_synthetic_outputs_match_black(tmp_path: Path) -> None:
    schema = synthetic.write(40, tmp_path)
    for text, path in _python_outputs(schema):
        assert format_python(text, path) == black_format(text, path), path


HOSTILE = [
    # every construct the cheap checks must hand to black
    'x = {"a": 1,}\n',
    "x = 'single'\n",
    'x = "it\\\'s"\n',
    'x = "say \\"hi\\""\n',
    "x = 1E5\n",
    "x = 1e+5\n",
    "x = 0XFF\n",
    "x = 0xff\n",
    "x = 1.\n",
    "x = .5\n",
    "def f(\n    a\n):\n    return a\n",
    "def f():\n\n    return 1\n",
    "x = 1 # comment\n",
    "x = 1  #comment\n",
    "x = [\n]\n",
    'def f():\n    """  padded  """\n',
    'def f():\n    """Doc.\n\n      indented more\n      """\n',
    'def f():\n    """Doc.\n    """\n',
    'def f():\n    """Ends with a quote\\""""\n',
    "x = 1\n\n\n\ny = 2\n",
    "class A:\n    x: int\n    def f(self) -> None:\n        pass\n",
    "import os\ndef f() -> None:\n    pass\n",
    "value = call(argument_number_one, argument_number_two, argument_number_three, argument_four_)\n",
    'x = "\\xAB"\n',
    "x = (1,)\n",
    "VALID = [    (1, 2),\n]\n",
    "x = f(a,  b)\n",
    "x = f(a,)\n",
    '"""Module."""\nimport os\n',
    "# comment\n\n\ndef f() -> None:\n    pass\n# trailing\n",
]


@pytest.mark.parametrize("source", HOSTILE)
def test_hostile_snippets_match_black(source: str) -> None:
    assert format_python(source, "snippet.py") == black_format(source, "snippet.py")


@pytest.mark.parametrize("count", [1, 3, 8, 20])
def test_layout_helpers_match_black(count: int) -> None:
    names = [f'"key_number_{index}"' for index in range(count)]
    statements = [
        call_layout("_SOME_RECORD_KEYS = frozenset(", ["{" + ", ".join(names) + "}"]),
        call_layout(
            "SomeTypeAdapter: TypeAdapter[SomeType] = TypeAdapter(",
            ["SomeType", f'config=ConfigDict(title="{"T" * count * 4}")'],
        ),
        literal_layout("_X_VALUES: dict[str, X] = ", "{", [f"{n}: {n}" for n in names], "}"),
    ]
    for statement in statements:
        text = statement + "\n"
        if max(len(line) for line in text.splitlines()) <= formatting.LINE_LENGTH:
            assert black_format(text, "layout.py") == text  # laid out exactly as black would
        assert format_python(text, "layout.py") == black_format(text, "layout.py")
