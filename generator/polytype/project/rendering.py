"""Rendering the modules' files: each (module, target) job, in this process beside ruff
or in a pool of forked workers, and the Python among them formatted by ruff, every file
going to the build's spool as it comes (`polytype.project.pipeline` runs it)."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from itertools import chain
from typing import cast

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError
from polytype.targets import module_targets
from polytype.targets.base import OutputFile
from polytype.targets.base.formatting import BATCH_CHARS, PendingFormat, start_formatting
from polytype.targets.base.render import RenderEnv
from polytype.writing.spool import Spool, SpooledFile, held

# A rendered file: Python still to be formatted, or any other already in the build's spool.
Rendered = OutputFile | SpooledFile

# Render in forked workers when there are at least this many types in all: several modules
# in a pool, one module's targets after the Python ones in one worker (`_render_beside`).
PARALLEL_MIN_TYPES = 200
# A worker renders this many jobs, then a fresh one forks in its place: what a worker
# copied of the parent's pages (touching the IR of the modules it rendered) and what
# its allocator kept after a large module go back to the machine.
JOBS_PER_WORKER = 50
# The project targets' files, rendered after every module's (`pipeline`).
ProjectFiles = Callable[[], Sequence[OutputFile]]
_POOL_JOB: tuple[list[ir.Module], RenderEnv, ProjectFiles] | None = None


def render_target(module: ir.Module, target: str, env: RenderEnv) -> list[OutputFile]:
    """One target's files for one module, as the templates rendered them."""
    with collector_paused():
        return module_targets()[target](module, env)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: rendering builds and drops a great many
    views and snippets, which reference counting frees (and which make no cycles to speak
    of: about 0.5 MB on a 1,000-type module), and each collection that their numbers set
    off walked every young and middle-aged object (5 % of the CPU of a large build). A
    collection after the job finds the few objects still alive."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def render_modules(
    modules: list[ir.Module],
    env: RenderEnv,
    wanted: dict[str, tuple[str, ...]],
    spool: Spool,
    project_files: ProjectFiles = list,
) -> tuple[list[Rendered], tuple[int, PendingFormat] | None]:
    """Every target's files for each module, not yet formatted, then `project_files()`,
    and ruff formatting the Python ones among the first of them: (how many outputs it
    was given, the formatting). The project's files are rendered only when every
    module's were (their problems first).

    The Python targets render first; ruff formats their files in its own process while
    the next targets render (a large target's as soon as it is done, `BATCH_CHARS`).
    Each (module, target) pair is independent, so large sets of modules also render in
    a pool of forked processes, one a core: the workers inherit the IR when they fork;
    only the rendered text comes back. One large module renders its other targets
    (Elixir, docs) in one forked worker beside its Python ones (`_render_beside`): 0.5 s
    less of a 2.8 s run on a 1,000-type module, for about 0.1 s more CPU. Outputs are
    collected in job order, and every job's problems reported together, however the
    jobs ran: the result does not depend on scheduling.
    """
    global _POOL_JOB
    jobs = [
        (index, target)
        for index, module in enumerate(modules)
        for target in module_targets()
        if target in wanted[module.name]
    ]
    jobs.sort(key=lambda job: not job[1].startswith("python"))  # stable: Python first
    python_jobs = sum(1 for _, target in jobs if target.startswith("python"))
    workers = min(len(jobs), os.cpu_count() or 1)
    if (
        workers < 2
        or sum(len(module.types) for module in modules) < PARALLEL_MIN_TYPES
        or "fork" not in multiprocessing.get_all_start_methods()
        or (len(modules) < 2 and not 0 < python_jobs < len(jobs))
    ):
        serial = (_attempt(modules[index], target, env) for index, target in jobs)
        return _then(_collect(serial, python_jobs, spool), project_files, spool)
    _POOL_JOB = (modules, env, project_files)
    try:
        if len(modules) < 2:  # one large module: its other targets beside its Python ones
            return _render_beside(jobs, python_jobs, spool)
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, maxtasksperchild=JOBS_PER_WORKER) as pool:
            rendered = _collect(pool.imap(_render_in_worker, jobs, chunksize=1), python_jobs, spool)
        return _then(rendered, project_files, spool)
    finally:
        _POOL_JOB = None


