"""The project's modules as a whole: reading one schema file the way a build does, and the
checks that look at every module at once (unique names, the selected modules, names the
`python-package` keeps for itself), on the little they need of each module, so that a
build that never holds every module's IR can make them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from polytype import ir
from polytype.compile import Read, read_schema
from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError
from polytype.ir.fixtures import FixtureCase
from polytype.project.config import Project
from polytype.project.rendering import collector_paused
from polytype.reading.loader import Document
from polytype.targets import name_checks
from polytype.targets.python import names as python_names


def read_one(project: Project, path: Path, scans: dict[Path, dict[str, Path]]) -> Read:
    """One schema file read, validated and lowered with the project's settings, its module
    carrying the references it read; ``InputError`` with all its problems. `scans`: the
    schema directories' `$id`s, shared by the files a process reads."""
    with collector_paused():  # (see rendering.collector_paused)
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
    return replace(read, module=replace(read.module, references=tuple(references)))


@dataclass(frozen=True)
class Naming:
    """What the check for unique module names needs of a module: its name and schema file,
    whether the file sets the name (`x-polytype: module`) and where a clash is blamed on it."""

    name: str
    schema_path: str
    explicit: bool
    blame: Diagnostic  # its message left empty


def naming(module: ir.Module, document: Document) -> Naming:
    options = document.data.get("x-polytype")
    explicit = isinstance(options, dict) and "module" in options
    blame = document.diagnostic("/x-polytype/module" if explicit else "", "")
    return Naming(module.name, module.schema_path, explicit, blame)


def duplicate_names(namings: Sequence[Naming]) -> list[Diagnostic]:
    """A problem for each module whose name an earlier one (in file order) has, blamed on
    the file that sets the name explicitly (its x-polytype: module line)."""
    problems: list[Diagnostic] = []
    names: dict[str, Naming] = {}
    for module in namings:
        first = names.setdefault(module.name, module)
        if first is module:
            continue
        blamed, other = module, first
        if first.explicit and not module.explicit:
            blamed, other = first, module
        problems.append(
            replace(
                blamed.blame,
                message=f"module name {module.name!r} is also used by {other.schema_path}",
            )
        )
    return problems


def chosen_modules(
    project: Project, selected: list[str] | None, schema_paths: dict[str, str]
) -> frozenset[str]:
    """The modules a run renders: those `selected` (by name, or by schema file: `generate
    schema/x.yaml`), all when None; `schema_paths` is every module's (name → file).
    ``InputError`` for a name no schema defines."""
    known = set(schema_paths)
    if not selected:
        return frozenset(known)
    by_path = {path: name for name, path in schema_paths.items()}
    selected = [by_path.get(name, name) for name in selected]
    unknown = sorted(set(selected) - known)
    if unknown:
        raise InputError(
            [
                Diagnostic(
                    project.relative(project.schema_dir),
                    UNKNOWN_POSITION,
                    "",
                    f"no schema defines module {name!r} (known: {', '.join(sorted(known)) or 'none'})",
                )
                for name in unknown
            ]
        )
    return frozenset(selected)


# The modules beside the flavors' subpackages in a `python-package`.
_PACKAGE_MODULES = frozenset({"_runtime", "_pydantic_runtime", "__init__"})


def check_package_names(project: Project, schema_paths: dict[str, str]) -> None:
    """A schema module named like a module of the `python-package` itself is refused
    (`schema_paths`: every module's file, by its name, in module order)."""
    if project.python_package is None:
        return
    clashing = [name for name in schema_paths if name in _PACKAGE_MODULES]
    if clashing:
        raise InputError(
            [
                Diagnostic(
                    schema_paths[name],
                    UNKNOWN_POSITION,
                    "",
                    f"module name {name!r} is taken by the runtime of "
                    f"python-package {project.python_package!r}; name the module otherwise "
                    "(x-polytype: module)",
                )
                for name in clashing
            ]
        )


def by_type_name(module: ir.Module, cases: tuple[FixtureCase, ...]) -> tuple[FixtureCase, ...]:
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
