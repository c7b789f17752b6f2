"""The corpus harness (issue 18): how far polytype gets on 18 published JSON Schemas.

    python -m tests.corpus                  # every schema: the table, then the ratchet
    python -m tests.corpus --only bowtie    # some of them
    python -m tests.corpus --update         # write what was measured to tests/corpus_expected.json
    python -m tests.corpus --keep DIR       # leave each schema's project in DIR/<name>

The corpus (`../shared/corpus`, or `$POLYTYPE_CORPUS`) is read in place: `index.json`
names each schema, its draft, its sample instances and the type (`root`: a file and a
JSON pointer) each one belongs to; its own `validate.py` gives jsonschema's verdicts.
For each schema, in a fresh temporary project:

1. polytype lowers the schema (a child process capped at 6 GiB and a timeout); a refusal
   ends the schema there. The IR maps each instance's root pointer to the type generated
   for it (`source.pointer`; the root schema is pointer "").
2. Each instance becomes a fixture `tests/fixtures/<module>/<Type>/<case>.json`, and each is
   mutated three ways (a required key dropped, a value of the wrong JSON type, an unknown
   tag): a mutation jsonschema rejects is an `invalid/` fixture, one it accepts a valid one.
3. `polytype generate` writes every target with the round-trip tests it generates for those
   fixtures; `mypy --strict` checks the Python, pytest runs the Python suites (dataclasses,
   TypedDicts, Pydantic), `mix format --check-formatted` checks the Elixir is laid out as
   `mix format` lays it out, and `mix test` compiles it with warnings as errors and runs
   ExUnit.
4. Per flavor: how many instances round-trip exactly, and on how many mutations the flavor's
   verdict is jsonschema's (a rejection at another path than the one guessed still agrees).

Two schemas are measured at a time (`--jobs`, `$POLYTYPE_CORPUS_JOBS`); a refused schema
costs one lowering.

`tests/corpus_expected.json` holds the numbers the branch reaches. tests/test_corpus.py
fails when any number falls below it, and also when one rises, so that the file is raised
on purpose (`--update`) together with the change that earned it.
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("POLYTYPE_CORPUS") or REPO.parent / "shared" / "corpus")
EXPECTED = REPO / "tests" / "corpus_expected.json"
# Children import this checkout's polytype (not an installed one) and `tests.corpus`.
PYTHONPATH = os.pathsep.join((str(REPO / "generator"), str(REPO)))
# Address-space cap for everything polytype and the checks run on a corpus schema: a
# recursive meta-schema once took 24 GB and the kernel killed the whole run.
MEMORY_LIMIT = 6 * 1024**3
TIMEOUT = 300.0
PYTHON_FLAVORS = ("dataclasses", "typeddicts", "pydantic")
FLAVORS = (*PYTHON_FLAVORS, "elixir")
UNKNOWN_TAG = "polytype-corpus-unknown-tag"
MAX_TRIES = 40  # candidates tried per instance and kind of mutation
# Schemas measured at once (their work is child processes): `$POLYTYPE_CORPUS_JOBS`.
JOBS = int(os.environ.get("POLYTYPE_CORPUS_JOBS") or min(2, os.cpu_count() or 1))
# validate.py's quirk (a `type` name outside JSON Schema's matches nothing) is set on the
# shared validator class while a verdict is computed: one verdict at a time.
_JUDGING = threading.Lock()


# --- the index -------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """One sample document and the type it belongs to: `root_file#pointer`."""

    file: str
    root_file: str
    pointer: str


@dataclass(frozen=True)
class CorpusSchema:
    name: str
    directory: Path
    draft: str
    schema: str  # the main schema file, relative to `directory`
    external_refs: Mapping[str, str]  # absolute URL -> local file
    instances: tuple[Instance, ...]
    entry: Mapping[str, Any] = field(repr=False, compare=False)  # as index.json has it

    @property
    def path(self) -> Path:
        return self.directory / self.schema


def read_index(corpus: Path = CORPUS) -> list[CorpusSchema]:
    """Every schema of the corpus, in index order."""
    index = json.loads((corpus / "index.json").read_text(encoding="utf-8"))["schemas"]
    schemas = []
    for name, entry in index.items():
        instances = []
        for item in entry["instances"]:
            root_file, _, pointer = item["root"].partition("#")
            instances.append(Instance(item["file"], root_file, pointer))
        schemas.append(
            CorpusSchema(
                name=name,
                directory=corpus / name,
                draft=entry["draft"],
                schema=entry["schema"],
                external_refs=dict(entry.get("external_refs", {})),
                instances=tuple(instances),
                entry=entry,
            )
        )
    return schemas


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8-sig"))


# --- jsonschema's verdicts, through the corpus's own validate.py -------------------------


@cache
def _validate_py(corpus: Path = CORPUS) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "polytype_corpus_validate", corpus / "validate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Judge:
    """jsonschema's verdict on any value for a root of one corpus schema, set up exactly as
    the corpus's validate.py sets it up (draft, registry of local files, URL map, formats)."""

    def __init__(self, schema: CorpusSchema) -> None:
        validate = _validate_py(schema.directory.parent)
        _, self._registry, self._cls, odd = validate.build(schema.name, schema.entry)
        self._resources: Mapping[str, str] = schema.entry["resources"]
        formats = schema.entry.get("assert_formats")
        self._kwargs = {"format_checker": validate.format_checker(formats)} if formats else {}
        self._checker = self._cls.TYPE_CHECKER
        for name in odd:  # a `type` outside JSON Schema's names matches nothing (validate.py)
            self._checker = self._checker.redefine(name, lambda _checker, _instance: False)
        self._validators: dict[tuple[str, str], Any] = {}

    def valid(self, instance: Instance, data: Any) -> bool:
        key = (instance.root_file, instance.pointer)
        if key not in self._validators:
            uri = self._resources[instance.root_file] + "#" + instance.pointer
            self._validators[key] = self._cls(
                {"$ref": uri}, registry=self._registry, **self._kwargs
            )
        with _JUDGING:
            saved, self._cls.TYPE_CHECKER = self._cls.TYPE_CHECKER, self._checker
            try:
                return bool(self._validators[key].is_valid(data))
            except Exception:  # noqa: BLE001 - an unresolvable $ref: jsonschema accepts nothing
                return False
            finally:
                self._cls.TYPE_CHECKER = saved


