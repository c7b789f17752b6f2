"""Skip a no-op `generate`/`check`: a stamp of every input and output, kept outside the project.

After a `polytype generate` of every module, or a `polytype check` that found
nothing to change, a stamp records two signatures: of the inputs (each schema
and fixture file, every file a schema's `$ref` read, every template, polytype's own source, the versions of ruff,
Jinja and the YAML loader, the configured directories) and of the output
directory (every file, as the writer left it). Signatures are built from file
names, sizes and modification times (in nanoseconds), like git's index, so
computing them reads no file. Names, sizes and times can be forged (an edit of
the same size with the old mtime put back), so a matching stamp is not trusted
alone: the bytes of `manifest.json` must hash to what the stamp recorded, and
every file the manifest lists must hash to the manifest's sha256. Only when all
of that holds would nothing a run could do change a byte, and the command answers
at once, without importing the generator (see generator/polytype/entry.py).

Stamps live in the user's cache directory (generator/polytype/project/cachedir.py: `$POLYTYPE_CACHE_DIR`,
else the platform's, from platformdirs), one small file per output directory, never
in the project. `POLYTYPE_NO_CACHE=1` turns them off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import polytype
from polytype.cachedir import cache_dir
from polytype.package_data import template_root
from polytype.project.config import Project

# Directories tools create next to generated code (kept in step with writer._ignored).
_IGNORED_DIRS = frozenset(
    {"__pycache__", "_build", "deps", ".mypy_cache", ".pytest_cache", ".elixir_ls"}
)
_DEPENDENCIES = ("ruff", "jinja2", "ruamel.yaml", "yaml", "jsonschema")


@dataclass(frozen=True)
class Stamp:
    inputs: str
    outputs: str
    manifest: str  # sha256 of manifest.json's bytes
    modules: int
    files: int


def enabled() -> bool:
    return os.environ.get("POLYTYPE_NO_CACHE", "") in ("", "0")


def _stamp_path(project: Project) -> Path:
    key = hashlib.sha256(str(project.output_dir.resolve()).encode()).hexdigest()[:32]
    return cache_dir() / "stamps" / f"{key}.json"


def _walk(root: Path, digest: hashlib._Hash, prune: frozenset[str] = frozenset()) -> None:
    """Feed every file under `root` (relative name, size, mtime) into `digest`, sorted."""
    entries: list[str] = []
    stack = [(str(root), "")]
    while stack:
        directory, relative = stack.pop()
        try:
            scanned = list(os.scandir(directory))
        except OSError:
            entries.append(f"{relative}\0missing")
            continue
        for entry in scanned:
            name = relative + entry.name
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in prune:
                    stack.append((entry.path, name + "/"))
            elif not entry.name.endswith(".pyc"):
                try:
                    info = entry.stat()
                except OSError:
                    continue
                entries.append(f"{name}\0{info.st_size}\0{info.st_mtime_ns}")
    digest.update(str(root).encode() + b"\0")
    digest.update("\n".join(sorted(entries)).encode("utf-8", "surrogateescape"))


def inputs_signature(project: Project) -> str:
    """Everything a build reads, by name, size and modification time: what
    `base_signature` covers, and the files the schemas' `$ref`s read (which may lie
    anywhere; the manifest lists them)."""
    digest = hashlib.sha256(base_signature(project).encode())
    for name in sorted(_references(project)):
        try:
            info = os.stat(project.root / name)
            digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(f"{name}\0missing\n".encode())
    return digest.hexdigest()


def _references(project: Project) -> dict[str, str]:
    """path -> sha256 of each file the last build's `$ref`s read, from its manifest."""
    try:
        manifest = json.loads((project.output_dir / "manifest.json").read_bytes())
        references = manifest.get("references", {})
        return {str(k): str(v) for k, v in references.items()}
    except (OSError, ValueError, AttributeError):
        return {}


def base_signature(project: Project) -> str:
    """polytype itself, its dependencies, the schema, fixture and output directories."""
    digest = hashlib.sha256(f"polytype {polytype.__version__}\0".encode())
    package = Path(polytype.__file__).resolve().parent
    _walk(package, digest, frozenset({"__pycache__"}))
    templates = Path(str(template_root())).resolve()
    if not templates.is_relative_to(package):
        _walk(templates, digest)
    for name in _DEPENDENCIES:
        with contextlib.suppress(ImportError, ValueError, OSError):
            spec = find_spec(name)
            origin = spec.origin if spec is not None else None
            if origin:
                info = os.stat(origin)
                digest.update(f"{name}\0{origin}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    digest.update(f"{sys.version_info[:2]}\0".encode())
    for directory in (project.schema_dir, project.fixtures_dir):
        _walk(directory, digest)
    digest.update(str(project.output_dir.resolve()).encode())
    return digest.hexdigest()


def outputs_signature(project: Project) -> str:
    digest = hashlib.sha256()
    _walk(project.output_dir, digest, _IGNORED_DIRS)
    return digest.hexdigest()


def read(project: Project) -> Stamp | None:
    try:
        data = json.loads(_stamp_path(project).read_text(encoding="utf-8"))
        return Stamp(
            str(data["inputs"]),
            str(data["outputs"]),
            str(data["manifest"]),
            int(data["modules"]),
            int(data["files"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def unchanged(project: Project) -> Stamp | None:
    """The stamp, when neither inputs nor outputs changed since it was written."""
    if not enabled():
        return None
    stamp = read(project)
    if stamp is None:
        return None
    if stamp.outputs != outputs_signature(project) or stamp.inputs != inputs_signature(project):
        return None
    if not _contents_match(project, stamp):
        return None
    return stamp


def _sha256_file(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _contents_match(project: Project, stamp: Stamp) -> bool:
    """Every output's bytes are what the manifest says, and the manifest is what the stamp saw.

    Reads every generated file (a few MB, milliseconds): a stamp of names, sizes and
    times cannot see an edit of the same size whose mtime was put back.
    """
    try:
        manifest_bytes = (project.output_dir / "manifest.json").read_bytes()
        if hashlib.sha256(manifest_bytes).hexdigest() != stamp.manifest:
            return False
        outputs = json.loads(manifest_bytes)["outputs"]
        for entry in outputs:
            if _sha256_file(project.output_dir / entry["path"]) != entry["sha256"]:
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def write(project: Project, before: str) -> None:
    """Record the current outputs as what the inputs produce. `before` is the
    `base_signature` taken before the run; the files `$ref`s read must still hold the
    bytes the manifest records."""
    if not enabled() or before != base_signature(project):
        return  # an input changed while the run was going on: no stamp
    try:
        for name, sha256 in _references(project).items():
            if _sha256_file(project.root / name) != sha256:
                return  # a referenced file changed while the run was going on
        inputs = inputs_signature(project)
        manifest_bytes = (project.output_dir / "manifest.json").read_bytes()
        outputs = json.loads(manifest_bytes)["outputs"]
        for entry in outputs:  # the run just wrote or compared them; nothing may differ now
            if _sha256_file(project.output_dir / entry["path"]) != entry["sha256"]:
                return
        modules = len({entry["module"] for entry in outputs if entry.get("module")})
        stamp = {
            "inputs": inputs,
            "outputs": outputs_signature(project),
            "manifest": hashlib.sha256(manifest_bytes).hexdigest(),
            "modules": modules,
            "files": len(outputs) + 1,
        }
        path = _stamp_path(project)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(stamp), encoding="utf-8")
        os.replace(temporary, path)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # a cache: failing to write it only costs the next run its shortcut


def forget(project: Project) -> None:
    with contextlib.suppress(OSError):
        _stamp_path(project).unlink()
