"""The catalogue harness (issue 31): polytype on every SchemaStore schema as one project.

    python -m tests.schemastore                   # all 867 schemas: the table, then the ratchet
    python -m tests.schemastore --sample 25       # every 25th schema by name (CI's slice)
    python -m tests.schemastore --slice 2/8       # the 2nd of 8 interleaved slices
    python -m tests.schemastore --only ruff,uv    # some of them
    python -m tests.schemastore --update          # raise tests/schemastore_expected.json
    python -m tests.schemastore --keep DIR        # leave the project in DIR; --report FILE

The catalogue (`../shared/schemastore`, or `$POLYTYPE_SCHEMASTORE`) is read in place: its
`index.json` names each schema file, its draft, its valid documents (`instances/`) and its
invalid ones (`negative/`), all of the schema's root, and the `ref_map` that resolves the
catalogue's URLs. In one scratch project (`strict = false`, that `ref-map`, every module's
Python under the one package `PACKAGE` with `python-package`), whose schema
directory links every chosen schema under its own file name (so its module is named as
polytype names it):

1. Each schema is lowered on its own (children of `BATCH` schemas, capped as the corpus
   harness caps them): its module, its root type, its warnings, or why it is refused.
   polytype refuses a whole project for one refused schema (exit 2), so refused schemas
   (and all but the first of those whose module names collide) leave the schema
   directory. Each valid document becomes a fixture of the root type, each invalid one
   that jsonschema rejects (the schema's draft, `format` not asserted) an `invalid/` one.
2. One `polytype generate` renders every target. Should it still fail, schemas are
   generated in batches of projects of their own, and the ones that fail leave too.
3. Each module's three Python flavors are imported in a child run with `-W error` (a
   warning at import is a failure); one `mypy --strict` checks every generated package;
   one `mix compile --warnings-as-errors` compiles the Elixir (a module that breaks it is
   removed and the rest compiled again, so that the others are still measured).
4. The generated suites run the fixtures: pytest (dataclasses decode/encode, TypedDict
   validate, Pydantic validate and dump) and ExUnit (Elixir decode/encode), each valid
   document compared exactly with the input, each invalid one expected rejected.

`tests/schemastore_expected.json` keeps the figures of the full run, of CI's slice
(`--sample SAMPLE`, tests/test_schemastore.py) and of each `--slice N/M` (under `slices`:
the whole catalogue with mypy and the Mix compile does not fit one run, so it is measured
slice by slice, each slice a ratchet of its own): a figure that gets worse fails the run; a
better one is reported, and `--update` records it (a figure the run did not measure, with
`--no-mypy` or `--no-elixir`, keeps its recorded value).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tests import corpus
from tests.corpus import FLAVORS, PYTHON_FLAVORS, REPO, load_json

CATALOGUE = Path(os.environ.get("POLYTYPE_SCHEMASTORE") or REPO.parent / "shared" / "schemastore")
EXPECTED = REPO / "tests" / "schemastore_expected.json"
SAMPLE = 25  # CI's slice: every 25th schema by name (tests/test_schemastore.py)
BATCH = 40  # schemas lowered (or imported) by one child
PYTEST_BATCH = 60  # modules whose suites one pytest run runs
LONG = 3600.0  # seconds for the steps over the whole project (generate, mypy, mix)
JOBS = corpus.JOBS
# mypy over every module of the catalogue at once needs more than the corpus's cap
MYPY_MEMORY = 16 * 1024**3
# The children import polytype from this tree's generator/ (as the tests package is run
# from it), whatever an editable install elsewhere points to.
PYTHONPATH = os.pathsep.join([str(REPO), str(REPO / "generator")])
# recorded beside each invalid fixture: the suites then decode it, and a rejection at any
# path (this one is never reported) is counted as agreeing with jsonschema
ANY_PATH = "$.polytype_catalogue_records_no_path"
# every module's Python under one parent package (`[tool.polytype] python-package`), so
# that a schema named like an installed package (`ruff`, `uv`, `setuptools`) imports as ours
PACKAGE = "catalogue_models"
FLAVOR_FILES = {
    "dataclasses": "dataclass_models",
    "typeddicts": "typed_dicts",
    "pydantic": "pydantic_models",
}


def run(command: Sequence[str], cwd: Path, timeout: float = corpus.TIMEOUT) -> corpus.Run:
    return corpus.run(command, cwd, {"PYTHONPATH": PYTHONPATH}, timeout)


# --- the catalogue -----------------------------------------------------------------------


@dataclass(frozen=True)
class CatalogueSchema:
    name: str
    file: str  # under schemas/
    draft: str
    instances: tuple[str, ...]  # relative to the catalogue
    negative: tuple[str, ...]

    @property
    def path(self) -> Path:
        return CATALOGUE / "schemas" / self.file


def read_index(catalogue: Path = CATALOGUE) -> list[CatalogueSchema]:
    """Every schema of the catalogue, sorted by name."""
    index = json.loads((catalogue / "index.json").read_text(encoding="utf-8"))
    return sorted(
        (
            CatalogueSchema(
                name=name,
                file=Path(entry["schema"]).name,
                draft=entry["draft"],
                instances=tuple(entry["instances"]),
                negative=tuple(entry["negative"]),
            )
            for name, entry in index["schemas"].items()
        ),
        key=lambda schema: schema.name,
    )


def ref_map(catalogue: Path = CATALOGUE) -> dict[str, Path]:
    index = json.loads((catalogue / "index.json").read_text(encoding="utf-8"))
    return {url: (catalogue / local).resolve() for url, local in index["ref_map"].items()}


def select(
    schemas: Sequence[CatalogueSchema],
    only: Sequence[str] = (),
    sample: int | None = None,
    part: tuple[int, int] | None = None,
) -> list[CatalogueSchema]:
    """The schemas one run measures: named ones, every `sample`-th by name, or the
    `part[0]`-th of `part[1]` interleaved slices."""
    chosen = list(schemas)
    if only:
        unknown = sorted(set(only) - {schema.name for schema in schemas})
        if unknown:
            raise SystemExit(f"schemastore: not in the catalogue: {', '.join(unknown)}")
        chosen = [schema for schema in chosen if schema.name in only]
    if sample:
        chosen = chosen[::sample]
    if part:
        number, count = part
        chosen = [schema for index, schema in enumerate(chosen) if index % count == number - 1]
    return chosen


# --- jsonschema's verdicts -----------------------------------------------------------------

_DRAFTS = {
    "draft-04": "Draft4Validator",
    "draft-06": "Draft6Validator",
    "draft-07": "Draft7Validator",
    "2019-09": "Draft201909Validator",
    "2020-12": "Draft202012Validator",
}


@cache
def _registry() -> Any:
    """Every catalogue schema under its `$id` and its catalogue URLs (no network)."""
    from referencing import Registry

    resources = []
    for schema in read_index():
        contents = load_json(schema.path)
        resource = _specification(schema.draft).create_resource(contents)
        names = [url + schema.file for url in _catalogue_urls()]
        if isinstance(contents, dict):
            for key in ("$id", "id"):
                if isinstance(contents.get(key), str):
                    names.append(contents[key].rstrip("#"))
        resources += [(name, resource) for name in names]
    return Registry().with_resources(resources)


@cache
def _catalogue_urls() -> tuple[str, ...]:
    index = json.loads((CATALOGUE / "index.json").read_text(encoding="utf-8"))
    return tuple(index["ref_map"])


def _specification(draft: str) -> Any:
    from referencing import jsonschema as specs

    return {
        "draft-04": specs.DRAFT4,
        "draft-06": specs.DRAFT6,
        "2019-09": specs.DRAFT201909,
        "2020-12": specs.DRAFT202012,
    }.get(draft, specs.DRAFT7)


def jsonschema_valid(schema: CatalogueSchema, data: Any) -> bool:
    """jsonschema's verdict on `data` for the root of `schema`, `format` not asserted."""
    import jsonschema

    cls = getattr(jsonschema, _DRAFTS.get(schema.draft, "Draft7Validator"))
    validator = cls({"$ref": _catalogue_urls()[0] + schema.file}, registry=_registry())
    try:
        return bool(validator.is_valid(data))
    except Exception:  # noqa: BLE001 - an unresolvable $ref: jsonschema accepts nothing
        return False


