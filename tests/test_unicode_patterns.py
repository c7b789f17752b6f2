"""Unicode property escapes (`\\p{Letter}`) in patterns, which Python's `re` cannot read.

ECMA-262 patterns may name a General_Category (`\\p{L}`, `\\p{Letter}`, `\\p{gc=Lu}`,
`\\P{...}` for the complement). PCRE reads them (`patterns.pcre_pattern` spells the long
names short); for `re`, `patterns.python_pattern` spells each as the class of its code
points. Before, such a pattern was "not a 'regex'" and the property it constrained was
typed as free-form JSON, with a warning. Now every Python flavor, the schema checks
(jsonschema runs on `re` too) and `drift` check it as written.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from polytype.cli import main
from polytype.ir.patterns import python_pattern
from pydantic import ValidationError

from .workflow_support import schema_project, write_lines

LETTER = re.compile(python_pattern(r"^\p{Letter}$"))
NOT_UPPER = re.compile(python_pattern(r"^\P{Lu}$"))
IN_CLASS = re.compile(python_pattern(r"^[\p{Nd}_]$"))


@given(st.characters())
def test_a_category_matches_exactly_its_code_points(char: str) -> None:
    category = unicodedata.category(char)
    assert bool(LETTER.search(char)) == category.startswith("L")
    assert bool(NOT_UPPER.search(char)) == (category != "Lu")
    assert bool(IN_CLASS.search(char)) == (category == "Nd" or char == "_")


def test_what_is_not_a_category_is_left_for_re_to_refuse() -> None:
    assert python_pattern(r"^[a-z]+\d$") == r"^[a-z]+\d$"  # no property: as it is
    assert python_pattern(r"\\p{L}") == r"\\p{L}"  # an escaped backslash, then "p{L}"
    for kept in (r"\p{Script=Greek}", r"[\P{L}]"):  # a script; a complement in a class
        assert python_pattern(kept) == kept
        with pytest.raises(re.error):
            re.compile(python_pattern(kept))


SCHEMA = {
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string", "pattern": r"^\p{Lu}\p{Ll}+$"},
        "nick": {"type": "string", "not": {"pattern": r"^\p{N}+$"}},
    },
    "required": ["name"],
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return schema_project(
        tmp_path_factory.mktemp("unicode_patterns"),
        "person.json",
        SCHEMA,
        'targets = ["dataclasses", "typeddicts", "pydantic"]\n',
    )


@pytest.fixture(scope="module")
def flavors(project: Path) -> dict[str, ModuleType]:
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        assert main(["--project", str(project), "generate"]) == 0
    assert "warning" not in errors.getvalue(), "no warning: the patterns are checked"
    sys.path.insert(0, str(project / "generated" / "python"))
    try:
        return {
            flavor: importlib.import_module(f"person.{flavor}")
            for flavor in ("dataclass_models", "typed_dicts", "pydantic_models")
        }
    finally:
        sys.path.remove(str(project / "generated" / "python"))
        for name in [name for name in sys.modules if name.split(".")[0] == "person"]:
            del sys.modules[name]


def _verdicts(flavors: dict[str, ModuleType], value: Any) -> dict[str, str]:
    """flavor -> "ok", or its error message."""
    found: dict[str, str] = {}
    for flavor, run in (
        ("dataclasses", lambda v: flavors["dataclass_models"].decode_person(v).to_dict()),
        ("typeddicts", flavors["typed_dicts"].validate_person),
        ("pydantic", flavors["pydantic_models"].Person.model_validate),
    ):
        try:
            run(value)
            found[flavor] = "ok"
        except (ValueError, ValidationError) as error:
            found[flavor] = str(error)
    return found


def test_every_python_flavor_checks_a_category_pattern(
    project: Path, flavors: dict[str, ModuleType]
) -> None:
    for good in ({"name": "Ωmega"}, {"name": "Émile", "nick": "e1"}):
        assert set(_verdicts(flavors, good).values()) == {"ok"}, good
    rejected = _verdicts(flavors, {"name": "émile"})
    assert "ok" not in rejected.values()
    assert rejected["dataclasses"] == r"$.name: does not match pattern '^\\p{Lu}\\p{Ll}+$'"
    nick = _verdicts(flavors, {"name": "Emile", "nick": "٣٤"})  # Arabic-Indic digits: N
    assert "ok" not in nick.values() and "breaks 'not'" in nick["dataclasses"]
    # the comment that states the schema's pattern is pinned by tests/endtoend/unicode_patterns


def test_drift_judges_the_pattern_as_the_decoders_do(
    project: Path, flavors: dict[str, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    stream = write_lines(project / "people.jsonl", [{"name": "Ωmega"}, {"name": "émile"}])
    assert main(["--project", str(project), "drift", "person", str(stream)]) == 1
    out = capsys.readouterr().out
    assert r'Person.name: breaks pattern: "^\\p{Lu}\\p{Ll}+$" (1x)' in out
