"""The whole run in one place: load → validate → lower → render → format.

Produces every output in memory; writing (or comparing, for `check`) is the
writer's job. Problems from all schema files are collected before stopping.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from importlib.abc import Traversable
from pathlib import Path
from typing import cast

from polytype import __version__, ir
from polytype.compile import read_schema
from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError, Position
from polytype.ir.fixtures import FixtureCase
from polytype.package_data import template_root
from polytype.project import fixtures
from polytype.project.config import Project, ProjectError
from polytype.reading.loader import Document
from polytype.targets import module_targets, name_checks, project_targets, rendered_targets
from polytype.targets.base import OutputFile
from polytype.targets.base.formatting import PendingFormat, start_formatting
from polytype.targets.base.render import RenderEnv, make_env
from polytype.targets.python import names as python_names
from polytype.writing.build import Build


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
    documents: dict[str, Document] = {}
    scans: dict[Path, dict[str, Path]] = {}  # each schema directory's `$id`s, read once
    for path in paths if paths is not None else project.schema_files():
        try:
            with _collector_paused():  # (see _render_target)
                read = read_schema(
                    path,
                    project.relative(path),
                    project.strict,
                    project.ref_map,
                    project.unknown_tags,
                    project.formats,
                    unknown_enum_values=project.unknown_enum_values,
                    name_checks=name_checks(),
                    scans=scans,
                )
            references = sorted((project.input_path(p), sha) for p, sha in read.references)
            modules.append(replace(read.module, references=tuple(references)))
            warnings.extend(read.warnings)
            documents[read.document.display_path] = read.document
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


def _by_type_name(module: ir.Module, cases: tuple[FixtureCase, ...]) -> tuple[FixtureCase, ...]:
    """Fixture folders may be named after the schema's type name (`json`), its definition
    key (a long one, shortened) or its Python class (`json_`, renamed so that it shadows
    nothing): targets see the module's name for it (and each spells it its own way). A
    folder that names a type of the module is that type (openapi's root `Schema`, beside
    its `definitions/Schema`, generated as `Schema2`)."""
    renamed: dict[str, str] = {}
    for named in module.types:
        python = python_names.type_name(named.name)
        if python != named.name:
            renamed.setdefault(python, named.name)
        if named.source is not None and named.source.pointer.count("/") == 2:
            schema_name = named.source.pointer.rsplit("/", 1)[-1]
            if schema_name != named.name:
                renamed[schema_name] = named.name
    if not renamed:
        return cases
    generated = set(module.types_by_name)  # a folder named after a generated type is that type
    return tuple(
        (
            case
            if case.type_name in generated
            else replace(case, type_name=renamed.get(case.type_name, case.type_name))
        )
        for case in cases
    )


def _names_module(document: Document) -> bool:
    options = document.data.get("x-polytype")
    return isinstance(options, dict) and "module" in options


def _first_position() -> Position:
    return UNKNOWN_POSITION


def build(
    project: Project,
    selected: list[str] | None = None,
    inline_runtime: bool = False,
    keep_modules: bool = False,
) -> Build:
    """Render every output of the selected modules (all when None), formatted, in memory.

    The Python flavor files import their output package's runtime; with `inline_runtime`
    (`polytype vendor`) each carries its own and imports nothing generated. The modules'
    IR is let go once rendered (writing needs their names and schema paths only): the
    Build holds it only with `keep_modules`."""
    require_schemas(project)
    modules, warnings = read_modules(project)
    known = {module.name for module in modules}
    if selected:
        # a schema file of the project (`generate schema/x.yaml`) selects the module it defines
        by_path = {module.schema_path: module.name for module in modules}
        selected = [by_path.get(name, name) for name in selected]
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
    _check_package_names(project, modules)
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
    outputs, pending = _render_modules([m for m in modules if m.name in chosen], env, wanted)
    try:
        for name, render_project in project_targets().items():
            # a project file covers the modules rendered into its target (the Mix project
            # those with Elixir output, the docs index those with docs), and exists only then
            if any(name in wanted[m.name] for m in modules):
                outputs.extend(render_project(_covered(modules, name, wanted), env))
    except BaseException:
        if pending is not None:
            pending[1].cancel()
        raise
    inputs = {module.schema_path: module.schema_sha256 for module in modules}
    for module in modules:
        inputs[f"{project.relative(project.fixtures_dir)}/{module.name}"] = fixtures.digest(
            project.fixtures_dir, module.name
        )
    inputs["templates"] = templates_digest(project.templates_dir)
    references = dict(sorted(item for module in modules for item in module.references))
    schema_paths = {module.name: module.schema_path for module in modules}
    kept = modules if keep_modules else ()
    # the IR of a large project is as large as its output: gone before the formatted
    # texts come back, so that the two are never held together
    del modules
    formatted = tuple(sorted(_format_python(outputs, pending), key=lambda o: o.path))
    return Build(
        kept, formatted, dict(sorted(inputs.items())), chosen, warnings, references, schema_paths
    )


def _covered(
    modules: tuple[ir.Module, ...], target: str, wanted: dict[str, tuple[str, ...]]
) -> tuple[ir.Module, ...]:
    return tuple(m for m in modules if target in wanted[m.name])


# The modules beside the flavors' subpackages in a `python-package`.
_PACKAGE_MODULES = frozenset({"_runtime", "_pydantic_runtime", "__init__"})


def _check_package_names(project: Project, modules: tuple[ir.Module, ...]) -> None:
    """A schema module named like a module of the `python-package` itself is refused."""
    if project.python_package is None:
        return
    clashing = [module for module in modules if module.name in _PACKAGE_MODULES]
    if clashing:
        raise InputError(
            [
                Diagnostic(
                    module.schema_path,
                    _first_position(),
                    "",
                    f"module name {module.name!r} is taken by the runtime of "
                    f"python-package {project.python_package!r}; name the module otherwise "
                    "(x-polytype: module)",
                )
                for module in clashing
            ]
        )


# Render several modules in a process pool when there are at least this many types in all.
PARALLEL_MIN_TYPES = 200
_POOL_JOB: tuple[list[ir.Module], RenderEnv] | None = None


def _render_target(module: ir.Module, target: str, env: RenderEnv) -> list[OutputFile]:
    """One target's files for one module, as the templates rendered them."""
    with _collector_paused():
        return module_targets()[target](module, env)


