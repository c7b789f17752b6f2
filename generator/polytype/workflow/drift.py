"""`polytype drift`: how recorded JSON departs from the schema, as a readable report.

Every value is read as the module's root type (or `--type`) and walked
against the IR by ``observe``; the report lists unknown keys (how often, an
example, what the generated code does with them), missing required keys, type
mismatches, enum values and tags the schema does not list (also those an open union,
`x-unknown: keep`, kept in its `Unknown<Union>` member: the decoders accept them, but
the schema does not describe them), values that break a constraint, and declared
fields no value ever carried. Unreadable lines are
listed with their line numbers.

Every value is also given to the generated dataclass decoder (``decoders``): a
rejection the walk did not explain is reported in the decoder's own words, so
"no drift" always means that the generated code accepts every value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from polytype import ir
from polytype.workflow import decoders
from polytype.workflow.observe import Observations, Observer, Occurrence
from polytype.workflow.recordings import Reading, Unreadable
from polytype.workflow.schemas import Schema

_EXAMPLE_WIDTH = 70
_EXTRA = {
    "keep": "kept in `extra`",
    "ignore": "dropped (x-extra: ignore)",
    "forbid": "rejected (additionalProperties: false)",
}


@dataclass
class DriftReport:
    module: ir.Module
    type_name: str
    sources: int
    seen: Observations
    unreadable: list[Unreadable] = field(default_factory=list)

    @property
    def found(self) -> bool:
        """Drift or unreadable input: the command exits 1."""
        return bool(self.seen.differences or self.unreadable)


def compare(
    schema: Schema, readings: Iterable[Reading], type_name: str, sources: int
) -> DriftReport:
    """Walk every reading against `type_name`; collect, never stop."""
    observer = Observer(schema.module)
    judge = decoders.verdict(decoders.load(schema.module), type_name)
    unreadable: list[Unreadable] = []
    for reading in readings:
        if isinstance(reading, Unreadable):
            unreadable.append(reading)
            continue
        before = observer.seen.occurrences
        observer.observe(reading.value, type_name, reading.where)
        if observer.seen.occurrences == before:
            message = judge(reading.value)
            if message is not None:
                observer.seen.rejections.setdefault(message, Occurrence()).add(
                    reading.value, reading.where
                )
    return DriftReport(schema.module, type_name, sources, observer.seen, unreadable)


def render(report: DriftReport) -> str:
    """The report as text, sections in a fixed order, entries sorted (stable output)."""
    seen = report.seen
    lines = [
        f"drift: module {report.module.name}, {seen.values} value(s) from "
        f"{report.sources} file(s), read as {report.type_name}",
    ]
    _section(lines, "unknown keys (in the data, not in the schema)", _unknown_keys(report))
    _section(lines, "required keys missing", _missing(seen))
    _section(lines, "JSON type mismatches", _mismatches(seen))
    _section(lines, "enum values not listed", _enum_values(seen))
    _section(lines, "union tags not listed", _unknown_tags(seen))
    _section(lines, "constraint violations (values the decoders reject)", _constraints(seen))
    _section(lines, "other rejections by the generated decoders", _rejections(seen))
    _section(
        lines, "lines that are not JSON", [f"{u.where}: {u.message}" for u in report.unreadable]
    )
    _section(lines, "schema fields never seen (in types that were seen)", _never_seen(report))
    lines.append("")
    lines.append(_summary(report))
    return "\n".join(lines) + "\n"


def _section(lines: list[str], title: str, entries: list[str]) -> None:
    lines.append("")
    lines.append(f"{title}: {'none' if not entries else len(entries)}")
    lines.extend(f"  {entry}" for entry in entries)


def _unknown_keys(report: DriftReport) -> list[str]:
    entries = []
    for (owner, key), unknown in sorted(report.seen.unknown_keys.items()):
        named = report.module.get(owner)
        policy = _EXTRA[named.extra_policy] if isinstance(named, ir.Record) else ""
        of = report.seen.type_counts[owner]
        types = "|".join(sorted(unknown.summary.types))
        entries.append(
            f"{owner}.{key}: in {unknown.occurrence.count} of {of} {owner} value(s), {types}; "
            f"{policy}\n    {_example(unknown.occurrence)}"
        )
    return entries


def _missing(seen: Observations) -> list[str]:
    return [
        f"{owner}.{key}: missing {occurrence.count}x\n    first at {occurrence.first}"
        for (owner, key), occurrence in sorted(seen.missing.items())
    ]


def _mismatches(seen: Observations) -> list[str]:
    return [
        f"{where}: expected {expected}, got {got} ({occurrence.count}x)\n    {_example(occurrence)}"
        for (where, expected, got), occurrence in sorted(seen.mismatches.items())
    ]


def _enum_values(seen: Observations) -> list[str]:
    entries = []
    for (enum, value), occurrence in sorted(seen.enum_values.items()):
        shown = f"{enum}: {json.dumps(value, ensure_ascii=False)} ({occurrence.count}x)"
        kept = seen.kept_enums.get(enum)
        if kept is not None:  # an open enum's decoders accept it; the schema does not list it
            shown += f"; unlisted enum value, kept as {kept} (x-unknown: keep)"
        entries.append(f"{shown}\n    first at {occurrence.first}")
    return entries


def _unknown_tags(seen: Observations) -> list[str]:
    entries = []
    for (union, key, value), unlisted in sorted(seen.unknown_tags.items()):
        occurrence = unlisted.occurrence
        if unlisted.kept is None:
            entries.append(
                f"{union}: {key} = {value} ({occurrence.count}x); no member takes this tag\n"
                f"    first at {occurrence.first}"
            )
        else:
            entries.append(
                f"{union}: {key} = {value} ({occurrence.count}x); unlisted tag, kept as "
                f"{unlisted.kept} (x-unknown: keep)\n    {_example(occurrence)}"
            )
    return entries


def _constraints(seen: Observations) -> list[str]:
    return [
        f"{where}: breaks {keyword}: {bound} ({occurrence.count}x)\n    {_example(occurrence)}"
        for (where, keyword, bound), occurrence in sorted(seen.constraints.items())
    ]


def _rejections(seen: Observations) -> list[str]:
    return [
        f"{message} ({occurrence.count}x)\n    first at {occurrence.first}"
        for message, occurrence in sorted(seen.rejections.items())
    ]


def _never_seen(report: DriftReport) -> list[str]:
    entries = []
    for named in report.module.types:
        count = report.seen.type_counts[named.name]
        if not isinstance(named, ir.Record) or not count:
            continue
        unseen = [
            item.json_key
            for item in named.fields
            if not item.is_tag and not report.seen.field_counts[(named.name, item.json_key)]
        ]
        if unseen:
            entries.append(f"{named.name} ({count} value(s)): {', '.join(unseen)}")
    return entries


def _summary(report: DriftReport) -> str:
    seen = report.seen
    if not report.found:
        return f"polytype: no drift in {seen.values} value(s)"
    parts = [
        f"{len(seen.unknown_keys)} unknown key(s)",
        f"{len(seen.missing)} missing required key(s)",
        f"{len(seen.mismatches)} type mismatch(es)",
        f"{len(seen.enum_values)} unlisted enum value(s)",
        f"{len(seen.unknown_tags)} unlisted tag(s)",
        f"{len(seen.constraints)} constraint violation(s)",
    ]
    if seen.rejections:
        parts.append(f"{len(seen.rejections)} other decoder rejection(s)")
    if report.unreadable:
        parts.append(f"{len(report.unreadable)} unreadable line(s)")
    return f"polytype: drift found in {seen.values} value(s): {', '.join(parts)}"


def _example(occurrence: Occurrence) -> str:
    return f"e.g. {_short(occurrence.example)} at {occurrence.first}"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _EXAMPLE_WIDTH else text[: _EXAMPLE_WIDTH - 1] + "…"
