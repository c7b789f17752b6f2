"""A record's module: its struct, typespec, `from_json` steps, `to_json` body and docs."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from polytype import ir, naming
from polytype.ir.object_rules import rules_text
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import with_step
from polytype.targets.elixir.filegen import FileGen
from polytype.targets.elixir.names import (
    RUNTIME_ALIAS,
    ex_access,
    ex_key,
    field_names,
    json_scalar,
    literal_term,
    path_segment,
    type_label,
    type_module,
)
from polytype.targets.elixir.schema_checks import checks_doc
from polytype.targets.elixir.snippets import HelperView

_PLAIN_VARIABLE = re.compile(r"^[a-z][a-z0-9_]*\Z")
_RESERVED_VARIABLES = (
    frozenset({"data", "value", "present", "out", "extra"}) | naming.ELIXIR_RESERVED
)


@dataclass(frozen=True)
class RecordView:
    module: str
    doc: str
    enforce_keys: str  # "" or "@enforce_keys [:a, :b]", laid out
    defstruct: str  # "defstruct key: default, ...", laid out
    type_fields: tuple[str, ...]  # "key: spec"
    attributes: tuple[str, ...]  # "@name value", laid out
    decode_steps: tuple[str, ...]  # `with` clauses, laid out
    build_fields: tuple[str, ...]  # "key: expression"
    encode_body: str  # the body of `to_json/1`, laid out
    encode_argument: str  # `value`, or `_value` when the body writes only constants
    helpers: tuple[HelperView, ...]


def _variables(record: ir.Record, names: tuple[str, ...]) -> dict[str, str]:
    """A local variable per field, never clashing with the decoder's own variables."""
    taken: set[str] = set(_RESERVED_VARIABLES)
    result: dict[str, str] = {}
    for item, name in zip(record.fields, names, strict=True):
        if item.is_tag:
            continue
        candidate = name if _PLAIN_VARIABLE.match(name) else ""
        if not candidate or candidate in taken:
            base = "field_" + (
                re.sub(r"[^a-z0-9_]", "_", naming.snake_case(name).lstrip("_")) or "value"
            )
            candidate = base
            index = 2
            while candidate in taken:
                candidate = f"{base}_{index}"
                index += 1
        taken.add(candidate)
        result[item.json_key] = candidate
    return result


def _record_doc(record: ir.Record, names: tuple[str, ...]) -> str:
    lines = [record.doc or f"The {type_label(record.name)} record."]
    if record.fields:
        lines += ["", "## Fields", ""]
        for item, name in zip(record.fields, names, strict=True):
            wire = f"`{item.json_key}`" + "".join(f", `{alias}`" for alias in item.aliases)
            if item.is_tag:
                assert isinstance(item.type, ir.LiteralValue)
                presence = f"always `{json.dumps(item.type.value)}`"
            elif item.required:
                presence = "required"
            elif item.default is not None:
                presence = f"optional, default `{json.dumps(_thaw(item.default.value), ensure_ascii=False)}`"
            else:
                presence = "optional"
            if item.nullable:
                presence += ", nullable"
            text = f"  * `:{name}` ({wire}; {presence})"
            if item.doc:
                text += " - " + item.doc.replace("\n", "\n    ")
            lines.append(text)
    if record.extra_policy == "keep":
        lines += [
            "",
            "Keys the schema does not declare are kept in `:extra` and written back by `to_json/1`.",
        ]
    elif record.extra_policy == "forbid":
        lines += ["", "Keys the schema does not declare are rejected."]
    if not record.rules.is_empty():
        lines += ["", rules_text(record.rules)]
    lines += checks_doc(record.schema_checks)
    return "\n".join(lines)


def _thaw(value: ir.JSONData) -> object:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def _spellings_list(item: ir.Field) -> layout.Items:
    return layout.Items(
        "[",
        tuple(
            layout.Items("{", (ex_str(s), ex_str(path_segment(s))))
            for s in (item.json_key, *item.aliases)
        ),
    )


