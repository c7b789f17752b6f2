"""A suggested schema patch from a drift report: a YAML fragment to merge into the schema.

New keys become optional properties with types inferred from the values seen
(or `x-aliases` of a declared key spelled the same apart from case and
underscores); unlisted enum values are appended to the enum; required keys
some values lacked are dropped from `required`; a string tag no member lists
(kept by an open union, or rejected) becomes a drafted member record, built from
the values that carried it, and is added to the union's `oneOf`. What needs a
human (type mismatches, tags that are not strings, broken constraints and what a
relaxation would be) is listed as comments. Mappings merge, lists replace.
"""

from __future__ import annotations

import io
import json
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedSeq

from polytype import ir, naming
from polytype.dialect.keywords import resolve_pointer
from polytype.workflow.drift import DriftReport
from polytype.workflow.observe import Occurrence, UnlistedTag, ValueSummary
from polytype.workflow.schemas import Schema


def suggest(schema: Schema, report: DriftReport) -> str:
    """The fragment as YAML text with a comment header; empty mapping when nothing to patch."""
    fragment: dict[str, Any] = {}
    notes: list[str] = []
    aliased = _new_keys(schema, report, fragment)
    _enum_values(schema, report, fragment)
    _required(schema, report, fragment, notes, aliased)
    _new_members(schema, report, fragment, notes)
    for where, expected, got in sorted(report.seen.mismatches):
        notes.append(f"{where}: declared {expected}, recorded {got}")
    for (where, keyword, bound), occurrence in sorted(report.seen.constraints.items()):
        notes.append(
            f"{where}: {occurrence.count} value(s) break {keyword}: {bound}; "
            f"{_relaxation(keyword, occurrence)} if the data is right"
        )
    for message in sorted(report.seen.rejections):
        notes.append(f"the generated decoders reject a value: {message}")
    header = [
        f"# Suggested by `polytype drift {report.module.name}` for {report.module.schema_path}.",
        "# Merge into the schema (mappings merge, lists replace), review, then regenerate.",
        *(f"# needs a decision: {note}" for note in notes),
    ]
    return "\n".join(header) + "\n" + _dump(fragment)


# a bound's keyword -> (the keyword that takes the values seen, what the measure is)
_RELAXED = {
    "minLength": ("minLength", "the shortest seen"),
    "maxLength": ("maxLength", "the longest seen"),
    "minItems": ("minItems", "the fewest items seen"),
    "maxItems": ("maxItems", "the most items seen"),
    "minProperties": ("minProperties", "the fewest keys seen"),
    "maxProperties": ("maxProperties", "the most keys seen"),
    "minimum": ("minimum", "the least seen"),
    "exclusiveMinimum": ("minimum", "the least seen"),
    "maximum": ("maximum", "the greatest seen"),
    "exclusiveMaximum": ("maximum", "the greatest seen"),
}


def _relaxation(keyword: str, occurrence: Occurrence) -> str:
    """What would accept every value seen: a bound moved to the furthest value, or the
    rule dropped (a pattern, a format, a schema check)."""
    relaxed = _RELAXED.get(keyword)
    if relaxed is None or occurrence.furthest is None:
        return f"drop {keyword}"
    replacement, measure = relaxed
    instead = "" if replacement == keyword else f" instead of {keyword}"
    return (
        f"relax it to {replacement}: {_json_number(occurrence.furthest)} ({measure}){instead}, "
        f"or drop {keyword},"
    )


def _json_number(number: int | float) -> str:
    return json.dumps(number)


