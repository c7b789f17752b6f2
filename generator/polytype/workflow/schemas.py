"""Find a module's schema in a project: its IR and its parsed document, together."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from polytype import ir
from polytype.compile import read_schema
from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError
from polytype.ir.formats import NO_FORMATS
from polytype.project.config import Project
from polytype.reading.loader import Document
from polytype.targets import name_checks
from polytype.targets.python import names as python_names
from polytype.workflow.errors import WorkflowError


@dataclass(frozen=True)
class Schema:
    """A lowered module and the document it came from (raw data, source positions)."""

    module: ir.Module
    document: Document


def project_schema(project: Project, name: str) -> Schema:
    """The schema of module `name`; every schema of the project must be valid (``InputError``).

    The same checks as ``load_modules`` (all problems of all files, unique module
    names), keeping each module's document so no file is parsed twice.
    """
    problems: list[Diagnostic] = []
    found: dict[str, Schema] = {}
    for path in project.schema_files():
        try:
            schema = schema_file(path, project.relative(path), project)
        except InputError as error:
            problems.extend(error.diagnostics)
            continue
        module = schema.module
        if module.name in found:
            problems.append(
                Diagnostic(
                    module.schema_path,
                    UNKNOWN_POSITION,
                    "/x-polytype/module",
                    f"module name {module.name!r} is also used by {found[module.name].module.schema_path}",
                )
            )
        found.setdefault(module.name, schema)
    if problems:
        raise InputError(problems)
    if name not in found:
        known = ", ".join(sorted(found)) or "none"
        raise WorkflowError(f"no schema defines module {name!r} (known: {known})")
    return found[name]


def schema_file(path: Path, display_path: str, project: Project | None = None) -> Schema:
    """Load, validate and lower one schema file (``InputError`` if invalid); strict unless
    the project says otherwise, with the project's `unknown-tags` and
    `unknown-enum-values` defaults."""
    strict = project.strict if project is not None else True
    read = read_schema(
        path,
        display_path,
        strict,
        project.ref_map if project else None,
        project.unknown_tags if project else "reject",
        project.formats if project else NO_FORMATS,
        unknown_enum_values=project.unknown_enum_values if project else "reject",
        name_checks=name_checks(),
    )
    return Schema(read.module, read.document)


def record_type(module: ir.Module, requested: str | None) -> str:
    """The type recorded values are read as: `requested` (the schema's name for it, or
    its Python class), else the module's root type."""
    if requested is None:
        if module.root is None:
            raise WorkflowError(
                f"module {module.name!r} has no root type (x-polytype: root); pass --type"
            )
        return module.root
    names = [named.name for named in module.types]
    by_class = {python: name for name, python in python_names.type_names(module).items()}
    if requested not in names and requested in by_class:
        return by_class[requested]
    if requested not in names:
        close = difflib.get_close_matches(requested, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise WorkflowError(f"module {module.name!r} has no type {requested!r}{hint}")
    return requested
