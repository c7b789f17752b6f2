"""Which schema files a `generate`/`check` run reads: the schema directory, or files named
on the command line (`polytype generate PATH.yaml…`, `-` for standard input)."""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError
from polytype.project.config import Project

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"
# How a schema read from standard input is shown in diagnostics, the manifest and the docs.
STDIN_DISPLAY = "<stdin>"


def is_path(argument: str) -> bool:
    """A command-line argument that names a schema file rather than a module."""
    return (
        argument == STDIN
        or argument.endswith(SCHEMA_SUFFIXES)
        or "/" in argument
        or "\\" in argument
        or Path(argument).is_file()
    )


def split_modules_and_paths(arguments: list[str]) -> tuple[list[str], list[str]]:
    """(module names, schema paths) from `generate`'s positional arguments, in their order."""
    return (
        [argument for argument in arguments if not is_path(argument)],
        [argument for argument in arguments if is_path(argument)],
    )


@contextlib.contextmanager
def schema_sources(paths: list[str]) -> Iterator[list[tuple[Path, str]]]:
    """(file, display name) for each path; standard input is copied to a temporary file
    named `stdin.yaml` (so its module is `stdin` unless `x-polytype: module` says otherwise)
    that lives as long as the context."""
    if paths.count(STDIN) > 1:
        raise _usage("standard input (-) can be read only once")
    with tempfile.TemporaryDirectory(prefix="polytype-stdin-") as scratch:
        found: list[tuple[Path, str]] = []
        for argument in paths:
            if argument == STDIN:
                copy = Path(scratch) / "stdin.yaml"
                copy.write_bytes(sys.stdin.buffer.read())
                found.append((copy, STDIN_DISPLAY))
            else:
                path = Path(argument)
                if not path.is_file():
                    raise _usage(f"no such schema file: {argument}", argument)
                found.append((path, ""))
        yield found


def scoped(
    project: Project,
    output_dir: Path | None,
    schemas: list[tuple[Path, str]],
    modules: list[str],
) -> tuple[Project, list[str]]:
    """The project as this run sees it, and the modules it selects.

    A schema file inside the schema directory selects its module, as its name would.
    Files outside it (or standard input) are the whole schema set of this run: they are
    rendered alone, into `--output-dir` when the project is configured (so a one-off file
    never rewrites the project's own output).
    """
    inside: list[str] = []
    outside: list[tuple[Path, str]] = []
    schema_dir = project.schema_dir.resolve()
    for path, display in schemas:
        if not display and path.resolve().parent == schema_dir:
            inside.append(project.relative(path))
        else:
            outside.append((path, display))
    if outside and (inside or modules):
        raise _usage(
            "name either modules of this project or schema files outside "
            f"{project.relative(project.schema_dir)}/, not both"
        )
    if outside and project.configured and output_dir is None:
        shown = outside[0][1] or outside[0][0].as_posix()
        raise _usage(
            f"{shown} is not in this project's schema directory "
            f"({project.relative(project.schema_dir)}/); give --output-dir DIR to render it on its own",
            shown,
        )
    explicit = tuple(path for path, _ in outside) if outside else None
    displays = {path: display for path, display in outside if display}
    return project.with_overrides(output_dir, explicit, displays), modules + inside


def _usage(message: str, where: str = "") -> InputError:
    return InputError([Diagnostic(where or "polytype", UNKNOWN_POSITION, "", message)])
