"""Where a polytype project keeps its schemas, outputs and fixtures.

Read from `[tool.polytype]` in the nearest `pyproject.toml` (searching upwards
from the working directory); defaults when there is none.

```toml
[tool.polytype]
schema-dir = "schema"              # where the schemas are
output-dir = "generated"           # where polytype writes (and nothing else does)
fixtures-dir = "tests/fixtures"    # recorded JSON fixtures, one folder per module and type
targets = ["dataclasses", "typeddicts", "pydantic", "elixir", "docs"]  # default: all
templates = "polytype-templates"   # files here replace built-in templates of the same path
strict = true                      # refuse what polytype would approximate (default: warn)
unknown-tags = "keep"              # tagged unions without x-unknown keep unlisted tags (default: "reject")
unknown-enum-values = "keep"       # string enums without x-unknown keep unlisted values (default: "reject")
formats = ["date-time", "uuid"]    # formats every decoder asserts on strings (default: none)
python-package = "contracts"       # all generated Python under one package (default: none)

[tool.polytype.ref-map]            # absolute $ref URLs read from local directories
"https://example.com/schemas/" = "vendor/schemas"

[tool.polytype.modules.nano_agent]
targets = ["dataclasses"]          # this module only
formats = []                       # replaces the project's list for this module
```

`formats` names what `format` values the decoders check (`polytype.ir.formats.SUPPORTED`);
any other `format` stays an annotation, as JSON Schema has it by default.
"""

from __future__ import annotations

import contextlib
import keyword
import os
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError
from polytype.ir import UnknownPolicy
from polytype.ir.formats import NO_FORMATS, SUPPORTED, FormatChoice
from polytype.lowering.lower import IMPORTED_PACKAGES

# What a user names in `targets`, in the order outputs are rendered.
TARGETS = ("dataclasses", "typeddicts", "pydantic", "elixir", "docs")

_PATH_KEYS = {"schema-dir", "output-dir", "fixtures-dir", "templates"}
_POLICY_KEYS = ("unknown-tags", "unknown-enum-values")
_KNOWN_KEYS = _PATH_KEYS | {
    "targets",
    "modules",
    "strict",
    "ref-map",
    "formats",
    "python-package",
    *_POLICY_KEYS,
}
UNKNOWN_TAG_POLICIES: tuple[UnknownPolicy, ...] = ("reject", "keep")
_MODULE_KEYS = {"targets", "formats"}


@dataclass(frozen=True)
class Project:
    root: Path
    schema_dir: Path
    output_dir: Path
    fixtures_dir: Path
    targets: tuple[str, ...] = TARGETS
    module_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    templates_dir: Path | None = None
    # Schema files named on the command line (`generate PATH.yaml…`, `-`), instead of schema_dir,
    # and how the ones without a real path (standard input) are shown.
    explicit_schemas: tuple[Path, ...] | None = None
    display_names: Mapping[Path, str] = field(default_factory=dict)
    # True when a pyproject.toml with [tool.polytype] was found
    configured: bool = False
    # Strict: the project owns its schemas, so whatever polytype would approximate in a
    # schema it merely consumes (unknown keywords, unenforced assertions, ...) is an error.
    strict: bool = False
    # `$ref` URL prefix -> local directory, for absolute URLs no local file declares as its $id
    ref_map: Mapping[str, Path] = field(default_factory=dict)
    # `unknown-tags`: what a tagged union without `x-unknown` does with a tag it does not list
    unknown_tags: UnknownPolicy = "reject"
    # `unknown-enum-values`: what a string enum without `x-unknown` does with a value it does
    # not list
    unknown_enum_values: UnknownPolicy = "reject"
    # `formats`: the `format` values asserted, the project's and each module's own list
    formats: FormatChoice = NO_FORMATS
    # `python-package`: the one package all generated Python goes under (None: each
    # schema module is a top-level package)
    python_package: str | None = None

    def relative(self, path: Path) -> str:
        """`path` relative to the project root, with forward slashes (stable in output)."""
        if path in self.display_names:
            return self.display_names[path]
        # a link inside the project (a schema linked in from elsewhere) keeps its own path
        for inside, root in (
            (path.absolute(), self.root.absolute()),
            (path.resolve(), self.root.resolve()),
        ):
            with contextlib.suppress(ValueError):
                return inside.relative_to(root).as_posix()
        return path.as_posix()

    def input_path(self, path: Path) -> str:
        """`path` from the project root, through `..` when it lies outside (as a manifest
        records an input: the same on every machine)."""
        return Path(os.path.relpath(path.resolve(), self.root.resolve())).as_posix()

    def targets_for(self, module: str) -> tuple[str, ...]:
        """The targets `module` is rendered into: its own override, else the project's."""
        return self.module_targets.get(module, self.targets)

    def schema_files(self) -> list[Path]:
        """Every schema file, sorted by name so output never depends on directory order.

        Hidden files are not schemas (`polytype init` keeps the dialect meta-schema
        for editors in `schema/.polytype-dialect.json`).
        """
        if self.explicit_schemas is not None:
            return list(self.explicit_schemas)
        if not self.schema_dir.is_dir():
            return []
        files = [
            p
            for p in self.schema_dir.iterdir()
            if p.suffix in (".yaml", ".yml", ".json") and p.is_file() and not p.name.startswith(".")
        ]
        return sorted(files, key=lambda p: p.name)

    def with_overrides(
        self,
        output_dir: Path | None = None,
        schemas: tuple[Path, ...] | None = None,
        display_names: Mapping[Path, str] | None = None,
        strict: bool = False,
    ) -> Project:
        """This project with `--output-dir` and schema files from the command line applied."""
        changed = replace(self, strict=True) if strict else self
        if output_dir is not None:
            changed = replace(changed, output_dir=output_dir.resolve())
        if schemas is not None:
            changed = replace(changed, explicit_schemas=schemas, display_names=display_names or {})
        return changed


