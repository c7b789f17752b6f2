"""`polytype diff`: the changes between two versions of a schema that break consumers.

Both versions are lowered to IR and compared type by type, field by field.
Each finding names a rule from ``rules`` and cites where it happened: the new
node for changes and additions, the old node for removals (the other side is
cited too when it exists), as `file:line:col` from the schema documents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from polytype import ir
from polytype.diagnostics import join_pointer
from polytype.dialect.keywords import resolve_pointer
from polytype.ir.object_rules import rules_text
from polytype.ir.wording import demand
from polytype.targets.elixir import names as elixir_names
from polytype.targets.python import names as python_names
from polytype.workflow.rules import Rule, rule
from polytype.workflow.schemas import Schema
from polytype.workflow.variance import compare as compare_types
from polytype.workflow.variance import show


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Finding:
    rule: Rule
    subject: str
    message: str
    location: Location
    other: Location | None = None

    def __str__(self) -> str:
        other = f" (was {self.other})" if self.other is not None else ""
        kind = f"breaking: {self.rule.category.lower()}" if self.rule.breaking else "addition"
        return f"{self.location}: {self.rule.id} [{kind}] {self.subject}: {self.message}{other}"


class _Side:
    """One version of the schema: its types and where each node is in its file."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.types = {named.name: named for named in schema.module.types}
        # the module's Python class names (a field named like one is renamed)
        self.python_types = set(python_names.type_names(schema.module).values())

    def field_names(self, record: ir.Record, item: ir.Field) -> tuple[str, str]:
        """What the Python and Elixir namers call the field `item` of `record`."""
        return (
            python_names.field_name(record, item, self.python_types),
            elixir_names.field_name(record, item),
        )

    def at(self, pointer: str) -> Location:
        position = self.schema.document.position(pointer)
        return Location(self.schema.document.display_path, position.line, position.column)

    def of(self, named: ir.NamedType, *tokens: str) -> Location:
        pointer = named.source.pointer if named.source is not None else ""
        for token in tokens:
            pointer = join_pointer(pointer, token)
        return self.at(pointer)

    def list_item(self, named: ir.NamedType, keywords: tuple[str, ...], item: object) -> Location:
        """Where `item` is listed under one of `keywords` (enum, oneOf, anyOf) of `named`."""
        base = named.source.pointer if named.source is not None else ""
        for keyword in keywords:
            listed = resolve_pointer(self.schema.document.data, join_pointer(base, keyword))
            if isinstance(listed, list):
                for index, entry in enumerate(listed):
                    if entry == item or (
                        isinstance(entry, dict) and str(entry.get("$ref", "")).endswith(f"/{item}")
                    ):
                        return self.at(join_pointer(join_pointer(base, keyword), index))
        return self.of(named)


def diff(old: Schema, new: Schema) -> list[Finding]:
    """Every finding, breaking ones first, each group in schema order."""
    findings = _Differ(_Side(old), _Side(new)).run()
    return sorted(findings, key=lambda f: (not f.rule.breaking, f.location.line, f.rule.id))


