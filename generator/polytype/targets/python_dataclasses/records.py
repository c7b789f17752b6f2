"""A record's decoder: its checks inline, one read of each required key, and a
constructor call (or one store per slot); and the record's view."""

from __future__ import annotations

from polytype import ir
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import py_str
from polytype.targets.python.common import record_doc
from polytype.targets.python.names import field_names
from polytype.targets.python.snippet_views import RecordChecks
from polytype.targets.python_dataclasses.encoders import DataclassCodecs
from polytype.targets.python_dataclasses.fields import field_view
from polytype.targets.python_dataclasses.views import FieldView, RecordView


def record_view(
    record: ir.Record, codegen: DataclassCodecs, methods_template: str | None
) -> RecordView:
    suffix = function_suffix(record.name)
    checks = codegen.record_checks(record)
    fields: list[FieldView] = []
    deferred: list[FieldView] = []
    optional_keys: list[str] = []
    names = field_names(record, codegen.module.types_by_name)
    for item, name in zip(record.fields, names, strict=True):
        view, is_optional = field_view(item, name, record, codegen)
        if not item.required:
            optional_keys.append(item.json_key)
        (deferred if is_optional else fields).append(view)
    alias_pairs = checks.alias_pairs
    tracks_presence = bool(optional_keys or alias_pairs)
    optional_literal = (
        "frozenset({" + ", ".join(py_str(k) for k in optional_keys) + "})"
        if optional_keys
        else "frozenset()"
    )
    aliases_literal = "{" + ", ".join(f"{py_str(a)}: {py_str(k)}" for a, k in alias_pairs) + "}"
    present_expr = (
        f"_present_keys(obj, {optional_literal}, {aliases_literal})" if tracks_presence else ""
    )
    optional_keys_name = f"_{suffix.upper()}_OPTIONAL" if optional_keys else ""
    decode_body = _decode_body(
        record,
        checks,
        tuple(fields + deferred),
        dict(zip((item.json_key for item in record.fields), names, strict=True)),
        optional_keys_name,
        aliases_literal if alias_pairs else "",
        tracks_presence,
    )
    return RecordView(
        name=record.name,
        doc=record_doc(record),
        frozen=record.frozen,
        fields=tuple(fields + deferred),
        keeps_extra=checks.keeps_extra,
        tracks_presence=tracks_presence,
        decoder=codegen.checker(record.name),
        public_decoder=f"decode_{suffix}",
        decode_prelude=checks.prelude,
        present_expr=present_expr,
        extra_check=checks.extra_check,
        known_keys_name=checks.keys_name,
        known_keys=checks.keys,
        methods_template=methods_template,
        decode_body=decode_body,
        optional_keys_name=optional_keys_name,
        optional_keys=tuple(py_str(key) for key in optional_keys),
        # every key optional, none an alias: the two sets are one
        optional_same_as_known=not alias_pairs
        and set(optional_keys) == {item.json_key for item in record.fields},
    )


