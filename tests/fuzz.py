"""A mutation fuzzer for `polytype generate`, run through the real command line.

Seeds are the shipped schemas (`schema/`), the hostile schema (`tests/hostile/`), the
schemas of `../shared/corpus/` and every schema kept in `tests/fuzz_regressions/`. Each
case mutates one seed a few times (delete, duplicate or retype a key; break a `$ref`;
put a hostile string in a key or a value; nest a subschema deeply; odd numbers), writes
it as JSON or YAML, sometimes damages the bytes, and runs `polytype generate` on a
project that already holds generated output of a small valid module. A case fails on:

- an exit code other than 0 or 2, a traceback or "internal error" on stderr;
- a run longer than the per-case timeout (a hang);
- a non-zero exit that changed any byte of `generated/`;
- an exit 0 whose Python does not import (each flavor, in a fresh interpreter), or whose
  Elixir does not compile (`elixirc`, on a sample of the exit-0 cases: it takes seconds,
  so by default one in five, always the first; `--elixir-every 1` compiles all), or, on a
  sample, after which `polytype check` does not report the tree as up to date.

A failing case is saved in `tests/fuzz_regressions/` (the schema and a `.json` note of
what failed, with the seed to replay it) and replayed by `tests/test_fuzz.py` from then on.

    python -m tests.fuzz --minutes 60            # what `nox -s fuzz -- --minutes 60` runs
    python -m tests.fuzz --cases 20 --seed 7     # a fixed amount of work, reproducibly
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
REGRESSIONS = REPO / "tests" / "fuzz_regressions"
CASE_TIMEOUT = 120.0
# what polytype may print on stderr: `file:line:col: /pointer: message` (an error, or a
# `warning: ` for what it approximated in a schema it reads generously), or `polytype: ...`
_DIAGNOSTIC_LINE = re.compile(
    r"(?:schema/[^:]+:[1-9][0-9]*:[1-9][0-9]*: (?:warning: )?/|polytype: )"
)
IMPORT_TIMEOUT = 120.0

BASE_SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
$defs:
  Note:
    description: A note beside the fuzzed module.
    type: object
    properties:
      text: {type: string}
    required: [text]
"""

HOSTILE_STRINGS = [
    '"', "'", '"""', "'''", "\\", "\\n", "\n", "foo\n", "\r\n", "\t", "\x00", "\x1b[31mred\x1b[0m",
    "\u202e", "\u200b", "\u2028", "#{1 + 1}", "</script>", "${x}", "{{ x }}", "{% x %}",
    "String", "Kernel", "Elixir", "Elixir.Foo", "Enum", "class", "None", "True", "self", "json",
    "field", "list", "dict", "cast", "Any", "extra", "__init__", "__class__", "_", "__", "",
    " ", "a" * 300, "A" * 250, "1abc", "é", "😀", "ﬁ", "İ", "\ufeff", "x-field", "$ref", "#",
    "#/$defs", "^\\u00e9$", "(?P<é>x)", "[", "^a$\n", "\\uD800", "do", "end", "nil", "when",
]  # fmt: skip

NUMBERS = [0, -1, 0.5, -1.5, 2.5e300, 1e-300, 10**30, 2**63, -(2**63) - 1, 1.0, -0.0]

BAD_BYTES = [b"\xff", b"\xfe\xff", b"\x00", b"\xed\xa0\x80", b"\xc3", b"\r", b"\t", b"&a", b"*a"]

NESTING_DEPTHS = [3, 8, 16, 28, 200, 1500]


@dataclass
class Case:
    """One generated input: the schema file and how it was made."""

    seed: int
    source: str
    name: str  # file name in schema/
    content: bytes
    mutations: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    case: Case
    code: int | None  # None: timed out
    seconds: float
    failures: list[str]
    stderr: str = ""


# --- seeds ---------------------------------------------------------------------------


def seed_files() -> dict[str, list[Path]]:
    """The seeds by group: schemas polytype generates, the corpus, kept regressions."""
    own = sorted((REPO / "schema").glob("*.yaml"))
    own.append(REPO / "tests" / "hostile" / "hostile.yaml")
    files: list[Path] = []
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*")):
            if (
                path.is_file()
                and path.suffix in (".json", ".yaml", ".yml")
                and "instances" not in path.relative_to(CORPUS).parts
                and path.name != "index.json"
            ):
                files.append(path)
    kept = [Path(case.source) for case in regression_cases()]
    return {"own": own, "corpus": files, "regressions": [REPO / path for path in kept]}