# --- step 1: each schema lowered on its own, in capped children ----------------------------


def _describe_main(project: str, files: Sequence[str]) -> int:
    """Child: one JSON line per schema file (module, root, warnings, or the refusal)."""
    from polytype import ir
    from polytype.compile import read_schema
    from polytype.diagnostics import InputError
    from polytype.project.config import find_project

    configured = find_project(Path(project))
    for file in files:
        path = Path(file)
        started = time.monotonic()
        entry: dict[str, Any] = {"file": path.name}
        try:
            read = read_schema(
                path,
                configured.relative(path),
                configured.strict,
                configured.ref_map,
                configured.unknown_tags,
                configured.formats,
            )
        except InputError as error:
            entry["code"] = 2
            entry["errors"] = [[d.pointer, d.message] for d in error.diagnostics]
        except Exception as error:  # noqa: BLE001 - polytype's bug: exit 3
            entry["code"] = 3
            entry["errors"] = [["", f"internal error: {type(error).__name__}: {error}"[:500]]]
        else:
            module = read.module
            root = module.root
            for named in module.types:
                if root is None and named.source is not None and named.source.pointer == "":
                    if Path(named.source.file).name == path.name:
                        root = named.name
            named_root = module.types_by_name.get(root) if root else None
            entry.update(
                code=0,
                module=module.name,
                types=len(module.types),
                root=root,
                root_kind=type(named_root).__name__ if named_root else None,
                # an "any object" alias (`type: object` and nothing else) is a type
                root_free=isinstance(named_root, ir.Alias)
                and isinstance(named_root.type, ir.AnyJSON)
                and not named_root.type.object_only,
                warnings=[[d.pointer, d.message] for d in read.warnings],
            )
        entry["seconds"] = round(time.monotonic() - started, 2)
        print(json.dumps(entry), flush=True)
    return 0


@dataclass
class Measured:
    """What one catalogue schema reaches."""

    name: str
    module: str = ""
    code: int | None = 0  # the lowering's exit code (None: it timed out or died)
    errors: list[list[str]] = field(default_factory=list)  # [pointer, message]
    root: str | None = None
    root_kind: str | None = None
    root_free: bool = False
    types: int = 0
    warnings: list[list[str]] = field(default_factory=list)  # [pointer, message]
    generated: bool = False
    imports: dict[str, str] = field(default_factory=dict)  # flavor -> "" or the error
    mypy: list[str] = field(default_factory=list)  # error lines
    elixir: list[str] = field(default_factory=list)  # compile problems
    elixir_compiles: bool = False
    valid: int = 0  # documents jsonschema accepts
    invalid: int = 0  # documents jsonschema rejects
    exact: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAVORS, 0))
    rejected: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAVORS, 0))
    # (flavor, fixture) -> why a document did not round-trip or was not rejected
    misses: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def refused(self) -> bool:
        return self.code != 0

    @property
    def typed(self) -> bool:
        return bool(self.root) and not self.root_free

    @property
    def untyped_cause(self) -> str:
        """Why a root has no type: "free-form" when its own schema says nothing of the
        value beyond its definitions, "unresolved" when it is a `$ref` to a URL nothing
        resolves (the catalogue keeps some schemas apart, as in the wild), else "other"
        (a polytype defect)."""
        if not self.root:
            return "free-form"
        if any(pointer == "/$ref" and "cannot resolve" in text for pointer, text in self.warnings):
            return "unresolved"
        return "other"


