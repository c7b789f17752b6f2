"""Target: an Elixir mix project of struct modules with exact, validating JSON codecs.

Output lives under ``generated/elixir/``: one file per named type in ``lib/``
(path from its module name), one runtime helper module per Elixir namespace,
one ExUnit file per schema module in ``test/``, and (project target)
``mix.exs``, ``.formatter.exs``, ``.gitignore`` and ``test/test_helper.exs``.

Everything is decided here and handed to ``templates/elixir/`` as view objects
holding finished snippets; the templates only loop and print. Every string that
comes from a schema reaches Elixir source through ``ex_str``/``ex_atom``/``ex_doc``.

The contract mirrors the Python dataclasses: ``from_json/1`` takes decoded JSON
(maps with string keys, as ``:jiffy`` or ``Jason`` return them) and gives
``{:ok, struct}`` or ``{:error, {path, reason}}`` with the same ``$.a[0].b``
paths as the Python ``DecodeError``; ``to_json/1`` gives the map back exactly,
optional keys present in the input written back even when default or ``nil``.
Enum strings become atoms through generated function clauses only.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass

from polytype import ir, naming
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.ir import unions
from polytype.ir.object_rules import rules_text
from polytype.targets.base import FileKind, OutputFile, depth
from polytype.targets.base.render import RenderEnv, ex_atom, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import clause_block, with_step
from polytype.targets.elixir.filegen import FileGen
from polytype.targets.elixir.names import (
    APP_MODULE,
    APP_NAME,
    GUARDS,
    PROJECT_TARGET,
    ROOT,
    RUNTIME_ALIAS,
    TARGET,
    ex_access,
    ex_key,
    ex_str_list,
    json_scalar,
    literal_atom,
    literal_term,
    module_file,
    path_segment,
    runtime_module,
    unknown_module,
)
from polytype.targets.elixir.snippets import HelperView
from polytype.targets.elixir.terms import (
    check_schema,
    json_term,
)

# what targets/docs asks of the Elixir target, by name
__all__ = ["literal_atom", "module_file", "render", "render_project", "unknown_module"]


_PLAIN_VARIABLE = re.compile(r"^[a-z][a-z0-9_]*\Z")
_RESERVED_VARIABLES = (
    frozenset({"data", "value", "present", "out", "extra"}) | naming.ELIXIR_RESERVED
)
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?\Z")


# --- views -----------------------------------------------------------------


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


@dataclass(frozen=True)
class EnumView:
    module: str
    doc: str
    typespec: str  # `@type t :: ...`, laid out
    values: str  # `def values, do: [...]`, laid out
    decode_clauses: str  # laid out
    encode_clauses: str  # laid out
    encode_spec: str


@dataclass(frozen=True)
class UnionView:
    module: str
    doc: str
    typespec: str  # `@type t :: ...`, laid out
    decode_clauses: str  # the `def decode` clauses, laid out
    encode_clauses: str  # laid out
    attributes: tuple[str, ...]  # "@name value", used by the helpers
    helpers: tuple[HelperView, ...]


@dataclass(frozen=True)
class AliasView:
    module: str
    doc: str
    typespec: str
    decode_clause: str  # laid out
    encode_clauses: str  # laid out
    attributes: tuple[str, ...]  # "@name value", used by the helpers
    helpers: tuple[HelperView, ...]


@dataclass(frozen=True)
class CaseView:
    name: str  # test name
    module: str  # Elixir module under test
    path: str  # fixture path relative to the fixtures directory
    expected_path: str  # "" when the `.path` file is missing

    @property
    def round_trip(self) -> str:
        return layout.expression(f"assert_round_trip({self.module}, {ex_str(self.path)})", 6)

    @property
    def pair(self) -> str:
        """`{Module, "path"}` in the list of fixtures (column 6, a comma after it)."""
        pair = f"{{{self.module}, {ex_str(self.path)}}}"
        return (
            pair
            if layout.fits(pair + ",", 6)
            else f"{{{self.module},\n{' ' * 7}{ex_str(self.path)}}}"
        )

    @property
    def rejected(self) -> str:
        if not self.expected_path:
            flunk = f"record the expected error path in {self.path[:-5]}.path"
            return layout.expression(f"flunk({ex_str(flunk)})", 6)
        call = f"assert_rejected({self.module}, {ex_str(self.path)}, {ex_str(self.expected_path)})"
        return layout.expression(call, 6)


@dataclass(frozen=True)
class AtomCaseView:
    name: str
    module: str
    json_template: str  # JSON text with __POLYTYPE_UNKNOWN__ where the unknown string goes
    expected_path: str
    kept_by: str = ""  # an open union: the Unknown<Union> module that keeps the tag (no error)

    @property
    def assertion(self) -> str:
        if self.kept_by:
            arguments = f"{self.module}, {ex_str(self.json_template)}, {self.kept_by}"
            return layout.expression(f"assert_kept_without_new_atoms({arguments})", 4)
        arguments = f"{self.module}, {ex_str(self.json_template)}, {ex_str(self.expected_path)}"
        return layout.expression(f"assert_no_new_atoms({arguments})", 4)


# --- building views --------------------------------------------------------


def _variables(record: ir.Record) -> dict[str, str]:
    """A local variable per field, never clashing with the decoder's own variables."""
    taken: set[str] = set(_RESERVED_VARIABLES)
    result: dict[str, str] = {}
    for item in record.fields:
        if item.is_tag:
            continue
        candidate = item.ex_name if _PLAIN_VARIABLE.match(item.ex_name) else ""
        if not candidate or candidate in taken:
            base = "field_" + (
                re.sub(r"[^a-z0-9_]", "_", naming.snake_case(item.ex_name).lstrip("_")) or "value"
            )
            candidate = base
            index = 2
            while candidate in taken:
                candidate = f"{base}_{index}"
                index += 1
        taken.add(candidate)
        result[item.json_key] = candidate
    return result