class ProjectError(Exception):
    """The project itself cannot be used: no such directory, no schemas (exit 2)."""


def find_project(start: Path | None = None) -> Project:
    if start is not None and not start.is_dir():
        raise ProjectError(f"--project {start}: no such directory")
    start = (start or Path.cwd()).resolve()
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            settings = _read_settings(candidate)
            if settings is not None:
                return replace(_project(directory, settings, candidate), configured=True)
    return _project(start, {}, start / "pyproject.toml")


def _problem(pyproject: Path, pointer: str, message: str) -> InputError:
    return InputError([Diagnostic(str(pyproject), UNKNOWN_POSITION, pointer, message)])


def _read_settings(pyproject: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise _problem(pyproject, "", f"cannot read pyproject.toml: {error}") from None
    tool = data.get("tool")
    settings = tool.get("polytype") if isinstance(tool, dict) else None
    if settings is None:
        return None
    if not isinstance(settings, dict):
        raise _problem(pyproject, "/tool/polytype", "must be a table")
    unknown = sorted(set(settings) - _KNOWN_KEYS)
    if unknown:
        raise _problem(
            pyproject,
            "/tool/polytype",
            f"unknown setting(s): {', '.join(unknown)} (known: {', '.join(sorted(_KNOWN_KEYS))})",
        )
    for key in sorted(_PATH_KEYS & set(settings)):
        if not isinstance(settings[key], str) or not settings[key]:
            raise _problem(pyproject, f"/tool/polytype/{key}", "must be a non-empty path string")
    for key in _POLICY_KEYS:
        if key in settings and settings[key] not in UNKNOWN_TAG_POLICIES:
            raise _problem(
                pyproject,
                f"/tool/polytype/{key}",
                f"must be one of {', '.join(map(repr, UNKNOWN_TAG_POLICIES))}",
            )
    return settings


def _names(
    pyproject: Path, pointer: str, value: object, kind: str, known: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    """A list setting (`targets`, `formats`): its names, and those that are not `known`;
    a value that is not a list of strings is a located error."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _problem(pyproject, pointer, f"must be a list of {kind} names ({', '.join(known)})")
    return value, [item for item in value if item not in known]


def _targets(pyproject: Path, pointer: str, value: object) -> tuple[str, ...]:
    """A `targets` list, checked and put in rendering order."""
    names, unknown = _names(pyproject, pointer, value, "target", TARGETS)
    if unknown:
        raise _problem(
            pyproject,
            pointer,
            f"unknown target(s): {', '.join(map(repr, unknown))} (known: {', '.join(TARGETS)})",
        )
    if not names:
        raise _problem(pyproject, pointer, "names no target; list at least one")
    return tuple(target for target in TARGETS if target in names)


def _module_targets(pyproject: Path, value: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise _problem(pyproject, "/tool/polytype/modules", "must be a table of module tables")
    found: dict[str, tuple[str, ...]] = {}
    for module, options in sorted(value.items()):
        pointer = f"/tool/polytype/modules/{module}"
        if not isinstance(options, dict):
            raise _problem(pyproject, pointer, "must be a table")
        unknown = sorted(set(options) - _MODULE_KEYS)
        if unknown:
            raise _problem(
                pyproject,
                pointer,
                f"unknown setting(s): {', '.join(unknown)} (known: {', '.join(sorted(_MODULE_KEYS))})",
            )
        if "targets" in options:
            found[module] = _targets(pyproject, f"{pointer}/targets", options["targets"])
    return found


def _formats(pyproject: Path, settings: dict[str, Any]) -> FormatChoice:
    """The project's `formats` and each module's own list, checked."""
    project = _format_list(pyproject, "/tool/polytype/formats", settings.get("formats", []))
    modules = settings.get("modules", {})
    own = {
        module: _format_list(
            pyproject, f"/tool/polytype/modules/{module}/formats", options["formats"]
        )
        for module, options in sorted(modules.items())
        if isinstance(options, dict) and "formats" in options
    }
    return FormatChoice(project, own)


def _format_list(pyproject: Path, pointer: str, value: object) -> frozenset[str]:
    names, unknown = _names(pyproject, pointer, value, "format", tuple(SUPPORTED))
    if unknown:
        raise _problem(
            pyproject,
            pointer,
            f"polytype cannot assert the format(s) {', '.join(map(repr, unknown))} "
            f"(supported: {', '.join(SUPPORTED)}); leave them out to keep them annotations",
        )
    return frozenset(names)


def _project(root: Path, settings: dict[str, Any], pyproject: Path) -> Project:
    templates = settings.get("templates")
    return Project(
        root=root,
        schema_dir=root / settings.get("schema-dir", "schema"),
        output_dir=root / settings.get("output-dir", "generated"),
        fixtures_dir=root / settings.get("fixtures-dir", "tests/fixtures"),
        targets=(
            _targets(pyproject, "/tool/polytype/targets", settings["targets"])
            if "targets" in settings
            else TARGETS
        ),
        module_targets=_module_targets(pyproject, settings.get("modules", {})),
        templates_dir=root / templates if isinstance(templates, str) else None,
        strict=_strict(pyproject, settings.get("strict", False)),
        ref_map=_ref_map(pyproject, root, settings.get("ref-map", {})),
        unknown_tags=settings.get("unknown-tags", "reject"),
        unknown_enum_values=settings.get("unknown-enum-values", "reject"),
        formats=_formats(pyproject, settings),
        python_package=_python_package(pyproject, settings.get("python-package")),
    )


def _python_package(pyproject: Path, value: object) -> str | None:
    """`python-package`: an identifier that shadows nothing the generated code imports."""
    if value is None:
        return None
    pointer = "/tool/polytype/python-package"
    if not isinstance(value, str) or not value.isidentifier() or keyword.iskeyword(value):
        raise _problem(pyproject, pointer, f"must be a Python identifier, not {value!r}")
    if value in sys.stdlib_module_names or value in IMPORTED_PACKAGES:
        raise _problem(
            pyproject,
            pointer,
            f"{value!r} is a package the generated code or its tests import "
            "(the standard library, pydantic, pytest, polytype, ...); choose another name",
        )
    return value


def _ref_map(pyproject: Path, root: Path, value: object) -> dict[str, Path]:
    if not isinstance(value, dict) or not all(
        isinstance(url, str) and isinstance(directory, str) and url and directory
        for url, directory in value.items()
    ):
        raise _problem(
            pyproject,
            "/tool/polytype/ref-map",
            'must be a table of URL prefix = "local directory" (relative to the project)',
        )
    return {url: root / directory for url, directory in value.items()}


def _strict(pyproject: Path, value: object) -> bool:
    if not isinstance(value, bool):
        raise _problem(pyproject, "/tool/polytype/strict", "must be true or false")
    return value
