"""The per-user cache directory: no-op stamps and output-directory locks, never in a project."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_dir() -> Path:
    """`$POLYTYPE_CACHE_DIR`, else the platform's user cache directory for polytype
    (`~/.cache/polytype` or `$XDG_CACHE_HOME/polytype` on Linux, `~/Library/Caches/polytype`
    on macOS, `%LOCALAPPDATA%\\polytype\\Cache` on Windows)."""
    configured = os.environ.get("POLYTYPE_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(platformdirs.user_cache_dir("polytype", appauthor=False))