def _record_doc(record: ir.Record) -> str:
    lines = [record.doc or f"The {record.name} record."]
    if record.fields:
        lines += ["", "## Fields", ""]
        for item in record.fields:
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
            text = f"  * `:{item.ex_name}` ({wire}; {presence})"
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
    lines += _checks_doc(record.schema_checks)
    return "\n".join(lines)


def _checks_doc(checks: tuple[ir.SchemaCheck, ...]) -> list[str]:
    """The docstring lines naming the schema checks a decoder runs first."""
    if not checks:
        return []
    lines = ["", "Decoding first checks the JSON value against the schema's rules at:", ""]
    return lines + [f"  * {check.described}" for check in checks]


def _thaw(value: ir.JSONData) -> object:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def _spellings_list(item: ir.Field) -> str:
    return (
        "["
        + ", ".join(
            f"{{{ex_str(s)}, {ex_str(path_segment(s))}}}" for s in (item.json_key, *item.aliases)
        )
        + "]"
    )


def _record_view(record: ir.Record, module: ir.Module) -> RecordView:
    gen = FileGen(module)
    variables = _variables(record)
    struct_fields: list[str] = []
    type_fields: list[str] = []
    enforce: list[str] = []
    tag_steps: list[str] = []
    required_steps: list[str] = []
    optional_steps: list[str] = []
    build: list[str] = []
    encode_map: list[str] = []
    encode_optional: list[str] = []
    optional_keys: list[str] = []
    alias_pairs: list[tuple[str, str]] = []
    uses_present_in_encode = False
    for item in record.fields:
        key = ex_key(item.ex_name)
        access = ex_access("value", item.ex_name)
        alias_pairs.extend((alias, item.json_key) for alias in item.aliases)
        if item.aliases:
            spelling = (
                f"{RUNTIME_ALIAS}.spelling(present, {ex_str_list((item.json_key, *item.aliases))})"
            )
            uses_present_in_encode = True
        else:
            spelling = ex_str(item.json_key)
        if item.is_tag:
            assert isinstance(item.type, ir.LiteralValue)
            term = literal_term(item.type.value)
            struct_fields.append(f"{key} {term}")
            type_fields.append(f"{key} {term}")
            segment = ex_str(path_segment(item.json_key))
            tag_steps.append(
                f":ok <- {RUNTIME_ALIAS}.tag(data, {ex_str(item.json_key)}, {segment}, {json_scalar(item.type.value)})"
            )
            encode_map.append(f"{spelling} => {json_scalar(item.type.value)}")
            continue
        variable = variables[item.json_key]
        decoder = gen.decoder(item.type)
        build.append(f"{key} {variable}")
        if item.required:
            enforce.append(ex_atom(item.ex_name))
            struct_fields.append(f"{key} nil")
            type_fields.append(f"{key} {gen.typespec(item.type)}")
            if item.aliases:
                call = (
                    f"{RUNTIME_ALIAS}.required_aliased(data, {_spellings_list(item)}, &{decoder}/1)"
                )
            else:
                call = (
                    f"{RUNTIME_ALIAS}.required(data, {ex_str(item.json_key)}, "
                    f"{ex_str(path_segment(item.json_key))}, &{decoder}/1)"
                )
            required_steps.append(f"{{:ok, {variable}}} <- {call}")
            encode_map.append(f"{spelling} => {gen.encode(item.type, access)}")
            continue
        optional_keys.append(item.json_key)
        uses_present_in_encode = True
        if item.default is not None:
            default = gen.default_term(item.type, item.default.value)
            spec = gen.typespec(item.type)
            if item.default.value is None and not item.nullable:
                spec += " | nil"
        else:
            default = "nil"
            spec = gen.typespec(item.type) if item.nullable else f"{gen.typespec(item.type)} | nil"
        struct_fields.append(f"{key} {default}")
        type_fields.append(f"{key} {spec}")
        if item.aliases:
            call = f"{RUNTIME_ALIAS}.optional_aliased(data, {_spellings_list(item)}, &{decoder}/1, {default})"
        else:
            call = (
                f"{RUNTIME_ALIAS}.optional(data, {ex_str(item.json_key)}, "
                f"{ex_str(path_segment(item.json_key))}, &{decoder}/1, {default})"
            )
        optional_steps.append(f"{{:ok, {variable}}} <- {call}")
        if default == "nil":
            condition = f"{ex_str(item.json_key)} in present or not is_nil({access})"
            encoded = gen.encode(item.type if item.nullable else ir.Nullable(item.type), access)
        else:
            condition = f"{ex_str(item.json_key)} in present or {access} != {default}"
            encoded = gen.encode(item.type, access)
        encode_optional.append(
            layout.assignment(
                "out", f"if {condition}, do: Map.put(out, {spelling}, {encoded}), else: out", 4
            )
        )
    attributes: list[str] = []
    # what no type expresses, on the whole JSON object before anything else
    steps = [f":ok <- {call}" for call in gen.check_calls("data", record.schema_checks)]
    steps += tag_steps
    keeps_extra = record.extra_policy == "keep"
    all_keys = [spelling for item in record.fields for spelling in (item.json_key, *item.aliases)]
    if record.extra_policy in ("keep", "forbid") or not record.rules.is_empty():
        attributes.append(_attribute("known_keys", [ex_str(key) for key in all_keys]))
    if record.extra_policy == "forbid":
        steps.append(f":ok <- {RUNTIME_ALIAS}.forbid_unknown(data, @known_keys)")
    steps += required_steps + optional_steps
    if not record.rules.is_empty():
        steps.append(
            f":ok <- {RUNTIME_ALIAS}.object_rules(data, @known_keys, {gen.rules(record.rules)})"
        )
    if keeps_extra:
        steps.append(f"{{:ok, extra}} <- {RUNTIME_ALIAS}.unknown(data, @known_keys)")
        struct_fields.append("extra: %{}")
        type_fields.append(f"extra: {RUNTIME_ALIAS}.json_object()")
        build.append("extra: extra")
    tracks_presence = bool(optional_keys or alias_pairs)
    if tracks_presence:
        attributes.append(_attribute("optional_keys", [ex_str(key) for key in optional_keys]))
        attributes.append(
            _attribute(
                "aliases", [f"{{{ex_str(alias)}, {ex_str(key)}}}" for alias, key in alias_pairs]
            )
        )
        struct_fields.append("__present__: []")
        type_fields.append("__present__: [String.t()]")
        build.append(f"__present__: {RUNTIME_ALIAS}.present(data, @optional_keys, @aliases)")
    attributes.extend(gen.attribute_lines())
    encode: list[str] = []
    if uses_present_in_encode and tracks_presence:
        encode.append("present = value.__present__")
    if encode_map:
        entries = (
            " " * 6 + layout.pair(line, " => ", 6, "," if index < len(encode_map) - 1 else "")
            for index, line in enumerate(encode_map)
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
        module=record.elixir_module,
        doc=_record_doc(record),
        enforce_keys=_attribute("enforce_keys", enforce) if enforce else "",
        defstruct=(
            layout.keyword_call("defstruct", struct_fields, 2) if struct_fields else "defstruct []"
        ),
        type_fields=tuple(
            layout.pair(line, ": ", 10, "," if index < len(type_fields) - 1 else "")
            for index, line in enumerate(type_fields)
        ),
        attributes=tuple(attributes),
        decode_steps=tuple(
            with_step(step, "," if index < last else " do") for index, step in enumerate(steps)
        ),
        build_fields=tuple(
            layout.pair(line, ": ", 9 if steps else 7, "," if index < len(build) - 1 else "")
            for index, line in enumerate(build)
        ),
        encode_body=layout.block(encode, 4),
        encode_argument="value" if reads_value else "_value",
        helpers=gen.finished_helpers(),
    )


