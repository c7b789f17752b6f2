"""A build of many schema files, streamed: each file is read, validated, lowered and
rendered in a forked worker, which lets go of its IR before the next; the build keeps
of each module only what the project-wide work needs (`ModuleRead`: its name, hashes,
warnings, what the checks across modules and the project targets need of it).

So no process ever holds the IR of every module (that of a large catalogue is as large
as its output), and reading runs on every core as rendering does. What a run reports
and writes is what the serial build (`pipeline.build`) reports and writes: every
problem of every file together, in file order, the duplicate names, the selection,
then the problems of rendering; the warnings in file order; the results are taken in
file order, whichever worker finishes first.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from polytype.diagnostics import Diagnostic, InputError
from polytype.package_data import template_root
from polytype.project import fixtures, rendering
from polytype.project.config import Project
from polytype.project.inputs import project_inputs, template_files, user_templates
from polytype.project.modules import (
    Naming,
    by_type_name,
    check_package_names,
    chosen_modules,
    duplicate_names,
    naming,
    read_one,
)
from polytype.project.rendering import Rendered, format_python, spooled
from polytype.targets import module_targets, name_checks, project_targets, rendered_targets
from polytype.targets.base import FileKind, OutputFile
from polytype.targets.base.formatting import PendingFormat
from polytype.targets.base.render import RenderEnv, make_env
from polytype.writing.build import Build
from polytype.writing.spool import Spool, SpooledFile

# Stream a project of at least this many schema files (a few, as the five shipped
# modules, read faster in this process than workers fork and start).
STREAM_MIN_FILES = 8
# A worker reads and renders this many files, then a fresh one forks in its place: what
# its allocator kept after a large module goes back to the machine.
FILES_PER_WORKER = 20


def streams(project: Project, paths: Sequence[Path]) -> bool:
    """Whether a build of `project`'s schema files `paths` streams (not with a missing
    `templates` directory: the serial build reports it after the schemas' problems)."""
    return (
        len(paths) >= STREAM_MIN_FILES
        and (project.templates_dir is None or project.templates_dir.is_dir())
        and (os.cpu_count() or 1) >= 2
        and "fork" in multiprocessing.get_all_start_methods()
    )


@dataclass(frozen=True)
class ModuleRead:
    """What a build keeps of one module read in a worker."""

    naming: Naming
    schema_sha256: str
    references: tuple[tuple[str, str], ...]
    warnings: tuple[Diagnostic, ...]
    # what each project target the module is rendered into needs of it (`summarise`)
    summaries: dict[str, Any]


@dataclass(frozen=True)
class Staged:
    """A file a worker rendered, written to the spool's staging directory (`file`)."""

    path: str
    target: str
    module: str
    kind: FileKind
    sha256: str
    file: str


@dataclass(frozen=True)
class FileResult:
    """One schema file, as a worker sends it back: its problems, or its module and files."""

    problems: tuple[Diagnostic, ...] = ()
    module: ModuleRead | None = None
    outputs: tuple[Staged, ...] = ()
    # rendering's problems: (the serial build's job order, its diagnostics)
    failed: tuple[tuple[tuple[bool, str, int], tuple[Diagnostic, ...]], ...] = field(default=())


@dataclass(frozen=True)
class _Job:
    project: Project
    paths: Sequence[Path]
    env: RenderEnv  # without fixtures and renderers: each file's are its own
    selected: frozenset[str] | None
    staging: Path  # where the workers write the files they render (the spool's)


_JOB: _Job | None = None
_SCANS: dict[Path, dict[str, Path]] = {}  # a worker's schema directories' `$id`s


def build(
    project: Project, paths: Sequence[Path], selected: list[str] | None, inline_runtime: bool
) -> Build:
    """`pipeline.build` for many schema files (`streams`), never keeping their IR."""
    global _JOB
    env = make_env(
        project.relative(project.fixtures_dir),
        project.relative(project.output_dir),
        user_templates=user_templates(project),
        python_package=project.python_package,
        shared_runtime=not inline_runtime,
    )
    # a large build's files: on disk, none held here (the workers write them there)
    spool = Spool(memory_budget=0)
    formatting = PendingFormat()
    try:
        staging = spool.staging()
        _JOB = _Job(project, paths, env, frozenset(selected) if selected else None, staging)
        _warm(env)
        gc.freeze()  # what the workers fork with: none of it is collected there again
        context = multiprocessing.get_context("fork")
        workers = min(len(paths), os.cpu_count() or 1)
        with context.Pool(workers, maxtasksperchild=FILES_PER_WORKER) as pool:
            results = pool.imap(_read_in_worker, range(len(paths)), chunksize=1)
            outputs, reads, warnings = _collect(results, formatting)
        # the workers are gone (and what their allocators kept) before ruff starts
        formatting.start()
        return _finish(project, outputs, reads, warnings, selected, env, formatting, spool)
    except BaseException:
        formatting.cancel()
        spool.close()
        raise
    finally:
        _JOB = None


def _warm(env: RenderEnv) -> None:
    """Load here what each worker would load again after each fork: the targets' modules,
    the bundler (`referencing`) and every built-in template, compiled."""
    import polytype.frontend.bundle  # noqa: F401 (compile imports it when a schema needs it)

    module_targets()
    project_targets()
    name_checks()
    for name, _ in template_files("", template_root()):
        if name.endswith(".j2"):
            env.jinja.get_template(name)