# Most cases start from a schema polytype generates (so that mutations reach the targets):
# a shipped one, or a small one of random types ("synthetic", fast to generate).
GROUP_WEIGHTS = {"own": 4, "synthetic": 3, "corpus": 3, "regressions": 1}


def _yaml() -> YAML:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    return yaml


def parse(path: Path) -> Any:
    """The seed's data, or None when it does not parse (it is then mutated as bytes)."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            return json.loads(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a kept case may re-define an anchor on purpose
            return _yaml().load(text)
    except Exception:  # noqa: BLE001 - a seed that does not parse is still a seed
        return None


# --- mutations -----------------------------------------------------------------------


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every container in `data` with its path (iteratively: seeds may be deep)."""
    stack = [(path, data)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            yield where, node
            stack.extend((where + (key,), value) for key, value in node.items())
        elif isinstance(node, list):
            yield where, node
            stack.extend((where + (index,), value) for index, value in enumerate(node))


def _random_value(rng: random.Random) -> Any:
    return rng.choice(
        [
            rng.choice(HOSTILE_STRINGS),
            rng.choice(NUMBERS),
            rng.choice([True, False, None]),
            [],
            {},
            [rng.choice(HOSTILE_STRINGS)],
            {"type": rng.choice(["string", "object", "array", "integer", "number", "null"])},
            {"$ref": rng.choice(["#", "#/$defs/Missing", "#/$defs", "other.yaml", "#/properties"])},
        ]
    )


def _wrap(schema: Any, depth: int, rng: random.Random) -> Any:
    for _ in range(depth):
        schema = rng.choice(
            [
                lambda inner: {"type": "object", "additionalProperties": inner},
                lambda inner: {"type": "array", "items": inner},
                lambda inner: {"type": ["object", "null"], "additionalProperties": inner},
                lambda inner: {"oneOf": [inner, {"type": "null"}]},
                lambda inner: {"allOf": [inner]},
                lambda inner: {"type": "object", "properties": {"k": inner}, "required": ["k"]},
            ]
        )(schema)
    return schema


TYPE_NAMES = ["Fz", "List", "Json", "Field", "Enum", "Kernel", "Extra", "Value", "T"]
KEYS = ["a", "type", "kind", "value", "extra", "class", "do", "end", "camelCase", "snake_case"]


def random_type(rng: random.Random, names: list[str], depth: int = 0) -> dict[str, Any]:
    """A small schema of the dialect, usually valid: primitives with bounds and patterns,
    nullables, enums (as atoms), consts, arrays, maps, references, unions, records."""
    kinds = ["prim", "nullable", "enum", "array", "map", "ref", "union", "record", "const"]
    kind = rng.choice(kinds if depth < 3 else kinds[:3])
    if kind == "ref" and names:
        return {"$ref": f"#/$defs/{rng.choice(names)}"}
    if kind == "union" and names:
        chosen = dict.fromkeys(rng.choice(names) for _ in range(rng.randint(1, 3)))
        members = [{"$ref": f"#/$defs/{name}"} for name in chosen]
        return {rng.choice(["oneOf", "anyOf"]): members}
    if kind == "enum":
        values = list(dict.fromkeys(rng.choice(HOSTILE_STRINGS + KEYS) for _ in range(3)))
        schema: dict[str, Any] = {"type": "string", "enum": values}
        if rng.random() < 0.5:
            schema["x-elixir"] = {"atoms": True}
        return schema
    if kind == "const":
        return {"const": rng.choice([rng.choice(HOSTILE_STRINGS), 1, True])}
    if kind == "array":
        schema = {"type": "array", "items": random_type(rng, names, depth + 1)}
        if rng.random() < 0.3:
            schema["minItems"], schema["maxItems"] = 1, 3
        return schema
    if kind == "map":
        return {"type": "object", "additionalProperties": random_type(rng, names, depth + 1)}
    if kind == "record":
        keys = list(dict.fromkeys(rng.choice(KEYS + HOSTILE_STRINGS[:20]) for _ in range(3)))
        schema = {
            "type": "object",
            "properties": {key: random_type(rng, names, depth + 1) for key in keys},
            "required": [key for key in keys if rng.random() < 0.5],
        }
        if rng.random() < 0.3:
            schema["additionalProperties"] = False
        if rng.random() < 0.3:
            schema["x-frozen"] = True
        return schema
    prim = rng.choice(["string", "integer", "number", "boolean"])
    schema = {"type": [prim, "null"] if kind == "nullable" else prim}
    if prim in ("integer", "number") and rng.random() < 0.5:
        schema["minimum"] = rng.choice(NUMBERS)
    if prim == "string" and rng.random() < 0.3:
        schema["pattern"] = rng.choice(["^\\u00e9", "^[a-z]+$", "\\d", "^\\N{BULLET}"])
    return schema


def gentle(data: Any, rng: random.Random) -> tuple[Any, str]:
    """A mutation that usually leaves the schema valid, so that it reaches the targets:
    hostile text in a description, a property key, an enum value or a `const`; odd bounds;
    a property nested deeply; a union of one member."""
    containers = [(where, node) for where, node in _nodes(data) if isinstance(node, dict)]
    properties = [(w, n) for w, n in containers if isinstance(n.get("properties"), dict)]
    enums = [(w, n) for w, n in containers if isinstance(n.get("enum"), list) and n["enum"]]
    choice = rng.randrange(8)
    text = rng.choice(HOSTILE_STRINGS)
    if choice >= 6 and isinstance(data, dict):
        defs = data.setdefault("$defs", {})
        if isinstance(defs, dict):
            name = rng.choice(TYPE_NAMES) + str(rng.randrange(100))
            defs[name] = random_type(rng, [n for n in defs if isinstance(n, str)])
            return data, f"added type {name}"
    if choice == 0 and properties:
        where, node = rng.choice(properties)
        if node["properties"]:
            key = rng.choice(list(node["properties"]))
            node["properties"][text] = node["properties"].pop(key)
            if isinstance(node.get("required"), list) and key in node["required"]:
                node["required"] = [text if item == key else item for item in node["required"]]
            return data, f"{where}: property {key!r} renamed to a hostile key"
    if choice == 1 and enums:
        where, node = rng.choice(enums)
        node["enum"][rng.randrange(len(node["enum"]))] = text
        return data, f"{where}: hostile enum value"
    if choice == 2 and properties:
        where, node = rng.choice(properties)
        node["properties"][f"n{rng.randrange(100)}"] = rng.choice(
            [
                {"type": "number", "minimum": rng.choice(NUMBERS), "maximum": 2.5e300},
                {"type": ["integer", "null"], "exclusiveMinimum": rng.choice(NUMBERS)},
                {
                    "type": "string",
                    "pattern": rng.choice(["^\\u00e9$", "^a$", "\\N{BULLET}", "\\d+"]),
                },
                _wrap({"type": "string"}, rng.choice(NESTING_DEPTHS[:4]), rng),
                {"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]},
            ]
        )
        return data, f"{where}: added a constrained or nested property"
    if choice == 3 and properties:
        where, node = rng.choice(properties)
        node["properties"][f"c{rng.randrange(100)}"] = {"const": text}
        return data, f"{where}: hostile const"
    if choice == 4:
        defs = data.get("$defs") if isinstance(data, dict) else None
        if isinstance(defs, dict) and defs:
            key = rng.choice(list(defs))
            defs[key + rng.choice(["X", "_1", "Élan", "String", "Kernel", "a" * 120])] = defs.pop(
                key
            )
            return data, f"renamed type {key!r}"
    if containers:
        where, node = rng.choice(containers)
        node["description"] = text
        return data, f"{where}: hostile description"
    return data, "unchanged"


def mutate(data: Any, rng: random.Random) -> tuple[Any, str]:
    """One structural mutation of `data` (changed in place where possible); a description."""
    containers = list(_nodes(data))
    if not containers:
        return _random_value(rng), "replaced the document"
    where, node = rng.choice(containers)
    kind = rng.choice(
        ["delete", "duplicate", "retype", "ref", "hostile-key", "hostile-value", "nest", "number"]
    )
    if isinstance(node, list):
        if not node or kind == "duplicate":
            node.append(copy.deepcopy(rng.choice(node)) if node else _random_value(rng))
            return data, f"{where}: appended an item"
        index = rng.randrange(len(node))
        if kind == "delete":
            del node[index]
            return data, f"{where}: deleted item {index}"
        node[index] = _random_value(rng)
        return data, f"{where}: replaced item {index}"
    if not node:
        node[rng.choice(HOSTILE_STRINGS)] = _random_value(rng)
        return data, f"{where}: added a key"
    key = rng.choice(list(node))
    if kind == "delete":
        del node[key]
        return data, f"{where}: deleted {key!r}"
    if kind == "duplicate":
        node[f"{key}{rng.choice(['', '_', 'Copy', '2'])}{rng.randrange(10)}"] = copy.deepcopy(
            node[key]
        )
        return data, f"{where}: duplicated {key!r}"
    if kind == "retype":
        node[key] = _random_value(rng)
        return data, f"{where}: retyped {key!r}"
    if kind == "ref":
        refs = [(w, n) for w, n in containers if isinstance(n, dict) and "$ref" in n]
        if refs:
            ref_where, ref_node = rng.choice(refs)
            ref_node["$ref"] = rng.choice(
                ["#/$defs/Missing", "#", "#/$defs", "#/$defs/" + rng.choice(HOSTILE_STRINGS),
                 str(ref_node["$ref"]) + "x", "http://example.invalid/x.json", "#/definitions/a~2"]
            )  # fmt: skip
            return data, f"{ref_where}: broke $ref"
        node[key] = {"$ref": "#/$defs/" + str(key)}
        return data, f"{where}: {key!r} refers to itself"
    if kind == "hostile-key":
        node[rng.choice(HOSTILE_STRINGS)] = node.pop(key)
        return data, f"{where}: renamed {key!r} to a hostile key"
    if kind == "hostile-value":
        node[key] = rng.choice(HOSTILE_STRINGS)
        return data, f"{where}: hostile value for {key!r}"
    if kind == "nest":
        depth = rng.choice(NESTING_DEPTHS)
        node[key] = _wrap(node[key], depth, rng)
        return data, f"{where}: nested {key!r} {depth} deep"
    node[key] = rng.choice(NUMBERS)
    return data, f"{where}: number for {key!r}"


def serialise(data: Any, rng: random.Random) -> tuple[bytes, str]:
    """JSON or YAML text of `data` (JSON when YAML cannot say it, e.g. nesting 1,500 deep)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        if rng.random() < 0.5:
            stream = io.StringIO()
            try:
                _yaml().dump(data, stream)
                return stream.getvalue().encode("utf-8", "surrogatepass"), ".yaml"
            except Exception:  # noqa: BLE001 - fall back to JSON
                pass
        text = json.dumps(data, ensure_ascii=rng.random() < 0.5, indent=1)
        return text.encode("utf-8", "surrogatepass"), ".json"
    finally:
        sys.setrecursionlimit(limit)


def damage(content: bytes, rng: random.Random) -> tuple[bytes, str]:
    position = rng.randrange(len(content) + 1)
    choice = rng.randrange(3)
    if choice == 0:
        return content[:position] + rng.choice(BAD_BYTES) + content[position:], "inserted bytes"
    if choice == 1:
        return content[:position], f"truncated at {position}"
    return content[:position] + content[position + 1 :], f"dropped byte {position}"


def make_case(seed: int, groups: dict[str, list[Path]]) -> Case:
    rng = random.Random(seed)
    names = [name for name in GROUP_WEIGHTS if groups.get(name) or name == "synthetic"]
    group = rng.choices(names, [GROUP_WEIGHTS[name] for name in names])[0]
    if group == "synthetic":
        data: Any = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {}}
        case = Case(seed, "synthetic", "", b"")
        for _ in range(rng.randint(2, 8)):
            name = rng.choice(TYPE_NAMES) + str(rng.randrange(100))
            data["$defs"][name] = random_type(rng, list(data["$defs"]))
            case.mutations.append(f"added type {name}")
        content, suffix = serialise(data, rng)
        case.name, case.content = f"fuzzed{suffix}", content
        return case
    source = rng.choice(groups[group])
    data = parse(source)
    case = Case(seed, _shown(source), "", b"")
    if data is None:
        content, suffix = source.read_bytes(), source.suffix
    else:
        step = gentle if group == "own" and rng.random() < 0.6 else mutate
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 50_000))  # copying a subtree nested 1,500 deep
        try:
            for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
                data, description = step(data, rng)
                case.mutations.append(description)
        except RecursionError:
            case.mutations.append("(stopped: the data is nested too deeply to copy)")
        finally:
            sys.setrecursionlimit(limit)
        content, suffix = serialise(data, rng)
    if data is None or rng.random() < 0.1:
        content, description = damage(content, rng)
        case.mutations.append(description)
    case.name = f"fuzzed{suffix}"
    case.content = content
    return case


def _shown(path: Path) -> str:
    for root, label in ((REPO, ""), (CORPUS, "../shared/corpus/")):
        try:
            return label + path.relative_to(root).as_posix()
        except ValueError:
            continue
    return str(path)


# --- running -------------------------------------------------------------------------


def _environment() -> dict[str, str]:
    return {
        **os.environ,
        # this checkout's polytype (generator/), whatever is installed, then `tests.*`
        "PYTHONPATH": os.pathsep.join((str(REPO / "generator"), str(REPO))),
        "POLYTYPE_NO_CACHE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def polytype(project: Path, *args: str, timeout: float = CASE_TIMEOUT) -> tuple[int | None, str]:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "polytype", "--project", str(project), *args],
            env=_environment(),
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, done.stderr.decode("utf-8", "replace")


def tree_digest(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def base_project(work: Path) -> Path:
    """A project with a small valid module, generated once; each case runs on a copy."""
    project = work / "base"
    (project / "schema").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.polytype]\n", encoding="utf-8")
    (project / "schema" / "beside.yaml").write_text(BASE_SCHEMA, encoding="utf-8")
    code, stderr = polytype(project, "generate")
    if code != 0:
        raise SystemExit(f"fuzz: the base project does not generate:\n{stderr}")
    return project


IMPORT_SCRIPT = """
import importlib, sys, types
root = sys.modules["polytype_fuzzed"] = types.ModuleType("polytype_fuzzed")
root.__path__ = [sys.argv[1]]
for name in sys.argv[2:]:
    importlib.import_module("polytype_fuzzed." + name)
"""


def python_imports(project: Path) -> str | None:
    """None when every generated Python module imports; else what went wrong."""
    python = project / "generated" / "python"
    files = [str(python)] + sorted(
        ".".join(p.relative_to(python).with_suffix("").parts)
        for p in python.rglob("*.py")
        if p.name != "__init__.py"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", IMPORT_SCRIPT, *files],
            env=_environment(),
            capture_output=True,
            timeout=IMPORT_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return "importing the generated Python timed out"
    if done.returncode != 0:
        return "generated Python does not import: " + done.stderr.decode("utf-8", "replace")[-2000:]
    return None


def elixir_compiles(project: Path, work: Path) -> str | None:
    """None when the generated Elixir compiles with warnings as errors, as its mix project
    does (or Elixir is not installed)."""
    if shutil.which("elixirc") is None:
        return None
    sources = sorted(str(p) for p in (project / "generated" / "elixir" / "lib").rglob("*.ex"))
    out = Path(tempfile.mkdtemp(dir=work, prefix="ebin-"))
    try:
        done = subprocess.run(
            ["elixirc", "--warnings-as-errors", "-o", str(out), *sources],
            capture_output=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        return "compiling the generated Elixir timed out"
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if done.returncode != 0:
        return (
            "generated Elixir does not compile: " + done.stderr.decode("utf-8", "replace")[-2000:]
        )
    return None


def run_case(case: Case, base: Path, work: Path, compile_elixir: bool, run_check: bool) -> Outcome:
    project = work / f"case-{case.seed}"
    shutil.copytree(base, project)
    try:
        (project / "schema" / case.name).write_bytes(case.content)
        before = tree_digest(project / "generated")
        started = time.monotonic()
        code, stderr = polytype(project, "generate")
        seconds = time.monotonic() - started
        failures: list[str] = []
        if code is None:
            failures.append(f"hang: no exit within {CASE_TIMEOUT:.0f} s")
        elif code not in (0, 2):
            failures.append(f"exit {code}")
        if "Traceback" in stderr or "internal error" in stderr:
            failures.append("traceback or internal error on stderr")
        stray = [line for line in stderr.splitlines() if not _DIAGNOSTIC_LINE.match(line)]
        if stray or "\x1b" in stderr:
            failures.append(f"stderr line that is not a located diagnostic: {stray[:1]!r}")
        if code != 0 and tree_digest(project / "generated") != before:
            failures.append(f"generated/ changed after exit {code}")
        if code == 0:
            problem = python_imports(project)
            if problem:
                failures.append(problem)
            if compile_elixir:
                problem = elixir_compiles(project, work)
                if problem:
                    failures.append(problem)
            if run_check:
                check_code, check_err = polytype(project, "check")
                if check_code != 0:
                    failures.append(f"check after generate: exit {check_code}: {check_err[-500:]}")
        return Outcome(case, code, seconds, failures, stderr)
    finally:
        shutil.rmtree(project, ignore_errors=True)


def save_regression(outcome: Outcome) -> Path:
    REGRESSIONS.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(outcome.case.content).hexdigest()[:12]
    suffix = Path(outcome.case.name).suffix
    path = REGRESSIONS / f"case_{digest}{suffix}"
    path.write_bytes(outcome.case.content)
    note = {
        "seed": outcome.case.seed,
        "source": outcome.case.source,
        "mutations": outcome.case.mutations,
        "exit": outcome.code,
        "failures": outcome.failures,
        "stderr": outcome.stderr[-2000:],
    }
    (REGRESSIONS / f"case_{digest}.note.json").write_text(
        json.dumps(note, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return path


def regression_cases() -> list[Case]:
    """The kept failing inputs, as cases (their notes are not schemas)."""
    if not REGRESSIONS.is_dir():
        return []
    cases = []
    for path in sorted(REGRESSIONS.iterdir()):
        if path.suffix in (".yaml", ".json") and not path.name.endswith(".note.json"):
            cases.append(Case(0, path.relative_to(REPO).as_posix(), path.name, path.read_bytes()))
    return cases


def fuzz(
    *,
    minutes: float | None,
    cases: int | None,
    seed: int,
    elixir_every: int,
    check_every: int,
    save: bool,
    log: Any = sys.stderr,
) -> list[Outcome]:
    """Run cases until the time or case budget is spent; the failing outcomes."""
    files = seed_files()
    deadline = time.monotonic() + minutes * 60 if minutes is not None else None
    failing: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="polytype-fuzz-") as temporary:
        work = Path(temporary)
        base = base_project(work)
        done = exits_zero = 0
        while (cases is None or done < cases) and (deadline is None or time.monotonic() < deadline):
            case = make_case(seed + done, files)
            compile_elixir = exits_zero % elixir_every == 0
            run_check = exits_zero % check_every == 0
            outcome = run_case(case, base, work, compile_elixir, run_check)
            done += 1
            exits_zero += outcome.code == 0
            status = "FAIL" if outcome.failures else "ok"
            print(
                f"fuzz: case {case.seed} ({case.source}; {len(case.mutations)} mutation(s)): "
                f"exit {outcome.code} in {outcome.seconds:.1f} s {status}",
                file=log,
                flush=True,
            )
            if outcome.failures:
                failing.append(outcome)
                for failure in outcome.failures:
                    print(f"fuzz:   {failure}", file=log, flush=True)
                if save:
                    print(f"fuzz:   kept as {save_regression(outcome)}", file=log, flush=True)
        print(
            f"fuzz: {done} case(s), {exits_zero} generated, {len(failing)} failing "
            f"(seeds {seed}..{seed + done - 1})",
            file=log,
            flush=True,
        )
    return failing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--minutes", type=float, default=None, help="time budget (default 2)")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: random)")
    parser.add_argument(
        "--elixir-every", type=int, default=5, help="compile the Elixir of every Nth exit-0 case"
    )
    parser.add_argument(
        "--check-every", type=int, default=4, help="run `polytype check` after every Nth exit 0"
    )
    parser.add_argument(
        "--no-save", action="store_true", help="do not keep failing cases in tests/fuzz_regressions"
    )
    args = parser.parse_args(argv)
    minutes = args.minutes if args.minutes is not None or args.cases is not None else 2.0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    failing = fuzz(
        minutes=minutes,
        cases=args.cases,
        seed=seed,
        elixir_every=max(1, args.elixir_every),
        check_every=max(1, args.check_every),
        save=not args.no_save,
    )
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