def _then(
    rendered: tuple[list[Rendered], tuple[int, PendingFormat] | None],
    project_files: Callable[[], Sequence[Rendered]],
    spool: Spool,
) -> tuple[list[Rendered], tuple[int, PendingFormat] | None]:
    """`rendered`, the modules' files, and after them `project_files()`."""
    outputs, pending = rendered
    try:
        outputs.extend(spooled(output, spool) for output in project_files())
    except BaseException:
        if pending is not None:
            pending[1].cancel()
        raise
    return outputs, pending


def _render_beside(
    jobs: list[tuple[int, str]], python_jobs: int, spool: Spool
) -> tuple[list[Rendered], tuple[int, PendingFormat] | None]:
    """`render_modules` for one large module: one forked worker renders the targets after
    the Python ones (Elixir, docs), then the project's files, while this process renders
    the Python ones and hands them to ruff. The worker sends each job's files back as it
    finishes them, encoded and hashed (`held`), and they join the spool here; results
    are taken in job order, and the project's files (or what stopped them) only after
    every module's, so what a run reports and writes is what the serial one does."""
    assert _POOL_JOB is not None
    modules, env, _ = _POOL_JOB
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        offloaded = pool.imap(_render_held, [*jobs[python_jobs:], None], chunksize=1)

        def results() -> Iterator[tuple[str, Sequence[Rendered] | Sequence[Diagnostic]]]:
            for index, target in jobs[:python_jobs]:
                yield _attempt(modules[index], target, env)
            for _ in jobs[python_jobs:]:
                yield _received(next(offloaded), spool)

        rendered = _collect(results(), python_jobs, spool)
        return _then(rendered, lambda: _project_received(next(offloaded), spool), spool)


Sent = tuple[str, "list[Rendered] | list[Diagnostic] | BaseException"]


def _render_held(job: tuple[int, str] | None) -> Sent:
    """In the forked worker of `_render_beside`: one job's files (any Python among them as
    text, for ruff), the others encoded and hashed; or its problems. Job None: the
    project's files, or what they raised (raised here only after the modules' problems)."""
    assert _POOL_JOB is not None
    if job is not None:
        kind, value = _render_in_worker(job)
        if kind == "input":
            return kind, cast(list[Diagnostic], value)
    else:
        try:
            kind, value = "outputs", list(_POOL_JOB[2]())
        except InputError as error:  # its diagnostics travel; the exception would not unpickle
            return "input", list(error.diagnostics)
        except Exception as error:  # raised in the build's process, in turn
            return "raised", error
    outputs = cast(list[OutputFile], value)
    return kind, [output if output.kind == "python" else held(output) for output in outputs]


def _received(sent: Sent, spool: Spool) -> tuple[str, Sequence[Rendered] | Sequence[Diagnostic]]:
    """A job's result as `_render_held` sent it, its files in this process's `spool`."""
    kind, value = sent
    if kind == "input":
        return kind, cast(list[Diagnostic], value)
    return kind, [_adopted(file, spool) for file in cast(list[Rendered], value)]


def _project_received(sent: Sent, spool: Spool) -> Sequence[Rendered]:
    """The project's files as `_render_held` sent them; what stopped them, raised."""
    kind, value = sent
    if kind == "raised":
        raise cast(BaseException, value)
    if kind == "input":
        raise InputError(cast(list[Diagnostic], value))
    return cast(Sequence[Rendered], _received(sent, spool)[1])


def _adopted(output: Rendered, spool: Spool) -> Rendered:
    """A file the worker of `_render_beside` sent back, in this process's `spool`."""
    return spool.adopt(output) if isinstance(output, SpooledFile) else output


