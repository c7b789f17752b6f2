"""Where a build's files wait for the writer: each as soon as it is rendered (and
formatted), in memory up to a budget and on disk past it, so that a large run holds one
text at a time rather than every text of the build, and a small one pays no disk for it.

The files on disk are in a private scratch directory in the system's temporary
directory. The writer reads each expected file from the spool (comparing, copying into
a temporary sibling of its target, then renaming), so the output directory itself only
ever sees whole files; the scratch directory is removed when the build is closed (or,
at the latest, when it is let go of).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from polytype.targets.base import FileKind, OutputFile

# Bytes a build keeps in memory before the rest goes to disk: a 1,000-type module's
# outputs (about 25 MB) stay in memory, where writing and reading them back cost a tenth
# more CPU; a catalogue's 700 MB go to disk past the first 64.
MEMORY_BUDGET = 64 * 1024 * 1024


class Stored(Protocol):
    """Where a file's bytes are: a `Path`, or `Held` in memory."""

    def read_bytes(self) -> bytes: ...


@dataclass(frozen=True)
class Held:
    """A file's bytes kept in memory."""

    data: bytes = field(repr=False)

    def read_bytes(self) -> bytes:
        return self.data


@dataclass(frozen=True)
class SpooledFile:
    """One file of a build, its bytes in the spool: where it goes and its hash."""

    path: str  # under the output directory
    target: str
    module: str
    kind: FileKind
    sha256: str
    source: Stored  # its bytes


class Spool:
    """A build's files: in memory up to `memory_budget` bytes in all, then one file per
    output in a scratch directory (made when the first one goes there)."""

    def __init__(self, memory_budget: int | None = None) -> None:
        self._room = MEMORY_BUDGET if memory_budget is None else memory_budget
        self._count = 0
        self._root: Path | None = None
        self._cleanup: Callable[[], object] | None = None  # a weakref.finalize
        self._closed = False

    def _directory(self) -> Path:
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix="polytype-build-"))
            self._cleanup = weakref.finalize(self, shutil.rmtree, self._root, True)
        return self._root

    def put(self, output: OutputFile) -> SpooledFile:
        """Store `output`'s text (UTF-8); the caller may let go of it."""
        return self.adopt(held(output))

    def put_bytes(self, data: bytes) -> tuple[str, Stored]:
        """Store `data`: its sha256 and where it is."""
        return hashlib.sha256(data).hexdigest(), self._store(data)

    def adopt(self, file: SpooledFile) -> SpooledFile:
        """`file`, encoded and hashed (`held`) here or in another process (a build's
        worker), kept to the budget: in memory while there is room, else on disk."""
        assert isinstance(file.source, Held)
        return replace(file, source=self._store(file.source.data))

    def _store(self, data: bytes) -> Stored:
        if len(data) <= self._room:
            self._room -= len(data)
            return Held(data)
        self._count += 1
        source = self._directory() / str(self._count)
        source.write_bytes(data)
        return source

    def staging(self) -> Path:
        """A directory of the spool where other processes (a build's workers) write files
        that are then the spool's: each a `SpooledFile`'s source, removed with the spool."""
        staged = self._directory() / "staged"
        staged.mkdir(exist_ok=True)
        return staged

    def close(self) -> None:
        """Let go of the files: remove the scratch directory and everything in it."""
        self._closed = True
        if self._cleanup is not None:
            self._cleanup()

    @property
    def closed(self) -> bool:
        return self._closed


def held(output: OutputFile) -> SpooledFile:
    """`output` as a worker sends it to the build (`Spool.adopt`): encoded and hashed, its
    bytes in memory."""
    data = output.text.encode("utf-8")
    sha256 = hashlib.sha256(data).hexdigest()
    return SpooledFile(output.path, output.target, output.module, output.kind, sha256, Held(data))