def _decode_body(
    record: ir.Record,
    checks: RecordChecks,
    fields: tuple[FieldView, ...],
    names: dict[str, str],
    optional_name: str,
    aliases: str,
    tracks_presence: bool,
) -> tuple[str, ...]:
    """The statements of a record's decoder: checks inline, one constructor call.

    Simple fields (unconstrained scalars, optionally nullable) are fetched with one
    `obj.get` and checked with `type(...) is ...` in place; the error, its message
    and its path are built only when raising. Other fields call their decoder
    through `_required`/`_optional`, which add the key to the path of a failure.
    Fields are checked in the same order as before (required, then optional), so
    the first problem reported is the same.
    """
    lines = list(checks.inline_prelude)
    by_name = {view.name: view for view in fields}
    key_of = {name: key for key, name in names.items()}  # the JSON key of each field
    ordered = [by_name[names[item.json_key]] for item in checks.fields]
    required = sum(1 for item in record.fields if item.required)
    split, fast = len(ordered), False
    if aliases:
        for view in ordered:
            lines.extend(view.decode_lines)
    else:
        # `checks.fields` holds the required fields first, then the optional ones
        split = next((i for i, view in enumerate(ordered) if view.default), len(ordered))
        fast = (
            not record.frozen
            and not checks.rules_check
            and split < len(ordered)
            and all(view.default for view in ordered[split:])
        )
        lines.extend(_hoist_required_fetches(ordered[:split] if fast else ordered))
    present = ""
    if tracks_presence:
        if aliases:
            present = f"_present_keys(obj, {optional_name or 'frozenset()'}, {aliases})"
        else:
            present = f"{optional_name}.intersection(obj)"
    # the keys present and the unknown ones, in locals no field's own can be (a property
    # named `present` decodes into `f_present`)
    taken = {view.local for view in fields} | {f"v_{view.name}" for view in fields}
    f_present, f_extra = _unused("f_present", taken), _unused("f_extra", taken)
    # Every required key is in `obj` by now, so an object of exactly that many keys has
    # no optional or unknown ones: the set operations below are skipped for it (they
    # are a third of a small record's decode). Alias spellings can stand in for a
    # required key, so records that accept them always take the full path.
    guard = f"if len(obj) != {required}:" if not aliases else ""
    if fast:
        return tuple(
            lines
            + _fast_tail(record.name, fields, ordered[split:], key_of, required, checks, present)
        )
    body_indent = "    " if guard else ""
    tail: list[str] = []
    if present:
        if guard:
            lines.append(f"{f_present}: frozenset[str] = frozenset()")
            tail.append(f"{f_present} = {present}")
        else:
            tail.append(f"{f_present}: frozenset[str] = {present}")
    if checks.keeps_extra:
        keys = checks.keys_name
        lines.append(f"{f_extra}: dict[str, JSONValue] = {{}}")
        if present and guard:
            # required, optional and unknown keys are disjoint: a count tells if any is unknown
            tail.append(f"if len(obj) != {required} + len({f_present}):  # undeclared keys")
        else:
            tail.append(f"if not {keys}.issuperset(obj):")
        tail.append(f"    {f_extra} = _unknown(obj, {keys})")
    if tail:
        if guard:
            lines.append(f"{guard}  # more than the {required} required key(s)")
        lines.extend(body_indent + line for line in tail)
    if checks.rules_check:
        lines.append(checks.rules_check)
    if record.frozen:
        keyword = [f"{view.name}={view.local}" for view in fields if view.local]
        if checks.keeps_extra:
            keyword.append(f"extra={f_extra}")
        lines.append(f"result = {record.name}({', '.join(keyword)})")
    else:
        # Not frozen: a bare instance and one store per slot (~2.5x faster than __init__,
        # which also fills the defaults this decoder overwrites).
        lines.append(f"result = {record.name}.__new__({record.name})")
        for view in fields:
            lines.append(f"result.{view.name} = {view.local or view.tag_literal}")
        if checks.keeps_extra:
            lines.append(f"result.extra = {f_extra}")
    if present:
        if record.frozen:
            lines.append(f'object.__setattr__(result, "_present", {f_present})')
        else:
            lines.append(f"result._present = {f_present}")
    lines.append("return result")
    return tuple(lines)


def _unused(name: str, taken: set[str]) -> str:
    """`name`, or `name` with trailing underscores where that is taken."""
    while name in taken:
        name += "_"
    return name


def _fast_tail(
    name: str,
    fields: tuple[FieldView, ...],
    optional: list[FieldView],
    key_of: dict[str, str],
    required: int,
    checks: RecordChecks,
    present: str,
) -> list[str]:
    """A mutable record's instance, built once its required fields are checked: every
    optional field its default, returned at once when the object has the required keys
    alone (the common case: no lookup and no check per absent key); otherwise each
    optional key present is checked and stored over its default, in the order of the
    fields, and the unknown keys are counted.
    """
    lines = [f"result = {name}.__new__({name})"]
    for view in fields:
        lines.append(f"result.{view.name} = {view.default or view.local or view.tag_literal}")
    if checks.keeps_extra:
        lines.append("result.extra = {}")
    lines += [
        "result._present = frozenset()",
        f"if len(obj) == {required}:  # no optional key: every default",
        "    return result",
        # some optional key is present: which ones, found once (in `present`: the fields'
        # locals are `f_` and `v_` names)
        f"result._present = present = {present}",
    ]
    for view in optional:
        lines.append(f"if {py_str(key_of[view.name])} in present:")
        if view.present_lines:  # they store the value
            lines.extend("    " + line for line in view.present_lines)
        else:
            lines.extend("    " + line for line in view.decode_lines)
            lines.append(f"    result.{view.name} = {view.local}")
    if checks.keeps_extra:
        # required, optional and unknown keys are disjoint: a count tells if any is unknown
        lines.append(f"if len(obj) != {required} + len(present):  # undeclared keys")
        lines.append(f"    result.extra = _unknown(obj, {checks.keys_name})")
    lines.append("return result")
    return lines


def _hoist_required_fetches(views: list[FieldView]) -> list[str]:
    """The fields' statements, every required key read with `obj[key]` in one `try` first.

    A subscript is cheaper than `obj.get(key, _ABSENT)`, and a `try` costs nothing
    until it raises. When a key is missing, the handler reads them all with `.get`,
    so the checks that follow report the same first problem as before.
    """
    fetches = [view.fetch for view in views if view.fetch is not None]
    lines: list[str] = []
    if fetches:
        lines.append("try:")
        lines.extend(f"    {variable} = obj[{key}]" for variable, key in fetches)
        lines.append("except KeyError:  # one is missing: the checks below tell which")
        lines.extend(f"    {variable} = obj.get({key}, _ABSENT)" for variable, key in fetches)
    for view in views:
        lines.extend(view.decode_lines[1:] if view.fetch is not None else view.decode_lines)
    return lines
