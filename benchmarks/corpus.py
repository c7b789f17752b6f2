"""Real published schemas: polytype against datamodel-code-generator, side by side.

    python benchmarks/corpus.py                 # every schema in ../shared/corpus
    python benchmarks/corpus.py --only gltf-2.0 bowtie

For every schema of the corpus (`../shared/corpus/index.json`, read in place by
`tests/corpus.py`, which also holds the corpus ratchet of the test suite) each
tool generates code in a fresh temporary directory, cold, in a child process:
polytype every flavor (`polytype generate SCHEMA --output-dir DIR`), datamodel-code-
generator Pydantic v2 models (`--class-name Root`). Then every sample instance is
decoded and re-encoded with the type its `root` names, and counted only when the
JSON that comes back equals the instance exactly: polytype's dataclasses
(`decode_x` / `encode_x`), datamodel-code-generator's models (`model_validate`,
then `model_dump(mode="json", by_alias=True, exclude_unset=True)`). A schema
counts as generated when the tool exits 0 and its module imports.

This measures where the front end stands on schemas polytype does not own; it
asserts nothing (tests do that).
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from children import compile_polytype  # noqa: E402
from loading import import_flavor  # noqa: E402

from tests.corpus import CORPUS, MEMORY_LIMIT, CorpusSchema, describe, read_index  # noqa: E402

TIMEOUT = 300.0


@dataclass(frozen=True)
class Outcome:
    """One tool on one schema."""

    generated: bool
    exact: int
    instances: int
    seconds: float
    note: str = ""


def _import(path: Path, name: str) -> ModuleType:
    """A module of one file (datamodel-code-generator's output), imported as `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _run(command: Sequence[str], cwd: Path) -> tuple[int, float, str]:
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return -1, time.perf_counter() - started, f"timed out after {TIMEOUT:.0f} s"
    first = (done.stderr.strip().splitlines() or [""])[0]
    return done.returncode, time.perf_counter() - started, first


def _round_trips(decode: Callable[[Any], Any], encode: Callable[[Any], Any], instance: Any) -> bool:
    try:
        return bool(encode(decode(copy.deepcopy(instance))) == instance)
    except Exception:  # noqa: BLE001 - a rejection or a crash both mean "not exact"
        return False


def _polytype(schema: CorpusSchema, work: Path) -> Outcome:
    out = work / "polytype"
    code, seconds, message = _run(
        [sys.executable, "-m", "polytype", "generate", str(schema.path),
         "--output-dir", str(out)],
        cwd=work,
    )  # fmt: skip
    instances = schema.instances
    if code != 0:
        return Outcome(False, 0, len(instances), seconds, f"exit {code}: {message}"[:120])
    packages = sorted((out / "python").iterdir())
    models = import_flavor(
        packages[0], "dataclass_models", f"corpus_polytype_{os.getpid()}_{id(schema)}"
    )
    types = describe(schema.path, work)["types"]  # `file#pointer` -> type, through the IR
    exact = 0
    for instance in instances:
        root = (schema.directory / instance.root_file).resolve().as_posix()
        name = types.get(f"{root}#{instance.pointer}")
        if name is None:
            continue
        snake = _snake(name)
        decode = getattr(models, f"decode_{snake}", None)
        encode = getattr(models, f"encode_{snake}", None)
        data = json.loads((schema.directory / instance.file).read_text(encoding="utf-8"))
        if decode is not None and encode is not None and _round_trips(decode, encode, data):
            exact += 1
    return Outcome(True, exact, len(instances), seconds)


def _snake(name: str) -> str:
    from polytype import naming

    return naming.snake_case(name)


def _dmcg(schema: CorpusSchema, work: Path) -> Outcome:
    out = work / "dmcg_models.py"
    code, seconds, message = _run(
        ["datamodel-codegen", "--input", str(schema.path),
         "--input-file-type", "jsonschema", "--output-model-type", "pydantic_v2.BaseModel",
         "--class-name", "Root", "--disable-timestamp", "--output", str(out)],
        cwd=work,
    )  # fmt: skip
    instances = schema.instances
    if code != 0:
        return Outcome(False, 0, len(instances), seconds, f"exit {code}: {message}"[:120])
    try:
        models = _import(out, f"corpus_dmcg_{os.getpid()}_{id(schema)}")
    except Exception as error:  # noqa: BLE001 - output that does not import is not generated
        return Outcome(False, 0, len(instances), seconds, f"import: {type(error).__name__}")
    exact = 0
    for instance in instances:
        model = _dmcg_class(models, instance.pointer)
        if model is None:
            continue
        data = json.loads((schema.directory / instance.file).read_text(encoding="utf-8"))

        def dump(value: Any) -> Any:
            return value.model_dump(mode="json", by_alias=True, exclude_unset=True)

        if _round_trips(model.model_validate, dump, data):
            exact += 1
    return Outcome(True, exact, len(instances), seconds)


def _dmcg_class(models: ModuleType, pointer: str) -> Any:
    if not pointer:
        return getattr(models, "Root", None)
    name = pointer.rsplit("/", 1)[-1]
    for candidate in (
        name,
        re.sub(r"\W", "", name),
        re.sub(r"\W", "", name[:1].upper() + name[1:]),
    ):
        found = getattr(models, candidate, None)
        if found is not None and hasattr(found, "model_validate"):
            return found
    return None


def measure(names: Sequence[str] | None = None) -> dict[str, dict[str, Outcome]]:
    """Each schema measured in a child process of its own: importing a tool's models for a
    recursive meta-schema can exhaust the memory cap, which must cost that schema only."""
    results: dict[str, dict[str, Outcome]] = {}
    for schema in read_index(CORPUS):
        if names and schema.name not in names:
            continue
        print(f"  {schema.name} …", file=sys.stderr, flush=True)
        child = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--one", schema.name],
            capture_output=True,
            text=True,
            timeout=4 * TIMEOUT,
            check=False,
        )
        try:
            measured = json.loads(child.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            measured = {}
        died = f"the measuring process died (exit {child.returncode})"
        lost = Outcome(False, 0, len(schema.instances), 0.0, died)
        results[schema.name] = {
            tool: Outcome(**measured[tool]) if tool in measured else lost
            for tool in ("polytype", "datamodel-codegen")
        }
    return results


def _roots(schema: CorpusSchema) -> list[CorpusSchema]:
    """`schema` as each tool is given it: its main schema file with the instances of its
    types, and each other schema file that instances name as their root (another entry
    point of the same corpus entry: bowtie's implementation matrix) on its own, as a user
    would generate it (and as tests/corpus.py measures it)."""
    parts = [
        replace(
            schema, instances=tuple(i for i in schema.instances if i.root_file == schema.schema)
        )
    ]
    elsewhere = [i for i in schema.instances if i.root_file != schema.schema]
    for root_file in dict.fromkeys(i.root_file for i in elsewhere):
        instances = tuple(i for i in elsewhere if i.root_file == root_file)
        parts.append(replace(schema, schema=root_file, instances=instances))
    return parts


def _summed(outcomes: list[Outcome]) -> Outcome:
    """One tool's outcomes on the parts of one corpus entry: generated when every part is."""
    return Outcome(
        all(o.generated for o in outcomes),
        sum(o.exact for o in outcomes),
        sum(o.instances for o in outcomes),
        sum(o.seconds for o in outcomes),
        "; ".join(o.note for o in outcomes if o.note),
    )


def _measure_one(name: str) -> dict[str, Outcome]:
    [schema] = [schema for schema in read_index(CORPUS) if schema.name == name]
    with tempfile.TemporaryDirectory(prefix=f"corpus-{schema.name}-") as scratch:
        parts = list(enumerate(_roots(schema)))
        for index, _ in parts:
            (Path(scratch) / str(index)).mkdir()
        polytype = _summed([_polytype(part, Path(scratch) / str(i)) for i, part in parts])
        # a line of its own first: if the other tool's import takes the process down,
        # polytype's result is still there
        print(json.dumps({"polytype": asdict(polytype)}), flush=True)
        peer = _summed([_dmcg(part, Path(scratch) / str(i)) for i, part in parts])
        return {"polytype": polytype, "datamodel-codegen": peer}


def table(results: dict[str, dict[str, Outcome]]) -> str:
    lines = [
        "| schema | polytype: generated | exact | time | datamodel-codegen: generated | exact | time |",
        "|---|:-:|---:|---:|:-:|---:|---:|",
    ]
    totals = {tool: [0, 0, 0, 0.0] for tool in ("polytype", "datamodel-codegen")}
    for name, outcomes in results.items():
        cells = [name]
        for tool in ("polytype", "datamodel-codegen"):
            outcome = outcomes[tool]
            total = totals[tool]
            total[0] += outcome.generated
            total[1] += outcome.exact
            total[2] += outcome.instances
            total[3] += outcome.seconds
            cells += [
                "yes" if outcome.generated else "no",
                f"{outcome.exact}/{outcome.instances}",
                f"{outcome.seconds:.1f} s",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    summary = ["**all**"]
    for tool in ("polytype", "datamodel-codegen"):
        generated, exact, instances, seconds = totals[tool]
        summary += [f"{generated}/{len(results)}", f"{exact}/{instances}", f"{seconds:.1f} s"]
    lines.append("| " + " | ".join(summary) + " |")
    refusals = [
        f"- {name}, {tool}: {outcome.note}"
        for name, outcomes in results.items()
        for tool, outcome in outcomes.items()
        if outcome.note
    ]
    if refusals:
        lines += ["", "Why a schema did not generate (first line of the tool's stderr):", *refusals]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these corpus schemas")
    parser.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)  # a child's job
    args = parser.parse_args(argv)
    if args.one is None:
        compile_polytype()
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    if not (CORPUS / "index.json").is_file():
        print(f"corpus: {CORPUS} not found (it lives in ../shared/corpus)", file=sys.stderr)
        return 2
    if args.one:
        outcomes = _measure_one(args.one)
        print(json.dumps({tool: asdict(outcome) for tool, outcome in outcomes.items()}))
        return 0
    print("## Published schemas (../shared/corpus): polytype vs datamodel-code-generator\n")
    print(table(measure(args.only)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