@contextmanager
def _collector_paused() -> Iterator[None]:
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


def _render_modules(
    modules: list[ir.Module], env: RenderEnv, wanted: dict[str, tuple[str, ...]]
) -> tuple[list[OutputFile], tuple[int, PendingFormat] | None]:
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
        serial = (
            ("outputs", _render_target(modules[index], target, env)) for index, target in jobs
        )
        return _collect(serial, python_jobs)
    _POOL_JOB = (modules, env)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return _collect(pool.imap(_render_in_worker, jobs, chunksize=1), python_jobs)
    finally:
        _POOL_JOB = None


def _collect(
    results: Iterator[tuple[str, list[OutputFile] | list[Diagnostic]]], python_jobs: int
) -> tuple[list[OutputFile], tuple[int, PendingFormat] | None]:
    """The outputs of `results` (in job order), ruff started on the Python files once the
    first `python_jobs` results are in; every problem of every job raised together."""
    outputs: list[OutputFile] = []
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
                        output = replace(output, text="")
                    outputs.append(output)
            else:
                outputs.extend(cast(list[OutputFile], value))
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
        return "outputs", _render_target(modules[index], target, env)
    except InputError as error:  # its diagnostics travel; the exception would not unpickle
        return "input", list(error.diagnostics)


def _format_python(
    outputs: list[OutputFile], pending: tuple[int, PendingFormat] | None
) -> list[OutputFile]:
    """The Python outputs formatted by ruff (see polytype.targets.base.formatting), the
    rest as they are: those among the first `pending[0]` outputs by the formatting
    already under way, any later ones by a second ruff process."""
    started, formatting = pending if pending is not None else (0, None)
    early = [index for index in range(started) if outputs[index].kind == "python"]
    late = [index for index in range(started, len(outputs)) if outputs[index].kind == "python"]
    try:
        rest = start_formatting([(outputs[index].text, outputs[index].path) for index in late])
    except BaseException:
        if formatting is not None:
            formatting.cancel()
        raise
    texts = (formatting.result() if formatting is not None else []) + rest.result()
    result = list(outputs)
    for index, text in zip(early + late, texts, strict=True):
        result[index] = replace(outputs[index], text=text)
    return result


def user_templates(project: Project) -> Path | None:
    """The configured `templates` directory, checked to exist."""
    if project.templates_dir is None:
        return None
    if not project.templates_dir.is_dir():
        raise InputError(
            [
                Diagnostic(
                    project.relative(project.root / "pyproject.toml"),
                    UNKNOWN_POSITION,
                    "/tool/polytype/templates",
                    f"templates directory {project.relative(project.templates_dir)} does not exist",
                )
            ]
        )
    return project.templates_dir


def templates_digest(user_dir: Path | None = None) -> str:
    """A hash of every template that can take part in rendering: the built-ins and the
    user's replacements, so `check` calls output stale when any of them changes."""
    hasher = hashlib.sha256(__version__.encode())
    entries: list[tuple[str, bytes]] = []
    roots: list[tuple[str, Traversable]] = [("", template_root())]
    if user_dir is not None:
        roots.append(("user:", user_dir))
    for root_prefix, root in roots:
        entries.extend(_template_files(root_prefix, root))
    for name, data in sorted(entries):
        hasher.update(name.encode() + b"\0" + data)
    return hasher.hexdigest()


def _template_files(root_prefix: str, root: Traversable) -> list[tuple[str, bytes]]:
    stack = [(root_prefix, root)]
    entries: list[tuple[str, bytes]] = []
    while stack:
        prefix, node = stack.pop()
        for child in node.iterdir():
            name = f"{prefix}/{child.name}" if prefix else child.name
            if child.is_dir():
                stack.append((name, child))
            elif child.is_file():
                entries.append((name, child.read_bytes()))
    return entries
