"""What a build reads besides the schema files: the templates (the built-ins and the
user's `templates` directory) and each module's fixtures, hashed for the manifest so
that `check` calls output stale when any of them changes. Shared by the serial build
(`pipeline`) and the streamed one (`streaming`)."""

from __future__ import annotations

import hashlib
from importlib.abc import Traversable
from pathlib import Path

from polytype import __version__
from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError
from polytype.package_data import template_root
from polytype.project import fixtures
from polytype.project.config import Project


def project_inputs(project: Project, schema_paths: dict[str, str]) -> dict[str, str]:
    """The hashes of what a build read besides the schema files (`schema_paths`: every
    module's, by name): each module's fixtures and the templates."""
    inputs: dict[str, str] = {}
    for name in schema_paths:
        inputs[f"{project.relative(project.fixtures_dir)}/{name}"] = fixtures.digest(
            project.fixtures_dir, name
        )
    inputs["templates"] = templates_digest(project.templates_dir)
    return inputs


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
        entries.extend(template_files(root_prefix, root))
    for name, data in sorted(entries):
        hasher.update(name.encode() + b"\0" + data)
    return hasher.hexdigest()


def template_files(root_prefix: str, root: Traversable) -> list[tuple[str, bytes]]:
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
