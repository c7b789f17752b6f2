"""The small base every target builds on: the files a target returns and the target
protocol (here), the Jinja environment and its filters (`render`), formatting
(`formatting`), the nesting limit the decoders share (`depth`) and the names of
helpers that several flavors give the same name (`helper_names`).

A target imports the IR and this base, nothing else of polytype.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from polytype import ir
from polytype.diagnostics import NameProblems
from polytype.targets.base.render import RenderEnv

FileKind = Literal["python", "elixir", "markdown", "text"]


@dataclass(frozen=True)
class OutputFile:
    """One generated file: its path under the output directory and its text."""

    path: str
    text: str
    target: str
    module: str
    kind: FileKind


# The target protocol: a module target renders one IR module, a project target all of them.
ModuleTarget = Callable[[ir.Module, RenderEnv], list[OutputFile]]


@dataclass(frozen=True)
class ProjectTarget:
    """A target rendered once for all the modules, in two steps, so that a project never
    holds every module's IR at once: `summarise` takes what the target needs of one module
    (a small frozen value, picklable: a worker that read the module sends it back), and
    `render` the files from the summaries of every module it covers, in module order."""

    summarise: Callable[[ir.Module, RenderEnv], Any]
    render: Callable[[Sequence[Any], RenderEnv], list[OutputFile]]

    def __call__(self, modules: Sequence[ir.Module], env: RenderEnv) -> list[OutputFile]:
        """Every file, from the modules themselves."""
        return self.render([self.summarise(module, env) for module in modules], env)


# A target namer's check of a lowered module's names (`check` in `targets.python.names`
# and `targets.elixir.names`): given the module, where each type was written (JSON
# pointers) and whether the schema is consumed (generous), what it finds wrong. Lowering
# locates and reports it with its own problems.
NameCheck = Callable[[ir.Module, Mapping[str, str], bool], NameProblems]
