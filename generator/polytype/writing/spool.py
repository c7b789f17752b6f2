"""Where a build's files wait for the writer: on disk, each as soon as it is rendered (and
formatted), so that a run holds one text at a time rather than every text of the build.

A spool is a private scratch directory in the system's temporary directory. The writer
reads each expected file from there (comparing, copying into a temporary sibling of its
target, then renaming), so the output directory itself only ever sees whole files; the
spool is removed when the build is closed (or, at the latest, when it is let go of).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from polytype.targets.base import FileKind, OutputFile


@dataclass(frozen=True)
class SpooledFile:
    """One file of a build, its bytes in the spool: where it goes and its hash."""

    path: str  # under the output directory
    target: str
    module: str
    kind: FileKind
    sha256: str
    source: Path  # its bytes


class Spool:
    """A scratch directory holding a build's files, one file per output."""

    def __init__(self) -> None:
        self._root = Path(tempfile.mkdtemp(prefix="polytype-build-"))
        self._count = 0
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._root, True)

    def put(self, output: OutputFile) -> SpooledFile:
        """Store `output`'s text (UTF-8); the caller may let go of it."""
        sha256, source = self.put_bytes(output.text.encode("utf-8"))
        return SpooledFile(output.path, output.target, output.module, output.kind, sha256, source)

    def put_bytes(self, data: bytes) -> tuple[str, Path]:
        """Store `data`: its sha256 and where it is."""
        self._count += 1
        source = self._root / str(self._count)
        source.write_bytes(data)
        return hashlib.sha256(data).hexdigest(), source

    def close(self) -> None:
        """Remove the scratch directory and everything in it."""
        self._cleanup()

    @property
    def closed(self) -> bool:
        return not self._cleanup.alive
