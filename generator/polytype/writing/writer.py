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
import re
import tempfile
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import filelock

from polytype import __version__
from polytype.cachedir import cache_dir
from polytype.diagnostics import printable
from polytype.writing.build import Build
from polytype.writing.spool import SpooledFile, Stored

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
class Expected:
    """One file as it is to be: its hash, and where its bytes are (the build's spool, or
    the file itself where an output is kept as it is)."""

    sha256: str
    source: Stored


@dataclass(frozen=True)
class Plan:
    """What a build would change on disk, and the full expected contents."""

    expected: dict[str, Expected]  # path -> its contents, manifest.json included
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = ()  # files left alone: hand-edited stale output, others' files


def _read_manifest(output_dir: Path) -> dict[str, object]:
    try:
        loaded = json.loads((output_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    # a manifest.json that some other tool wrote is not polytype's record
    return loaded if isinstance(loaded, dict) and loaded.get("generator") == "polytype" else {}


def _previous_owners(manifest: dict[str, object]) -> dict[str, str]:
    """path -> module of every output the previous run recorded."""
    outputs = manifest.get("outputs")
    owners: dict[str, str] = {}
    if isinstance(outputs, list):
        for entry in outputs:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                if _safe_relative(entry["path"]):
                    owners[entry["path"]] = str(entry.get("module", ""))
    return owners


def plan(build: Build, output_dir: Path, force: bool = False) -> Plan:
    """What writing `build` to `output_dir` would change.

    Only polytype's own output is ever overwritten or removed: a file the previous
    manifest lists (removed only while its bytes still match the manifest's hash, so a
    hand-edited stale file is kept and reported unless `force`). Any other file is left
    alone; one in a path this build writes is refused (`WriteRefused`) unless `force`.
    A directory with files polytype did not write and no manifest is refused outright.
    """
    previous = _read_manifest(output_dir)
    owners = _previous_owners(previous)
    recorded = _recorded_hashes(previous)
    expected = {output.path: Expected(output.sha256, output.source) for output in build.outputs}
    schema_of = build.schema_paths
    entries = [_entry(output, schema_of.get(output.module, "")) for output in build.outputs]
    # Outputs of modules this run did not select are kept as they are.
    module_names = set(build.schema_paths)
    for path, module in owners.items():
        if path in expected or module in build.selected or module not in module_names:
            continue
        existing = output_dir / path
        if existing.is_file():
            sha256 = _file_sha256(existing)  # kept byte for byte, even when not UTF-8
            expected[path] = Expected(sha256, existing)
            entries.append(_previous_entry(previous, path) | {"sha256": sha256})
    on_disk = sorted(_files_under(output_dir))
    has_manifest = bool(previous)
    foreign: list[str] = []
    kept: list[str] = []
    removals: list[str] = []
    for path in on_disk:
        if path == MANIFEST:
            if has_manifest:
                continue  # polytype's own record, rewritten below
        elif path in expected and _same(output_dir / path, expected[path]):
            continue
        if path in recorded:
            if path in expected:
                continue  # polytype's own output, regenerated below
            if force or recorded[path] == _file_sha256(output_dir / path):
                removals.append(path)
            else:
                kept.append(path)
        elif _temporary_of(path, recorded.keys() | expected.keys()):
            removals.append(path)  # left behind by a run that was killed mid-write
        else:
            foreign.append(path)
    # a kept stale file stays on record, so that a later `--force` may still remove it
    entries.extend(_previous_entry(previous, path) for path in kept)
    manifest = {
        "generator": "polytype",
        "version": __version__,
        "inputs": build.inputs,
        "outputs": sorted(entries, key=lambda e: str(e["path"])),
    }
    if build.references:  # files beside the schemas that their `$ref`s read
        manifest["references"] = build.references
    manifest_text = manifest_json(manifest)
    expected[MANIFEST] = Expected(*build.spool.put_bytes(manifest_text.encode("utf-8")))
    if foreign and not has_manifest:  # not even with --force: this is not an output directory
        raise WriteRefused(
            f"{output_dir} holds {len(foreign)} file(s) polytype did not write "
            f"(e.g. {printable(foreign[0])}) and no {MANIFEST}; refusing to write there. "
            "Point output-dir at a directory of its own."
        )
    if foreign and not force:
        clashing = [path for path in foreign if path in expected]
        if clashing:
            raise WriteRefused(
                f"{output_dir}/{printable(clashing[0])} was not written by polytype (it is not in "
                f"{MANIFEST}) and would be overwritten ({len(clashing)} such file(s)); "
                "move it away, or pass --force"
            )
    checked: set[Path] = set()  # folders already known to be folders (or not there yet)
    for path in expected:
        _check_place(output_dir, path, checked)
    changes: list[Change] = []
    for path in sorted(expected):
        target = output_dir / path
        if not target.is_file():
            changes.append(Change(path, "write"))
        elif not _same(target, expected[path]):
            changes.append(Change(path, "update"))
    changes.extend(Change(path, "remove") for path in removals)
    notes = tuple(
        [f"{path}: hand-edited since polytype wrote it; kept (--force removes it)" for path in kept]
        + [
            f"{path}: not written by polytype; left alone"
            for path in foreign
            if path not in expected
        ]
    )
    return Plan(expected, tuple(changes), notes)


class WriteRefused(Exception):
    """Writing would overwrite or delete something polytype did not write (exit 2)."""


def _check_place(output_dir: Path, path: str, checked: set[Path]) -> None:
    """Refuse when something that is not a directory stands where an output's folder goes,
    or something that is not a file where the output goes (it would not be replaced).
    `checked`: the folders found fine so far (each is looked at once, not once a file)."""
    target = output_dir / path
    for parent in reversed(target.relative_to(output_dir).parents[:-1]):
        place = output_dir / parent
        if place in checked:
            continue
        if place.exists() and not place.is_dir():
            raise WriteRefused(f"{place} is not a directory; {printable(path)} cannot be written")
        checked.add(place)
    if target.exists() and not target.is_file() or target.is_symlink() and not target.exists():
        raise WriteRefused(f"{target} is not a regular file; {printable(path)} cannot be written")


def _same(target: Path, expected: Expected) -> bool:
    return _file_sha256(target) == expected.sha256


def _file_sha256(target: Path) -> str:
    try:
        with target.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return "unreadable"


_TEMPORARY = re.compile(r"((?:.*/)?)\.([^/]+)\.[a-z0-9_]{8}\.tmp\Z")


def _temporary_of(path: str, outputs: Collection[str]) -> bool:
    """Whether `path` is a temporary file `_write_temporary` made for one of `outputs`
    (`<dir>/.<name>.<8 random>.tmp`), left behind by a run killed mid-write."""
    match = _TEMPORARY.match(path)
    return match is not None and match.group(1) + match.group(2) in outputs


def _safe_relative(path: str) -> bool:
    """A manifest path polytype could have written: relative, inside the output directory."""
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and "\0" not in path
        and all(part not in ("", ".", "..") for part in parts)
        and not (len(parts[0]) >= 2 and parts[0][1] == ":")
    )


def _recorded_hashes(manifest: dict[str, object]) -> dict[str, str]:
    """path -> sha256 of every output the previous manifest lists (only safe paths)."""
    outputs = manifest.get("outputs")
    hashes: dict[str, str] = {}
    if isinstance(outputs, list):
        for entry in outputs:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                if _safe_relative(entry["path"]):
                    sha = entry.get("sha256")
                    hashes[entry["path"]] = sha if isinstance(sha, str) and sha else "missing"
    return hashes


def check_location(output_dir: Path, protected: dict[str, Path]) -> None:
    """Refuse an output directory that is, or contains, something polytype must never touch:
    the project root, the schema directory (and the others in `protected`) or a `.git`
    directory; or that lies inside a `.git` directory."""
    output = output_dir.resolve()
    if output.exists() and not output.is_dir():
        raise WriteRefused(f"output directory {output_dir} is not a directory")
    if ".git" in output.parts:
        raise WriteRefused(f"output directory {output_dir} is inside a .git directory")
    for what, path in protected.items():
        resolved = path.resolve()
        if resolved == output or output in resolved.parents:
            relation = "is" if resolved == output else "contains"
            raise WriteRefused(
                f"output directory {output_dir} {relation} the {what} ({path}); "
                "set output-dir in [tool.polytype] to a directory of its own"
            )
    if output.is_dir():
        for directory, subdirectories, files in os.walk(output):
            if ".git" in subdirectories or ".git" in files:
                found = Path(directory, ".git")
                raise WriteRefused(
                    f"output directory {output_dir} contains a git repository ({found}); "
                    "set output-dir in [tool.polytype] to a directory of its own"
                )
            subdirectories[:] = [d for d in subdirectories if not _ignored(d)]


def manifest_json(manifest: Mapping[str, object]) -> str:
    """The manifest's text: indented, but one line per output (a large project lists
    tens of thousands; one line each keeps the file small and its diffs one line a file)."""
    parts = []
    for key, value in manifest.items():
        if key == "outputs" and isinstance(value, list) and value:
            lines = ",\n".join(f"    {json.dumps(entry)}" for entry in value)
            text = f"[\n{lines}\n  ]"
        else:
            text = json.dumps(value, indent=2).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _previous_entry(manifest: dict[str, object], path: str) -> dict[str, object]:
    outputs = manifest.get("outputs")
    if isinstance(outputs, list):
        for entry in outputs:
            if isinstance(entry, dict) and entry.get("path") == path:
                return dict(entry)
    return {"path": path}


def _entry(output: SpooledFile, schema_path: str) -> dict[str, object]:
    """The manifest's record of one output: where it came from and its hash (the provenance
    generated files themselves leave out, so their bytes change only with their content)."""
    entry: dict[str, object] = {
        "path": output.path,
        "target": output.target,
        "module": output.module,
        "sha256": output.sha256,
    }
    if schema_path:
        entry["schema"] = schema_path
    return entry


def _files_under(output_dir: Path) -> list[str]:
    if not output_dir.is_dir():
        return []
    found: list[str] = []
    for directory, subdirectories, files in os.walk(output_dir):
        base = Path(directory).relative_to(output_dir).as_posix()
        prefix = "" if base == "." else base + "/"
        subdirectories[:] = sorted(d for d in subdirectories if not _ignored(prefix + d))
        found.extend(prefix + name for name in files if not _ignored(prefix + name))
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
            _write_atomic(output_dir / MANIFEST, plan_.expected[MANIFEST].source)


def _write_all_atomic(files: list[tuple[Path, Expected]]) -> None:
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
        for current, expected in files:
            temporaries.append(_write_temporary(current, expected.source))
        for (current, _), temporary in zip(files, temporaries, strict=True):
            os.replace(temporary, current)
    except BaseException as error:
        for temporary in temporaries:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(current, error) from error
        raise


def _write_temporary(target: Path, source: Stored) -> str:
    """A temporary sibling of `target` holding a copy of `source`."""
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(source.read_bytes())
        os.chmod(temporary, 0o644)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _write_atomic(target: Path, source: Stored) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(_write_temporary(target, source), target)


def _remove_empty_parents(directory: Path, stop: Path) -> None:
    while directory != stop and directory.is_dir() and not any(directory.iterdir()):
        directory.rmdir()
        directory = directory.parent


def unified_diff(plan_: Plan, output_dir: Path) -> str:
    """The differences between disk and the expected output, as one unified diff."""
    chunks: list[str] = []
    for change in plan_.changes:
        target = output_dir / change.path
        old = _read_text(target) if target.is_file() else ""
        expected = plan_.expected.get(change.path)
        new = "" if expected is None else expected.source.read_bytes().decode("utf-8", "replace")
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


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
