"""Formatting of generated Python: one `ruff format` process for the whole build.

The rendered Python files are written under a temporary directory at their output
paths and ruff formats them all in one run (a few milliseconds a thousand lines, where
black took about a millisecond a line). The settings are passed on the command line
with ``--isolated``, so no ruff or black configuration of the project or the user
changes a byte: the output depends only on the text and the ruff version.

black stays the verifier: `nox -s lint` runs ``black --check`` over generated/ with the
same line length and target (``[tool.black]``), and the templates emit code on which
both formatters agree (tests/test_formatting.py holds them to it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

LINE_LENGTH = 100
TARGET_VERSION = "py311"
# Everything that decides the layout, explicit; the same in `nox -s lint`.
RUFF_SETTINGS = (
    "--isolated",
    "--line-length",
    str(LINE_LENGTH),
    "--target-version",
    TARGET_VERSION,
    "--config",
    "format.line-ending = 'lf'",
)
# Keeps one command line under the smallest limit (Windows: 32,767 characters).
_MAX_COMMAND = 30_000


class FormattingError(Exception):
    """Generated code ruff cannot format: a bug in a template, never in user input."""


def ruff_command() -> list[str]:
    """The ruff executable installed with polytype (the one on PATH as a fallback)."""
    try:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

        return [os.fsdecode(find_ruff_bin())]
    except (ImportError, FileNotFoundError):
        found = shutil.which("ruff")
        if found is None:
            raise FormattingError("ruff is not installed (pip install ruff)") from None
        return [found]


def format_files(files: Sequence[tuple[str, str]]) -> list[str]:
    """Each (text, path) formatted by ruff; `path` is relative (where the file goes)."""
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="polytype-format-") as scratch:
        root = Path(scratch)
        names: list[str] = []
        for index, (text, path) in enumerate(files):
            # the output path keeps ruff's messages readable; the index keeps names apart
            name = f"{index}/{path}" + ("" if path.endswith(".py") else ".py")
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
            names.append(name)
        for batch in _batches(names):
            _run_ruff(batch, root)
        return [(root / name).read_bytes().decode("utf-8") for name in names]


def format_python(text: str, path: str) -> str:
    """One file formatted (tests and small callers; a build formats all its files at once)."""
    return format_files([(text, path)])[0]


def _batches(names: list[str]) -> list[list[str]]:
    batches: list[list[str]] = [[]]
    length = 0
    for name in names:
        if batches[-1] and length + len(name) + 1 > _MAX_COMMAND:
            batches.append([])
            length = 0
        batches[-1].append(name)
        length += len(name) + 1
    return batches


def _run_ruff(names: list[str], cwd: Path) -> None:
    # Paths named on the command line are formatted even where ruff's default excludes
    # (`build`, `dist`, `.git`, ...) or a .gitignore would skip them.
    command = [*ruff_command(), "format", "--no-cache", *RUFF_SETTINGS, "--", *names]
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    except OSError as error:
        raise FormattingError(f"could not run ruff: {error}") from None
    if result.returncode != 0:
        message = result.stderr.strip() or result.stdout.strip()
        # `0/python/x.py:3:1: ...` -> `python/x.py:3:1: ...`: the path the file was to have
        lines = [_strip_index(line) for line in message.splitlines()]
        raise FormattingError(
            "ruff could not format the generated code; this is a polytype bug:\n" + "\n".join(lines)
        )


def _strip_index(line: str) -> str:
    for marker in ("error: Failed to parse ", "error: Failed to format "):
        if line.startswith(marker):
            rest = line[len(marker) :]
            head, sep, tail = rest.partition("/")
            if head.isdigit() and sep:
                return marker + tail
    return line
