"""Targets turn an IR module into files, in memory.

Every target is a function ``render(module, env) -> list[OutputFile]``; the
writer is the only code that touches the disk. `TARGETS` lists them in the
order they run; `PROJECT_TARGETS` render once from all modules (index pages,
project files).
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


ModuleTarget = Callable[[ir.Module, RenderEnv], list[OutputFile]]
ProjectTarget = Callable[[tuple[ir.Module, ...], RenderEnv], list[OutputFile]]


def module_targets() -> dict[str, ModuleTarget]:
    """Targets rendered once per module, by name."""
    from generator.targets import (
        docs,
        elixir,
        python_dataclasses,
        python_pydantic,
        python_tests,
        python_typeddicts,
    )

    return {
        "python-dataclasses": python_dataclasses.render,
        "python-tests": python_tests.render,
        "python-typeddicts": python_typeddicts.render,
        "python-pydantic": python_pydantic.render,
        "elixir": elixir.render,
        "docs": docs.render,
    }


# The targets a user names in `[tool.polytype] targets`, and the renderers behind each.
_RENDERERS: dict[str, tuple[str, ...]] = {
    "dataclasses": ("python-dataclasses", "python-tests"),
    "typeddicts": ("python-typeddicts",),
    "pydantic": ("python-pydantic",),
    "elixir": ("elixir", "elixir-project"),
    "docs": ("docs", "docs-index"),
}


def rendered_targets(chosen: tuple[str, ...]) -> tuple[str, ...]:
    """The module and project renderers behind the user-facing target names in `chosen`."""
    return tuple(renderer for name in chosen for renderer in _RENDERERS[name])


def project_targets() -> dict[str, ProjectTarget]:
    """Targets rendered once for the whole project."""
    from generator.targets import docs, elixir

    return {"elixir-project": elixir.render_project, "docs-index": docs.render_index}