def _attribute(name: str, items: list[str], indent: int = 2) -> str:
    """`@name [items]`, laid out."""
    return layout.list_literal(items, indent, f"@{name} ")


def _enum_view(enum: ir.EnumType) -> EnumView:
    decode_clauses: list[str] = []
    encode_clauses: list[str] = []
    if enum.atoms:
        atoms = [ex_atom(value.ex_atom) for value in enum.values]
        for value, atom in zip(enum.values, atoms, strict=True):
            decode_clauses.append(f"def decode({ex_str(value.value)}), do: {{:ok, {atom}}}")
            encode_clauses.append(f"def to_json({atom}), do: {ex_str(value.value)}")
        typespec = layout.union_type("@type t", atoms, 2)
        values = atoms
    else:
        for value in enum.values:
            decode_clauses.append(f"def decode({ex_str(value.value)} = value), do: {{:ok, value}}")
            encode_clauses.append(f"def to_json({ex_str(value.value)} = value), do: value")
        typespec = "@type t :: String.t()"
        values = [ex_str(value.value) for value in enum.values]
    expected = ", ".join(json.dumps(value.value, ensure_ascii=False) for value in enum.values)
    decode_clauses.append(
        f"def decode(data) when is_binary(data), do: {RUNTIME_ALIAS}.unknown_value(data, {ex_str(expected)})"
    )
    decode_clauses.append(f'def decode(data), do: {RUNTIME_ALIAS}.type_error("string", data)')
    values_clause = f"def values, do: [{', '.join(values)}]"
    if not layout.fits(values_clause, 2):
        values_clause = "def values,\n    " + layout.list_literal(values, 4, "do: ")
    doc = enum.doc or f"The {enum.name} enumeration."
    if enum.atoms:
        listing = "\n".join(
            f"  * `{json.dumps(v.value, ensure_ascii=False)}` ↔ `:{v.ex_atom}`" for v in enum.values
        )
        doc += "\n\nJSON strings and the atoms they decode to:\n\n" + listing
    else:
        listing = "\n".join(f"  * `{json.dumps(v.value, ensure_ascii=False)}`" for v in enum.values)
        doc += "\n\nValues (kept as strings):\n\n" + listing
    return EnumView(
        module=enum.elixir_module,
        doc=doc,
        typespec=typespec,
        values=values_clause,
        decode_clauses=clause_block(decode_clauses),
        encode_clauses=clause_block(encode_clauses),
        encode_spec="String.t()",
    )


