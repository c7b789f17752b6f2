"""The only code that writes to the output directory.

It compares what a build produced with what is on disk, then writes changed
files atomically (temporary file + rename, so a killed run leaves each file
old or new, never partial), removes stale ones, and writes `manifest.json`
last. A lock on the output directory keeps concurrent runs from interleaving.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import filelock

from generator import __version__
from generator.cachedir import cache_dir
from generator.pipeline import Build
from generator.targets import OutputFile

MANIFEST = "manifest.json"


class OutputError(Exception):
    """The operating system refused a write (read-only directory, full disk, ...): not a bug."""

    def __init__(self, path: Path, cause: OSError) -> None:
        super().__init__(f"{path}: {cause.strerror or cause}")
        self.path = path
        self.cause = cause


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Report an OSError raised inside as an `OutputError` naming `path`."""
    try:
        yield
    except OSError as error:
        raise OutputError(path, error) from error


@dataclass(frozen=True)
class Change:
    path: str  # relative to the output directory
    action: str  # "write" (new), "update" or "remove"


@dataclass(frozen=True)
class Plan:
    """What a build would change on disk, and the full expected contents."""

    expected: dict[str, str]  # path -> text, including manifest.json
    changes: tuple[Change, ...]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read_manifest(output_dir: Path) -> dict[str, object]:
    try:
        loaded = json.loads((output_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _previous_owners(manifest: dict[str, object]) -> dict[str, str]:
    """path -> module of every output the previous run recorded."""
    outputs = manifest.get("outputs")
    owners: dict[str, str] = {}
    if isinstance(outputs, list):
        for entry in outputs:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                owners[entry["path"]] = str(entry.get("module", ""))
    return owners


def plan(build: Build, output_dir: Path) -> Plan:
    previous = _read_manifest(output_dir)
    owners = _previous_owners(previous)
    expected: dict[str, str] = {output.path: output.text for output in build.outputs}
    schema_of = {module.name: module.schema_path for module in build.modules}
    entries = [_entry(output, schema_of.get(output.module, "")) for output in build.outputs]
    # Outputs of modules this run did not select are kept as they are.
    module_names = {module.name for module in build.modules}
    for path, module in owners.items():
        if path in expected or module in build.selected or module not in module_names:
            continue
        existing = output_dir / path
        if existing.is_file():
            text = existing.read_text(encoding="utf-8")
            expected[path] = text
            entries.append(_previous_entry(previous, path) | {"sha256": sha256_text(text)})
    manifest = {
        "generator": "polytype",
        "version": __version__,
        "inputs": build.inputs,
        "outputs": sorted(entries, key=lambda e: str(e["path"])),
    }
    expected[MANIFEST] = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    changes: list[Change] = []
    for path in sorted(expected):
        target = output_dir / path
        if not target.is_file():
            changes.append(Change(path, "write"))
        elif target.read_bytes() != expected[path].encode("utf-8"):
            changes.append(Change(path, "update"))
    for path in sorted(_files_under(output_dir)):
        if path not in expected:
            changes.append(Change(path, "remove"))
    return Plan(expected, tuple(changes))


def _previous_entry(manifest: dict[str, object], path: str) -> dict[str, object]:
    outputs = manifest.get("outputs")
    if isinstance(outputs, list):
        for entry in outputs:
            if isinstance(entry, dict) and entry.get("path") == path:
                return dict(entry)
    return {"path": path}


def _entry(output: OutputFile, schema_path: str) -> dict[str, object]:
    """The manifest's record of one output: where it came from and its hash (the provenance
    generated files themselves leave out, so their bytes change only with their content)."""
    entry: dict[str, object] = {
        "path": output.path,
        "target": output.target,
        "module": output.module,
        "sha256": sha256_text(output.text),
    }
    if schema_path:
        entry["schema"] = schema_path
    return entry


def _files_under(output_dir: Path) -> list[str]:
    if not output_dir.is_dir():
        return []
    found = []
    for path in output_dir.rglob("*"):
        relative = path.relative_to(output_dir).as_posix()
        if path.is_file() and not _ignored(relative):
            found.append(relative)
    return found


def _ignored(relative: str) -> bool:
    """Files tools create next to generated code: caches and build products, never ours."""
    parts = relative.split("/")
    return any(
        part in {"__pycache__", "_build", "deps", ".mypy_cache", ".pytest_cache", ".elixir_ls"}
        for part in parts
    ) or relative.endswith(".pyc")


@contextlib.contextmanager
def locked(output_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output directory for the duration of a write.

    The lock file lives in the user's cache directory, keyed by the output directory's
    real path, so the user's tree holds nothing polytype did not generate. filelock
    makes it portable (flock on POSIX, msvcrt on Windows).
    """
    with _writing(output_dir):
        output_dir.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(str(output_dir.resolve()).encode("utf-8")).hexdigest()[:32]
    locks = cache_dir() / "locks"
    try:
        locks.mkdir(parents=True, exist_ok=True)
    except OSError:  # no writable cache directory (a read-only home): the system's temp dir
        locks = Path(tempfile.gettempdir()) / "polytype-locks"
        locks.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(locks / f"{key}.lock"):
        yield


def apply(plan_: Plan, output_dir: Path) -> None:
    """Carry out a plan: atomic writes, then removals, then the manifest."""
    writes = [c for c in plan_.changes if c.action in ("write", "update") and c.path != MANIFEST]
    _write_all_atomic([(output_dir / c.path, plan_.expected[c.path]) for c in writes])
    for change in plan_.changes:
        if change.action == "remove":
            target = output_dir / change.path
            with _writing(target):
                target.unlink(missing_ok=True)
                _remove_empty_parents(target.parent, output_dir)
    if any(c.path == MANIFEST for c in plan_.changes):
        with _writing(output_dir / MANIFEST):
            _write_atomic(output_dir / MANIFEST, plan_.expected[MANIFEST])


def _write_all_atomic(files: list[tuple[Path, str]]) -> None:
    """Write every file to a temporary sibling, then rename each into place.

    No file is renamed before all are written, and a rename is atomic, so a failed run
    leaves every file old or new, never partial. There is no fsync: generated files are
    derived data that `polytype check` verifies and `polytype generate` rebuilds, and one
    fsync per file cost more than the rest of a 1,000-type generate. Without fsync the
    writes are cheap enough that threads gain nothing.
    """
    for directory in sorted({target.parent for target, _ in files}):
        with _writing(directory):
            directory.mkdir(parents=True, exist_ok=True)
    temporaries: list[str] = []
    current = Path()
    try:
        for current, text in files:
            temporaries.append(_write_temporary(current, text))
        for (current, _), temporary in zip(files, temporaries, strict=True):
            os.replace(temporary, current)
    except BaseException as error:
        for temporary in temporaries:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(current, error) from error
        raise


def _write_temporary(target: Path, text: str) -> str:
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.chmod(temporary, 0o644)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _write_atomic(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(_write_temporary(target, text), target)


def _remove_empty_parents(directory: Path, stop: Path) -> None:
    while directory != stop and directory.is_dir() and not any(directory.iterdir()):
        directory.rmdir()
        directory = directory.parent


def unified_diff(plan_: Plan, output_dir: Path) -> str:
    """The differences between disk and the expected output, as one unified diff."""
    chunks: list[str] = []
    for change in plan_.changes:
        target = output_dir / change.path
        old = target.read_text(encoding="utf-8", errors="replace") if target.is_file() else ""
        new = plan_.expected.get(change.path, "")
        old_name = f"a/{change.path}" if change.action != "write" else "/dev/null"
        new_name = f"b/{change.path}" if change.action != "remove" else "/dev/null"
        chunks.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True), old_name, new_name
            )
        )
        if chunks and not chunks[-1].endswith("\n"):
            chunks[-1] += "\n"
    return "".join(chunks)
