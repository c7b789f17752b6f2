"""Generation benchmark: polytype against jsonschema-gentypes and datamodel-code-generator.

    python benchmarks/run.py            # N = 100, 1,000, 5,000; then the runtime benchmark
    python benchmarks/run.py --quick    # N = 100, 1,000; fewer repeats, peers capped at 60 s

After the synthetic tables it prints the catalogue row of benchmarks/catalogue.py
(every SchemaStore schema as a module of one project, beside datamodel-code-generator
on a fixed sample of them; `--catalogue-only` runs only that), the published-schema table of
benchmarks/corpus.py (polytype vs datamodel-code-generator on ../shared/corpus)
and the runtime benchmarks (benchmarks/runtime.py, then benchmarks/plain.py: the same
payload on a schema with no validation keyword, open union or format).

Every tool reads the same synthetic schema (benchmarks/synthetic.py) in a fresh
temporary project, cold: polytype with no manifest and no stamp, every
flavor (dataclasses, TypedDicts, Pydantic, Elixir, docs, tests); jsonschema-gentypes
writes TypedDicts only, datamodel-code-generator Pydantic models only (black and
isort, its defaults). Then polytype again in the same project: the warm no-op.
Each run is a child process; wall time, CPU time (user + system of the child and
its children) and peak resident memory come from os.wait4. The table shows
medians. On a shared machine CPU time is the steadier of the two times.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402
from children import Sample, compile_polytype, run_child  # noqa: E402

PYPROJECT = """\
[tool.polytype]
schema-dir = "schema"
output-dir = "generated"
fixtures-dir = "fixtures"
"""


@dataclass(frozen=True)
class Result:
    tool: str
    size: int
    samples: tuple[Sample, ...]
    timeout: float

    @property
    def timed_out(self) -> bool:
        return any(sample.timed_out for sample in self.samples)

    def median(self, attribute: str) -> float:
        return statistics.median(getattr(sample, attribute) for sample in self.samples)

    def shown(self, attribute: str) -> str:
        if self.timed_out:
            return f">{self.timeout:.0f} s"
        return f"{self.median(attribute):.2f} s"


def polytype_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "polytype", *args]


def fresh_project(schema: Path, parent: Path) -> Path:
    project = Path(tempfile.mkdtemp(prefix="polytype-", dir=parent))
    (project / "schema").mkdir()
    shutil.copy(schema, project / "schema" / schema.name)
    (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return project


def bench_size(size: int, repeats: int, timeout: float, work: Path) -> list[Result]:
    schema = synthetic.write(size, work / "schemas")
    if size > 1000:
        repeats = min(repeats, 1)  # minutes per run for the peers: one run each
    cold: list[Sample] = []
    warm: list[Sample] = []
    for _ in range(repeats):
        project = fresh_project(schema, work)
        cold.append(run_child(polytype_command("generate"), project, timeout * 4))
        warm.append(run_child(polytype_command("generate"), project, timeout))
        # no rmtree here: on a filesystem mounted with `discard`, creating files right
        # after deleting thousands is several times slower, which would charge the next
        # run for this one's cleanup. The work directory goes at the end.
    results = [
        Result("polytype (all flavors), cold", size, tuple(cold), timeout * 4),
        Result("polytype (all flavors), no-op", size, tuple(warm), timeout),
    ]
    peers = {
        "jsonschema-gentypes (TypedDict)": lambda out: [
            _script("jsonschema-gentypes"),
            "--json-schema",
            str(schema),
            "--python",
            str(out / "types.py"),
        ],
        "datamodel-code-generator (Pydantic)": lambda out: [
            _script("datamodel-codegen"),
            "--input",
            str(schema),
            "--input-file-type",
            "jsonschema",
            "--output",
            str(out / "models.py"),
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--formatters",
            "black",
            "isort",
        ],
    }
    for name, command in peers.items():
        samples: list[Sample] = []
        for _ in range(repeats):
            out = Path(tempfile.mkdtemp(prefix="peer-", dir=work))
            sample = run_child(command(out), out, timeout)
            samples.append(sample)
            if sample.timed_out:
                break  # one timeout is enough to know
        results.append(Result(name, size, tuple(samples), timeout))
    return results


def _script(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed")
    return found


def shipped_noop(repeats: int, work: Path) -> dict[str, list[Sample]]:
    """No-op `polytype generate` and `polytype check` on a copy of this repository's project."""
    project = work / "shipped"
    for name in ("schema", "generated"):
        shutil.copytree(
            ROOT / name, project / name, ignore=shutil.ignore_patterns("_build", "deps")
        )
    shutil.copytree(ROOT / "tests" / "fixtures", project / "tests" / "fixtures")
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    run_child(polytype_command("generate"), project, 600)  # bring the copy up to date
    results: dict[str, list[Sample]] = {"generate": [], "check": []}
    for _ in range(repeats):
        results["generate"].append(run_child(polytype_command("generate"), project, 60))
        results["check"].append(run_child(polytype_command("check"), project, 60))
    return results


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; load average {load}"
    )