def _new_keys(
    schema: Schema, report: DriftReport, fragment: dict[str, Any]
) -> set[tuple[str, str]]:
    """Add properties (or aliases); return the (record, key) pairs that gained an alias."""
    aliased: set[tuple[str, str]] = set()
    for (owner, key), unknown in sorted(report.seen.unknown_keys.items()):
        record = schema.module.get(owner)
        if not isinstance(record, ir.Record) or record.source is None:
            continue
        base = _tokens(record.source.pointer)
        twin = _same_spelling(record, key)
        if twin is not None:
            node = _node(fragment, [*base, "properties", twin.json_key])
            node["x-aliases"] = [*(node.get("x-aliases") or twin.aliases), key]
            aliased.add((owner, twin.json_key))
            continue
        node = _node(fragment, [*base, "properties", key])
        node.update(infer(unknown.summary))
        node["description"] = (
            f"Seen in {unknown.occurrence.count} of {report.seen.type_counts[owner]} "
            f"recorded {owner} value(s)."
        )
    return aliased


def _new_members(
    schema: Schema, report: DriftReport, fragment: dict[str, Any], notes: list[str]
) -> None:
    """A drafted member record for every unlisted string tag, appended to its union's options."""
    taken = {named.name for named in schema.module.types}
    added: dict[str, list[str]] = {}
    for (union_name, key, value_json), unlisted in sorted(report.seen.unknown_tags.items()):
        union = schema.module.get(union_name)
        value = unlisted.occurrence.example.get(key) if unlisted.occurrence.count else None
        if (
            not isinstance(union, ir.UnionType)
            or union.source is None
            or not isinstance(value, str)
        ):
            notes.append(f"{union_name}: add a member type for {key} = {value_json}")
            continue
        name = _member_name(value, union_name, taken)
        taken.add(name)
        base = _tokens(union.source.pointer)
        member = _draft_member(schema, union, key, value, unlisted)
        _node(fragment, [*base[:-1], name]).update(member)
        added.setdefault(union_name, []).append(name)
    for union_name, names in added.items():
        union = schema.module.get(union_name)
        assert union.source is not None
        base = _tokens(union.source.pointer)
        container = "#/" + "/".join(base[:-1]) + "/"
        data = resolve_pointer(schema.document.data, union.source.pointer)
        keyword = "anyOf" if isinstance(data, dict) and "anyOf" in data else "oneOf"
        current = data.get(keyword) if isinstance(data, dict) else None
        listed = [dict(option) for option in current] if isinstance(current, list) else []
        _node(fragment, base)[keyword] = [*listed, *({"$ref": container + n} for n in names)]


def _member_name(value: str, union: str, taken: set[str]) -> str:
    """`teleport_started` in SystemEvent → `TeleportStartedSystemEvent` (unique in the module)."""
    stem = naming.pascal_case(value)
    name = stem if stem.endswith(union) else stem + union
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    return candidate


def _draft_member(
    schema: Schema, union: ir.UnionType, key: str, value: str, unlisted: UnlistedTag
) -> dict[str, Any]:
    """An object schema taking every value seen with this tag: the tag as a const, the
    tags every member of the union shares (a nested union's parent tag) as consts, keys
    present in every value required, types inferred."""
    count = unlisted.occurrence.count
    shared = _shared_tags(schema.module, union.name, key)
    properties: dict[str, Any] = {key: {"const": value}}
    required = [key]
    for name, const in shared.items():
        properties[name] = {"const": const}
        required.append(name)
    for name, seen in unlisted.keys.items():
        if name in properties:
            continue
        properties[name] = infer(seen.summary)
        if seen.occurrence.count == count:
            required.append(name)
    return {
        "description": f"Drafted by polytype drift from {count} recorded value(s) "
        f"with {key} = {json.dumps(value, ensure_ascii=False)}; review before merging.",
        "type": "object",
        "properties": properties,
        "required": required,
    }


def _shared_tags(module: ir.Module, union: str, key: str) -> dict[str, str | int | bool]:
    """Tag fields other than `key` on which every record of the union agrees."""
    records = _leaf_records(module, union, frozenset())
    if not records:
        return {}
    shared: dict[str, str | int | bool] = {}
    for item in records[0].tag_fields:
        if item.json_key == key or not isinstance(item.type, ir.LiteralValue):
            continue
        literal = item.type.value
        if all(
            any(
                other.json_key == item.json_key
                and isinstance(other.type, ir.LiteralValue)
                and type(other.type.value) is type(literal)
                and other.type.value == literal
                for other in record.tag_fields
            )
            for record in records
        ):
            shared[item.json_key] = literal
    return shared