def _union_view(union: ir.UnionType, module: ir.Module) -> UnionView:
    gen = FileGen(module)
    clauses: list[str] = []
    # with schema checks, `decode/1` runs them on the JSON value, then chooses the member
    head = "defp decode_member" if union.schema_checks else "def decode"
    if union.schema_checks:
        calls = gen.check_calls("data", union.schema_checks)
        steps = [
            with_step(f":ok <- {call}", "," if index < len(calls) - 1 else " do")
            for index, call in enumerate(calls)
        ]
        clauses.append(
            "\n".join(
                [
                    "def decode(data) do",
                    *(
                        ("  with " if index == 0 else "       ")
                        + step.replace("\n  ", "\n")
                        + ("," if index < len(steps) - 1 else " do")
                        for index, step in enumerate(steps)
                    ),
                    "    decode_member(data)",
                    "  end",
                    "end",
                ]
            )
        )
    if union.tag is not None:
        tag = ex_str(union.tag)
        segment = ex_str(path_segment(union.tag))
        arrows = [
            (f"{{:ok, {json_scalar(value)}}}", f"{gen.mod(member)}.decode(data)")
            for value, member in union.tag_values
        ]
        known = ", ".join(json.dumps(value, ensure_ascii=False) for value, _ in union.tag_values)
        if union.unknown is not None:  # an unlisted string tag is kept whole, never an atom
            arrows.append(
                ("{:ok, tag} when is_binary(tag)", f"{unknown_module(module, union)}.decode(data)")
            )
        arrows.append(
            ("{:ok, tag}", f"{RUNTIME_ALIAS}.unknown_tag({segment}, tag, {ex_str(known)})")
        )
        arrows.append((":error", f'{{:error, {{{segment}, "missing required key"}}}}'))
        clauses.append(
            _case_clause(
                f"{head}(data) when is_map(data) do", f"case Map.fetch(data, {tag}) do", arrows
            )
        )
        clauses.append(f'{head}(data), do: {RUNTIME_ALIAS}.type_error("object", data)')
    elif union.tries_members:
        clauses.append(_tried_clause(union, gen, head))
    else:
        clauses.extend(_structural_clauses(union, gen, head))
    if union.tries_members and not all(
        isinstance(module.get(member), ir.Record) for member in union.members
    ):  # members of one JSON type: the value says what it is
        modules = ", ".join(gen.mod(member) for member in union.members)
        encode_clauses = [
            f"def to_json(value), do: {RUNTIME_ALIAS}.encode_tried(value, [{modules}])"
        ]
    else:
        encode_clauses = [
            clause.render("to_json") for clause in gen.encode_clauses(ir.Ref(union.name))
        ]
    members = [f"{gen.mod(member)}.t()" for member in union.members] or ["none()"]
    if union.unknown is not None:
        members.append(f"{unknown_module(module, union)}.t()")
    return UnionView(
        module=union.elixir_module,
        doc=_union_doc(union, gen),
        typespec=layout.union_type("@type t", members, 2),
        decode_clauses=clause_block(clauses),
        encode_clauses=clause_block(encode_clauses),
        attributes=gen.attribute_lines(),
        helpers=gen.finished_helpers(),
    )