class _Differ:
    def __init__(self, old: _Side, new: _Side) -> None:
        self.old = old
        self.new = new
        self.findings: list[Finding] = []

    def add(
        self,
        rule_id: str,
        subject: str,
        message: str,
        location: Location,
        other: Location | None = None,
    ) -> None:
        self.findings.append(Finding(rule(rule_id), subject, message, location, other))

    def run(self) -> list[Finding]:
        old_module, new_module = self.old.schema.module, self.new.schema.module
        if old_module.name != new_module.name:
            self.add(
                "MODULE_RENAMED",
                new_module.name,
                f"module {old_module.name!r} is now {new_module.name!r}",
                self.new.at("/x-polytype/module"),
                self.old.at("/x-polytype/module"),
            )
        for name, named in self.old.types.items():
            if name not in self.new.types:
                self.add("TYPE_REMOVED", name, "type removed", self.old.of(named))
        for name, named in self.new.types.items():
            if name not in self.old.types:
                self.add("TYPE_ADDED", name, f"new {_kind(named)}", self.new.of(named))
                continue
            self._named(self.old.types[name], named)
        return self.findings

    def _named(self, old: ir.NamedType, new: ir.NamedType) -> None:
        if type(old) is not type(new):
            self.add(
                "TYPE_KIND_CHANGED",
                new.name,
                f"was {_kind(old)}, is now {_kind(new)}",
                self.new.of(new),
                self.old.of(old),
            )
        elif isinstance(old, ir.Record) and isinstance(new, ir.Record):
            self._record(old, new)
        elif isinstance(old, ir.EnumType) and isinstance(new, ir.EnumType):
            self._enum(old, new)
        elif isinstance(old, ir.UnionType) and isinstance(new, ir.UnionType):
            self._union(old, new)
        elif isinstance(old, ir.Alias) and isinstance(new, ir.Alias):
            variance = compare_types(old.type, new.type, self.old.types, self.new.types)
            if variance.verdict != "same":
                self.add(
                    f"TYPE_{variance.verdict.upper()}",
                    new.name,
                    _change(old.type, new.type, variance.reasons),
                    self.new.of(new),
                    self.old.of(old),
                )

    # -- records ---------------------------------------------------------

    def _record(self, old: ir.Record, new: ir.Record) -> None:
        old_fields = {item.json_key: item for item in old.fields}
        new_fields = {item.json_key: item for item in new.fields}
        renamed_to: dict[str, str] = {}
        for key, item in old_fields.items():
            if key in new_fields:
                self._field(old, new, item, new_fields[key])
                continue
            successor = _successor(
                item,
                python_names.field_name(old, item, self.old.python_types),
                [
                    (f, python_names.field_name(new, f, self.new.python_types))
                    for k, f in new_fields.items()
                    if k not in old_fields
                ],
            )
            where_old = self.old.of(old, "properties", key)
            subject = f"{new.name}.{key}"
            if successor is None:
                self.add("FIELD_REMOVED", subject, "field removed", where_old)
                continue
            renamed_to[successor.json_key] = key
            where_new = self.new.of(new, "properties", successor.json_key)
            if key in successor.aliases:
                self.add(
                    "KEY_RENAMED_WITH_ALIAS",
                    subject,
                    f"key renamed to {successor.json_key!r}; {key!r} is still accepted",
                    where_new,
                    where_old,
                )
            else:
                self.add(
                    "KEY_RENAMED_WITHOUT_ALIAS",
                    subject,
                    f"key renamed to {successor.json_key!r}; add x-aliases: [{key}] to keep "
                    "reading recorded data",
                    where_new,
                    where_old,
                )
            self._field(old, new, item, successor, compare_aliases=False)
        for key, item in new_fields.items():
            if key in old_fields or key in renamed_to:
                continue
            rule_id = "FIELD_ADDED_REQUIRED" if item.required else "FIELD_ADDED_OPTIONAL"
            self.add(
                rule_id,
                f"{new.name}.{key}",
                f"new {'required' if item.required else 'optional'} field ({show(item.type)})",
                self.new.of(new, "properties", key),
            )
        self._record_options(old, new)

    def _record_options(self, old: ir.Record, new: ir.Record) -> None:
        if old.extra_policy != new.extra_policy:
            rule_id = {
                "forbid": "EXTRA_KEYS_FORBIDDEN",
                "ignore": "EXTRA_KEYS_DROPPED",
                "keep": "EXTRA_KEYS_ALLOWED",
            }[new.extra_policy]
            self.add(
                rule_id,
                new.name,
                f"unknown keys: {old.extra_policy} → {new.extra_policy}",
                self.new.of(new),
                self.old.of(old),
            )
        if old.rules != new.rules:
            self.add(
                "OBJECT_RULES_CHANGED",
                new.name,
                "its object rules changed: "
                + (rules_text(new.rules) or "none now (every undeclared key is kept)"),
                self.new.of(new),
                self.old.of(old),
            )
        self._schema_checks(old, new)
        if old.frozen != new.frozen:
            self.add(
                "RECORD_FROZEN_CHANGED",
                new.name,
                "now frozen (immutable)" if new.frozen else "no longer frozen (mutable)",
                self.new.of(new),
                self.old.of(old),
            )

    def _schema_checks(self, old: ir.Record | ir.UnionType, new: ir.Record | ir.UnionType) -> None:
        """A check added tightens (values rejected now), one removed loosens; a changed check
        is both."""
        for check in new.schema_checks:
            if check not in old.schema_checks:
                self.add(
                    "SCHEMA_CHECK_ADDED",
                    new.name,
                    f"now checked ({check.described}): {demand(check)}",
                    self.new.at(join_pointer(check.pointer, check.keywords[0])),
                    self.old.of(old),
                )
        for check in old.schema_checks:
            if check not in new.schema_checks:
                self.add(
                    "SCHEMA_CHECK_REMOVED",
                    new.name,
                    f"no longer checked ({check.described}): {demand(check)}",
                    self.new.of(new),
                    self.old.at(join_pointer(check.pointer, check.keywords[0])),
                )

    def _field(
        self,
        owner_old: ir.Record,
        owner_new: ir.Record,
        old: ir.Field,
        new: ir.Field,
        compare_aliases: bool = True,
    ) -> None:
        subject = f"{owner_new.name}.{new.json_key}"
        here = self.new.of(owner_new, "properties", new.json_key)
        there = self.old.of(owner_old, "properties", old.json_key)
        if isinstance(old.type, ir.LiteralValue) and isinstance(new.type, ir.LiteralValue):
            if old.type.value != new.type.value or type(old.type.value) is not type(new.type.value):
                self.add(
                    "TAG_CHANGED",
                    subject,
                    f"tag {show(old.type)} → {show(new.type)}",
                    here,
                    there,
                )
        else:
            variance = compare_types(old.type, new.type, self.old.types, self.new.types)
            if variance.verdict != "same":
                self.add(
                    f"FIELD_TYPE_{variance.verdict.upper()}",
                    subject,
                    _change(old.type, new.type, variance.reasons),
                    here,
                    there,
                )
        if old.required != new.required:
            self.add(
                "FIELD_BECAME_REQUIRED" if new.required else "FIELD_BECAME_OPTIONAL",
                subject,
                "now required" if new.required else "now optional (may be absent: None)",
                here,
                there,
            )
        elif not new.required and old.default != new.default:
            self.add(
                "FIELD_DEFAULT_CHANGED",
                subject,
                f"absent key reads as {_default(old.default)} → {_default(new.default)}",
                here,
                there,
            )
        old_python, old_elixir = self.old.field_names(owner_old, old)
        new_python, new_elixir = self.new.field_names(owner_new, new)
        if (old_python, old_elixir) != (new_python, new_elixir):
            self.add(
                "FIELD_NAME_CHANGED",
                subject,
                f"Python {old_python} → {new_python}, Elixir {old_elixir} → {new_elixir}",
                here,
                there,
            )
        if compare_aliases:
            for alias in old.aliases:
                if alias not in new.aliases:
                    self.add("ALIAS_REMOVED", subject, f"{alias!r} no longer accepted", here, there)
            for alias in new.aliases:
                if alias not in old.aliases:
                    self.add("ALIAS_ADDED", subject, f"{alias!r} now accepted", here)

    # -- enums and unions ------------------------------------------------------

    def _enum(self, old: ir.EnumType, new: ir.EnumType) -> None:
        if old.unknown is not None and new.unknown is None:
            self.add(
                "ENUM_CLOSED",
                new.name,
                f"unlisted values no longer kept as {old.unknown}",
                self.new.of(new),
                self.old.of(old, "x-unknown"),
            )
        elif old.unknown is None and new.unknown is not None:
            self.add(
                "ENUM_OPENED",
                new.name,
                f"unlisted values now kept as {new.unknown}",
                self.new.of(new, "x-unknown"),
            )
        old_values = [item.value for item in old.values]
        new_values = [item.value for item in new.values]
        for value in old_values:
            if value not in new_values:
                self.add(
                    "ENUM_VALUE_REMOVED",
                    new.name,
                    f"value {json.dumps(value)} removed",
                    self.new.of(new),
                    self.old.list_item(old, ("enum",), value),
                )
        for value in new_values:
            if value not in old_values:
                self.add(
                    "ENUM_VALUE_ADDED",
                    new.name,
                    f"value {json.dumps(value)} added",
                    self.new.list_item(new, ("enum",), value),
                )

    def _union(self, old: ir.UnionType, new: ir.UnionType) -> None:
        if old.tag != new.tag or old.match != new.match:
            self.add(
                "TAG_CHANGED",
                new.name,
                f"dispatch {_dispatch(old)} → {_dispatch(new)}",
                self.new.of(new),
                self.old.of(old),
            )
        if old.unknown is not None and new.unknown is None:
            self.add(
                "UNION_CLOSED",
                new.name,
                f"unlisted tags no longer kept in {old.unknown}",
                self.new.of(new),
                self.old.of(old, "x-unknown"),
            )
        elif old.unknown is None and new.unknown is not None:
            self.add(
                "UNION_OPENED",
                new.name,
                f"unlisted tags now kept in {new.unknown}",
                self.new.of(new, "x-unknown"),
            )
        self._schema_checks(old, new)
        keywords = ("oneOf", "anyOf")
        for member in old.members:
            if member not in new.members:
                self.add(
                    "UNION_MEMBER_REMOVED",
                    new.name,
                    f"member {member} removed",
                    self.new.of(new),
                    self.old.list_item(old, keywords, member),
                )
        for member in new.members:
            if member not in old.members:
                self.add(
                    "UNION_MEMBER_ADDED",
                    new.name,
                    f"member {member} added",
                    self.new.list_item(new, keywords, member),
                )