# --- mutations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutation:
    kind: str  # "drop", "retype" or "tag"
    data: Any
    path: str  # where polytype's decoders are expected to point, e.g. `$.items[0].id`
    valid: bool  # jsonschema's verdict


def segment(key: str | int) -> str:
    """One step of a decoder's error path, as the generated decoders write it."""
    if isinstance(key, int):
        return f"[{key}]"
    if key.isidentifier():
        return "." + key
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


def _nodes(data: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every value with its location, breadth first (shallow places first)."""
    queue: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while queue:
        location, value = queue.pop(0)
        yield location, value
        if isinstance(value, dict):
            queue.extend(((*location, key), item) for key, item in value.items())
        elif isinstance(value, list):
            queue.extend(((*location, index), item) for index, item in enumerate(value))


def _replaced(data: Any, location: tuple[str | int, ...], value: Any) -> Any:
    changed = copy.deepcopy(data)
    if not location:
        return value
    parent = changed
    for step in location[:-1]:
        parent = parent[step]
    parent[location[-1]] = value
    return changed


def _dropped(data: Any, location: tuple[str | int, ...], key: str) -> Any:
    changed = copy.deepcopy(data)
    parent = changed
    for step in location:
        parent = parent[step]
    del parent[key]
    return changed


def _other_type(value: Any) -> Any:
    """A value of another JSON type than `value`."""
    if isinstance(value, str):
        return 12345
    if isinstance(value, (bool, int, float)) or value is None:
        return "polytype-corpus-retyped"
    return "polytype-corpus-retyped" if isinstance(value, (dict, list)) else None


def _path(location: tuple[str | int, ...]) -> str:
    return "$" + "".join(segment(step) for step in location)


def _candidates(data: Any, kind: str, tag_keys: frozenset[str]) -> Iterator[tuple[Any, str]]:
    """Mutations of one kind, shallow places first, each made only when asked for."""
    for location, value in _nodes(data):
        if kind == "drop" and isinstance(value, dict):
            for key in value:
                yield _dropped(data, location, key), _path((*location, key))
        elif kind == "retype" and location:
            yield _replaced(data, location, _other_type(value)), _path(location)
        elif kind == "tag" and location and location[-1] in tag_keys and isinstance(value, str):
            yield _replaced(data, location, UNKNOWN_TAG), _path(location)


def mutations(data: Any, tag_keys: frozenset[str], judge: Callable[[Any], bool]) -> list[Mutation]:
    """Up to three mutations of `data`, each with jsonschema's verdict (`judge`).

    For each kind the first of its first `MAX_TRIES` candidates that jsonschema rejects is
    taken (a key whose absence is refused is a required one); failing that, the first
    candidate, which it accepts.
    """
    chosen = []
    for kind in ("drop", "retype", "tag"):
        first: Mutation | None = None
        for tries, (changed, where) in enumerate(_candidates(data, kind, tag_keys)):
            if tries == MAX_TRIES:
                break
            mutation = Mutation(kind, changed, where, judge(changed))
            first = first or mutation
            if not mutation.valid:
                first = mutation
                break
        if first is not None:
            chosen.append(first)
    return chosen


# --- child processes, capped -------------------------------------------------------------


def _cap_memory(memory: int = MEMORY_LIMIT) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


@dataclass(frozen=True)
class Run:
    code: int | None  # None: timed out
    stdout: str
    stderr: str


def run(
    command: Sequence[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
    memory: int = MEMORY_LIMIT,
) -> Run:
    """`command` under the memory cap (`memory` bytes of address space) and the timeout."""
    try:
        done = subprocess.run(
            list(command),
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": PYTHONPATH, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=functools.partial(_cap_memory, memory),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Run(None, "", f"timed out after {timeout:.0f} s")
    return Run(done.returncode, done.stdout, done.stderr)


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:160]


# --- polytype's IR, read in a capped child -----------------------------------------------


def describe(schema: Path, project: Path) -> dict[str, Any]:
    """The module polytype builds from `schema`: its name, the type generated for each
    `file#pointer`, and the JSON keys that are tags. Raises InputError when refused."""
    from polytype import ir
    from polytype.project.config import find_project
    from polytype.project.pipeline import load_modules

    configured = find_project(project).with_overrides(schemas=(schema,))
    modules = load_modules(configured)
    types: dict[str, str] = {}
    tags: set[str] = set()
    for module in modules:
        for named in module.types:
            if isinstance(named, ir.UnionType) and named.tag is not None:
                tags.add(named.tag)
            if isinstance(named, ir.Record):
                tags.update(item.json_key for item in named.fields if item.is_tag)
            if named.source is not None:
                file = _source_file(named.source.file, configured.root, schema.parent)
                types.setdefault(f"{file.as_posix()}#{named.source.pointer}", named.name)
    return {"modules": [m.name for m in modules], "types": types, "tags": sorted(tags)}


def _source_file(shown: str, root: Path, beside: Path) -> Path:
    """The file a type's `source.file` names: shown relative to the project (the main
    schema) or to the main schema's directory (a file it references), or absolute."""
    for base in (root, beside):
        candidate = (base / shown).resolve()
        if candidate.is_file():
            return candidate
    return (root / shown).resolve()