@dataclass(frozen=True)
class UnknownView:
    module: str
    doc: str
    tag_key: str  # an Elixir string literal


def _unknown_view(union: ir.UnionType, module: ir.Module) -> UnknownView:
    assert union.open_tag is not None
    doc = (
        f"A value of {union.name} whose `{union.open_tag}` tag is none the schema lists (x-unknown: keep).\n\n"
        "A newer producer's value, kept whole: `tag` is the tag (a string, never an atom), "
        "`data` the JSON object as decoded, written back unchanged."
    )
    return UnknownView(unknown_module(module, union), doc, ex_str(union.open_tag))


def _union_doc(union: ir.UnionType, gen: FileGen) -> str:
    doc = union.doc or f"One of: {', '.join(union.members)}."
    lines = [doc, ""]
    if union.tag is not None:
        lines.append(f"Decoding dispatches on the `{union.tag}` key:")
        lines.append("")
        for value, member in union.tag_values:
            lines.append(f"  * `{json.dumps(value, ensure_ascii=False)}` → `{gen.mod(member)}`")
        if union.unknown is not None:
            lines.append(
                f"  * any other string → `{unknown_module(gen.module, union)}` (x-unknown: keep)"
            )
    elif union.tries_members:
        lines.append(f"Decoding tries each member in turn ({unions.RULES[union.match]}):")
        lines.append("")
        for check in union.checks:
            lines.append(f"  * `{gen.mod(check.member)}`")
    else:
        lines.append("Decoding recognises the members by shape:")
        lines.append("")
        for case in union.cases:
            if case.tag_key is not None:
                rule = f"`{case.tag_key}` is `{json.dumps(case.tag_value, ensure_ascii=False)}`"
            elif case.key is not None:
                rule = f"has the key `{case.key}`"
            else:
                rule = f"a JSON {case.json_type}"
            lines.append(f"  * {rule} → `{gen.mod(case.member)}`")
    lines += _checks_doc(union.schema_checks)
    return "\n".join(lines)


