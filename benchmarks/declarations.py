"""What a generated tree's bytes are: declarations (the types a reader looks up) or codecs.

    python benchmarks/declarations.py GENERATED_DIR

Splits every file of a polytype output directory (for instance the catalogue project
that `benchmarks/catalogue.py --project DIR` keeps) into:

- Python flavor files: the import statements and each class's header, docstring and
  annotated fields are declarations; functions, methods and other statements are codecs
  (decoders, validators, encoders, checks);
- Elixir modules under lib/: everything before the first function (moduledoc, struct,
  type, key lists) counts as declarations, the functions as codecs;
- docs, the manifest and generated tests: declarations (they describe, they do not
  decode), runtimes and `_checks.py`: codecs.

The declarations' total is the least any layout that writes every flavor for every
module can write, whatever shape its codecs take.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

PYTHON_FLAVORS = ("dataclass_models.py", "typed_dicts.py", "pydantic_models.py")


def python_declarations(text: str) -> int:
    """Bytes of `text` that declare: imports, class headers, docstrings, annotated fields."""
    lines = text.split("\n")

    def span(node: ast.stmt) -> int:
        end = node.end_lineno or node.lineno
        return sum(len(line) + 1 for line in lines[node.lineno - 1 : end])

    size = 0
    for node in ast.parse(text).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            size += span(node)
        elif isinstance(node, ast.ClassDef):
            size += len(lines[node.lineno - 1]) + 1
            size += sum(
                span(statement)
                for statement in node.body
                if isinstance(statement, (ast.AnnAssign, ast.Expr, ast.Pass))
            )
    return size


def elixir_declarations(text: str) -> int:
    """Bytes of an Elixir module before its first function."""
    cuts = [text.find(marker) for marker in ("\n  @doc false", "\n  def ", "\n  defp ")]
    return min([cut for cut in cuts if cut >= 0] or [len(text)])


def shares(directory: Path) -> tuple[Counter[str], Counter[str]]:
    """(bytes, declaration bytes) per kind of output."""
    total: Counter[str] = Counter()
    declared: Counter[str] = Counter()
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory).parts
        if not path.is_file() or {"_build", "deps", "__pycache__"} & set(relative):
            continue  # what mix and Python build from the output, not the output
        size = path.stat().st_size
        if path.name in PYTHON_FLAVORS:
            kind = path.name
            declared[kind] += python_declarations(path.read_text(encoding="utf-8"))
        elif relative[:2] == ("elixir", "lib") and path.suffix == ".ex":
            kind = "elixir lib"
            declared[kind] += elixir_declarations(path.read_text(encoding="utf-8"))
        elif (
            relative[0] == "docs"
            or path.name == "manifest.json"
            or "tests" in relative
            or (relative[:2] == ("elixir", "test") or relative[0] == "typecheck")
        ):
            kind = "docs, manifest, tests"
            declared[kind] += size
        else:
            kind = "runtimes, checks, other"
        total[kind] += size
    return total, declared


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    total, declared = shares(Path(argv[0]))
    print("| output | written | declarations |")
    print("|---|---:|---:|")
    for kind in sorted(total, key=lambda kind: -total[kind]):
        print(f"| {kind} | {total[kind] / 1e6:.1f} MB | {declared[kind] / 1e6:.1f} MB |")
    whole, least = sum(total.values()), sum(declared.values())
    print(f"| **all** | {whole / 1e6:.1f} MB | {least / 1e6:.1f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
