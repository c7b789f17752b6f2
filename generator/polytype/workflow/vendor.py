"""`polytype vendor`: copy one generated Python file into another repository.

The file is rendered in memory from the current schema (never copied from
`generated/`, which may be stale), with its runtime inlined (the project's own flavor
files import theirs from the package's `_runtime.py`), so it imports with the standard
library alone (plus pydantic for that flavor), and gets a provenance header naming the
polytype version, schema path and sha256, and flavor. `--check` compares the
vendored copy with what would be written now, so the other repository's CI
can fail when the schema moved on.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from polytype import __version__
from polytype.project.config import Project
from polytype.project.pipeline import build
from polytype.workflow.errors import WorkflowError
from polytype.workflow.files import write_atomic

FLAVORS = {
    "dataclasses": "dataclass_models.py",
    "typeddicts": "typed_dicts.py",
    "pydantic": "pydantic_models.py",
}


@dataclass(frozen=True)
class Vendored:
    """The text to vendor and where it is meant to go."""

    module: str
    flavor: str
    text: str
    target: Path


def render(project: Project, module: str, flavor: str, dest: str) -> Vendored:
    """The vendored file for `module`/`flavor`, with its header, and its path under `dest`."""
    if flavor not in FLAVORS:
        raise WorkflowError(f"unknown flavor {flavor!r} (known: {', '.join(FLAVORS)})")
    # inlined: the vendored file carries its runtime and imports nothing generated
    result = build(project, [module], inline_runtime=True, keep_modules=True)
    package = f"{project.python_package}/{module}" if project.python_package else module
    wanted = f"python/{package}/{FLAVORS[flavor]}"
    output = next((o for o in result.outputs if o.path == wanted), None)
    text = None if output is None else result.text(output)
    result.close()
    if text is None:
        raise WorkflowError(
            f"polytype {__version__} does not generate the {flavor} flavor "
            f"({project.relative(project.output_dir)}/{wanted}) for module {module!r}"
        )
    lowered = next(m for m in result.modules if m.name == module)
    header = provenance(module, flavor, lowered.schema_path, lowered.schema_sha256)
    return Vendored(module, flavor, header + text, target(dest, module, flavor))


def provenance(module: str, flavor: str, schema_path: str, schema_sha256: str) -> str:
    return (
        f"# Vendored by polytype {__version__}. DO NOT EDIT; refresh with\n"
        f"#   polytype vendor {module} --flavor {flavor} --dest <this file>\n"
        f"# polytype-version: {__version__}\n"
        f"# schema: {schema_path}\n"
        f"# schema-sha256: {schema_sha256}\n"
        f"# flavor: {flavor}\n"
    )


def target(dest: str, module: str, flavor: str) -> Path:
    """`dest` itself, or `<dest>/<module>_<file>` when `dest` is a directory (or ends in `/`)."""
    path = Path(dest)
    if path.is_dir() or dest.endswith(("/", "\\")):
        return path / f"{module}_{FLAVORS[flavor]}"
    return path


HEADER = "# Vendored by polytype "


def write(vendored: Vendored, force: bool = False) -> bool:
    """Write the file when its bytes change; True when it was written.

    An existing file is replaced only when it is a vendored copy (it starts with
    polytype's provenance header), or with `force`: a mistyped `--dest` must not
    replace someone's hand-written module.
    """
    if vendored.target.exists() and not vendored.target.is_file():
        raise WorkflowError(f"{vendored.target}: not a regular file; refusing to replace it")
    try:
        current = _read(vendored.target)
    except WorkflowError:
        if not force:
            raise
        current = None
    if current == vendored.text:
        return False
    if vendored.target.exists() and not force and not (current or "").startswith(HEADER):
        raise WorkflowError(
            f"{vendored.target} exists and is not a copy vendored by polytype (no "
            f"{HEADER.strip()!r} header); refusing to overwrite it (--force replaces it)"
        )
    write_atomic(vendored.target, vendored.text)
    return True


def stale_diff(vendored: Vendored) -> str | None:
    """None when the vendored copy is current; else a unified diff (vendored → expected),
    empty when there is no vendored copy at all."""
    current = _read(vendored.target)
    if current == vendored.text:
        return None
    if current is None:
        return ""
    name = vendored.target.as_posix()
    lines = difflib.unified_diff(
        current.splitlines(keepends=True),
        vendored.text.splitlines(keepends=True),
        f"a/{name}",
        f"b/{name}",
    )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return text


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise WorkflowError(f"{path}: cannot read the vendored file: {error}") from None
