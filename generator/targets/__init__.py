"""Targets turn an IR module into files, in memory.

Every target is a function ``render(module, env) -> list[OutputFile]``; the
writer is the only code that touches the disk. `module_targets()` lists the
per-module targets in the order they run; `project_targets()` render once from
all modules (index pages, project files).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from generator import ir
from generator.render import RenderEnv

FileKind = Literal["python", "elixir", "markdown", "text"]


@dataclass(frozen=True)
class OutputFile:
    """One generated file: its path under the output directory and its text."""

    path: str
    text: str
    target: str
    module: str
    kind: FileKind
    rendered_sha256: str = ""  # for Python: hash of the text before black (see format_cache)


ModuleTarget = Callable[[ir.Module, RenderEnv], list[OutputFile]]
ProjectTarget = Callable[[tuple[ir.Module, ...], RenderEnv], list[OutputFile]]


def module_targets() -> dict[str, ModuleTarget]:
    """Targets rendered once per module, by name."""
    from generator.targets import python_dataclasses, python_tests

    return {
        "python-dataclasses": python_dataclasses.render,
        "python-tests": python_tests.render,
    }


def project_targets() -> dict[str, ProjectTarget]:
    """Targets rendered once for the whole project."""
    return {}