def _describe_main(schema: str, project: str) -> int:
    from polytype.diagnostics import InputError

    try:
        described = describe(Path(schema), Path(project))
    except InputError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic, file=sys.stderr)
        return 2
    print(json.dumps(described))
    return 0


# --- one schema --------------------------------------------------------------------------


@dataclass
class Result:
    """What one schema reaches. The counts are per flavor, over instances and mutations."""

    name: str
    generates: bool = False
    note: str = ""
    instances: int = 0
    typed: int = 0  # instances whose root pointer names a generated type
    mypy: bool = False
    elixir_compiles: bool = False
    elixir_formatted: bool = False  # `mix format --check-formatted` accepts the Elixir
    round_trip: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAVORS, 0))
    mutations: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAVORS, 0))
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)  # seconds per step (not kept)
    # instances whose root pointer names no generated type (not kept)
    untyped: list[Instance] = field(default_factory=list)

    def timed(self, stage: str, started: float) -> None:
        self.stages[stage] = round(time.monotonic() - started, 1)


@dataclass(frozen=True)
class Fixture:
    relative: str  # under the module's fixtures folder: `<Type>/[invalid/]<case>.json`
    valid: bool
    from_instance: bool  # an instance as published (else a mutation)


def _case_name(index: int, file: str) -> str:
    stem = Path(file).name.removesuffix(".json")
    return f"i{index:03d}_" + re.sub(r"[^A-Za-z0-9_]+", "_", stem).strip("_")[:60]