def describe(project: Path, schemas: Sequence[CatalogueSchema], jobs: int) -> list[Measured]:
    """Step 1, in children of `BATCH` schemas; a child that dies is retried one schema at
    a time, so that one schema's crash or timeout is that schema's alone."""

    def batch(chunk: Sequence[CatalogueSchema]) -> list[Measured]:
        files = [str(project / "schema" / schema.file) for schema in chunk]
        done = run(
            [sys.executable, "-m", "tests.schemastore", "--describe", str(project), *files],
            REPO,
            timeout=corpus.TIMEOUT * max(1, len(chunk) // 4),
        )
        lines = {}
        for line in done.stdout.splitlines():
            entry = json.loads(line)
            lines[entry["file"]] = entry
        if done.code != 0 and len(chunk) > 1:
            return [
                item
                for schema in chunk
                for item in (
                    [_measured(schema, lines[schema.file])]
                    if schema.file in lines
                    else batch([schema])
                )
            ]
        if done.code != 0:
            why = f"exit {done.code}: {corpus._first_line(done.stderr)}"
            return [Measured(chunk[0].name, code=done.code, errors=[["", why]])]
        return [_measured(schema, lines[schema.file]) for schema in chunk]

    chunks = [schemas[start : start + BATCH] for start in range(0, len(schemas), BATCH)]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return [item for items in pool.map(batch, chunks) for item in items]


def _measured(schema: CatalogueSchema, entry: Mapping[str, Any]) -> Measured:
    return Measured(
        schema.name,
        module=entry.get("module", ""),
        code=entry["code"],
        errors=list(entry.get("errors", [])),
        root=entry.get("root"),
        root_kind=entry.get("root_kind"),
        root_free=bool(entry.get("root_free")),
        types=int(entry.get("types", 0)),
        warnings=list(entry.get("warnings", [])),
        seconds=float(entry.get("seconds", 0.0)),
    )


# --- the scratch project --------------------------------------------------------------------


def write_project(
    work: Path, schemas: Iterable[CatalogueSchema], python_package: str | None = None
) -> None:
    """`work` as a project: `[tool.polytype]` and the schema directory of links (every
    module's Python under one `python_package`, `PACKAGE` unless given, sharing its
    runtime)."""
    lines = [
        "[tool.polytype]",
        'schema-dir = "schema"',
        'output-dir = "generated"',
        'fixtures-dir = "fixtures"',
        f"python-package = {json.dumps(python_package or PACKAGE)}",
        "strict = false",
        "[tool.polytype.ref-map]",
    ]
    for url, local in sorted(ref_map().items()):
        lines.append(f"{json.dumps(url)} = {json.dumps(local.as_posix() + '/')}")
    (work / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (work / "schema").mkdir(parents=True, exist_ok=True)
    for schema in schemas:
        link = work / "schema" / schema.file
        if not link.is_symlink():
            link.symlink_to(schema.path)


def set_aside(work: Path, schema: CatalogueSchema, fixtures: str = "") -> None:
    """Take a schema out of the project's schema directory (and the fixtures of its
    module, `fixtures`, once they are written)."""
    (work / "schema" / schema.file).unlink(missing_ok=True)
    if fixtures:
        shutil.rmtree(work / "fixtures" / fixtures, ignore_errors=True)


def write_fixtures(work: Path, schema: CatalogueSchema, measured: Measured) -> None:
    """Every valid document jsonschema accepts as a fixture of the root type, every invalid
    one it rejects as an `invalid/` fixture. The `.path` beside it is one no decoder
    reports (`ANY_PATH`): a rejection anywhere agrees, as in the corpus harness."""
    folder = work / "fixtures" / measured.module / str(measured.root)
    for kind, files in (("valid", schema.instances), ("invalid", schema.negative)):
        for index, file in enumerate(files):
            data = load_json(CATALOGUE / file)
            accepted = jsonschema_valid(schema, data)
            if accepted != (kind == "valid"):
                continue
            target = folder if kind == "valid" else folder / "invalid"
            target.mkdir(parents=True, exist_ok=True)
            case = corpus._case_name(index, file)
            text = json.dumps(data, ensure_ascii=False)
            (target / f"{case}.json").write_text(text, encoding="utf-8")
            if kind == "invalid":
                (target / f"{case}.path").write_text(ANY_PATH + "\n", encoding="utf-8")
            if kind == "valid":
                measured.valid += 1
            else:
                measured.invalid += 1


def count_documents(schema: CatalogueSchema, measured: Measured) -> None:
    """The documents of a schema that has no root type: counted, never run."""
    measured.valid = sum(
        jsonschema_valid(schema, load_json(CATALOGUE / f)) for f in schema.instances
    )
    measured.invalid = sum(
        not jsonschema_valid(schema, load_json(CATALOGUE / f)) for f in schema.negative
    )


# --- step 2: generate ------------------------------------------------------------------------

# (polytype names the file relative to the working directory, absolute outside it)
_DIAGNOSTIC = re.compile(r"^(?:\S*/)?schema/(?P<file>[^/:]+):\d+:\d+: (?P<rest>.*)$", re.M)


def generate(
    work: Path, schemas: Sequence[CatalogueSchema], by_name: dict[str, Measured], log: Any
) -> None:
    """One `polytype generate` of every schema left in the project; refusals it reports
    set their schema aside and it runs again; should it still fail, batches find out."""
    live = [schema for schema in schemas if (work / "schema" / schema.file).is_symlink()]
    for _attempt in range(3):
        if not live:
            return
        done = run(
            [sys.executable, "-m", "polytype", "--project", str(work), "generate"], REPO, LONG
        )
        if done.code == 0:
            for schema in live:
                by_name[schema.name].generated = True
            return
        blamed = _blamed(done.stderr, live)
        print(f"schemastore: generate exit {done.code}, {len(blamed)} blamed", file=log)
        if not blamed:
            break
        for schema, errors in blamed.items():
            measured = by_name[schema.name]
            measured.code, measured.errors = done.code, errors
            set_aside(work, schema, measured.module)
        live = [schema for schema in live if schema not in blamed]
    failing = _failing_in_batches(work, live, log)
    for schema, (code, errors) in failing.items():
        measured = by_name[schema.name]
        measured.code, measured.errors = code, errors
        set_aside(work, schema, measured.module)
    live = [schema for schema in live if schema not in failing]
    done = run([sys.executable, "-m", "polytype", "--project", str(work), "generate"], REPO, LONG)
    if done.code == 0:
        for schema in live:
            by_name[schema.name].generated = True
    else:
        print(f"schemastore: generate still exits {done.code}: {done.stderr[:2000]}", file=log)


def _blamed(stderr: str, live: Sequence[CatalogueSchema]) -> dict[CatalogueSchema, list[list[str]]]:
    by_file = {schema.file: schema for schema in live}
    blamed: dict[CatalogueSchema, list[list[str]]] = {}
    for match in _DIAGNOSTIC.finditer(stderr):
        rest = match.group("rest")
        if rest.startswith("warning: ") or match.group("file") not in by_file:
            continue
        pointer, _, message = rest.partition(": ")
        blamed.setdefault(by_file[match.group("file")], []).append([pointer, message])
    return blamed


def _failing_in_batches(
    work: Path, schemas: Sequence[CatalogueSchema], log: Any
) -> dict[CatalogueSchema, tuple[int | None, list[list[str]]]]:
    """The schemas that `polytype generate` fails on in a project of their own (batches
    of `BATCH`, a failing batch split into single schemas)."""
    failing: dict[CatalogueSchema, tuple[int | None, list[list[str]]]] = {}

    def one_project(chunk: Sequence[CatalogueSchema]) -> corpus.Run:
        with tempfile.TemporaryDirectory(prefix="polytype-schemastore-batch-") as scratch:
            write_project(Path(scratch), chunk)
            return run(
                [sys.executable, "-m", "polytype", "--project", scratch, "generate",
                 "--output-dir", str(Path(scratch) / "generated")],
                REPO,
                LONG,
            )  # fmt: skip

    for start in range(0, len(schemas), BATCH):
        chunk = schemas[start : start + BATCH]
        if one_project(chunk).code == 0:
            continue
        for schema in chunk:
            done = one_project([schema])
            if done.code != 0:
                lines = [line for line in done.stderr.splitlines() if "warning: " not in line]
                lines = lines[:20] or [corpus._first_line(done.stderr)]
                failing[schema] = (done.code, [["", line] for line in lines])
                print(f"schemastore: {schema.name} fails alone: exit {done.code}", file=log)
    return failing


# --- step 3: import, mypy, mix compile -------------------------------------------------------

_IMPORTS = """
import importlib, json, sys, warnings
warnings.simplefilter("error")
sys.path.insert(0, sys.argv[1])
for module in sys.argv[2:]:
    for flavor, file in FLAVOR_FILES.items():
        try:
            importlib.import_module(f"{PACKAGE}.{module}.{file}")
        except BaseException as error:
            text = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        else:
            text = ""
        print(json.dumps([module, flavor, text]), flush=True)
"""


def check_imports(output: Path, generated: Sequence[Measured], jobs: int) -> None:
    """Each module's flavors imported with warnings as errors, `BATCH` modules a child."""
    script = f"FLAVOR_FILES = {FLAVOR_FILES!r}\nPACKAGE = {PACKAGE!r}\n{_IMPORTS}"
    by_module = {measured.module: measured for measured in generated}

    def batch(modules: Sequence[str]) -> None:
        done = run(
            [sys.executable, "-W", "error", "-c", script, str(output / "python"), *modules],
            output,
        )
        for line in done.stdout.splitlines():
            module, flavor, text = json.loads(line)
            by_module[module].imports[flavor] = text
        if done.code != 0:  # the child died: what it did not report failed with it
            for module in modules:
                for flavor in PYTHON_FLAVORS:
                    by_module[module].imports.setdefault(
                        flavor, f"child exit {done.code}: {corpus._first_line(done.stderr)}"
                    )

    modules = sorted(by_module)
    chunks = [modules[start : start + BATCH] for start in range(0, len(modules), BATCH)]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(batch, chunks))


_MYPY_LINE = re.compile(
    rf"^(?:[^\s:]*/)?python/{PACKAGE}/(?P<module>[^/]+)/[^:]+:\d+: error: .*$", re.M
)


_MYPY_BLOCKER = re.compile(rf"python/{PACKAGE}/(?P<module>[^/:\s]+)[/:]")


def check_types(work: Path, generated: Sequence[Measured]) -> str:
    """One `mypy --strict` over every generated package; each error line to its module.
    An error that stops mypy from checking anything (a blocking one, on stderr) is its
    module's, which leaves the run, and mypy runs again over the others."""
    python = work / "generated" / "python"
    by_module = {measured.module: measured for measured in generated}
    left = sorted(by_module)
    for _attempt in range(10):
        if not left:
            return ""
        done = corpus.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
             "--explicit-package-bases", "--cache-dir", str(work / ".mypy_cache"),
             *[str(python / PACKAGE / module) for module in left]],
            work,
            {"PYTHONPATH": PYTHONPATH, "MYPYPATH": str(python)},
            LONG,
            MYPY_MEMORY,
        )  # fmt: skip
        if done.code in (0, 1):
            for match in _MYPY_LINE.finditer(done.stdout):
                if match.group("module") in by_module:
                    by_module[match.group("module")].mypy.append(match.group(0))
            return done.stdout
        blocked = {
            found.group("module"): line
            for line in (done.stdout + done.stderr).splitlines()
            if (found := _MYPY_BLOCKER.search(line)) and found.group("module") in left
        }
        if not blocked:
            break
        for module, line in blocked.items():
            by_module[module].mypy.append(f"blocking: {line}")
        left = [module for module in left if module not in blocked]
    for module in left:
        by_module[module].mypy.append(f"mypy exit {done.code}: {corpus._first_line(done.stderr)}")
    return done.stdout + done.stderr