def _finish(
    project: Project,
    outputs: list[Rendered],
    reads: list[ModuleRead],
    warnings: list[Diagnostic],
    selected: list[str] | None,
    env: RenderEnv,
    formatting: PendingFormat,
    spool: Spool,
) -> Build:
    """The build from what the workers sent back (in file order): the project targets'
    files too in `spool`, the Python ones formatted (those of the modules by
    `formatting`, under way)."""
    pending = (len(outputs), formatting)
    reads.sort(key=lambda read: read.naming.name)
    schema_paths = {read.naming.name: read.naming.schema_path for read in reads}
    wanted = {name: rendered_targets(project.targets_for(name)) for name in schema_paths}
    env = replace(env, renderers=wanted)
    for name, target in project_targets().items():
        covered = [read.summaries[name] for read in reads if name in wanted[read.naming.name]]
        if covered:
            outputs.extend(spooled(output, spool) for output in target.render(covered, env))
    inputs = project_inputs(project, schema_paths)
    inputs.update((read.naming.schema_path, read.schema_sha256) for read in reads)
    references = dict(sorted(item for read in reads for item in read.references))
    formatted = tuple(sorted(format_python(outputs, pending, spool), key=lambda o: o.path))
    return Build(
        (),
        formatted,
        spool,
        dict(sorted(inputs.items())),
        chosen_modules(project, selected, schema_paths),
        tuple(warnings),
        references,
        schema_paths,
    )


def _collect(
    results: Iterator[FileResult], formatting: PendingFormat
) -> tuple[list[Rendered], list[ModuleRead], list[Diagnostic]]:
    """Every file's outputs (the Python ones handed to `formatting`, the others the spool's
    as the workers staged them), modules and warnings, in file order; the problems raised
    as the serial build raises them: reading's and the duplicate names, the selection, the
    package's names, then rendering's."""
    assert _JOB is not None
    project, selected = _JOB.project, _JOB.selected
    outputs: list[Rendered] = []
    reads: list[ModuleRead] = []
    warnings: list[Diagnostic] = []
    problems: list[Diagnostic] = []
    failed: list[tuple[tuple[bool, str, int], tuple[Diagnostic, ...]]] = []
    for result in results:
        problems.extend(result.problems)
        failed.extend(result.failed)
        if result.module is not None:
            reads.append(result.module)
            warnings.extend(result.module.warnings)
        if problems or failed:
            continue  # nothing is written: the files need not be kept
        for staged in result.outputs:
            source = Path(staged.file)
            if staged.kind == "python":  # to ruff, one text at a time
                formatting.add(source.read_bytes().decode("utf-8"), staged.path)
                source.unlink()
                outputs.append(OutputFile(staged.path, "", staged.target, staged.module, "python"))
            else:
                outputs.append(
                    SpooledFile(
                        staged.path,
                        staged.target,
                        staged.module,
                        staged.kind,
                        staged.sha256,
                        source,
                    )
                )
    problems.extend(duplicate_names([read.naming for read in reads]))
    if problems:
        raise InputError(problems)
    schema_paths = {
        read.naming.name: read.naming.schema_path
        for read in sorted(reads, key=lambda read: read.naming.name)
    }
    chosen_modules(project, sorted(selected) if selected else None, schema_paths)
    check_package_names(project, schema_paths)
    if failed:
        failed.sort(key=lambda item: item[0])
        raise InputError([problem for _, found in failed for problem in found])
    return outputs, reads, warnings


def _read_in_worker(index: int) -> FileResult:
    """In a forked worker: read one schema file of the job set up before forking, render its
    module (when the run selects it) and let go of its IR."""
    assert _JOB is not None
    project, path = _JOB.project, _JOB.paths[index]
    try:
        read = read_one(project, path, _SCANS)
    except InputError as error:  # its diagnostics travel; the exception would not unpickle
        return FileResult(problems=tuple(error.diagnostics))
    module = read.module
    wanted = rendered_targets(project.targets_for(module.name))
    cases = by_type_name(module, fixtures.discover(project.fixtures_dir, module.name))
    env = replace(_JOB.env, fixtures={module.name: cases}, renderers={module.name: wanted})
    summaries = {
        name: target.summarise(module, env)
        for name, target in project_targets().items()
        if name in wanted
    }
    kept = ModuleRead(
        naming(module, read.document),
        module.schema_sha256,
        module.references,
        read.warnings,
        summaries,
    )
    selected = _JOB.selected
    if selected is not None and not {module.name, module.schema_path} & selected:
        return FileResult(module=kept)
    outputs: list[Staged] = []
    failed: list[tuple[tuple[bool, str, int], tuple[Diagnostic, ...]]] = []
    for order, (target, _) in enumerate(module_targets().items()):
        if target not in wanted:
            continue
        try:
            # each file to disk at once: the worker holds one target's, nothing travels back
            for output in rendering.render_target(module, target, env):
                outputs.append(_stage(output, f"{index}.{len(outputs)}"))
        except InputError as error:
            # the serial build's order: Python targets first, then by module and target
            key = (not target.startswith("python"), module.name, order)
            failed.append((key, tuple(error.diagnostics)))
    return FileResult(module=kept, outputs=tuple(outputs), failed=tuple(failed))


def _stage(output: OutputFile, name: str) -> Staged:
    """`output` written to the job's staging directory as `name`."""
    assert _JOB is not None
    data = output.text.encode("utf-8")
    file = _JOB.staging / name
    file.write_bytes(data)
    sha256 = hashlib.sha256(data).hexdigest()
    return Staged(output.path, output.target, output.module, output.kind, sha256, str(file))