def _change(old: ir.TypeRef, new: ir.TypeRef, reasons: tuple[str, ...]) -> str:
    """`old → new`, with the reasons that say more than that."""
    spelled = f"{show(old)} → {show(new)}"
    extra = [reason for reason in reasons if reason != f"{show(old)} became {show(new)}"]
    return f"{spelled} ({'; '.join(extra)})" if extra else spelled


def _successor(
    old: ir.Field, old_python: str, candidates: list[tuple[ir.Field, str]]
) -> ir.Field | None:
    """The new field that looks like `old` renamed: it lists the old key as an alias, keeps
    the Python name (`old_python`; x-field), or is spelled the same but for case and
    underscores. `candidates`: each new field with its Python name."""
    for candidate, _ in candidates:
        if old.json_key in candidate.aliases:
            return candidate
    for candidate, python in candidates:
        if python == old_python or _folded(candidate.json_key) == _folded(old.json_key):
            return candidate
    return None


def _folded(key: str) -> str:
    return key.replace("_", "").replace("-", "").lower()


def _kind(named: ir.NamedType) -> str:
    if isinstance(named, ir.Record):
        return "record"
    if isinstance(named, ir.EnumType):
        return "enum"
    if isinstance(named, ir.UnionType):
        return "union"
    return f"alias of {show(named.type)}"


def _dispatch(union: ir.UnionType) -> str:
    if union.tries_members:
        return "by trying each member (" + ("oneOf" if union.match == "one_of" else "anyOf") + ")"
    return f"on {union.tag!r}" if union.tag is not None else "by structure"


def _default(default: ir.Default | None) -> str:
    if default is None:
        return "None"
    return json.dumps(_thaw(default.value))


def _thaw(value: ir.JSONData) -> object:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def render(findings: list[Finding], old_name: str, new_name: str) -> str:
    breaking = [finding for finding in findings if finding.rule.breaking]
    lines = [str(finding) for finding in findings]
    additions = len(findings) - len(breaking)
    summary = (
        f"polytype: {old_name} → {new_name}: {len(breaking)} breaking change(s), "
        f"{additions} non-breaking change(s)"
    )
    return "\n".join([*lines, summary]) + "\n"