def _tried_clause(union: ir.UnionType, gen: FileGen, head: str) -> str:
    """`decode` of a union that tries its members (oneOf / anyOf), through the runtime."""
    members = [
        f"{{{ex_str(check.member)}, {ex_str_list(check.json_types)}, "
        f"{ex_str_list(check.required)}, &{gen.mod(check.member)}.decode/1}}"
        for check in union.checks
    ]
    exactly_one = "true" if union.match == "one_of" else "false"
    return (
        f"{head}(data), do: {RUNTIME_ALIAS}.try_members(data, {ex_str(union.name)}, "
        f"[{', '.join(members)}], {exactly_one})"
    )


def _structural_clauses(union: ir.UnionType, gen: FileGen, head: str) -> list[str]:
    clauses: list[str] = []
    object_cases = [case for case in union.cases if case.json_type == "object"]
    other_cases = [case for case in union.cases if case.json_type != "object"]
    if object_cases:
        plain = [case for case in object_cases if case.tag_key is None and case.key is None]
        if len(object_cases) == 1 and plain:
            clauses.append(
                f"{head}(data) when is_map(data), do: {gen.mod(plain[0].member)}.decode(data)"
            )
        else:
            arrows: list[tuple[str, str]] = []
            for case in object_cases:
                target = f"{gen.mod(case.member)}.decode(data)"
                if case.tag_key is not None:
                    assert case.tag_value is not None
                    arrows.append(
                        (
                            f"Map.get(data, {ex_str(case.tag_key)}) == {json_scalar(case.tag_value)}",
                            target,
                        )
                    )
                elif case.key is not None:
                    arrows.append((f"Map.has_key?(data, {ex_str(case.key)})", target))
                else:
                    arrows.append(("true", target))
            if union.open_tag is not None:  # kept whole, the tag a string: never an atom
                arrows.append(
                    (
                        f"is_binary(Map.get(data, {ex_str(union.open_tag)}))",
                        f"{unknown_module(gen.module, union)}.decode(data)",
                    )
                )
            if not plain:
                hints = [
                    (
                        f"{case.tag_key}={json.dumps(case.tag_value, ensure_ascii=False)}"
                        if case.tag_key is not None
                        else f"key {json.dumps(case.key, ensure_ascii=False)}"
                    )
                    for case in object_cases
                ]
                message = f"matches no member of {union.name} (expected {', '.join(hints)})"
                arrows.append(("true", f'{{:error, {{"", {ex_str(message)}}}}}'))
            clauses.append(_case_clause(f"{head}(data) when is_map(data) do", "cond do", arrows))
    expected: list[str] = ["object"] if object_cases else []
    for case in other_cases:
        clauses.append(
            f"{head}(data) when {GUARDS[case.json_type].replace('value', 'data')}, do: {gen.mod(case.member)}.decode(data)"
        )
        expected.append(case.json_type)
    listed = " or ".join(dict.fromkeys(expected))
    clauses.append(f"{head}(data), do: {RUNTIME_ALIAS}.type_error({ex_str(listed)}, data)")
    return clauses


def _case_clause(head: str, opening: str, arrows: list[tuple[str, str]]) -> str:
    """`head` / `opening` / the arrow clauses / `end` / `end`, written from column 0."""
    body = "\n".join(_unshift(line, 2) for line in layout.arrow_clauses(arrows, 6))
    return "\n".join([head, f"  {opening}", body, "  end", "end"])


def _unshift(text: str, indent: int) -> str:
    """Arrow clauses laid out at column `indent + 4`, written relative to column `indent`."""
    if not text:
        return text
    first, *rest = text.split("\n")
    return "\n".join(["    " + first, *(line[indent:] for line in rest)])