def _leaf_records(module: ir.Module, name: str, seen: frozenset[str]) -> list[ir.Record]:
    named = module.get(name)
    if isinstance(named, ir.Record):
        return [named]
    if isinstance(named, ir.UnionType) and name not in seen:
        return [
            record
            for member in named.members
            for record in _leaf_records(module, member, seen | {name})
        ]
    return []


def _enum_values(schema: Schema, report: DriftReport, fragment: dict[str, Any]) -> None:
    added: dict[str, list[str]] = {}
    for enum, value in sorted(report.seen.enum_values):
        added.setdefault(enum, []).append(value)
    for enum, values in added.items():
        named = schema.module.get(enum)
        if named.source is None:
            continue
        current = resolve_pointer(schema.document.data, named.source.pointer + "/enum")
        listed = list(current) if isinstance(current, list) else []
        _node(fragment, _tokens(named.source.pointer))["enum"] = [*listed, *values]


def _required(
    schema: Schema,
    report: DriftReport,
    fragment: dict[str, Any],
    notes: list[str],
    aliased: set[tuple[str, str]],
) -> None:
    dropped: dict[str, set[str]] = {}
    for owner, key in sorted(report.seen.missing):
        if (owner, key) in aliased:
            continue
        named = schema.module.get(owner)
        if isinstance(named, ir.Record) and not any(
            item.json_key == key and item.is_tag for item in named.fields
        ):
            dropped.setdefault(owner, set()).add(key)
        else:
            notes.append(f"{owner}: some values have no {key!r}, which tells the members apart")
    for owner, keys in dropped.items():
        named = schema.module.get(owner)
        if named.source is None:
            continue
        current = resolve_pointer(schema.document.data, named.source.pointer + "/required")
        listed = [key for key in (current if isinstance(current, list) else []) if key not in keys]
        _node(fragment, _tokens(named.source.pointer))["required"] = listed


def infer(summary: ValueSummary) -> dict[str, Any]:
    """A schema accepting every value summarised (only `{}` when nothing but null was seen)."""
    types = set(summary.types)
    nullable = "null" in types
    types.discard("null")
    if {"integer", "number"} <= types:
        types.discard("integer")
    if not types:
        return {}
    ordered: list[str] = sorted(types) + (["null"] if nullable else [])
    schema: dict[str, Any] = {"type": ordered[0] if len(ordered) == 1 else ordered}
    if "array" in types and summary.items is not None and summary.items.types:
        schema["items"] = infer(summary.items)
    return schema


def _same_spelling(record: ir.Record, key: str) -> ir.Field | None:
    """The declared field spelled like `key` but for case and underscores (threadId, thread_id)."""
    wanted = _folded(key)
    for item in record.fields:
        if _folded(item.json_key) == wanted and key not in item.aliases:
            return item
    return None


def _folded(key: str) -> str:
    return key.replace("_", "").replace("-", "").lower()


def _tokens(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _node(fragment: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    node = fragment
    for token in tokens:
        node = node.setdefault(token, {})
    return node


def _dump(fragment: dict[str, Any]) -> str:
    if not fragment:
        return "{}\n"
    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = False
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    stream = io.StringIO()
    yaml.dump(_flow_lists(fragment), stream)
    return stream.getvalue()


def _flow_lists(node: Any) -> Any:
    """Lists of scalars in flow style (`enum: [a, b]`), as schemas are usually written."""
    if isinstance(node, dict):
        return {key: _flow_lists(value) for key, value in node.items()}
    if isinstance(node, list):
        sequence = CommentedSeq(_flow_lists(item) for item in node)
        if not any(isinstance(item, (dict, list)) for item in node):
            sequence.fa.set_flow_style()
        return sequence
    return node