def _pyproject(schema: CorpusSchema) -> str:
    """`[tool.polytype]`, with the index's URL map once polytype reads `ref-map`."""
    from polytype.project import config

    lines = ["[tool.polytype]"]
    if "ref-map" in getattr(config, "_KNOWN_KEYS", ()):
        lines.append("[tool.polytype.ref-map]")
        for url, local in sorted(schema.external_refs.items()):
            lines.append(f"{json.dumps(url)} = {json.dumps((schema.directory / local).as_posix())}")
    return "\n".join(lines) + "\n"


def _write_fixtures(
    schema: CorpusSchema, judge: Judge, described: dict[str, Any], fixtures: Path
) -> tuple[list[Fixture], list[Instance]]:
    """Lay out the instances and their mutations as fixtures; (fixtures, the instances
    whose type the module does not have)."""
    written: list[Fixture] = []
    tag_keys = frozenset(described["tags"])
    untyped: list[Instance] = []
    for index, instance in enumerate(schema.instances):
        root = (schema.directory / instance.root_file).resolve().as_posix()
        type_name = described["types"].get(f"{root}#{instance.pointer}")
        if type_name is None:
            untyped.append(instance)
            continue
        data = load_json(schema.directory / instance.file)
        case = _case_name(index, instance.file)
        folder = fixtures / type_name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{case}.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        written.append(Fixture(f"{type_name}/{case}.json", True, True))
        judged = functools.partial(judge.valid, instance)
        for mutation in mutations(data, tag_keys, judged):
            name = f"{case}__{mutation.kind}"
            target = folder / "invalid" if not mutation.valid else folder
            target.mkdir(parents=True, exist_ok=True)
            text = json.dumps(mutation.data, ensure_ascii=False)
            (target / f"{name}.json").write_text(text, encoding="utf-8")
            if not mutation.valid:
                (target / f"{name}.path").write_text(mutation.path + "\n", encoding="utf-8")
            relative = f"{type_name}/{'invalid/' if not mutation.valid else ''}{name}.json"
            written.append(Fixture(relative, mutation.valid, False))
    return written, untyped


# the generated pytest suites' functions -> the flavor they decode with
_PYTEST_TESTS = {
    "test_dataclass_round_trip": "dataclasses",
    "test_dataclass_rejects": "dataclasses",
    "test_typeddict_validates": "typeddicts",
    "test_typeddict_rejects": "typeddicts",
    "test_pydantic_round_trip": "pydantic",
    "test_pydantic_rejects": "pydantic",
}


