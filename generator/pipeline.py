"""The whole run in one place: load → validate → lower → render → format.

Produces every output in memory; writing (or comparing, for `check`) is the
writer's job. Problems from all schema files are collected before stopping.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from generator import __version__, fixtures, ir
from generator.config import Project
from generator.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError, Position
from generator.format_cache import FormatCache
from generator.formatting import format_python
from generator.loader import load
from generator.lower import lower
from generator.render import make_env, template_root
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
    for path in paths if paths is not None else project.schema_files():
        try:
            document = load(path, project.relative(path))
            validate(document)
            modules.append(lower(document))
        except InputError as error:
            problems.extend(error.diagnostics)
    names: dict[str, str] = {}
    for module in modules:
        if module.name in names:
            problems.append(
                Diagnostic(
                    module.schema_path,
                    _first_position(),
                    "/x-polytype/module",
                    f"module name {module.name!r} is also used by {names[module.name]}",
                )
            )
        names[module.name] = module.schema_path
    if problems:
        raise InputError(problems)
    return tuple(sorted(modules, key=lambda m: m.name))


def _first_position() -> Position:
    return UNKNOWN_POSITION


def build(project: Project, selected: list[str] | None = None) -> Build:
    """Render every output of the selected modules (all when None), formatted, in memory."""
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
        module.name: fixtures.discover(project.fixtures_dir, module.name) for module in modules
    }
    env = make_env(
        project.relative(project.fixtures_dir), project.relative(project.output_dir), fixture_index
    )
    outputs: list[OutputFile] = []
    for module in modules:
        if module.name not in chosen:
            continue
        for render in module_targets().values():
            outputs.extend(render(module, env))
    for render_project in project_targets().values():
        outputs.extend(render_project(modules, env))
    cache = FormatCache.from_manifest(project.output_dir)
    formatted = tuple(sorted((_format(output, cache) for output in outputs), key=lambda o: o.path))
    inputs = {module.schema_path: module.schema_sha256 for module in modules}
    for module in modules:
        inputs[f"{project.relative(project.fixtures_dir)}/{module.name}"] = fixtures.digest(
            project.fixtures_dir, module.name
        )
    inputs["templates"] = templates_digest()
    return Build(modules, formatted, dict(sorted(inputs.items())), chosen)


def _format(output: OutputFile, cache: FormatCache) -> OutputFile:
    if output.kind != "python":
        return output
    rendered_sha256 = hashlib.sha256(output.text.encode("utf-8")).hexdigest()
    text = cache.lookup(output.path, rendered_sha256)
    if text is None:
        text = format_python(output.text, output.path)
    return replace(output, text=text, rendered_sha256=rendered_sha256)


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
