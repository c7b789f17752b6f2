"""Skip black when nothing changed: a cache keyed by the unformatted text.

The manifest records, for each Python output, the sha256 of the text the
templates rendered before black ran (`rendered_sha256`) and of the file written
(`sha256`). When a new run renders the same text and the file on disk still has
the recorded hash, the file on disk *is* black's output, so it is reused. A
hand-edited file fails the second test and is formatted afresh.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FormatCache:
    output_dir: Path
    entries: dict[str, tuple[str, str]]  # path -> (rendered_sha256, sha256)

    @classmethod
    def from_manifest(cls, output_dir: Path) -> FormatCache:
        entries: dict[str, tuple[str, str]] = {}
        try:
            manifest = json.loads((output_dir / "manifest.json").read_text(encoding="utf-8"))
            for entry in manifest.get("outputs", []):
                if "rendered_sha256" in entry:
                    entries[str(entry["path"])] = (
                        str(entry["rendered_sha256"]),
                        str(entry["sha256"]),
                    )
        except (OSError, ValueError, AttributeError, TypeError, KeyError):
            pass
        return cls(output_dir, entries)

    def lookup(self, path: str, rendered_sha256: str) -> str | None:
        """The formatted text for `path` if its rendering is unchanged and the file is intact."""
        cached = self.entries.get(path)
        if cached is None or cached[0] != rendered_sha256:
            return None
        try:
            data = (self.output_dir / path).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != cached[1]:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:  # recorded so by `generate OTHER` keeping it as it was
            return None