_ELIXIR_PROBLEM = re.compile(r"^(?:warning: |error: |\*\* \()", re.M)
_ELIXIR_FILE = re.compile(r"\blib/(?P<folder>[a-z0-9_]+)/")
_GENERATED_FROM = re.compile(r"from module (?P<module>\w+)")


def _elixir_folders(mix: Path) -> dict[str, str]:
    """lib/<folder> -> the module it was generated from (the folder is the Elixir
    namespace underscored: `jreleaser_1_14_0` lives in `lib/jreleaser1140`)."""
    folders = {}
    for folder in sorted((mix / "lib").iterdir()):
        first = next(iter(sorted(folder.glob("*.ex"))), None)
        header = first.read_text(encoding="utf-8").split("\n", 1)[0] if first else ""
        found = _GENERATED_FROM.search(header)
        if found:
            folders[folder.name] = found.group("module")
    return folders


def compile_elixir(work: Path, generated: Sequence[Measured], log: Any) -> bool:
    """`mix compile --warnings-as-errors`; a module it names leaves the Mix project and the
    rest is compiled again. True when the (remaining) project compiles."""
    mix = work / "generated" / "elixir"
    if not (mix / "mix.exs").is_file() or not corpus.elixir_available():
        return False
    by_module = {measured.module: measured for measured in generated}
    folders = _elixir_folders(mix)
    for _attempt in range(20):
        # after a failure, --force: the files that compiled with warnings are not stale
        force = ["--force"] if _attempt else []
        done = corpus.run(
            ["mix", "compile", "--warnings-as-errors", *force], mix, {"MIX_ENV": "test"}, LONG
        )
        if done.code == 0:
            # (lib/ also holds the project's shared runtime, which is no module's own)
            alive = {
                folders[folder.name] for folder in (mix / "lib").iterdir() if folder.name in folders
            }
            for measured in generated:
                measured.elixir_compiles = measured.module in alive
            return True
        output = done.stdout + "\n" + done.stderr
        blamed = _elixir_problems(output)
        print(f"schemastore: mix compile failed, blaming {sorted(blamed)}", file=log)
        known = {folder: problems for folder, problems in blamed.items() if folder in folders}
        if not known:  # timed out, or a failure no module's file explains
            (work / "mix-compile.log").write_text(output, encoding="utf-8")
            for measured in generated:
                measured.elixir.append(f"mix compile exit {done.code}: {output.strip()[:200]}")
            return False
        for folder, problems in known.items():
            module = folders[folder]
            by_module[module].elixir += problems
            shutil.rmtree(mix / "lib" / folder, ignore_errors=True)
            (mix / "test" / f"{module}_test.exs").unlink(missing_ok=True)
    return False