def _collect(
    results: Iterator[tuple[str, Sequence[Rendered] | Sequence[Diagnostic]]],
    python_jobs: int,
    spool: Spool,
) -> tuple[list[Rendered], tuple[int, PendingFormat] | None]:
    """The outputs of `results` (in job order), ruff started on the Python files once the
    first `python_jobs` results are in; every problem of every job raised together.
    The files ruff formats are in its scratch directory (their text left empty here),
    the ones it does not format already in `spool`."""
    outputs: list[Rendered] = []
    problems: list[Diagnostic] = []
    pending: tuple[int, PendingFormat] | None = None
    # The Python files go to ruff's scratch directory as they come: a large build need
    # not hold every unformatted text until the last Python job is in.
    formatting = PendingFormat()
    try:
        for done, (kind, value) in enumerate(results, start=1):
            if kind == "input":
                problems.extend(cast(Sequence[Diagnostic], value))
            elif done <= python_jobs and not problems:
                for output in cast(Sequence[Rendered], value):
                    if isinstance(output, OutputFile) and output.kind == "python":
                        formatting.add(output.text, output.path)
                        outputs.append(replace(output, text=""))
                    else:
                        outputs.append(spooled(output, spool))
                # ruff formats a large target's files while the next renders
                formatting.flush(BATCH_CHARS)
            elif not problems:
                outputs.extend(spooled(output, spool) for output in cast(Sequence[Rendered], value))
            if done == python_jobs and not problems:
                formatting.start()
                pending = (len(outputs), formatting)
        if problems:
            raise InputError(problems)
    except BaseException:
        formatting.cancel()
        raise
    if pending is None:
        formatting.cancel()
    return outputs, pending


def _render_in_worker(job: tuple[int, str]) -> tuple[str, list[OutputFile] | list[Diagnostic]]:
    """In a forked worker: render one (module index, target) of the job set up before forking."""
    assert _POOL_JOB is not None
    modules, env, _ = _POOL_JOB
    index, target = job
    return _attempt(modules[index], target, env)


def _attempt(
    module: ir.Module, target: str, env: RenderEnv
) -> tuple[str, list[OutputFile] | list[Diagnostic]]:
    """("outputs", `target`'s files for `module`), or ("input", the problems it found): the
    next job renders all the same, so that every problem of every job is reported."""
    try:
        return "outputs", render_target(module, target, env)
    except InputError as error:  # its diagnostics travel; the exception would not unpickle
        return "input", list(error.diagnostics)


def spooled(output: Rendered, spool: Spool) -> Rendered:
    """`output` in `spool`, unless it is Python (formatted first, see `format_python`) or
    there already."""
    if isinstance(output, SpooledFile) or output.kind == "python":
        return output
    return spool.put(output)


def format_python(
    outputs: list[Rendered], pending: tuple[int, PendingFormat] | None, spool: Spool
) -> list[SpooledFile]:
    """Every output in `spool`, the Python ones formatted by ruff (see
    polytype.targets.base.formatting): those among the first `pending[0]` outputs by the
    formatting already under way, any later ones by a second ruff process. Each text is
    spooled as it comes back, so no more than one is held at a time."""
    started, formatting = pending if pending is not None else (0, None)
    early = [index for index in range(started) if isinstance(outputs[index], OutputFile)]
    late = [
        index for index in range(started, len(outputs)) if isinstance(outputs[index], OutputFile)
    ]
    try:
        rest = start_formatting(
            [(_unspooled(outputs[index]).text, outputs[index].path) for index in late]
        )
    except BaseException:
        if formatting is not None:
            formatting.cancel()
        raise
    try:
        texts = chain(formatting.results() if formatting is not None else (), rest.results())
        result = list(outputs)
        for index, text in zip(early + late, texts, strict=True):
            result[index] = spool.put(replace(_unspooled(outputs[index]), text=text))
    except BaseException:
        rest.cancel()
        if formatting is not None:
            formatting.cancel()
        raise
    return [cast(SpooledFile, output) for output in result]


def _unspooled(output: Rendered) -> OutputFile:
    assert isinstance(output, OutputFile)
    return output