def table(results: list[Result], sizes: Sequence[int]) -> str:
    rows = [
        "| N | tool | wall (median) | CPU (median) | peak memory | runs |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for size in sizes:
        for result in (r for r in results if r.size == size):
            rows.append(
                f"| {size:,} | {result.tool} | {result.shown('wall')} | {result.shown('cpu')} | "
                f"{result.median('peak_mb'):.0f} MB | {len(result.samples)} |"
            )
    return "\n".join(rows)


def ratios(results: list[Result], sizes: Sequence[int]) -> str:
    def find(tool: str, size: int) -> Result | None:
        return next((r for r in results if r.size == size and r.tool.startswith(tool)), None)

    rows = [
        "| N | polytype ÷ gentypes (wall / CPU) | polytype ÷ datamodel-codegen (wall / CPU) "
        "| polytype peak ÷ smaller peer peak |",
        "|---:|---:|---:|---:|",
    ]
    for size in sizes:
        ours = find("polytype (all flavors), cold", size)
        if ours is None:
            continue
        cells = []
        peaks = []
        for peer in ("jsonschema-gentypes", "datamodel-code-generator"):
            theirs = find(peer, size)
            if theirs is None:
                cells.append("–")
            elif theirs.timed_out:
                cells.append(f"< {ours.median('wall') / theirs.timeout:.2f}×")
            else:
                cells.append(
                    f"{ours.median('wall') / theirs.median('wall'):.2f}× / "
                    f"{ours.median('cpu') / theirs.median('cpu'):.2f}×"
                )
                peaks.append(theirs.median("peak_mb"))
        peak = f"{ours.median('peak_mb') / min(peaks):.2f}×" if peaks else "–"
        rows.append(f"| {size:,} | {cells[0]} | {cells[1]} | {peak} |")
    return "\n".join(rows)


def growth(results: list[Result], sizes: Sequence[int]) -> str:
    rows = ["| tool | " + " | ".join(f"CPU per type, N={s:,}" for s in sizes) + " | growth |"]
    rows.append("|---|" + "---:|" * (len(sizes) + 1))
    tools = list(dict.fromkeys(r.tool for r in results if "no-op" not in r.tool))
    for tool in tools:
        cells = []
        per_type = []
        for size in sizes:
            result = next((r for r in results if r.tool == tool and r.size == size), None)
            if result is None or result.timed_out:
                cells.append("–")
                continue
            value = result.median("cpu") / size * 1000
            per_type.append((size, result.median("cpu")))
            cells.append(f"{value:.2f} ms")
        if len(per_type) >= 2:
            (small, t_small), (large, t_large) = per_type[0], per_type[-1]
            note = f"{t_large / t_small:.1f}× time for {large // small}× types"
        else:
            note = "–"
        rows.append(f"| {tool} | " + " | ".join(cells) + f" | {note} |")
    return "\n".join(rows)


def catalogue_row() -> int:
    """The catalogue project beside datamodel-code-generator (benchmarks/catalogue.py)."""
    sys.stdout.flush()
    import catalogue

    status = catalogue.main([])
    print()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="N = 100 and 1,000; peers capped at 60 s"
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", help="numbers of types (default 100 1000 5000)"
    )
    parser.add_argument(
        "--repeats", type=int, help="runs per tool and size (default 3, quick 2; one above N=1,000)"
    )
    parser.add_argument(
        "--timeout", type=float, help="cap on one peer run in seconds (default 300)"
    )
    parser.add_argument(
        "--no-runtime", action="store_true", help="skip benchmarks/runtime.py and plain.py"
    )
    parser.add_argument(
        "--no-corpus", action="store_true", help="skip benchmarks/corpus.py (published schemas)"
    )
    parser.add_argument(
        "--no-catalogue",
        action="store_true",
        help="skip benchmarks/catalogue.py (the SchemaStore catalogue as one project)",
    )
    parser.add_argument("--catalogue-only", action="store_true", help="run only the catalogue row")
    parser.add_argument("--json", type=Path, help="also write the raw samples here")
    args = parser.parse_args(argv)
    compile_polytype()
    if args.catalogue_only:
        return catalogue_row()
    sizes = args.sizes or ([100, 1000] if args.quick else [100, 1000, 5000])
    repeats = args.repeats or (2 if args.quick else 3)
    timeout = args.timeout or (60.0 if args.quick else 300.0)
    print(f"machine: {machine()}")
    print(f"sizes {sizes}, {repeats} run(s) each, peer runs capped at {timeout:.0f} s\n")
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="polytype-bench-") as directory:
        work = Path(directory)
        for size in sizes:
            print(f"N = {size:,} …", file=sys.stderr, flush=True)
            results.extend(bench_size(size, repeats, timeout, work))
        print("## Generation (synthetic schema, fresh project per run)\n")
        print(table(results, sizes))
        print()
        print(ratios(results, sizes))
        print()
        print(growth(results, sizes))
        print()
        shipped = shipped_noop(max(repeats, 3), work)
    print("## Shipped schemas (5 modules), nothing changed\n")
    print("| command | wall (median) | CPU (median) | peak memory |")
    print("|---|---:|---:|---:|")
    for command, samples in shipped.items():
        wall = statistics.median(s.wall for s in samples)
        cpu = statistics.median(s.cpu for s in samples)
        peak = statistics.median(s.peak_mb for s in samples)
        print(f"| `polytype {command}` | {wall:.3f} s | {cpu:.3f} s | {peak:.0f} MB |")
    print()
    if args.json:
        raw = {
            "machine": machine(),
            "generation": [
                {"tool": r.tool, "size": r.size, "samples": [s.__dict__ for s in r.samples]}
                for r in results
            ],
            "shipped": {k: [s.__dict__ for s in v] for k, v in shipped.items()},
        }
        args.json.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    if not args.no_catalogue:
        catalogue_row()
    if not args.no_corpus:
        sys.stdout.flush()
        import corpus

        corpus.main([])
        print()
    if not args.no_runtime:
        sys.stdout.flush()
        import runtime

        status = runtime.main(["--quick"] if args.quick else [])
        print()
        sys.stdout.flush()
        import plain  # no cost when unused: a schema without the keywords that cost

        return status or plain.main(["--rounds", "5"] if args.quick else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