def _elixir_problems(output: str) -> dict[str, list[str]]:
    """lib folder -> the first line of each warning or error `mix compile` printed for it."""
    starts = [match.start() for match in _ELIXIR_PROBLEM.finditer(output)]
    found: dict[str, list[str]] = {}
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(output)
        block = output[start:end]
        where = _ELIXIR_FILE.search(block)
        if where:
            found.setdefault(where.group("folder"), []).append(block.splitlines()[0][:300])
    return found


# --- step 4: the generated suites ------------------------------------------------------------


def run_pytest(work: Path, generated: Sequence[Measured], jobs: int) -> None:
    """The generated pytest suites of `PYTEST_BATCH` modules a run; verdicts per fixture."""
    tests = work / "generated" / "tests" / "python"
    modules = [measured for measured in generated if measured.typed]

    def batch(index: int) -> dict[tuple[str, str], tuple[bool, str]]:
        chunk = modules[index : index + PYTEST_BATCH]
        files = [
            str(path)
            for measured in chunk
            for path in sorted(tests.glob(f"test_{measured.module}*.py"))
            if re.fullmatch(
                rf"test_{re.escape(measured.module)}(_pydantic|_typeddicts)?\.py", path.name
            )
        ]
        junit = work / f"junit-{index}.xml"
        run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors",
             "--rootdir", str(work), f"--junitxml={junit}", *files],
            work,
            LONG,
        )  # fmt: skip
        return corpus.pytest_verdicts(junit)

    verdicts: dict[tuple[str, str], tuple[bool, str]] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for found in pool.map(batch, range(0, len(modules), PYTEST_BATCH)):
            verdicts.update(found)
    for measured in modules:
        for kind, folder_files in _fixture_files(work, measured).items():
            for relative in folder_files:
                for flavor in PYTHON_FLAVORS:
                    agreed, message = verdicts.get(
                        (flavor, relative), (False, "no test ran (the suite did not load)")
                    )
                    _count(measured, flavor, kind, relative, agreed, message)


def _fixture_files(work: Path, measured: Measured) -> dict[str, list[str]]:
    base = work / "fixtures"
    folder = base / measured.module
    files: dict[str, list[str]] = {"valid": [], "invalid": []}
    for path in sorted(folder.rglob("*.json")):
        kind = "invalid" if path.parent.name == "invalid" else "valid"
        files[kind].append(path.relative_to(base).as_posix())
    return files


def _count(
    measured: Measured, flavor: str, kind: str, relative: str, agreed: bool, message: str
) -> None:
    counts = measured.exact if kind == "valid" else measured.rejected
    if agreed:
        counts[flavor] += 1
    else:
        measured.misses[f"{flavor} {relative}"] = message.splitlines()[0][:300] if message else ""


