"""`polytype fixtures import`: split a recorded stream into per-type fixtures.

Each value is typed by the module's root union (or `--type`), resolved down to
the concrete member (or, for a tag an open union keeps, to that union), checked
with jsonschema against the wire schema, and
written to `<fixtures>/<module>/<Type>/imported_<shape id>.json` unless a
fixture of the same shape is already there. Running it twice writes nothing new.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jsonschema.exceptions import ValidationError

from polytype.project.config import Project
from polytype.workflow.classify import NoMember, concrete_type, kept_by, segment
from polytype.workflow.files import create_new, json_text
from polytype.workflow.recordings import Reading, Unreadable
from polytype.workflow.schemas import Schema
from polytype.workflow.shape import shape_id
from polytype.workflow.wire_check import WireCheck

PREFIX = "imported_"


@dataclass(frozen=True)
class Written:
    where: str
    type_name: str
    path: str


@dataclass(frozen=True)
class Duplicate:
    where: str
    type_name: str
    existing: str


@dataclass(frozen=True)
class NotPlaced:
    where: str
    message: str


@dataclass
class ImportReport:
    written: list[Written] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    not_placed: list[NotPlaced] = field(default_factory=list)

    @property
    def values(self) -> int:
        return len(self.written) + len(self.duplicates) + len(self.not_placed)


def import_values(
    project: Project, schema: Schema, readings: Iterable[Reading], type_name: str
) -> ImportReport:
    """Place every reading; write one fixture per new shape. Never stops at a bad line."""
    report = ImportReport()
    validators = WireCheck(
        schema.module,
        schema.document,
        project.ref_map,
        project.unknown_tags,
        project.unknown_enum_values,
    )
    base = project.fixtures_dir / schema.module.name
    directories: dict[str, _FixtureDirectory] = {}
    for reading in readings:
        if isinstance(reading, Unreadable):
            report.not_placed.append(NotPlaced(reading.where, reading.message))
            continue
        try:
            concrete = concrete_type(schema.module, type_name, reading.value)
        except NoMember as error:
            # an unlisted tag an open union keeps: a fixture of that union (its Unknown member)
            kept = kept_by(schema.module, type_name, reading.value)
            if kept is None:
                report.not_placed.append(NotPlaced(reading.where, f"not a {type_name}: {error}"))
                continue
            concrete = kept
        problem = validators.problem(concrete, reading.value)
        if isinstance(problem, str):
            report.not_placed.append(NotPlaced(reading.where, f"{concrete}: {problem}"))
            continue
        if problem is not None:
            message = f"not a valid {concrete}: {_describe(problem)}"
            report.not_placed.append(NotPlaced(reading.where, message))
            continue
        directory = directories.get(concrete)
        if directory is None:
            directory = directories[concrete] = _FixtureDirectory(base / concrete)
        identity = shape_id(reading.value)
        existing = directory.shapes.get(identity)
        target = directory.path / f"{PREFIX}{identity}.json"
        if existing is None and target.exists():
            existing = target
        if existing is not None:
            report.duplicates.append(Duplicate(reading.where, concrete, project.relative(existing)))
            continue
        create_new(target, json_text(reading.value))
        directory.shapes[identity] = target
        report.written.append(Written(reading.where, concrete, project.relative(target)))
    return report


def _describe(error: ValidationError) -> str:
    """`$.path: message`; a missing required key is pointed at, as the decoders do."""
    path = "$" + "".join(
        f"[{step}]" if isinstance(step, int) else segment(str(step)) for step in error.absolute_path
    )
    message = " ".join(error.message.split())
    required = error.validator_value
    if (
        error.validator == "required"
        and isinstance(error.instance, dict)
        and isinstance(required, list)
    ):
        missing = [key for key in required if key not in error.instance]
        if missing:
            path, message = path + segment(str(missing[0])), "missing required key"
    return f"{path}: {message if len(message) <= 160 else message[:159] + '…'}"


class _FixtureDirectory:
    """The valid fixtures already in one type's directory, by shape."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.shapes: dict[str, Path] = {}
        if path.is_dir():
            for fixture in sorted(path.glob("*.json")):
                try:
                    value = json.loads(fixture.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                self.shapes.setdefault(shape_id(value), fixture)