def _alias_view(alias: ir.Alias, module: ir.Module) -> AliasView:
    gen = FileGen(module)
    decoder = gen.decoder(alias.type)
    encoder = gen.encoder(alias.type)
    if encoder is None:
        encode_clauses: tuple[str, ...] = ("def to_json(value), do: value",)
    else:
        encode_clauses = (f"def to_json(value), do: {encoder}(value)",)
    return AliasView(
        module=alias.elixir_module,
        doc=alias.doc or f"The {alias.name} type.",
        typespec=gen.typespec(alias.type),
        decode_clause=clause_block([f"def decode(data), do: {decoder}(data)"]),
        encode_clauses=clause_block(encode_clauses),
        attributes=gen.attribute_lines(),
        helpers=gen.finished_helpers(),
    )


def _unknown_probe(module: ir.Module) -> list[AtomCaseView]:
    """Inputs with a string nobody declared: decoding must fail without creating an atom."""
    cases: list[AtomCaseView] = []
    for named in module.types:
        if isinstance(named, ir.EnumType):
            cases.append(
                AtomCaseView(
                    f"unknown {named.name} value",
                    named.elixir_module,
                    '"__POLYTYPE_UNKNOWN__"',
                    "$",
                )
            )
        elif isinstance(named, ir.UnionType) and named.tag is not None:
            template = json.dumps({named.tag: "__POLYTYPE_UNKNOWN__"}, ensure_ascii=False)
            cases.append(
                AtomCaseView(
                    f"unknown {named.name} tag",
                    named.elixir_module,
                    template,
                    "$" + path_segment(named.tag),
                    unknown_module(module, named) if named.unknown else "",
                )
            )
        elif isinstance(named, ir.UnionType) and named.open_tag is not None:
            template = json.dumps({named.open_tag: "__POLYTYPE_UNKNOWN__"}, ensure_ascii=False)
            cases.append(
                AtomCaseView(
                    f"unknown {named.name} tag",
                    named.elixir_module,
                    template,
                    "",
                    unknown_module(module, named),
                )
            )
    return cases


def _check_collisions(module: ir.Module) -> None:
    """Names the target adds itself (`extra`, `__present__`, the runtime module) must not collide."""
    problems = []
    runtime = runtime_module(module)
    taken = {named.elixir_module: named.name for named in module.types}
    for named in module.types:
        source = named.source or ir.SourceRef(module.schema_path, 1, 1, "")
        if isinstance(named, ir.UnionType) and named.unknown is not None:
            kept = unknown_module(module, named)
            if kept in taken or kept == runtime:
                problems.append(
                    Diagnostic(
                        source.file,
                        Position(source.line, source.column),
                        source.pointer + "/x-unknown",
                        f"Elixir module {kept!r} of {named.unknown} collides with "
                        f"{taken.get(kept, 'the generated runtime')}",
                    )
                )
        if named.elixir_module == runtime or named.elixir_module.startswith(RUNTIME_ALIAS + "."):
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer,
                    f"Elixir module {named.elixir_module!r} collides with the generated runtime",
                )
            )
        if isinstance(named, ir.Record):
            reserved = {"__present__", "__struct__"} | (
                {"extra"} if named.extra_policy == "keep" else set()
            )
            for item in named.fields:
                if item.ex_name in reserved:
                    problems.append(
                        Diagnostic(
                            source.file,
                            Position(source.line, source.column),
                            f"{source.pointer}/properties/{item.json_key}",
                            f"Elixir field {item.ex_name!r} is used by the generated struct; set x-elixir field",
                        )
                    )
    if problems:
        raise InputError(problems)


def _check_attributes(module: ir.Module) -> dict[str, str]:
    """The runtime's `@check_defs` (the definitions schema checks refer to) and
    `@check_patterns` (every pattern in the checks, compiled once), laid out."""
    patterns: list[str] = []
    defs = ir.FrozenJSONObject(
        tuple((name, check_schema(schema, patterns)) for name, schema in module.check_defs)
    )
    for check in ir.schema_checks(module):
        check_schema(check.schema, patterns)
    sources = tuple(sorted(set(patterns)))
    return {
        "check_defs": json_term(defs, 2 + len("@check_defs "), 2),
        "check_patterns": json_term(sources, 2 + len("@check_patterns "), 2),
    }