def run_exunit(work: Path, generated: Sequence[Measured], log: Any) -> None:
    """`mix test` once, over the modules that compiled; verdicts per fixture."""
    mix = work / "generated" / "elixir"
    compiled = [m for m in generated if m.elixir_compiles and m.typed]
    if not compiled:
        return
    measured_here = {m.module for m in compiled}
    for test in (mix / "test").glob("*_test.exs"):  # a suite without fixtures warns
        if test.name.removesuffix("_test.exs") not in measured_here:
            test.unlink()
    done = corpus.run(["mix", "test"], mix, {"MIX_ENV": "test"}, LONG)
    output = done.stdout + done.stderr
    (work / "mix-test.log").write_text(output, encoding="utf-8")
    if not re.search(r"\d+ tests?, \d+ failures?", output):
        print(f"schemastore: mix test did not run: {output[-2000:]}", file=log)
        return
    failed: dict[tuple[str, str], str] = {}  # (ExUnit module, test name) -> its failure
    failures = list(corpus._EXUNIT_FAILURE.finditer(output))
    for index, match in enumerate(failures):
        end = failures[index + 1].start() if index + 1 < len(failures) else len(output)
        failed[(match.group("module"), match.group("name"))] = output[match.end() : end]
    for measured in compiled:
        test_file = mix / "test" / f"{measured.module}_test.exs"
        found = re.search(r"defmodule ([\w.]+) do", test_file.read_text(encoding="utf-8"))
        exunit = found.group(1) if found else ""
        for kind, files in _fixture_files(work, measured).items():
            prefix = corpus._VALID_TEST if kind == "valid" else corpus._INVALID_TEST
            for relative in files:
                name = prefix + relative.removeprefix(measured.module + "/")
                block = failed.get((exunit, name))
                if block is None:
                    agreed, message = True, ""
                elif kind == "valid":
                    agreed, message = False, _exunit_reason(block)
                else:
                    agreed = corpus._rejected_elsewhere(block)
                    message = _exunit_reason(block)
                _count(measured, "elixir", kind, relative, agreed, message)


def _exunit_reason(block: str) -> str:
    lines = [line.strip() for line in block.strip().splitlines()[1:] if line.strip()]
    return " | ".join(lines[:3])


# --- the whole run ---------------------------------------------------------------------------


def measure(
    schemas: Sequence[CatalogueSchema],
    work: Path,
    jobs: int = JOBS,
    log: Any = sys.stderr,
    elixir: bool = True,
    mypy: bool = True,
) -> tuple[list[Measured], dict[str, float]]:
    """Every step over `schemas` in the project directory `work` (the Elixir ones only
    with `elixir`, mypy only with `mypy`)."""
    stages: dict[str, float] = {}
    started = time.monotonic()

    def stage(name: str) -> None:
        nonlocal started
        stages[name] = round(time.monotonic() - started, 1)
        print(f"schemastore: {name} done in {stages[name]} s", file=log, flush=True)
        started = time.monotonic()

    write_project(work, schemas)
    measured = describe(work, schemas, jobs)
    by_name = {item.name: item for item in measured}
    stage("lower")
    owners: dict[str, str] = {}
    for schema in schemas:
        item = by_name[schema.name]
        if not item.refused:
            owner = owners.setdefault(item.module, schema.name)
            if owner != schema.name:
                item.code = 2
                item.errors = [["", f"module name {item.module!r} is also used by {owner}"]]
        if item.refused:
            set_aside(work, schema)
            count_documents(schema, item)
        elif item.typed:
            write_fixtures(work, schema, item)
        else:
            count_documents(schema, item)
    stage("fixtures")
    generate(work, schemas, by_name, log)
    generated = [item for item in measured if item.generated]
    stage("generate")
    check_imports(work / "generated", generated, jobs)
    stage("import")
    if mypy:
        (work / "mypy.log").write_text(check_types(work, generated), encoding="utf-8")
        stage("mypy")
    if elixir:
        compile_elixir(work, generated, log)
        stage("mix compile")
    run_pytest(work, generated, jobs)
    stage("pytest")
    if elixir:
        run_exunit(work, generated, log)
        stage("mix test")
    return measured, stages


# --- figures, table, ratchet -------------------------------------------------------------------

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


# the word after one of these is a name (`union tools cannot tell dir from path`)
_NAMING = {"union", "type", "record", "enum", "alias", "field", "module", "definition", "tell"}
_NAME_LIKE = re.compile(r"[a-z][A-Z]|[A-Z].*[a-z]|[\d_$#/{}\[\]<>=^]")


def warning_kind(message: str) -> str:
    """A message's class: up to its first colon (at most 10 words), quoted text, names
    and numbers blanked (`default ignored: default does not …` -> `default ignored`,
    `union fooBar cannot tell fooBarOption1 apart …` -> `union … cannot tell … apart …`)."""
    head = _QUOTED.sub("…", message).split(": ", 1)[0]
    words: list[str] = []
    for word in head.split()[:10]:
        named = words[-1:] != [] and (
            words[-1] in _NAMING or (words[-1] == "from" and word != "the")
        )
        blank = named or (
            _NAME_LIKE.search(word) is not None and not word.isupper() and word[0] != "("
        )
        if blank and words[-1:] == ["…"]:
            continue
        words.append("…" if blank else word)
    return " ".join(words)


