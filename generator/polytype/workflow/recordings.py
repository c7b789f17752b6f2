"""Read recorded JSON: `.jsonl` streams (one value a line), `.json` files, directories, stdin.

A line that is not JSON becomes an ``Unreadable`` with its line number and the
reading goes on; nothing here raises on bad data. Paths are shown as the user
spelled them so reports point at files the user can open.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polytype.workflow.errors import WorkflowError
from polytype.workflow.progress import Progress

STREAM_SUFFIXES = (".jsonl", ".ndjson")
RECORDING_SUFFIXES = (".json", *STREAM_SUFFIXES)
STDIN = "-"


@dataclass(frozen=True)
class Recorded:
    """One JSON value and where it was read: `source` and, for streams, its 1-based line."""

    source: str
    line: int | None
    value: Any

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line is not None else self.source


@dataclass(frozen=True)
class Unreadable:
    """A line (or file) that is not one JSON value."""

    source: str
    line: int | None
    message: str

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line is not None else self.source


Reading = Recorded | Unreadable


def recording_files(argument: str) -> list[Path]:
    """The files `argument` names: itself, every recording under a directory, or stdin (`-`)."""
    if argument == STDIN:
        return [Path(STDIN)]
    path = Path(argument)
    if path.is_file():
        return [path]
    if path.is_dir():
        found = sorted(
            (p for p in path.rglob("*") if p.is_file() and p.suffix in RECORDING_SUFFIXES),
            key=lambda p: p.relative_to(path).as_posix(),
        )
        if not found:
            raise _input_error(argument, "no .json or .jsonl files in this directory")
        return found
    raise _input_error(argument, "no such file or directory")


def count_units(files: list[Path]) -> int | None:
    """How many lines/files `read` will go through (None when reading stdin)."""
    total = 0
    for path in files:
        if str(path) == STDIN:
            return None
        if path.suffix in STREAM_SUFFIXES:
            with path.open("rb") as handle:
                total += sum(1 for _ in handle)
        else:
            total += 1
    return total


def read(files: list[Path], progress: Progress | None = None) -> Iterator[Reading]:
    """Every value in `files`, in order; malformed lines come out as ``Unreadable``."""
    for path in files:
        if str(path) == STDIN:
            yield from _read_stream(sys.stdin.buffer, "<stdin>", progress)
        elif path.suffix in STREAM_SUFFIXES:
            with path.open("rb") as handle:
                yield from _read_stream(handle, str(path), progress)
        else:
            yield _read_document(path)
            if progress is not None:
                progress.advance()


def _read_stream(handle: Any, source: str, progress: Progress | None) -> Iterator[Reading]:
    for number, raw in enumerate(handle, start=1):
        if progress is not None:
            progress.advance()
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Unreadable(source, number, "not valid UTF-8")
            continue
        if not text.strip():
            continue
        yield _parse(text.rstrip("\r\n"), source, number)


def _read_document(path: Path) -> Reading:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        return Unreadable(str(path), None, f"cannot read: {error.strerror}")
    except UnicodeDecodeError:
        return Unreadable(str(path), None, "not valid UTF-8")
    return _parse(text, str(path), None)


def _parse(text: str, source: str, line: int | None) -> Reading:
    try:
        return Recorded(source, line, json.loads(text, parse_constant=_reject_constant))
    except json.JSONDecodeError as error:
        where_line = line if line is not None else error.lineno
        return Unreadable(source, where_line, f"invalid JSON: {error.msg} (column {error.colno})")
    except ValueError as error:
        return Unreadable(source, line, f"invalid JSON: {error}")
    except RecursionError:
        return Unreadable(source, line, "invalid JSON: nested too deeply")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _input_error(argument: str, message: str) -> WorkflowError:
    return WorkflowError(f"{argument}: {message}")
