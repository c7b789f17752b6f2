"""Rendering the modules' files: each (module, target) job, in this process beside ruff
or in a pool of forked workers, and the Python among them formatted by ruff, every file
going to the build's spool as it comes (`polytype.project.pipeline` runs it)."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import chain
from typing import cast

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError
from polytype.targets import module_targets
from polytype.targets.base import OutputFile
from polytype.targets.base.formatting import PendingFormat, start_formatting
from polytype.targets.base.render import RenderEnv
from polytype.writing.spool import Spool, SpooledFile

# A rendered file: Python still to be formatted, or any other already in the build's spool.
Rendered = OutputFile | SpooledFile

# Render several modules in a process pool when there are at least this many types in all.
PARALLEL_MIN_TYPES = 200
# A worker renders this many jobs, then a fresh one forks in its place: what a worker
# copied of the parent's pages (touching the IR of the modules it rendered) and what
# its allocator kept after a large module go back to the machine.
JOBS_PER_WORKER = 50
_POOL_JOB: tuple[list[ir.Module], RenderEnv] | None = None


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
    modules: list[ir.Module], env: RenderEnv, wanted: dict[str, tuple[str, ...]], spool: Spool
) -> tuple[list[Rendered], tuple[int, PendingFormat] | None]:
    """Every target's files for each module, not yet formatted, and ruff formatting the
    Python ones among the first of them: (how many outputs it was given, the formatting).

    The Python targets render first; ruff then formats their files in its own process
    while the other targets render, so a build keeps two cores busy without paying for
    workers (forking, copying pages the workers touch, sending the text back: about 8 %
    more CPU on a 1,000-type module, for no shorter a run on two cores, ruff being the
    other process). Each (module, target) pair is independent, so large sets of
    modules also render in a pool of forked processes, one a core: the workers inherit
    the IR when they fork; only the rendered text comes back. Outputs are collected in
    job order, so the result does not depend on scheduling.
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
        or len(modules) < 2  # one module's targets: rendering beside ruff pays, workers not
        or sum(len(module.types) for module in modules) < PARALLEL_MIN_TYPES
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        serial = (("outputs", render_target(modules[index], target, env)) for index, target in jobs)
        return _collect(serial, python_jobs, spool)
    _POOL_JOB = (modules, env)
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, maxtasksperchild=JOBS_PER_WORKER) as pool:
            return _collect(pool.imap(_render_in_worker, jobs, chunksize=1), python_jobs, spool)
    finally:
        _POOL_JOB = None


def _collect(
    results: Iterator[tuple[str, list[OutputFile] | list[Diagnostic]]],
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
                problems.extend(cast(list[Diagnostic], value))
            elif done <= python_jobs and not problems:
                for output in cast(list[OutputFile], value):
                    if output.kind == "python":
                        formatting.add(output.text, output.path)
                        outputs.append(replace(output, text=""))
                    else:
                        outputs.append(spool.put(output))
            elif not problems:
                outputs.extend(spooled(output, spool) for output in cast(list[OutputFile], value))
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
    modules, env = _POOL_JOB
    index, target = job
    try:
        return "outputs", render_target(modules[index], target, env)
    except InputError as error:  # its diagnostics travel; the exception would not unpickle
        return "input", list(error.diagnostics)


def spooled(output: OutputFile, spool: Spool) -> Rendered:
    """`output` in `spool`, unless it is Python (formatted first, see `format_python`)."""
    return output if output.kind == "python" else spool.put(output)


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
