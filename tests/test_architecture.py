"""The package's layout holds: each folder imports only what docs/architecture.md allows.

The rules are read from the code (every `import` and `from … import`, inside functions
too) and held against `ALLOWED`, which is the table of docs/architecture.md; a test
also checks that the two say the same. A new import that crosses a stage boundary the
wrong way fails here, naming the file, the line and the rule.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import REPO

PACKAGE = REPO / "generator" / "polytype"

# Modules at the top of the package that import nothing of polytype: any code may use them.
LEAVES = frozenset({"__init__", "diagnostics", "naming", "package_data", "cachedir"})

# area -> the areas it may import (besides itself and the leaves). An area is a folder of
# the package, or a module at its top; `targets.X` is one target's package.
ALLOWED: dict[str, frozenset[str]] = {
    "reading": frozenset(),
    "ir": frozenset(),
    "dialect": frozenset({"reading", "ir"}),
    "frontend": frozenset({"reading", "dialect.keywords"}),
    "lowering": frozenset({"reading", "ir", "dialect"}),
    "compile": frozenset({"reading", "frontend", "dialect", "lowering", "ir"}),
    "targets.base": frozenset({"ir"}),
    "targets.python": frozenset({"ir", "targets.base"}),
    "targets.python_dataclasses": frozenset({"ir", "targets.base", "targets.python"}),
    "targets.python_typeddicts": frozenset({"ir", "targets.base", "targets.python"}),
    "targets.python_pydantic": frozenset({"ir", "targets.base", "targets.python"}),
    "targets.elixir": frozenset({"ir", "targets.base"}),
    # the mapping tables print every target's names, so docs asks their namers
    "targets.docs": frozenset({"ir", "targets.base", "targets.python", "targets.elixir"}),
    # the registry: which renderers run for the target names a user chooses
    "targets": frozenset(
        {
            "targets.base",
            "targets.python",
            "targets.python_dataclasses",
            "targets.python_typeddicts",
            "targets.python_pydantic",
            "targets.elixir",
            "targets.docs",
        }
    ),
    "writing": frozenset({"ir", "targets.base"}),
    "project": frozenset(
        {"reading", "frontend", "dialect", "lowering", "ir", "compile", "targets", "writing"}
    ),
    "workflow": frozenset({"reading", "dialect", "ir", "compile", "targets", "writing", "project"}),
    "cli": frozenset({"ir", "compile", "targets", "writing", "project", "workflow"}),
    "entry": frozenset({"project", "cli"}),
    "__main__": frozenset({"entry"}),
}


# A Python file of the package is at most this long: a room with one job.
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _area(module: str) -> str:
    """`targets.elixir.layout` -> `targets.elixir`; `dialect.validate` -> `dialect`."""
    parts = module.split(".")
    if parts[0] == "targets" and len(parts) > 1:
        return f"targets.{parts[1]}"
    return parts[0]


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module relative to polytype) of every polytype import in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "polytype":
                for alias in node.names:
                    submodule = (PACKAGE / alias.name).is_dir() or (
                        PACKAGE / f"{alias.name}.py"
                    ).is_file()
                    yield node.lineno, alias.name if submodule else "__init__"
            elif node.module.startswith("polytype."):
                yield node.lineno, node.module.removeprefix("polytype.")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "polytype":
                    yield node.lineno, "__init__"
                elif alias.name.startswith("polytype."):
                    yield node.lineno, alias.name.removeprefix("polytype.")


def _allows(area: str, target: str) -> bool:
    if target.split(".")[0] in LEAVES:
        return True
    target_area = _area(target)
    if target_area == area:
        return True
    allowed = ALLOWED[area]
    # `dialect.keywords` grants one module of an area, `dialect` the whole area
    return target_area in allowed or any(
        target == rule or target.startswith(rule + ".") for rule in allowed
    )


def _package_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_import_follows_the_layout() -> None:
    broken = []
    for path in _package_files():
        module = _module_name(path)
        area = _area(module)
        if area in LEAVES:
            imported = [target for _, target in _imports(path)]
            assert imported == [], f"{module} is a leaf and imports {imported}"
            continue
        assert area in ALLOWED, f"{module}: area {area!r} is not in docs/architecture.md"
        for line, target in _imports(path):
            if not _allows(area, target):
                where = path.relative_to(REPO)
                broken.append(f"{where}:{line}: {area} may not import {target}")
    assert broken == []


def test_areas_form_no_circle() -> None:
    """The allowed imports between areas are a one-way graph (a pipeline, not a web)."""
    seen: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(area: str, trail: tuple[str, ...]) -> None:
        if seen.get(area) == 2:
            return
        assert seen.get(area) != 1, " -> ".join((*trail, area))
        seen[area] = 1
        for target in ALLOWED[area]:
            visit(_area(target), (*trail, area))
        seen[area] = 2

    for area in ALLOWED:
        visit(area, ())


def test_the_front_end_never_validates_or_lowers() -> None:
    for path in (PACKAGE / "frontend").rglob("*.py"):
        for line, target in _imports(path):
            assert not target.startswith(
                ("dialect.validate", "lowering", "compile")
            ), f"{path.relative_to(REPO)}:{line} imports {target}"


def test_targets_import_only_the_ir_and_their_base() -> None:
    for path in (PACKAGE / "targets").rglob("*.py"):
        for line, target in _imports(path):
            area = _area(target)
            assert (
                area.startswith("targets") or area in LEAVES or area == "ir"
            ), f"{path.relative_to(REPO)}:{line} imports {target}"


def test_the_documented_layout_is_the_enforced_one() -> None:
    """docs/architecture.md has one row per area, naming exactly what it may import."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        found = re.match(r"\| `([\w./]+?)/?` \|[^|]*\| ([^|]*) \|$", line)
        if found:
            area = found.group(1).replace("/", ".")
            rows[area] = frozenset(re.findall(r"`([\w.]+)`", found.group(2)))
    assert {area: rows.get(area) for area in ALLOWED} == ALLOWED
    leaves = re.search(r"Leaves[^:]*: (.*)", text)
    assert leaves is not None
    assert frozenset(re.findall(r"`([\w.]+)\.py`", leaves.group(1))) == LEAVES


@pytest.mark.parametrize("path", _package_files(), ids=_module_name)
def test_no_file_is_longer_than_600_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(REPO)} has {lines} lines"