def record_view(record: ir.Record, module: ir.Module) -> RecordView:
    gen = FileGen(module)
    names = field_names(record)
    variables = _variables(record, names)
    struct_fields: list[tuple[str, layout.Code]] = []
    type_fields: list[tuple[str, layout.Code]] = []
    enforce: list[str] = []
    tag_steps: list[tuple[layout.Code, layout.Code]] = []
    required_steps: list[tuple[layout.Code, layout.Code]] = []
    optional_steps: list[tuple[layout.Code, layout.Code]] = []
    build: list[tuple[str, layout.Code]] = []
    encode_map: list[tuple[str, layout.Code]] = []
    encode_optional: list[str] = []
    optional_keys: list[str] = []
    alias_pairs: list[tuple[str, str]] = []
    uses_present_in_encode = False
    for item, name in zip(record.fields, names, strict=True):
        key = ex_key(name)
        access = ex_access("value", name)
        spelling: layout.Code
        if item.aliases:
            alias_pairs.extend((alias, item.json_key) for alias in item.aliases)
            spellings = tuple(ex_str(s) for s in (item.json_key, *item.aliases))
            spelling = layout.call(
                f"{RUNTIME_ALIAS}.spelling", "present", layout.Items("[", spellings)
            )
            uses_present_in_encode = True
        else:
            spelling = ex_str(item.json_key)
        if item.is_tag:
            assert isinstance(item.type, ir.LiteralValue)
            term = literal_term(item.type.value)
            struct_fields.append((key, term))
            type_fields.append((key, term))
            segment = ex_str(path_segment(item.json_key))
            tag_steps.append(
                (
                    ":ok",
                    layout.call(
                        f"{RUNTIME_ALIAS}.tag",
                        "data",
                        ex_str(item.json_key),
                        segment,
                        json_scalar(item.type.value),
                    ),
                )
            )
            encode_map.append((f"{layout.flat(spelling)} =>", json_scalar(item.type.value)))
            continue
        variable = variables[item.json_key]
        decoder = gen.decoder(item.type)
        build.append((key, variable))
        if item.required:
            enforce.append(ex_atom(name))
            struct_fields.append((key, "nil"))
            type_fields.append((key, gen.typespec_code(item.type)))
            if item.aliases:
                call = layout.call(
                    f"{RUNTIME_ALIAS}.required_aliased",
                    "data",
                    _spellings_list(item),
                    f"&{decoder}/1",
                )
            else:
                call = layout.call(
                    f"{RUNTIME_ALIAS}.required",
                    "data",
                    ex_str(item.json_key),
                    ex_str(path_segment(item.json_key)),
                    f"&{decoder}/1",
                )
            required_steps.append((layout.Items("{", (":ok", variable)), call))
            encode_map.append((f"{layout.flat(spelling)} =>", gen.encode(item.type, access)))
            continue
        optional_keys.append(item.json_key)
        uses_present_in_encode = True
        spec: layout.Code
        default: layout.Code
        if item.default is not None:
            default = gen.default_term(item.type, item.default.value)
            spec = gen.typespec_code(item.type)
            if item.default.value is None and not item.nullable:
                spec = layout.alternatives(spec, "nil")
        else:
            default = "nil"
            spec = gen.typespec_code(item.type)
            if not item.nullable:
                spec = layout.alternatives(spec, "nil")
        struct_fields.append((key, default))
        type_fields.append((key, spec))
        if item.aliases:
            call = layout.call(
                f"{RUNTIME_ALIAS}.optional_aliased",
                "data",
                _spellings_list(item),
                f"&{decoder}/1",
                default,
            )
        else:
            call = layout.call(
                f"{RUNTIME_ALIAS}.optional",
                "data",
                ex_str(item.json_key),
                ex_str(path_segment(item.json_key)),
                f"&{decoder}/1",
                default,
            )
        optional_steps.append((layout.Items("{", (":ok", variable)), call))
        if item.aliases:  # written back under the spelling it was read in
            encoded_type = (
                item.type if item.nullable or default != "nil" else ir.Nullable(item.type)
            )
            put = layout.call("Map.put", "out", spelling, gen.encode(encoded_type, access))
            compared: layout.Code = "" if default == "nil" else default
            conditional = layout.Conditional(
                f"{ex_str(item.json_key)} in present", access, compared, put, "out"
            )
            encode_optional.append(layout.assignment("out", conditional, 4))
        else:
            encode_optional.append(
                layout.assigned("out", _put_optional(item, access, default, gen), 4)
            )
    attributes: list[str] = []
    # what no type expresses, on the whole JSON object before anything else
    steps: list[tuple[layout.Code, layout.Code]] = [
        (":ok", call) for call in gen.check_calls("data", record.schema_checks)
    ]
    steps += tag_steps
    keeps_extra = record.extra_policy == "keep"
    all_keys = [spelling for item in record.fields for spelling in (item.json_key, *item.aliases)]
    if record.extra_policy in ("keep", "forbid") or not record.rules.is_empty():
        attributes.append(_attribute("known_keys", [ex_str(key) for key in all_keys]))
    if record.extra_policy == "forbid":
        steps.append((":ok", layout.call(f"{RUNTIME_ALIAS}.forbid_unknown", "data", "@known_keys")))
    steps += required_steps + optional_steps
    if not record.rules.is_empty():
        steps.append(
            (
                ":ok",
                layout.call(
                    f"{RUNTIME_ALIAS}.object_rules", "data", "@known_keys", *gen.rules(record.rules)
                ),
            )
        )
    if keeps_extra:
        steps.append(
            ("{:ok, extra}", layout.call(f"{RUNTIME_ALIAS}.unknown", "data", "@known_keys"))
        )
        struct_fields.append(("extra:", "%{}"))
        type_fields.append(("extra:", f"{RUNTIME_ALIAS}.json_object()"))
        build.append(("extra:", "extra"))
    tracks_presence = bool(optional_keys or alias_pairs)
    if tracks_presence:
        attributes.append(_attribute("optional_keys", [ex_str(key) for key in optional_keys]))
        attributes.append(
            _attribute(
                "aliases",
                [layout.Items("{", (ex_str(alias), ex_str(key))) for alias, key in alias_pairs],
            )
        )
        struct_fields.append(("__present__:", "[]"))
        type_fields.append(("__present__:", layout.Items("[", ("String.t()",))))
        build.append(
            (
                "__present__:",
                layout.call(f"{RUNTIME_ALIAS}.present", "data", "@optional_keys", "@aliases"),
            )
        )
    attributes.extend(gen.attribute_lines())
    encode: list[str] = []
    if uses_present_in_encode and tracks_presence:
        encode.append("present = value.__present__")
    if encode_map:
        entries = (
            " " * 6 + layout.pair(key, value, 6, "," if index < len(encode_map) - 1 else "")
            for index, (key, value) in enumerate(encode_map)
        )
        encode.append("out = %{\n" + ",\n".join(entries) + "\n    }")
    else:
        encode.append("out = %{}")
    encode.extend(encode_optional)
    encode.append("Map.merge(out, value.extra)" if keeps_extra else "out")
    # a record of tags alone writes constants: an unused `value` fails warnings-as-errors
    reads_value = (
        any(not item.is_tag for item in record.fields)
        or keeps_extra
        or (uses_present_in_encode and tracks_presence)
    )
    last = len(steps) - 1
    return RecordView(
        module=type_module(module, record),
        doc=_record_doc(record, names),
        enforce_keys=_attribute("enforce_keys", enforce) if enforce else "",
        defstruct=(
            layout.keyword_call("defstruct", struct_fields, 2) if struct_fields else "defstruct []"
        ),
        type_fields=tuple(
            layout.pair(key, spec, 10, "," if index < len(type_fields) - 1 else "")
            for index, (key, spec) in enumerate(type_fields)
        ),
        attributes=tuple(attributes),
        decode_steps=tuple(
            with_step(pattern, call, "," if index < last else " do")
            for index, (pattern, call) in enumerate(steps)
        ),
        build_fields=tuple(
            layout.pair(key, value, 9 if steps else 7, "," if index < len(build) - 1 else "")
            for index, (key, value) in enumerate(build)
        ),
        encode_body=layout.block(encode, 4),
        encode_argument="value" if reads_value else "_value",
        helpers=gen.finished_helpers(),
    )


def _put_optional(item: ir.Field, access: str, default: layout.Code, gen: FileGen) -> layout.Call:
    """The runtime call writing an optional key back: when it was read, or when its value
    is not its default (nil: not set), encoded by the type's encoder (none: as it is)."""
    args: list[layout.Code] = ["out", "present", ex_str(item.json_key), access]
    encoded_type = item.type
    if default == "nil":
        name = f"{RUNTIME_ALIAS}.put_optional"  # writes nil as it is: the encoder never sees it
        if isinstance(encoded_type, ir.Nullable):
            encoded_type = encoded_type.inner
    else:
        name = f"{RUNTIME_ALIAS}.put_unless_default"
        args.append(default)
    encoder = gen.encoder(encoded_type)
    if encoder is not None:
        args.append(f"&{encoder}/1")
    return layout.call(name, *args)


def _attribute(name: str, items: Sequence[layout.Code], indent: int = 2) -> str:
    """`@name [items]`, laid out."""
    return layout.list_literal(items, indent, f"@{name} ")
