"""Targets turn an IR module into files, in memory: one package per target, each
`render(module, env) -> list[OutputFile]` on the IR and `targets.base` alone; the writer
is the only code that touches the disk. This module is the registry: which renderers
run for the target names a user chooses.
"""

from __future__ import annotations

from polytype.targets.base import ModuleTarget, NameCheck, ProjectTarget


def name_checks() -> tuple[NameCheck, ...]:
    """Each target namer's check of a module's names (every target's, whichever a run
    renders: a schema is refused or approximated the same way for every target)."""
    from polytype.targets.elixir import names as elixir_names
    from polytype.targets.python import names as python_names

    return (python_names.check, elixir_names.check)


def module_targets() -> dict[str, ModuleTarget]:
    """Targets rendered once per module, by name."""
    from polytype.targets import (
        docs,
        elixir,
        python_dataclasses,
        python_pydantic,
        python_typeddicts,
    )
    from polytype.targets.python_dataclasses import tests as python_tests

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
    "dataclasses": ("python-dataclasses", "python-tests", "python-package"),
    "typeddicts": ("python-typeddicts", "python-package"),
    "pydantic": ("python-pydantic", "python-package", "pydantic-runtime"),
    "elixir": ("elixir", "elixir-project"),
    "docs": ("docs", "docs-index"),
}


def rendered_targets(chosen: tuple[str, ...]) -> tuple[str, ...]:
    """The module and project renderers behind the user-facing target names in `chosen`."""
    return tuple(renderer for name in chosen for renderer in _RENDERERS[name])


def project_targets() -> dict[str, ProjectTarget]:
    """Targets rendered once for the whole project."""
    from polytype.targets import docs, elixir, python_pydantic
    from polytype.targets.python import runtime as python_runtime

    return {
        "python-package": python_runtime.render_project,
        "pydantic-runtime": python_pydantic.render_project,
        "elixir-project": elixir.render_project,
        "docs-index": docs.render_index,
    }