def test_path(module: ir.Module) -> str:
    return f"{ROOT}/test/{module.name}_test.exs"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    _check_collisions(module)
    runtime = runtime_module(module)
    common = {"module": module, "runtime": runtime, "alias": RUNTIME_ALIAS}
    outputs: list[OutputFile] = [
        OutputFile(
            f"{ROOT}/{module_file(runtime)}",
            env.render(
                "elixir/runtime.ex.j2",
                checks=sorted(ir.runtime_checks(module)),
                **_check_attributes(module),
                **common,
                **depth.template_values(module),
            ),
            TARGET,
            module.name,
            "elixir",
        )
    ]
    for named in module.types:
        if isinstance(named, ir.Record):
            text = env.render("elixir/record.ex.j2", record=_record_view(named, module), **common)
        elif isinstance(named, ir.EnumType):
            text = env.render("elixir/enum.ex.j2", enum=_enum_view(named), **common)
        elif isinstance(named, ir.UnionType):
            text = env.render("elixir/union.ex.j2", union=_union_view(named, module), **common)
            if named.unknown is not None:
                kept = _unknown_view(named, module)
                outputs.append(
                    OutputFile(
                        f"{ROOT}/{module_file(kept.module)}",
                        env.render("elixir/unknown.ex.j2", unknown=kept, **common),
                        TARGET,
                        module.name,
                        "elixir",
                    )
                )
        else:
            text = env.render("elixir/alias.ex.j2", alias_view=_alias_view(named, module), **common)
        outputs.append(
            OutputFile(
                f"{ROOT}/{module_file(named.elixir_module)}", text, TARGET, module.name, "elixir"
            )
        )
    outputs.append(_render_tests(module, env))
    return outputs


def _render_tests(module: ir.Module, env: RenderEnv) -> OutputFile:
    by_name = {named.name: named for named in module.types}
    valid: list[CaseView] = []
    invalid: list[CaseView] = []
    for case in env.fixtures_for(module.name):
        named = by_name.get(case.type_name)
        if named is None:
            continue
        name = case.relative_path.removeprefix(f"{module.name}/")
        view = CaseView(
            name, named.elixir_module, case.relative_path, case.expected_error_path or ""
        )
        (valid if case.valid else invalid).append(view)
    text = env.render(
        "elixir/test_module.exs.j2",
        module=module,
        test_module=f"{module.elixir_namespace}.PolytypeRoundTripTest",
        atom_module=f"{module.elixir_namespace}.PolytypeAtomSafetyTest",
        support=f"{APP_MODULE}.TestSupport",
        valid=valid,
        invalid=invalid,
        atom_cases=_unknown_probe(module),
        **depth.template_values(module),
    )
    return OutputFile(test_path(module), text, TARGET, module.name, "elixir")


def render_project(modules: tuple[ir.Module, ...], env: RenderEnv) -> list[OutputFile]:
    """mix.exs, .formatter.exs, .gitignore and test/test_helper.exs for the whole mix project."""
    test_dir = posixpath.join(env.output_dir, ROOT, "test")
    version = env.version if _SEMVER.match(env.version) else "0.0.0"
    context = {
        "app": APP_NAME,
        "app_module": APP_MODULE,
        "project_version": version,
        "fixtures_from_test": posixpath.relpath(env.fixtures_dir, test_dir),
        "support": f"{APP_MODULE}.TestSupport",
    }
    files: list[tuple[str, str, FileKind]] = [
        ("mix.exs", "elixir/mix.exs.j2", "elixir"),
        (".formatter.exs", "elixir/formatter.exs.j2", "elixir"),
        (".gitignore", "elixir/gitignore.j2", "text"),
        ("test/test_helper.exs", "elixir/test_helper.exs.j2", "elixir"),
    ]
    return [
        OutputFile(f"{ROOT}/{path}", env.render(template, **context), PROJECT_TARGET, "", kind)
        for path, template, kind in files
    ]
