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
from collections.abc import Iterator, Sequence
from pathlib import Path

from polytype.targets.base.top_level import BLANK_LINES_CUT, top_level_spans

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
# ruff processes at a time (each formats on every core): more only add up their memory.
RUNNING_AT_ONCE = 2
# ruff holds a file's syntax tree whole (about 30 bytes a byte of source): a larger file
# goes to it in pieces of about this size, cut where the layout cannot depend on the cut
# (`top_level_spans`).
PIECE_CHARS = 512 * 1024
# A build hands ruff the files of its targets as soon as they hold this much (`flush`): a
# large module's (6.6 MB of dataclasses at 1,000 types) are formatting while its next
# targets render; a smaller build's (1.3 MB in all at 100 types) wait for one ruff process,
# which would otherwise take the other core from rendering for little.
BATCH_CHARS = 2 * 1024 * 1024
# beside the pieces of file N in the scratch directory: its whole text (never a .py name)
_WHOLE = ".whole.txt"


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
    return start_formatting(files).result()


class PendingFormat:
    """ruff formatting files in the background (`start_formatting`); `result` waits for it,
    so the caller renders its other targets meanwhile, on the other core. Files may also
    be handed over one by one as they are rendered (`add`, then `start`): each goes to
    disk at once, so the caller need not hold the texts of a large build meanwhile, and
    `flush` starts ruff on those added so far while more are still to come."""

    def __init__(self, files: Sequence[tuple[str, str]] = ()) -> None:
        # The texts are on disk once written there: the caller may let go of them, and a
        # file cut in pieces keeps its whole text beside them (`_WHOLE`) for the fallback.
        self._paths: list[str] = []
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._names: list[list[str]] = []  # per file, the names of its pieces
        self._running: list[subprocess.Popen[str]] = []  # one ruff a batch
        self._waiting: list[list[str]] = []  # the batches after RUNNING_AT_ONCE
        self._started = False
        self._flushed = 0  # the files ruff was started on (`flush`)
        self._unflushed_chars = 0  # the size of the others
        for text, path in files:
            self.add(text, path)

    def add(self, text: str, path: str) -> None:
        """Write one more file to be formatted (before `start`; any `flush` may come between)."""
        assert not self._started, "files are added before formatting starts"
        try:
            if self._scratch is None:
                self._scratch = tempfile.TemporaryDirectory(prefix="polytype-format-")
            root = Path(self._scratch.name)
            index = len(self._paths)
            pieces = _pieces(text)
            if len(pieces) > 1:
                _write_text(root / f"{index}{_WHOLE}", text)
            self._names.append(_write_pieces(root, f"{index}/{path}", pieces))
            self._paths.append(path)
            self._unflushed_chars += len(text)
        except BaseException:
            self._stop()
            raise

    def flush(self, at_least: int = 0) -> None:
        """Start ruff on the files added since the last `flush` (more may follow), when
        they hold `at_least` characters: the ones rendered first are formatting while the
        next render, and small ones wait to share a ruff process."""
        assert not self._started, "files are added before formatting starts"
        if self._scratch is None or self._flushed == len(self._names):
            return
        if self._unflushed_chars < at_least:
            return
        self._unflushed_chars = 0
        try:
            self._reap()
            fresh = [name for pieces in self._names[self._flushed :] for name in pieces]
            self._flushed = len(self._names)
            self._waiting.extend(_batches(fresh))
            self._start_waiting()
        except BaseException:
            self._stop()
            raise

    def start(self) -> None:
        """Start ruff on every file added (once)."""
        if self._started:
            return
        self.flush()
        self._started = True

    def _reap(self) -> None:
        """Let go of the ruff processes that have formatted their files (`results` waits
        for the others, and reports any that failed), so that the next batch may start."""
        running = []
        for process in self._running:
            if process.poll() == 0:
                process.communicate()
            else:
                running.append(process)
        self._running = running

    def result(self) -> list[str]:
        """The formatted texts, in the order of the files."""
        return list(self.results())

    def results(self) -> Iterator[str]:
        """The formatted texts one at a time, in the order of the files: the caller need
        hold only the one it was given."""
        self.start()
        if self._scratch is None:
            return
        try:
            root = Path(self._scratch.name)
            try:
                while self._running:
                    _finish_ruff(self._running[0])
                    del self._running[0]
                    self._start_waiting()
            except FormattingError:
                self._kill()
                # a cut in the wrong place (inside a string the cheap check missed): whole files
                self._names = [
                    (
                        _write_pieces(
                            root, f"{index}/{path}", [_read_text(root / f"{index}{_WHOLE}")]
                        )
                        if len(pieces) > 1
                        else pieces
                    )
                    for index, (path, pieces) in enumerate(
                        zip(self._paths, self._names, strict=True)
                    )
                ]
                for batch in _batches([name for pieces in self._names for name in pieces]):
                    _finish_ruff(_start_ruff(batch, root))
            for pieces in self._names:
                yield "\n\n\n".join(_read(root, name) for name in pieces) + "\n"
        finally:
            self._stop()

    def _start_waiting(self) -> None:
        """Start waiting batches while fewer than RUNNING_AT_ONCE run."""
        assert self._scratch is not None
        while self._waiting and len(self._running) < RUNNING_AT_ONCE:
            self._running.append(_start_ruff(self._waiting.pop(0), Path(self._scratch.name)))

    def cancel(self) -> None:
        """Stop formatting (the build failed): no process or scratch file is left."""
        self._stop()

    def _kill(self) -> None:
        self._waiting = []
        for process in self._running:
            process.kill()
            process.communicate()
        self._running = []

    def _stop(self) -> None:
        self._kill()
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None


def start_formatting(files: Sequence[tuple[str, str]]) -> PendingFormat:
    """Start formatting each (text, path) with ruff; `.result()` gives the texts."""
    pending = PendingFormat(files)
    pending.start()
    return pending


def _write_pieces(root: Path, stem: str, pieces: list[str]) -> list[str]:
    """Write `pieces` under `root`; their names (the output path keeps ruff's messages readable)."""
    stem = stem if stem.endswith(".py") else stem + ".py"
    names = [stem] if len(pieces) == 1 else [f"{stem[:-3]}.{n}.py" for n in range(len(pieces))]
    for name, piece in zip(names, pieces, strict=True):
        _write_text(root / name, piece)
    return names


def _write_text(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(text.encode("utf-8"))


def _read_text(target: Path) -> str:
    return target.read_bytes().decode("utf-8")


def _read(root: Path, name: str) -> str:
    return _read_text(root / name).removesuffix("\n")


def _pieces(text: str) -> list[str]:
    """`text` cut into pieces of about PIECE_CHARS (`top_level_spans`)."""
    if len(text) <= PIECE_CHARS or "fmt:" in text:
        return [text]
    return [text[start:end] for start, end in top_level_spans(text, PIECE_CHARS, BLANK_LINES_CUT)]


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


def _start_ruff(names: list[str], cwd: Path) -> subprocess.Popen[str]:
    # Paths named on the command line are formatted even where ruff's default excludes
    # (`build`, `dist`, `.git`, ...) or a .gitignore would skip them.
    command = [*ruff_command(), "format", "--no-cache", *RUFF_SETTINGS, "--", *names]
    try:
        return subprocess.Popen(
            command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    except OSError as error:
        raise FormattingError(f"could not run ruff: {error}") from None


def _finish_ruff(process: subprocess.Popen[str]) -> None:
    stdout, stderr = process.communicate()
    if process.returncode != 0:
        message = stderr.strip() or stdout.strip()
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