def _pytest_outcomes(junit: Path, module: str) -> dict[tuple[str, str], bool]:
    """(flavor, fixture relative to the module) -> the flavor agreed with the fixture.

    A rejection test that failed only because the error is at another path than the
    one guessed still agrees with jsonschema's verdict; one that saw no error does not.
    """
    prefix = module + "/"
    return {
        (flavor, fixture[len(prefix) :]): agreed
        for (flavor, fixture), (agreed, _) in pytest_verdicts(junit).items()
        if fixture.startswith(prefix)
    }


def pytest_verdicts(junit: Path) -> dict[tuple[str, str], tuple[bool, str]]:
    """(flavor, fixture relative to the fixtures folder) -> (the flavor agreed with the
    fixture, the failure's message) from the junit report of generated pytest suites."""
    outcomes: dict[tuple[str, str], tuple[bool, str]] = {}
    if not junit.is_file():
        return outcomes
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        name = case.get("name", "")
        function, _, parameter = name.partition("[")
        flavor = _PYTEST_TESTS.get(function)
        if flavor is None:
            continue
        problems = [child for child in case if child.tag in ("failure", "error", "skipped")]
        message = problems[0].get("message", "") if problems else ""
        if not problems:
            agreed = True
        elif function.endswith("_rejects"):
            agreed = (
                problems[0].tag == "failure"
                and message.startswith("AssertionError")
                and "DID NOT RAISE" not in message
            )
        else:
            agreed = False
        outcomes[(flavor, parameter.removesuffix("]"))] = (agreed, message)  # ids: the paths
    return outcomes


_EXUNIT_FAILURE = re.compile(r"^\s+\d+\) test (?P<name>.+?) \((?P<module>[\w.]+)\)$", re.M)
_VALID_TEST = "valid fixtures round-trip "
_INVALID_TEST = "invalid fixtures are rejected at the recorded path "


def _exunit_outcomes(output: str, fixtures: list[Fixture]) -> tuple[bool, dict[str, bool]]:
    """(compiled and ran, fixture -> agreed) from `mix test` output."""
    if not re.search(r"\d+ tests?, \d+ failures?", output):
        return False, {}
    failures = list(_EXUNIT_FAILURE.finditer(output))
    failed: dict[str, str] = {}
    for index, match in enumerate(failures):
        end = failures[index + 1].start() if index + 1 < len(failures) else len(output)
        name = match.group("name")
        for prefix in (_VALID_TEST, _INVALID_TEST):
            if name.startswith(prefix):
                failed[name.removeprefix(prefix)] = output[match.end() : end]
    outcomes = {}
    for fixture in fixtures:
        block = failed.get(fixture.relative)
        if block is None:
            outcomes[fixture.relative] = True
        elif fixture.valid:
            outcomes[fixture.relative] = False
        else:  # rejected, at another path than the one guessed, agrees (as for Python)
            outcomes[fixture.relative] = _rejected_elsewhere(block)
    return True, outcomes


def _rejected_elsewhere(block: str) -> bool:
    """Whether an ExUnit failure of `assert_rejected` (generated test_helper.exs) is its
    last assertion: decoding failed, at another path than the expected one. The helper
    reports that as `<path>: <reason>` from the `assert_rejected(` call; a value decoded
    (`{:ok, ...}`) or any other failure is a disagreement."""
    first = block.lstrip().splitlines()[1:2]  # after the test's file:line
    return (
        "code: assert_rejected(" in block
        and "right: {:ok," not in block
        and bool(first)
        and first[0].strip().startswith("$")
    )


