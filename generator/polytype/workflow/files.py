"""Writing files for workflow commands: whole files, atomically, JSON in one fixed style."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def json_text(value: Any) -> str:
    """JSON as fixtures are stored: two-space indent, UTF-8 as is, trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_atomic(target: Path, text: str) -> None:
    """Replace `target` with `text` in one step (a reader never sees half a file)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def create_new(target: Path, text: str) -> None:
    """Write `target`, which must not exist yet (raises ``FileExistsError``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
