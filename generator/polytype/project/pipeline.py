"""The whole run in one place: load → validate → lower → render → format.

Produces every output into the build's spool (a scratch directory: each file is on
disk as soon as it is rendered and formatted, so a run holds one text at a time);
writing (or comparing, for `check`) is the writer's job. Problems from all schema files
are collected before stopping. A project of many schema files streams instead
(`polytype.project.streaming`): each file is read and rendered in a worker, and no
process holds the IR of every module.
"""

from __future__ import annotations

import gc
from functools import partial
from pathlib import Path

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError
from polytype.project import fixtures, streaming
from polytype.project.config import Project, ProjectError
from polytype.project.inputs import project_inputs, user_templates
from polytype.project.modules import (
    Naming,
    by_type_name,
    check_package_names,
    chosen_modules,
    duplicate_names,
    naming,
    read_one,
)
from polytype.project.rendering import format_python, render_modules
from polytype.targets import project_targets, rendered_targets
from polytype.targets.base import OutputFile
from polytype.targets.base.render import RenderEnv, make_env
from polytype.writing.build import Build
from polytype.writing.spool import Spool


def load_modules(project: Project, paths: list[Path] | None = None) -> tuple[ir.Module, ...]:
    """Load, validate and lower every schema; raise ``InputError`` with all problems of all files."""
    return read_modules(project, paths)[0]


def read_modules(
    project: Project, paths: list[Path] | None = None
) -> tuple[tuple[ir.Module, ...], tuple[Diagnostic, ...]]:
    """Every schema's module and the front end's warnings; ``InputError`` with all problems
    of all files."""
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    modules: list[ir.Module] = []
    namings: list[Naming] = []
    scans: dict[Path, dict[str, Path]] = {}  # each schema directory's `$id`s, read once
    for path in paths if paths is not None else project.schema_files():
        try:
            read = read_one(project, path, scans)
        except InputError as error:
            problems.extend(error.diagnostics)
            continue
        modules.append(read.module)
        warnings.extend(read.warnings)
        namings.append(naming(read.module, read.document))
    problems.extend(duplicate_names(namings))
    if problems:
        raise InputError(problems)
    return tuple(sorted(modules, key=lambda m: m.name)), tuple(warnings)


def require_schemas(project: Project) -> None:
    """A project without a schema directory or without schemas is a mistake, not 0 modules
    (unless the command line named the schema files)."""
    if project.explicit_schemas is not None:
        return
    shown = project.relative(project.schema_dir)
    if not project.schema_dir.is_dir():
        raise ProjectError(
            f"no schema directory {shown}/ in {project.root} "
            "(create it, or set schema-dir in [tool.polytype]; `polytype init` scaffolds a project)"
        )
    if not project.schema_files():
        raise ProjectError(f"no schemas (*.yaml, *.yml, *.json) in {shown}/")


def build(
    project: Project,
    selected: list[str] | None = None,
    inline_runtime: bool = False,
    keep_modules: bool = False,
) -> Build:
    """Render every output of the selected modules (all when None), formatted, into the
    build's spool (`Build.close` removes it).

    The Python flavor files import their output package's runtime; with `inline_runtime`
    (`polytype vendor`) each carries its own and imports nothing generated. The modules'
    IR is let go once rendered (writing needs their names and schema paths only): the
    Build holds it only with `keep_modules`. A project of many schema files streams
    (`streaming.streams`)."""
    require_schemas(project)
    paths = project.schema_files()
    if not keep_modules and streaming.streams(project, paths):
        return streaming.build(project, paths, selected, inline_runtime)
    modules, warnings = read_modules(project, paths)
    schema_paths = {module.name: module.schema_path for module in modules}
    chosen = chosen_modules(project, selected, schema_paths)
    fixture_index = {
        module.name: by_type_name(module, fixtures.discover(project.fixtures_dir, module.name))
        for module in modules
    }
    check_package_names(project, schema_paths)
    wanted = {module.name: rendered_targets(project.targets_for(module.name)) for module in modules}
    env = make_env(
        project.relative(project.fixtures_dir),
        project.relative(project.output_dir),
        fixture_index,
        user_templates(project),
        python_package=project.python_package,
        shared_runtime=not inline_runtime,
        renderers=wanted,
    )
    # What was read lives until the end of the run: the collector need not walk it again
    # each time rendering's many short-lived objects trigger a full collection.
    gc.freeze()
    spool = Spool()
    try:
        return _build(project, modules, warnings, chosen, env, wanted, spool, keep_modules)
    except BaseException:
        spool.close()
        raise


def _project_files(
    modules: tuple[ir.Module, ...], env: RenderEnv, wanted: dict[str, tuple[str, ...]]
) -> list[OutputFile]:
    """Every project target's files: one covers the modules rendered into its target (the
    Mix project those with Elixir output, the docs index those with docs), and exists
    only then."""
    files: list[OutputFile] = []
    for name, target in project_targets().items():
        covered = tuple(m for m in modules if name in wanted[m.name])
        if covered:
            files.extend(target(covered, env))
    return files


def _build(
    project: Project,
    modules: tuple[ir.Module, ...],
    warnings: tuple[Diagnostic, ...],
    chosen: frozenset[str],
    env: RenderEnv,
    wanted: dict[str, tuple[str, ...]],
    spool: Spool,
    keep_modules: bool,
) -> Build:
    """`build` once set up: every output rendered into `spool`."""
    outputs, pending = render_modules(
        [m for m in modules if m.name in chosen],
        env,
        wanted,
        spool,
        partial(_project_files, modules, env, wanted),
    )
    inputs = project_inputs(project, {module.name: module.schema_path for module in modules})
    inputs.update((module.schema_path, module.schema_sha256) for module in modules)
    references = dict(sorted(item for module in modules for item in module.references))
    schema_paths = {module.name: module.schema_path for module in modules}
    kept = modules if keep_modules else ()
    # the IR of a large project is as large as its output: gone before the formatted
    # texts come back, so that the two are never held together
    del modules
    formatted = tuple(sorted(format_python(outputs, pending, spool), key=lambda o: o.path))
    return Build(
        kept,
        formatted,
        spool,
        dict(sorted(inputs.items())),
        chosen,
        warnings,
        references,
        schema_paths,
    )
