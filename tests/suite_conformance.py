"""The official JSON-Schema-Test-Suite as a project: every case group one generated module.

`tests/test_suite_conformance.py` measures each flavor against the suite's verdicts; this
module builds and runs what it measures (issue 19).

The suite (`../shared/json-schema-test-suite`, read in place) lists, per draft (4, 6, 7,
2019-09, 2020-12) and keyword, groups of
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
SUITES = REPO.parent / "shared" / "json-schema-test-suite" / "tests"


@dataclass(frozen=True)
class Draft:
    """One draft's directory of the suite, and how a module of that draft is written.

    2020-12 is the reference: its groups keep the plain id `keyword/index`; the others
    are `draft:keyword/index`, read by polytype's front end as that draft (`$schema`)
    and normalised to 2020-12 before lowering.
    """

    name: str
    uri: str
    definitions: str  # where the draft keeps definitions: `definitions` or `$defs`
    short: str  # module name prefix

    @property
    def directory(self) -> Path:
        return SUITES / self.name

    def group_id(self, keyword: str, index: int) -> str:
        plain = f"{keyword}/{index}"
        return plain if self.name == REFERENCE else f"{self.name}:{plain}"


REFERENCE = "draft2020-12"
DRAFTS = (
    Draft("draft4", "http://json-schema.org/draft-04/schema#", "definitions", "d4"),
    Draft("draft6", "http://json-schema.org/draft-06/schema#", "definitions", "d6"),
    Draft("draft7", "http://json-schema.org/draft-07/schema#", "definitions", "d7"),
    Draft("draft2019-09", "https://json-schema.org/draft/2019-09/schema", "$defs", "d2019"),
    Draft(REFERENCE, "https://json-schema.org/draft/2020-12/schema", "$defs", ""),
)
DRAFTS_BY_NAME = {draft.name: draft for draft in DRAFTS}

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
    "dependencies": "object",  # drafts 4 to 7: dependentRequired and dependentSchemas in one
    "prefixItems": "array",
    "items": "array",
    "patternProperties": "object",
    "additionalProperties": "object",
    "dependentSchemas": "object",
    "properties": "object",
    # schema checks (`not`, conditionals, `contains`, `allOf` parts that cannot merge)
    # apply JSON Schema's applicability rule themselves: every test is judged
    "not": None,
    "if-then-else": None,
    "contains": None,
    "minContains": None,
    "maxContains": None,
    "allOf": None,
    "anyOf": None,
    "oneOf": None,
    "boolean_schema": None,
    "unevaluatedProperties": None,  # drafts 2019-09 and 2020-12; they apply their own rule
    "unevaluatedItems": None,
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
    draft: str = REFERENCE

    @property
    def id(self) -> str:
        return DRAFTS_BY_NAME[self.draft].group_id(self.keyword, self.index)

    @property
    def module(self) -> str:
        prefix = DRAFTS_BY_NAME[self.draft].short
        name = f"{re.sub(r'[^a-z0-9]', '', self.keyword.lower())}_{self.index}"
        return f"{prefix}_{name}" if prefix else name


def groups(drafts: tuple[Draft, ...] = DRAFTS) -> list[Group]:
    """Every group of every measured keyword a draft has, in suite order, draft by draft."""
    found = []
    for draft in drafts:
        for keyword, applies_to in KEYWORDS.items():
            path = draft.directory / f"{keyword}.json"
            if not path.is_file():  # not a keyword of this draft
                continue
            for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
                found.append(_group(draft, keyword, index, group, applies_to))
    return found


def _group(
    draft: Draft, keyword: str, index: int, group: dict[str, Any], applies_to: str | None
) -> Group:
    schema = group["schema"]
    if isinstance(schema, dict):
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    tests = [Test(t["description"], t["data"], t["valid"]) for t in group["tests"]]
    off: list[Test] = []
    if applies_to is not None and isinstance(schema, dict) and "type" not in schema:
        schema = {"type": applies_to, **schema}
        off = [t for t in tests if json_type(t.data) != applies_to]
        tests = [t for t in tests if json_type(t.data) == applies_to]
    return Group(keyword, index, group["description"], schema, tuple(tests), tuple(off), draft.name)


def twins(found: list[Group]) -> dict[str, str]:
    """group id -> the id of the 2020-12 group with the same schema and tests, for the
    groups of the other drafts that have one (most do: the suite repeats its cases)."""
    reference = {
        (json.dumps(g.schema, sort_keys=True), repr(g.tests)): g.id
        for g in found
        if g.draft == REFERENCE
    }
    pairs = {}
    for group in found:
        twin = reference.get((json.dumps(group.schema, sort_keys=True), repr(group.tests)))
        if group.draft != REFERENCE and twin is not None:
            pairs[group.id] = twin
    return pairs


def wrapped(group: Group) -> dict[str, Any]:
    """The module schema, in the group's draft: `Case {value: Value}` with the group's
    schema as the definition `Value`."""
    draft = DRAFTS_BY_NAME[group.draft]
    value = group.schema
    definitions: dict[str, Any] = {}
    if isinstance(value, dict) and isinstance(value.get(draft.definitions), dict):
        # the group's own definitions stay where its `#/$defs/...` references look
        definitions = dict(value[draft.definitions])
        value = {k: v for k, v in value.items() if k != draft.definitions}
    if not _has_id(value):  # `#` was the group's schema; it is `Value` now
        value = _rebased(value, f"#/{draft.definitions}/Value", draft.definitions)
    return {
        "$schema": draft.uri,
        "title": "Case",
        "type": "object",
        "properties": {"value": {"$ref": f"#/{draft.definitions}/Value"}},
        "required": ["value"],
        "additionalProperties": False,
        draft.definitions: {**definitions, "Value": value},
    }


def _has_id(node: Any) -> bool:
    if isinstance(node, dict):
        return any(key in ("$id", "id") or _has_id(item) for key, item in node.items())
    return isinstance(node, list) and any(_has_id(item) for item in node)


def _rebased(node: Any, base: str, definitions: str) -> Any:
    """`node` with each `$ref` into the group's schema itself (`#`, `#/properties/...`)
    pointing into `base`; references to its definitions stay (they stay in place)."""
    if isinstance(node, list):
        return [_rebased(item, base, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rebased(item, base, definitions) for key, item in node.items()}
    reference = node.get("$ref")
    if isinstance(reference, str) and (
        reference == "#"
        or reference.startswith("#/")
        and not reference.startswith(f"#/{definitions}/")
    ):
        out["$ref"] = base + reference[1:]
    return out


@dataclass
class Built:
    """The generated project: which groups it holds, which polytype refused and why."""

    root: Path
    refused: dict[str, str] = field(default_factory=dict)  # group id -> first problem
    warnings: dict[str, list[str]] = field(default_factory=dict)  # group id -> warnings
    elixir: dict[str, bool] | None = None  # fixture name -> agreed; None: no Elixir


def build(root: Path, selected: list[Group], elixir: bool, settings: str = "") -> Built:
    """Write one module per group (the refused ones left out), generate every target
    once, and run the Elixir suite on the fixtures when `elixir`. `settings`: more
    `[tool.polytype]` lines (`formats = [...]`)."""
    from polytype.cli import main
    from polytype.compile import read_schema
    from polytype.diagnostics import InputError

    built = Built(root)
    schema_dir = root / "schema"
    schema_dir.mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        f'[tool.polytype]\nschema-dir = "schema"\n{settings}', encoding="utf-8"
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
        timeout=1800,  # every group compiled in one project: minutes on a busy machine
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
