"""The whole run in one place: load → validate → lower → render → format.

Produces every output in memory; writing (or comparing, for `check`) is the
writer's job. Problems from all schema files are collected before stopping.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from dataclasses import dataclass, replace
from pathlib import Path

from generator import __version__, fixtures, ir
from generator.config import Project, ProjectError
from generator.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError, Position
from generator.format_cache import FormatCache
from generator.formatting import format_many
from generator.loader import Document, load
from generator.lower import lower
from generator.render import RenderEnv, make_env, template_root
from generator.targets import OutputFile, module_targets, project_targets
from generator.validate import validate


@dataclass(frozen=True)
class Build:
    """Everything one run produced: the files and the hashes of what they came from."""

    modules: tuple[ir.Module, ...]
    outputs: tuple[OutputFile, ...]
    inputs: dict[str, str]
    selected: frozenset[str]


def load_modules(project: Project, paths: list[Path] | None = None) -> tuple[ir.Module, ...]:
    """Load, validate and lower every schema; raise ``InputError`` with all problems of all files."""
    problems: list[Diagnostic] = []
    modules: list[ir.Module] = []
    documents: dict[str, Document] = {}
    for path in paths if paths is not None else project.schema_files():
        try:
            document = load(path, project.relative(path))
            validate(document)
            modules.append(lower(document))
            documents[document.display_path] = document
        except InputError as error:
            problems.extend(error.diagnostics)
    names: dict[str, ir.Module] = {}
    for module in modules:
        first = names.setdefault(module.name, module)
        if first is module:
            continue
        # blame the file that sets the name explicitly (its x-polytype: module line)
        blamed, other = module, first
        if _names_module(documents[first.schema_path]) and not _names_module(
            documents[module.schema_path]
        ):
            blamed, other = first, module
        problems.append(
            documents[blamed.schema_path].diagnostic(
                "/x-polytype/module" if _names_module(documents[blamed.schema_path]) else "",
                f"module name {module.name!r} is also used by {other.schema_path}",
            )
        )
    if problems:
        raise InputError(problems)
    return tuple(sorted(modules, key=lambda m: m.name))


def require_schemas(project: Project) -> None:
    """A project without a schema directory or without schemas is a mistake, not 0 modules."""
    shown = project.relative(project.schema_dir)
    if not project.schema_dir.is_dir():
        raise ProjectError(
            f"no schema directory {shown}/ in {project.root} "
            "(create it, or set schema-dir in [tool.polytype]; `polytype init` scaffolds a project)"
        )
    if not project.schema_files():
        raise ProjectError(f"no schemas (*.yaml, *.yml, *.json) in {shown}/")


def _by_type_name(
    module: ir.Module, cases: tuple[fixtures.FixtureCase, ...]
) -> tuple[fixtures.FixtureCase, ...]:
    """Fixture folders may be named after the schema's type name (`json`) or the generated
    one (`json_`, renamed so that it shadows nothing): targets see the generated one."""
    renamed: dict[str, str] = {}
    for named in module.types:
        if named.source is not None and named.source.pointer.count("/") == 2:
            schema_name = named.source.pointer.rsplit("/", 1)[-1]
            if schema_name != named.name:
                renamed[schema_name] = named.name
    if not renamed:
        return cases
    return tuple(
        replace(case, type_name=renamed.get(case.type_name, case.type_name)) for case in cases
    )


def _names_module(document: Document) -> bool:
    options = document.data.get("x-polytype")
    return isinstance(options, dict) and "module" in options


def _first_position() -> Position:
    return UNKNOWN_POSITION


def build(project: Project, selected: list[str] | None = None) -> Build:
    """Render every output of the selected modules (all when None), formatted, in memory."""
    require_schemas(project)
    modules = load_modules(project)
    known = {module.name for module in modules}
    if selected:
        unknown = sorted(set(selected) - known)
        if unknown:
            raise InputError(
                [
                    Diagnostic(
                        project.relative(project.schema_dir),
                        _first_position(),
                        "",
                        f"no schema defines module {name!r} (known: {', '.join(sorted(known)) or 'none'})",
                    )
                    for name in unknown
                ]
            )
    chosen = frozenset(selected) if selected else frozenset(known)
    fixture_index = {
        module.name: _by_type_name(module, fixtures.discover(project.fixtures_dir, module.name))
        for module in modules
    }
    env = make_env(
        project.relative(project.fixtures_dir), project.relative(project.output_dir), fixture_index
    )
    cache = FormatCache.from_manifest(project.output_dir)
    outputs = _render_modules([m for m in modules if m.name in chosen], env, cache)
    project_outputs: list[OutputFile] = []
    for render_project in project_targets().values():
        project_outputs.extend(render_project(modules, env))
    outputs.extend(_format_all(project_outputs, cache))
    formatted = tuple(sorted(outputs, key=lambda o: o.path))
    inputs = {module.schema_path: module.schema_sha256 for module in modules}
    for module in modules:
        inputs[f"{project.relative(project.fixtures_dir)}/{module.name}"] = fixtures.digest(
            project.fixtures_dir, module.name
        )
    inputs["templates"] = templates_digest()
    return Build(modules, formatted, dict(sorted(inputs.items())), chosen)


# Render in a process pool when there are at least this many types in all.
PARALLEL_MIN_TYPES = 200
_POOL_JOB: tuple[list[ir.Module], RenderEnv, FormatCache] | None = None


def _render_target(
    module: ir.Module, target: str, env: RenderEnv, cache: FormatCache
) -> list[OutputFile]:
    """One target's files for one module, formatted."""
    return _format_all(module_targets()[target](module, env), cache)