def figures(results: Sequence[Measured]) -> dict[str, Any]:
    """The numbers the table shows and the ratchet keeps."""
    generated = [r for r in results if r.generated]
    imports = {
        flavor: sum(r.imports.get(flavor) == "" for r in generated) for flavor in PYTHON_FLAVORS
    }
    kinds = Counter(warning_kind(message) for r in results for _, message in r.warnings)
    return {
        "schemas": len(results),
        "generated": len(generated),
        "refused": sum(r.refused for r in results),
        "importing": imports,
        "importing_all": sum(
            all(r.imports.get(f) == "" for f in PYTHON_FLAVORS) for r in generated
        ),
        "type_checking": sum(not r.mypy for r in generated),
        "type_checking_by_flavor": {
            flavor: sum(mypy_clean(r, flavor) for r in generated) for flavor in PYTHON_FLAVORS
        },
        "compiling": sum(r.elixir_compiles for r in generated),
        "typed_roots": sum(r.typed for r in generated),
        # every untyped root but those free-form by their own schema or a `$ref` to a URL
        # nothing resolves: each one is a defect
        "untyped_roots": sum(untyped(r, "other") for r in results),
        "untyped_roots_free_form": sum(untyped(r, "free-form") for r in results),
        "untyped_roots_unresolved": sum(untyped(r, "unresolved") for r in results),
        "valid_documents": sum(r.valid for r in results),
        "exact": {flavor: sum(r.exact[flavor] for r in results) for flavor in FLAVORS},
        "invalid_documents": sum(r.invalid for r in results),
        "rejected": {flavor: sum(r.rejected[flavor] for r in results) for flavor in FLAVORS},
        "warnings": sum(len(r.warnings) for r in results),
        "warnings_by_kind": dict(sorted(kinds.items(), key=lambda item: (-item[1], item[0]))),
    }


def untyped(result: Measured, cause: str) -> bool:
    return not result.refused and not result.typed and result.untyped_cause == cause


def mypy_clean(result: Measured, flavor: str) -> bool:
    """No mypy error in the flavor's file, and none in a file every flavor shares (a
    blocking error or a mypy that died counts against every flavor)."""
    files = {f"/{file}.py:" for file in FLAVOR_FILES.values()}
    mine = f"/{FLAVOR_FILES[flavor]}.py:"
    return not any(mine in line or not any(file in line for file in files) for line in result.mypy)


# Lower is better for these; higher for every other number. Warnings by kind are shown,
# not compared (a reworded message is not a regression); their total is compared.
_LOWER_IS_BETTER = {
    "refused",
    "untyped_roots",
    "untyped_roots_free_form",
    "untyped_roots_unresolved",
    "warnings",
}
_EXACT = {"schemas", "valid_documents", "invalid_documents"}
_NOT_COMPARED = ("warnings_by_kind",)


def compare(
    measured: Mapping[str, Any], expected: Mapping[str, Any], elixir: bool, mypy: bool = True
) -> tuple[list[str], list[str]]:
    """(worse, better) figures of `measured` against `expected`; the Elixir figures only
    when `elixir` was measured, type-checking only when `mypy` ran."""
    now = corpus._flatten({k: v for k, v in measured.items() if k not in _NOT_COMPARED})
    then = corpus._flatten({k: v for k, v in expected.items() if k not in _NOT_COMPARED})
    worse: list[str] = []
    better: list[str] = []
    for key in sorted(set(now) | set(then)):
        if not elixir and (key.endswith(".elixir") or key == "compiling"):
            continue
        if not mypy and key.startswith("type_checking"):
            continue
        if key not in then:
            continue  # a figure this record predates: recorded by the next --update
        got, wanted = now.get(key, 0), then.get(key, 0)
        if got == wanted:
            continue
        if key in _EXACT:
            worse.append(f"{key} is {got}, recorded {wanted} (the catalogue changed?)")
        elif (got < wanted) != (key.split(".")[0] in _LOWER_IS_BETTER):
            worse.append(f"{key} got worse: {wanted} -> {got}")
        else:
            better.append(f"{key} improved: {wanted} -> {got}")
    return worse, better


def table(numbers: Mapping[str, Any], seconds: float) -> str:
    n = numbers
    rows = [
        ("schemas", n["schemas"]),
        ("generated (exit 0)", n["generated"]),
        ("refused", n["refused"]),
        *[(f"importing: {f}", n["importing"][f]) for f in PYTHON_FLAVORS],
        ("importing: all three flavors", n["importing_all"]),
        ("type-checking (mypy --strict)", n["type_checking"]),
        *[
            (f"type-checking: {f}", n.get("type_checking_by_flavor", {}).get(f, 0))
            for f in PYTHON_FLAVORS
        ],
        ("compiling (mix, warnings as errors)", n["compiling"]),
        ("typed roots", n["typed_roots"]),
        ("untyped roots: free-form by their own schema", n.get("untyped_roots_free_form", 0)),
        ("untyped roots: a $ref to a URL nothing resolves", n.get("untyped_roots_unresolved", 0)),
        ("untyped roots: any other cause (a defect)", n["untyped_roots"]),
        *[
            (f"valid documents exact: {f}", f"{n['exact'][f]}/{n['valid_documents']}")
            for f in FLAVORS
        ],
        *[
            (f"invalid documents rejected: {f}", f"{n['rejected'][f]}/{n['invalid_documents']}")
            for f in FLAVORS
        ],
        ("warnings", n["warnings"]),
        ("time", f"{seconds:.0f} s"),
    ]
    lines = ["| figure | value |", "|---|---:|", *[f"| {a} | {b} |" for a, b in rows]]
    lines += ["", "| warning kind | count |", "|---|---:|"]
    lines += [f"| {kind} | {count} |" for kind, count in n["warnings_by_kind"].items()]
    return "\n".join(lines)


SLICE = "slice "  # the ratchet key of `--slice N/M` is `slice N/M`, kept under "slices"


def read_expected(path: Path = EXPECTED) -> dict[str, Any]:
    """Every recorded run by its ratchet key: `full`, `sample-25`, `slice 3/12`…"""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    slices = {f"{SLICE}{part}": numbers for part, numbers in data.get("slices", {}).items()}
    return {**data["runs"], **slices}


