"""The small base every target builds on: the files a target returns and the target
protocol (here), the Jinja environment and its filters (`render`), formatting
(`formatting`), the nesting limit the decoders share (`depth`) and the names of
helpers that several flavors give the same name (`helper_names`).

A target imports the IR and this base, nothing else of polytype.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

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
ProjectTarget = Callable[[tuple[ir.Module, ...], RenderEnv], list[OutputFile]]

# A target namer's check of a lowered module's names (`check` in `targets.python.names`
# and `targets.elixir.names`): given the module, where each type was written (JSON
# pointers) and whether the schema is consumed (generous), what it finds wrong. Lowering
# locates and reports it with its own problems.
NameCheck = Callable[[ir.Module, Mapping[str, str], bool], NameProblems]
