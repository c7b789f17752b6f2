"""The official JSON-Schema-Test-Suite as a project: every case group one generated module.

`tests/test_suite_conformance.py` measures each flavor against the suite's verdicts; this
module builds and runs what it measures (issue 19).

The suite (`../shared/json-schema-test-suite`, read in place) lists, per keyword, groups of
`{description, schema, tests: [{description, data, valid}]}`. polytype generates typed code,
so each group's schema is wrapped as `$defs/Value` of a module whose root is a record
`Case {value: Value}`; every flavor decodes `data` as a `Value`.

Typing rule: an assertion keyword applies to one JSON type (`minLength` to strings), and
the suite writes most schemas without `type` so that it can show the keyword ignoring
other types. polytype has no "anything, but if it is a string then ..." type: such a group
gets the keyword's type (`"type": "string"`) and its tests on other JSON types are
*off-type*: counted and shown, not judged (they test JSON Schema's applicability rule,
not the keyword). A group whose schema already says `type` is taken as written.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO.parent / "shared" / "json-schema-test-suite" / "tests" / "draft2020-12"

# The keywords measured, and the one JSON type each applies to (None: every type).
KEYWORDS: dict[str, str | None] = {
    "type": None,
    "enum": None,
    "const": None,
    "required": "object",
    "minLength": "string",
    "maxLength": "string",
    "pattern": "string",
    "minimum": "number",
    "maximum": "number",
    "exclusiveMinimum": "number",
    "exclusiveMaximum": "number",
    "multipleOf": "number",
    "minItems": "array",
    "maxItems": "array",
    "uniqueItems": "array",
    "minProperties": "object",
    "maxProperties": "object",
    "propertyNames": "object",
    "dependentRequired": "object",
    "patternProperties": "object",
    "additionalProperties": "object",
    "dependentSchemas": "object",
}

FLAVORS = ("dataclasses", "typeddicts", "pydantic", "elixir")


def json_type(value: Any) -> str:
    """The JSON Schema type of a JSON value (`1.0` is a number here, as for applicability)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


@dataclass(frozen=True)
class Test:
    description: str
    data: Any
    valid: bool


@dataclass(frozen=True)
class Group:
    """One case group of the suite, as polytype measures it."""

    keyword: str
    index: int
    description: str
    schema: dict[str, Any]  # as polytype reads it: typed by the keyword when it had no type
    tests: tuple[Test, ...]  # the judged ones
    off_type: tuple[Test, ...]  # on other JSON types than the one the keyword applies to

    @property
    def id(self) -> str:
        return f"{self.keyword}/{self.index}"

    @property
    def module(self) -> str:
        return f"{re.sub(r'[^a-z0-9]', '', self.keyword.lower())}_{self.index}"


def groups() -> list[Group]:
    """Every group of every measured keyword, in suite order."""
    found = []
    for keyword, applies_to in KEYWORDS.items():
        data = json.loads((SUITE / f"{keyword}.json").read_text(encoding="utf-8"))
        for index, group in enumerate(data):
            schema = {k: v for k, v in group["schema"].items() if k != "$schema"}
            tests = [Test(t["description"], t["data"], t["valid"]) for t in group["tests"]]
            off: list[Test] = []
            if applies_to is not None and isinstance(schema, dict) and "type" not in schema:
                schema = {"type": applies_to, **schema}
                off = [t for t in tests if json_type(t.data) != applies_to]
                tests = [t for t in tests if json_type(t.data) == applies_to]
            found.append(
                Group(keyword, index, group["description"], schema, tuple(tests), tuple(off))
            )
    return found


def wrapped(group: Group) -> dict[str, Any]:
    """The module schema: `Case {value: Value}` with the group's schema as `Value`."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Case",
        "type": "object",
        "properties": {"value": {"$ref": "#/$defs/Value"}},
        "required": ["value"],
        "additionalProperties": False,
        "$defs": {"Value": group.schema},
    }


@dataclass
class Built:
    """The generated project: which groups it holds, which polytype refused and why."""

    root: Path
    refused: dict[str, str] = field(default_factory=dict)  # group id -> first problem
    warnings: dict[str, list[str]] = field(default_factory=dict)  # group id -> warnings
    elixir: dict[str, bool] | None = None  # fixture name -> agreed; None: no Elixir


def build(root: Path, selected: list[Group], elixir: bool) -> Built:
    """Write one module per group (the refused ones left out), generate every target
    once, and run the Elixir suite on the fixtures when `elixir`."""
    from generator.cli import main
    from generator.diagnostics import InputError
    from generator.frontend import read_schema

    built = Built(root)
    schema_dir = root / "schema"
    schema_dir.mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\n', encoding="utf-8"
    )
    for group in selected:
        path = schema_dir / f"{group.module}.json"
        path.write_text(json.dumps(wrapped(group), ensure_ascii=False), encoding="utf-8")
        try:
            read = read_schema(path, path.name, strict=False)
        except InputError as error:
            built.refused[group.id] = str(error.diagnostics[0])
            path.unlink()
            continue
        built.warnings[group.id] = [str(warning) for warning in read.warnings]
        folder = root / "tests" / "fixtures" / group.module / "Case"
        for number, test in enumerate(group.tests):
            target = folder if test.valid else folder / "invalid"
            target.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"value": test.data}, ensure_ascii=False)
            (target / f"{fixture_name(group, number)}.json").write_text(text, encoding="utf-8")
            if not test.valid:  # a guess: a rejection at any other path agrees as well
                (target / f"{fixture_name(group, number)}.path").write_text("$.value\n", "utf-8")
    code = main(["--project", str(root), "generate"])
    assert code == 0, f"polytype generate exited {code}"
    if elixir and shutil.which("mix") is not None:
        built.elixir = _run_exunit(root / "generated" / "elixir", selected, built)
    return built


def fixture_name(group: Group, number: int) -> str:
    return f"{group.module}_t{number}"


_EXUNIT_FAILURE = re.compile(r"^\s+\d+\) test (?P<name>.+?) \((?P<module>[\w.]+)\)$", re.M)


def _run_exunit(directory: Path, selected: list[Group], built: Built) -> dict[str, bool]:
    """fixture name -> the Elixir decoder agreed (a rejection at any path agrees)."""
    done = subprocess.run(
        ["mix", "test"],
        cwd=directory,
        env={**_environ(), "MIX_ENV": "test"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    assert re.search(r"\d+ tests?, \d+ failures?", output), output[-3000:]
    failures = list(_EXUNIT_FAILURE.finditer(output))
    failed: dict[str, str] = {}
    for index, match in enumerate(failures):
        end = failures[index + 1].start() if index + 1 < len(failures) else len(output)
        name = re.search(r"Case/(?:invalid/)?(\w+)\.json", match.group("name"))
        if name is not None:
            failed[name.group(1)] = output[match.end() : end]
    outcomes = {}
    for group in selected:
        if group.id in built.refused:
            continue
        for number, test in enumerate(group.tests):
            name = fixture_name(group, number)
            block = failed.get(name)
            if block is None:
                outcomes[name] = True
            else:  # a rejection at another path than the guessed one still agrees
                outcomes[name] = not test.valid and "match (=) failed" not in block
    return outcomes


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)
