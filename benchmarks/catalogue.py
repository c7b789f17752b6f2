"""The catalogue row of `nox -s bench`: every SchemaStore schema as a module of one project.

    python benchmarks/catalogue.py                  # prepare, time polytype, time the peer
    python benchmarks/catalogue.py --every 20       # the peer's sample: every 20th module
    python benchmarks/catalogue.py --keep DIR       # prepare in DIR once, reuse it after

The project is the catalogue harness's (tests/schemastore.py, `write_project`): a
link to each schema of `../shared/schemastore` (or `$POLYTYPE_SCHEMASTORE`), its
ref-map, `strict = false`, and all generated Python under one `python-package`, so
that the modules share one runtime. The schemas polytype refuses leave it first, as
the harness's `generate` step sets them aside; the rest is timed: one cold
`polytype generate` (every flavor, every target) in a fresh project, with its wall
time, CPU time, peak memory of the whole process tree, and the files and bytes it
wrote.

Beside it, datamodel-code-generator (Pydantic v2, black and isort, its defaults) on a
fixed sample of the same schemas, every `--every`-th by name, one run per schema,
summed. The ratio compares CPU per schema: polytype's over the whole project,
datamodel-code-generator's over the schemas of the sample it generated.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from children import Sample, compile_polytype, run_child  # noqa: E402

from tests import schemastore  # noqa: E402

PACKAGE = "catalogue"  # the project's python-package
EVERY = 20  # the peer's sample: every 20th schema that polytype generates
LONG = 3600.0
PEER_TIMEOUT = 120.0
PREPARED = "generating.txt"  # in a --keep directory: the schemas that generate
TARGETS = {"peak_mb": 600.0, "written_mb": 150.0, "ratio": 0.25}  # issue 32


@dataclass(frozen=True)
class Written:
    files: int
    size: int  # bytes


@dataclass(frozen=True)
class CatalogueResult:
    modules: int
    polytype: Sample
    written: Written
    peer_sample: int  # schemas the peer was given
    peer_ok: int  # ... and generated
    peer_wall: float  # summed over the ones it generated
    peer_cpu: float
    peer_peak_mb: float  # the largest of its runs
    peer_written: Written

    @property
    def ratio(self) -> float:
        """polytype's CPU per schema ÷ the peer's."""
        if not self.peer_ok:
            return float("nan")
        return (self.polytype.cpu / self.modules) / (self.peer_cpu / self.peer_ok)


def prepare(work: Path, log: object = sys.stderr) -> list[schemastore.CatalogueSchema]:
    """The catalogue's schemas that `polytype generate` takes together, found in a project
    at `work` (the harness's generate step: refused schemas are set aside)."""
    kept = work / PREPARED
    index = {schema.name: schema for schema in schemastore.read_index()}
    if kept.is_file():
        return [index[name] for name in kept.read_text(encoding="utf-8").split()]
    schemas = list(index.values())
    schemastore.write_project(work, schemas, PACKAGE)
    by_name = {schema.name: schemastore.Measured(schema.name) for schema in schemas}
    schemastore.generate(work, schemas, by_name, log)
    chosen = [schema for schema in schemas if by_name[schema.name].generated]
    kept.write_text("".join(f"{schema.name}\n" for schema in chosen), encoding="utf-8")
    return chosen


def written(directory: Path) -> Written:
    files = size = 0
    for folder, _, names in os.walk(directory):
        for name in names:
            files += 1
            size += os.lstat(os.path.join(folder, name)).st_size
    return Written(files, size)


def time_polytype(
    schemas: Sequence[schemastore.CatalogueSchema], work: Path, project: Path | None = None
) -> tuple[Sample, Written]:
    """One cold `polytype generate` of every schema in a fresh project (at `project`,
    made anew, when given)."""
    if project is None:
        project = Path(tempfile.mkdtemp(prefix="catalogue-", dir=work))
    else:
        shutil.rmtree(project, ignore_errors=True)
        project.mkdir(parents=True)
    schemastore.write_project(project, schemas, PACKAGE)
    command = [sys.executable, "-m", "polytype", "generate"]
    sample = run_child(command, project, LONG, tree=True)
    return sample, written(project / "generated")


def time_peer(
    schemas: Sequence[schemastore.CatalogueSchema], work: Path
) -> tuple[list[Sample], Written]:
    """datamodel-code-generator on each schema (the ones it fails on count as failed)."""
    script = shutil.which("datamodel-codegen")
    if script is None:
        raise SystemExit("datamodel-codegen is not installed")
    samples = []
    total = Written(0, 0)
    for schema in schemas:
        out = Path(tempfile.mkdtemp(prefix="peer-", dir=work))
        command = [
            script, "--input", str(schema.path), "--input-file-type", "jsonschema",
            "--output", str(out / "models.py"), "--output-model-type", "pydantic_v2.BaseModel",
            "--formatters", "black", "isort",
        ]  # fmt: skip
        sample = run_child(command, out, PEER_TIMEOUT, check=False)
        samples.append(sample)
        if sample.returncode == 0:
            done = written(out)
            total = Written(total.files + done.files, total.size + done.size)
    return samples, total


def bench(
    work: Path, every: int = EVERY, keep: Path | None = None, project: Path | None = None
) -> CatalogueResult:
    prepared = keep if keep is not None else work / "prepared"
    prepared.mkdir(parents=True, exist_ok=True)
    schemas = prepare(prepared.resolve())
    print(f"catalogue: {len(schemas)} schemas generate; timing …", file=sys.stderr, flush=True)
    sample, output = time_polytype(schemas, work, project)
    chosen = schemas[::every]
    print(f"catalogue: datamodel-codegen on {len(chosen)} …", file=sys.stderr, flush=True)
    peer, peer_output = time_peer(chosen, work)
    ok = [s for s in peer if s.returncode == 0]
    return CatalogueResult(
        modules=len(schemas),
        polytype=sample,
        written=output,
        peer_sample=len(chosen),
        peer_ok=len(ok),
        peer_wall=sum(s.wall for s in ok),
        peer_cpu=sum(s.cpu for s in ok),
        peer_peak_mb=max((s.peak_mb for s in ok), default=0.0),
        peer_written=peer_output,
    )


def _mb(size: int) -> str:
    return f"{size / 1e6:.0f} MB"


def table(result: CatalogueResult, every: int = EVERY) -> str:
    r = result
    ours, scale = r.polytype, r.peer_ok / r.modules if r.modules else 0.0
    rows = [
        "| tool | schemas | wall | CPU | peak memory | files | written |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| polytype (all flavors, one project) | {r.modules} | {ours.wall:.1f} s | "
        f"{ours.cpu:.1f} s | {ours.tree_peak_mb:.0f} MB | {r.written.files:,} | "
        f"{_mb(r.written.size)} |",
        f"| polytype, scaled to the peer's {r.peer_ok} | {r.peer_ok} | {ours.wall * scale:.1f} s "
        f"| {ours.cpu * scale:.1f} s | – | – | – |",
        f"| datamodel-code-generator (Pydantic), every {every}th, summed | {r.peer_ok} "
        f"(of {r.peer_sample}) | {r.peer_wall:.1f} s | {r.peer_cpu:.1f} s | "
        f"{r.peer_peak_mb:.0f} MB (largest run) | {r.peer_written.files:,} | "
        f"{_mb(r.peer_written.size)} |",
    ]
    checks = [
        ("peak memory (process tree, PSS)", f"{ours.tree_peak_mb:.0f} MB", "≤ 600 MB",
         ours.tree_peak_mb <= TARGETS["peak_mb"]),
        ("written", _mb(r.written.size), "≤ 150 MB", r.written.size / 1e6 <= TARGETS["written_mb"]),
        ("CPU per schema ÷ datamodel-code-generator's", f"{r.ratio:.2f}×", "≤ 0.25×",
         r.ratio <= TARGETS["ratio"]),
    ]  # fmt: skip
    rows += ["", "| figure | now | target | met |", "|---|---:|---:|:-:|"]
    rows += [f"| {a} | {b} | {c} | {'yes' if d else 'no'} |" for a, b, c, d in checks]
    rows.append(
        f"\n(largest single process: {ours.peak_mb:.0f} MB RSS; the peer's failures: "
        f"{r.peer_sample - r.peer_ok} of {r.peer_sample}, not counted)"
    )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=EVERY, help="the peer's sample")
    parser.add_argument(
        "--keep", type=Path, help="prepare the project here once; later runs reuse it"
    )
    parser.add_argument(
        "--project", type=Path, help="the timed project here (kept, to compare its output)"
    )
    args = parser.parse_args(argv)
    compile_polytype()
    if not (schemastore.CATALOGUE / "index.json").is_file():
        print(f"catalogue: {schemastore.CATALOGUE}/index.json not found; row skipped")
        return 0
    with tempfile.TemporaryDirectory(prefix="polytype-catalogue-") as directory:
        result = bench(Path(directory), args.every, args.keep, args.project)
    print(f"## Generation: the SchemaStore catalogue as one project ({result.modules} modules)\n")
    print(table(result, args.every))
    return 0


if __name__ == "__main__":
    sys.exit(main())