def measure_one(schema: CorpusSchema, work: Path, elixir: bool) -> Result:
    """Everything about one schema, in the project directory `work`: its main file's
    module, then, for instances whose type lies in another file that the main one does not
    reach (bowtie's `implementation-matrix-versions.json`), that file as a module of its
    own, as a user would generate it, in `work/roots/<n>`."""
    result = _measure_root(schema, work, elixir)
    elsewhere = [i for i in result.untyped if i.root_file != schema.schema]
    for index, root_file in enumerate(dict.fromkeys(i.root_file for i in elsewhere)):
        instances = tuple(i for i in elsewhere if i.root_file == root_file)
        part = replace(schema, schema=root_file, instances=instances)
        (work / "roots" / str(index)).mkdir(parents=True)
        measured = _measure_root(part, work / "roots" / str(index), elixir)
        result = _with_part(result, measured, instances)
    return result


def _with_part(main: Result, part: Result, instances: Sequence[Instance]) -> Result:
    """`main` with the counts of another root file's module added; `instances` (among
    main's already) are the ones that module was given."""
    combined = _total([main, part])
    combined.name, combined.instances = main.name, main.instances
    combined.note = "; ".join(note for note in (main.note, part.note) if note)
    combined.seconds = main.seconds + part.seconds
    combined.untyped = [i for i in main.untyped if i not in instances] + part.untyped
    return combined


def _measure_root(schema: CorpusSchema, work: Path, elixir: bool) -> Result:
    """One schema file's module, in the project directory `work`."""
    started = time.monotonic()
    result = Result(schema.name, instances=len(schema.instances))
    (work / "pyproject.toml").write_text(_pyproject(schema), encoding="utf-8")
    described_run = run(
        [sys.executable, "-m", "tests.corpus", "--describe", str(schema.path), str(work)], REPO
    )
    result.timed("lower", started)
    if described_run.code != 0:
        result.note = f"exit {described_run.code}: {_first_line(described_run.stderr)}"
        result.seconds = time.monotonic() - started
        return result
    described = json.loads(described_run.stdout)
    if len(described["modules"]) != 1:
        result.note = f"{len(described['modules'])} modules from one schema file"
        return result
    module = described["modules"][0]
    judge = Judge(schema)
    fixtures, result.untyped = _write_fixtures(
        schema, judge, described, work / "tests" / "fixtures" / module
    )
    result.typed = len(schema.instances) - len(result.untyped)
    result.mutations = sum(not fixture.from_instance for fixture in fixtures)
    output = work / "generated"
    step = time.monotonic()
    generated = run(
        [sys.executable, "-m", "polytype", "--project", str(work), "generate",
         str(schema.path), "--output-dir", str(output)],
        REPO,
    )  # fmt: skip
    if generated.code != 0:
        result.note = f"exit {generated.code}: {_first_line(generated.stderr)}"
        result.seconds = time.monotonic() - started
        return result
    result.generates = True
    result.timed("generate", step)
    step = time.monotonic()
    typed = run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(work / ".mypy_cache"), str(output / "python" / module)],
        work,
    )  # fmt: skip
    result.mypy = typed.code == 0
    result.timed("mypy", step)
    if not result.mypy:
        result.note = f"mypy: {_first_line(typed.stdout)}"
    junit = work / "junit.xml"
    step = time.monotonic()
    run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(work),
         f"--junitxml={junit}", str(output / "tests" / "python")],
        work,
    )  # fmt: skip
    outcomes = _pytest_outcomes(junit, module)
    result.timed("pytest", step)
    elixir_outcomes: dict[str, bool] = {}
    if elixir and (output / "elixir" / "mix.exs").is_file():
        step = time.monotonic()
        formatted = run(["mix", "format", "--check-formatted"], output / "elixir")
        result.elixir_formatted = formatted.code == 0
        if not result.elixir_formatted:
            unformatted = formatted.stderr.count("\n  * ")
            note = f"mix format: {unformatted} file(s) not formatted"
            result.note = "; ".join(part for part in (result.note, note) if part)
        result.timed("mix format", step)
        step = time.monotonic()
        tested = run(["mix", "test"], output / "elixir", env={"MIX_ENV": "test"})
        result.timed("mix test", step)
        result.elixir_compiles, elixir_outcomes = _exunit_outcomes(
            tested.stdout + tested.stderr, fixtures
        )
    for fixture in fixtures:
        counts = result.round_trip if fixture.from_instance else result.verdicts
        for flavor in PYTHON_FLAVORS:
            counts[flavor] += outcomes.get((flavor, fixture.relative), False)
        counts["elixir"] += elixir_outcomes.get(fixture.relative, False)
    result.seconds = time.monotonic() - started
    return result


