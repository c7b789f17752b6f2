"""Schema versions for `polytype diff`: a file path, or `REV:path` read with `git show`."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from polytype.project.config import Project
from polytype.workflow.errors import WorkflowError
from polytype.workflow.schemas import Schema, schema_file


def load_version(spec: str, repository: Path, project: Project | None = None) -> Schema:
    """The schema `spec` names: an existing file, else `REV:path` in the git repository.
    Read as `project` reads its schemas (strict or not, its `unknown-tags` default)."""
    path = Path(spec)
    if path.is_file():
        return schema_file(path, spec, project)
    revision, separator, inside = spec.partition(":")
    if not separator or not revision or not inside:
        raise WorkflowError(f"{spec}: no such file (a git revision is spelled REV:path)")
    text = _git_show(revision, inside, repository, spec)
    with tempfile.TemporaryDirectory(prefix="polytype-diff-") as directory:
        copy = Path(directory) / Path(inside).name
        copy.write_bytes(text)
        return schema_file(copy, spec, project)


def _git_show(revision: str, inside: str, repository: Path, spec: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", "show", f"{revision}:{inside}"],
            cwd=repository,
            capture_output=True,
            check=False,
            timeout=60,
        )
    except FileNotFoundError:
        raise WorkflowError(f"{spec}: git is not installed, cannot read a revision") from None
    except subprocess.TimeoutExpired:
        raise WorkflowError(f"{spec}: git show timed out") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise WorkflowError(f"{spec}: git show failed: {message[0] if message else 'no output'}")
    return done.stdout
