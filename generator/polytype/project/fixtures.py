"""The recorded fixtures of a project: `<fixtures>/<module>/<Type>/[invalid/]<case>.json`."""

from __future__ import annotations

import hashlib
from pathlib import Path

from polytype.ir.fixtures import FixtureCase


def discover(fixtures_dir: Path, module: str) -> tuple[FixtureCase, ...]:
    """Every fixture of `module`, sorted by path so the generated tests are stable."""
    base = fixtures_dir / module
    if not base.is_dir():
        return ()
    cases: list[FixtureCase] = []
    for path in sorted(base.rglob("*.json"), key=lambda p: p.relative_to(base).as_posix()):
        parts = path.relative_to(base).parts
        relative = path.relative_to(fixtures_dir).as_posix()
        if len(parts) == 2:
            cases.append(FixtureCase(module, parts[0], relative, True, source=str(path)))
        elif len(parts) == 3 and parts[1] == "invalid":
            expected_file = path.with_suffix(".path")
            expected = (
                expected_file.read_text(encoding="utf-8").strip()
                if expected_file.is_file()
                else None
            )
            cases.append(FixtureCase(module, parts[0], relative, False, expected, source=str(path)))
    return tuple(cases)


def digest(fixtures_dir: Path, module: str) -> str:
    """A hash over the fixture files of `module` (names and contents)."""
    hasher = hashlib.sha256()
    base = fixtures_dir / module
    if base.is_dir():
        for path in sorted(base.rglob("*"), key=lambda p: p.as_posix()):
            if path.is_file():
                hasher.update(path.relative_to(fixtures_dir).as_posix().encode())
                hasher.update(b"\0")
                hasher.update(path.read_bytes())
    return hasher.hexdigest()
