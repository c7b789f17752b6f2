"""Where a polytype project keeps its schemas, outputs and fixtures.

Read from `[tool.polytype]` in the nearest `pyproject.toml` (searching upwards
from the working directory); defaults when there is none.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError

_KNOWN_KEYS = {"schema-dir", "output-dir", "fixtures-dir"}


@dataclass(frozen=True)
class Project:
    root: Path
    schema_dir: Path
    output_dir: Path
    fixtures_dir: Path

    def relative(self, path: Path) -> str:
        """`path` relative to the project root, with forward slashes (stable in output)."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def schema_files(self) -> list[Path]:
        """Every schema file, sorted by name so output never depends on directory order.

        Hidden files are not schemas (`polytype init` keeps the dialect meta-schema
        for editors in `schema/.polytype-dialect.json`).
        """
        if not self.schema_dir.is_dir():
            return []
        files = [
            p
            for p in self.schema_dir.iterdir()
            if p.suffix in (".yaml", ".yml", ".json") and p.is_file() and not p.name.startswith(".")
        ]
        return sorted(files, key=lambda p: p.name)


class ProjectError(Exception):
    """The project itself cannot be used: no such directory, no schemas (exit 2)."""


def find_project(start: Path | None = None) -> Project:
    if start is not None and not start.is_dir():
        raise ProjectError(f"--project {start}: no such directory")
    start = (start or Path.cwd()).resolve()
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            settings = _read_settings(candidate)
            if settings is not None:
                return _project(directory, settings)
    return _project(start, {})


def _read_settings(pyproject: Path) -> dict[str, str] | None:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InputError(
            [
                Diagnostic(
                    str(pyproject), UNKNOWN_POSITION, "", f"cannot read pyproject.toml: {error}"
                )
            ]
        ) from None
    settings = data.get("tool", {}).get("polytype")
    if settings is None:
        return None
    unknown = sorted(set(settings) - _KNOWN_KEYS)
    if unknown:
        raise InputError(
            [
                Diagnostic(
                    str(pyproject),
                    UNKNOWN_POSITION,
                    "/tool/polytype",
                    f"unknown setting(s): {', '.join(unknown)}",
                )
            ]
        )
    return {key: str(value) for key, value in settings.items()}


def _project(root: Path, settings: dict[str, str]) -> Project:
    return Project(
        root=root,
        schema_dir=root / settings.get("schema-dir", "schema"),
        output_dir=root / settings.get("output-dir", "generated"),
        fixtures_dir=root / settings.get("fixtures-dir", "tests/fixtures"),
    )