def elixir_available() -> bool:
    return shutil.which("mix") is not None


def measure(
    names: Sequence[str] | None = None,
    log: Any = sys.stderr,
    jobs: int = JOBS,
    keep: Path | None = None,
) -> list[Result]:
    """Every schema of the corpus (or those named), one temporary project each (or
    `keep/<name>`, left in place), `jobs` at a time; the results in index order."""
    elixir = elixir_available()
    chosen = [schema for schema in read_index() if not names or schema.name in names]

    def one(schema: CorpusSchema) -> Result:
        if keep is not None:
            (keep / schema.name).mkdir(parents=True)
            result = measure_one(schema, keep / schema.name, elixir)
        else:
            with tempfile.TemporaryDirectory(prefix=f"polytype-corpus-{schema.name}-") as work:
                result = measure_one(schema, Path(work), elixir)
        print(f"corpus: {schema.name}: {_summary(result)}", file=log, flush=True)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, chosen))


def _summary(result: Result) -> str:
    if not result.generates:
        return f"refused ({result.note}) in {result.seconds:.1f} s"
    return (
        f"generated; round trips {result.round_trip}, verdicts {result.verdicts} "
        f"of {result.typed}/{result.instances} instances and {result.mutations} mutations "
        f"in {result.seconds:.1f} s {result.stages}"
    )


# --- the table and the ratchet -----------------------------------------------------------