def write_expected(
    key: str,
    numbers: Mapping[str, Any],
    path: Path = EXPECTED,
    elixir: bool = True,
    mypy: bool = True,
) -> None:
    """Record `numbers` as run `key`; figures this run did not measure (the Elixir ones
    without `elixir`, type-checking without `mypy`) keep what was recorded."""
    runs = read_expected(path)
    recorded = runs.get(key, {})
    kept = dict(numbers)
    for name, value in recorded.items():
        if (not mypy and name.startswith("type_checking")) or (not elixir and name == "compiling"):
            kept[name] = value
        elif not elixir and name in ("exact", "rejected"):
            kept[name] = {**kept[name], "elixir": value.get("elixir", 0)}
    runs[key] = kept

    def part(name: str) -> tuple[int, int]:
        number, count = name.removeprefix(SLICE).split("/")
        return int(count), int(number)

    slices = sorted((name for name in runs if name.startswith(SLICE)), key=part)
    document = {
        "about": "What tests/schemastore.py measures on ../shared/schemastore: `full` is "
        f"every schema, `sample-{SAMPLE}` CI's slice (tests/test_schemastore.py), `slices` "
        "each `--slice N/M` (the whole catalogue checked by mypy and Mix over several "
        "runs, each slice a ratchet of its own). A figure that gets worse fails the run; "
        "raise the file with `python -m tests.schemastore --update` (with the same "
        "selection) in the commit that earned it.",
        "runs": {name: runs[name] for name in sorted(runs) if not name.startswith(SLICE)},
        "slices": {name.removeprefix(SLICE): runs[name] for name in slices},
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def ratchet_key(args: argparse.Namespace) -> str | None:
    """Which run of the ratchet file this selection is: the full one, CI's slice, or one
    of M interleaved slices (`slice N/M`, the whole catalogue over M runs)."""
    if args.only:
        return None
    if args.slice:
        if args.sample not in (None, 1):
            return None
        number, count = args.slice
        return f"{SLICE}{number}/{count}"
    if args.sample in (None, 1):
        return "full"
    return f"sample-{args.sample}" if args.sample == SAMPLE else None


def report(results: Sequence[Measured], stages: Mapping[str, float], path: Path) -> None:
    """Every per-schema detail, for reading the defect classes off."""
    document = {
        "stages": dict(stages),
        "schemas": [{**vars(r), "refused": r.refused, "typed": r.typed} for r in results],
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _part(text: str) -> tuple[int, int]:
    number, _, count = text.partition("/")
    if not (number.isdigit() and count.isdigit() and 1 <= int(number) <= int(count)):
        raise argparse.ArgumentTypeError("N/M with 1 <= N <= M")
    return int(number), int(count)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.schemastore", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--only", metavar="NAME[,NAME]", help="only these catalogue schemas")
    parser.add_argument("--sample", type=int, metavar="K", help="every K-th schema by name")
    parser.add_argument("--slice", type=_part, metavar="N/M", help="the N-th of M slices")
    parser.add_argument("--update", action="store_true", help="record the figures")
    parser.add_argument("--jobs", type=int, default=JOBS, help="children at once")
    parser.add_argument(
        "--no-elixir",
        action="store_true",
        help="skip mix compile and mix test (the whole catalogue's Mix project is slow)",
    )
    parser.add_argument(
        "--no-mypy",
        action="store_true",
        help="skip mypy (the whole catalogue is 7 million lines of generated Python)",
    )
    parser.add_argument("--keep", type=Path, metavar="DIR", help="make the project in DIR")
    parser.add_argument("--report", type=Path, metavar="FILE", help="per-schema details (JSON)")
    parser.add_argument("--describe", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.describe:
        return _describe_main(args.describe[0], args.describe[1:])
    if not (CATALOGUE / "index.json").is_file():
        print(f"schemastore: {CATALOGUE}/index.json not found (set POLYTYPE_SCHEMASTORE)")
        return 2
    only = [name for name in (args.only or "").split(",") if name]
    chosen = select(read_index(), only, args.sample, args.slice)
    elixir = corpus.elixir_available() and not args.no_elixir
    mypy = not args.no_mypy
    started = time.monotonic()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=False)
        results, stages = measure(chosen, args.keep.resolve(), args.jobs, elixir=elixir, mypy=mypy)
    else:
        with tempfile.TemporaryDirectory(prefix="polytype-schemastore-") as work:
            results, stages = measure(chosen, Path(work), args.jobs, elixir=elixir, mypy=mypy)
    seconds = time.monotonic() - started
    numbers = figures(results)
    if not mypy:  # not measured: recorded as none, never as all
        numbers["type_checking"] = 0
        numbers["type_checking_by_flavor"] = dict.fromkeys(PYTHON_FLAVORS, 0)
    if args.report:
        report(results, stages, args.report)
    print(f"## polytype on the SchemaStore catalogue ({CATALOGUE}): {len(chosen)} schemas\n")
    print(table(numbers, seconds))
    print(f"\nseconds per step: {stages}")
    if not elixir:
        print("Elixir not measured (--no-elixir, or mix is not installed): its figures are 0")
    if not mypy:
        print("mypy not run (--no-mypy): type-checking counts every generated module")
    key = ratchet_key(args)
    if key is None:
        print("\nschemastore: this selection has no figures in the ratchet file")
        return 0
    if args.update:
        write_expected(key, numbers, elixir=elixir, mypy=mypy)
        print(f"\nwrote {EXPECTED.relative_to(REPO)} ({key})")
        return 0
    worse, better = compare(numbers, read_expected().get(key, {}), elixir, mypy)
    if better:
        print(f"\nBetter than {EXPECTED.name} ({key}); record it with --update:", *better, sep="\n")
    if worse:
        print(f"\nWorse than {EXPECTED.name} ({key}):", *worse, sep="\n")
        return 1
    print(f"\nschemastore: no figure is worse than {EXPECTED.name} ({key})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