def _render_modules(
    modules: list[ir.Module], env: RenderEnv, cache: FormatCache
) -> list[OutputFile]:
    """Every target's files for each module, formatted.

    Each (module, target) pair is independent, so large schema sets render in a pool
    of forked processes, one a core: a single large module keeps both cores busy too.
    The workers inherit the IR when they fork; only the rendered text comes back.
    Outputs are collected in job order, so the result does not depend on scheduling.
    """
    global _POOL_JOB
    jobs = [(index, target) for index in range(len(modules)) for target in module_targets()]
    workers = min(len(jobs), os.cpu_count() or 1)
    if (
        workers < 2
        or sum(len(module.types) for module in modules) < PARALLEL_MIN_TYPES
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return [
            output
            for index, target in jobs
            for output in _render_target(modules[index], target, env, cache)
        ]
    import black  # noqa: F401 - imported once before forking rather than once per worker

    _POOL_JOB = (modules, env, cache)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(_render_in_worker, jobs, chunksize=1)
    finally:
        _POOL_JOB = None
    outputs: list[OutputFile] = []
    problems: list[Diagnostic] = []
    for kind, value in results:
        if kind == "input":
            problems.extend(value)  # type: ignore[arg-type]
        else:
            outputs.extend(value)  # type: ignore[arg-type]
    if problems:
        raise InputError(problems)
    return outputs


def _render_in_worker(job: tuple[int, str]) -> tuple[str, list[OutputFile] | list[Diagnostic]]:
    """In a forked worker: render one (module index, target) of the job set up before forking."""
    assert _POOL_JOB is not None
    modules, env, cache = _POOL_JOB
    index, target = job
    try:
        return "outputs", _render_target(modules[index], target, env, cache)
    except InputError as error:  # its diagnostics travel; the exception would not unpickle
        return "input", list(error.diagnostics)


def _format_all(outputs: list[OutputFile], cache: FormatCache) -> list[OutputFile]:
    """Python outputs formatted as black would (reusing unchanged files), the rest as they are."""
    result = list(outputs)
    pending: list[tuple[int, str]] = []
    for index, output in enumerate(outputs):
        if output.kind != "python":
            continue
        rendered_sha256 = hashlib.sha256(output.text.encode("utf-8")).hexdigest()
        text = cache.lookup(output.path, rendered_sha256)
        result[index] = replace(output, rendered_sha256=rendered_sha256)
        if text is None:
            pending.append((index, output.path))
        else:
            result[index] = replace(result[index], text=text)
    texts = format_many([(outputs[index].text, path) for index, path in pending])
    for (index, _), text in zip(pending, texts, strict=True):
        result[index] = replace(result[index], text=text)
    return result


def templates_digest() -> str:
    hasher = hashlib.sha256(__version__.encode())
    root = template_root()
    stack = [("", root)]
    entries: list[tuple[str, bytes]] = []
    while stack:
        prefix, node = stack.pop()
        for child in node.iterdir():
            name = f"{prefix}/{child.name}" if prefix else child.name
            if child.is_dir():
                stack.append((name, child))
            elif child.is_file():
                entries.append((name, child.read_bytes()))
    for name, data in sorted(entries):
        hasher.update(name.encode() + b"\0" + data)
    return hasher.hexdigest()