def table(results: Sequence[Result]) -> str:
    """Markdown: one row per schema, then the totals and why the refused ones were refused."""
    short = {"dataclasses": "dc", "typeddicts": "td", "pydantic": "pyd", "elixir": "ex"}
    head = ["schema", "generates", "mypy", "elixirc", "mix format", "typed"]
    head += [f"round trip {short[f]}" for f in FLAVORS]
    head += [f"verdicts {short[f]}" for f in FLAVORS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for result in [*results, _total(results)]:
        cells = [
            result.name,
            "yes" if result.generates else "no",
            "ok" if result.mypy else "-",
            "ok" if result.elixir_compiles else "-",
            "ok" if result.elixir_formatted else "-",
            f"{result.typed}/{result.instances}",
        ]
        cells += [f"{result.round_trip[f]}/{result.instances}" for f in FLAVORS]
        cells += [f"{result.verdicts[f]}/{result.mutations}" for f in FLAVORS]
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- {result.name}: {result.note}" for result in results if result.note]
    if notes:
        lines += ["", "Notes (the first line of the refusal or failure):", *notes]
    return "\n".join(lines)


def _total(results: Sequence[Result]) -> Result:
    total = Result(f"**all {len(results)}**")
    total.generates = bool(results) and all(r.generates for r in results)
    total.mypy = bool(results) and all(r.mypy for r in results)
    total.elixir_compiles = bool(results) and all(r.elixir_compiles for r in results)
    total.elixir_formatted = bool(results) and all(r.elixir_formatted for r in results)
    for result in results:
        total.instances += result.instances
        total.typed += result.typed
        total.mutations += result.mutations
        for flavor in FLAVORS:
            total.round_trip[flavor] += result.round_trip[flavor]
            total.verdicts[flavor] += result.verdicts[flavor]
    return total


def expectation(result: Result) -> dict[str, Any]:
    """The numbers of `result` that the ratchet keeps."""
    kept = asdict(result)
    for key in ("name", "note", "seconds", "stages", "untyped"):
        del kept[key]
    return kept


def read_expected(path: Path = EXPECTED) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    schemas = data["schemas"]
    assert isinstance(schemas, dict)
    return schemas


def write_expected(results: Sequence[Result], path: Path = EXPECTED) -> None:
    """Record `results` (merged into what is there, so `--only` updates only those)."""
    current = read_expected(path) if path.is_file() else {}
    current.update({result.name: expectation(result) for result in results})
    document = {
        "about": "What tests/corpus.py measures on ../shared/corpus. tests/test_corpus.py "
        "fails when a number falls below this or rises above it; raise it with "
        "`python -m tests.corpus --update` in the commit that earned it.",
        "schemas": {name: current[name] for name in sorted(current)},
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _flatten(values: Mapping[str, Any], prefix: str = "") -> dict[str, int]:
    flat: dict[str, int] = {}
    for key, value in values.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = int(value)
    return flat


# Counts fixed by the corpus and the mutations, not by how good polytype is: any change
# is reported (the corpus or the mutations changed), in either direction.
_EXACT = {"instances", "mutations"}


def compare(
    name: str, measured: Mapping[str, Any], expected: Mapping[str, Any], elixir: bool
) -> tuple[list[str], list[str]]:
    """(regressions, improvements) of one schema against its expectation."""
    regressed: list[str] = []
    improved: list[str] = []
    now, then = _flatten(measured), _flatten(expected)
    for key in sorted(set(now) | set(then)):
        if not elixir and (key.endswith(".elixir") or key.startswith("elixir_")):
            continue
        got, wanted = now.get(key, 0), then.get(key, 0)
        if got == wanted:
            continue
        if key in _EXACT:  # more or fewer fixtures: the record must follow, either way
            improved.append(f"{name}: {key} is {got}, recorded {wanted}")
        elif got < wanted:
            regressed.append(f"{name}: {key} fell from {wanted} to {got}")
        else:
            improved.append(f"{name}: {key} rose from {wanted} to {got}")
    return regressed, improved


def ratchet_message(regressed: Sequence[str], improved: Sequence[str]) -> str:
    lines = []
    if regressed:
        lines += ["The corpus numbers fell below tests/corpus_expected.json:", *regressed]
    if improved:
        lines += [
            "The corpus numbers rose above (or changed from) tests/corpus_expected.json; "
            "raise them there (python -m tests.corpus --update, or by hand) and commit it "
            "with this change:",
            *improved,
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.corpus", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these corpus schemas")
    parser.add_argument("--update", action="store_true", help="write tests/corpus_expected.json")
    parser.add_argument("--jobs", type=int, default=JOBS, help="schemas measured at once")
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="leave each schema's project in DIR/<name>"
    )
    parser.add_argument(
        "--describe", nargs=2, metavar=("SCHEMA", "PROJECT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.describe:
        return _describe_main(*args.describe)
    if not (CORPUS / "index.json").is_file():
        print(f"corpus: {CORPUS}/index.json not found (set POLYTYPE_CORPUS)", file=sys.stderr)
        return 2
    results = measure(args.only, jobs=args.jobs, keep=args.keep)
    print(f"## polytype on the corpus ({CORPUS})\n")
    print(table(results))
    if args.update:
        write_expected(results)
        print(f"\nwrote {EXPECTED.relative_to(REPO)}")
        return 0
    expected = read_expected()
    regressed: list[str] = []
    improved: list[str] = []
    for result in results:
        worse, better = compare(
            result.name, expectation(result), expected.get(result.name, {}), elixir_available()
        )
        regressed += worse
        improved += better
    if regressed or improved:
        print("\n" + ratchet_message(regressed, improved))
        return 1
    print("\ncorpus: every number matches tests/corpus_expected.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
