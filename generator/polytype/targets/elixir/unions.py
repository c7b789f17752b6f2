"""A union's module: how decoding chooses a member, how values are encoded, and its docs.

A tagged union dispatches on its tag, a union of members tried in turn goes through
the runtime, and the rest are told apart by shape. An open union (`x-unknown: keep`)
also gets an `Unknown<Union>` module keeping an unlisted tag's value whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from polytype import ir
from polytype.ir import unions
from polytype.targets.base.render import ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import Block, block_head, clause_block, with_step
from polytype.targets.elixir.filegen import FileGen
from polytype.targets.elixir.names import (
    GUARDS,
    RUNTIME_ALIAS,
    json_scalar,
    path_segment,
    type_label,
    type_module,
    unknown_module,
)
from polytype.targets.elixir.schema_checks import checks_doc
from polytype.targets.elixir.snippets import HelperView


@dataclass(frozen=True)
class UnionView:
    module: str
    doc: str
    typespec: str  # `@type t :: ...`, laid out
    decode_clauses: str  # the `def decode` clauses, laid out
    encode_clauses: str  # laid out
    attributes: tuple[str, ...]  # "@name value", used by the helpers
    helpers: tuple[HelperView, ...]


def union_view(union: ir.UnionType, module: ir.Module) -> UnionView:
    gen = FileGen(module)
    clauses: list[Block] = []
    # with schema checks, `decode/1` runs them on the JSON value, then chooses the member
    head = ("defp", "decode_member") if union.schema_checks else ("def", "decode")
    if union.schema_checks:
        calls = gen.check_calls("data", union.schema_checks)
        steps = [
            with_step(":ok", call, "," if index < len(calls) - 1 else " do")
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
        arrows: list[tuple[str, layout.Code]] = [
            (f"{{:ok, {json_scalar(value)}}}", layout.call(f"{gen.mod(member)}.decode", "data"))
            for value, member in union.tag_values
        ]
        known = ", ".join(json.dumps(value, ensure_ascii=False) for value, _ in union.tag_values)
        if union.unknown is not None:  # an unlisted string tag is kept whole, never an atom
            arrows.append(
                (
                    "{:ok, tag} when is_binary(tag)",
                    layout.call(f"{unknown_module(module, union)}.decode", "data"),
                )
            )
        unknown_tag = layout.call(f"{RUNTIME_ALIAS}.unknown_tag", segment, "tag", ex_str(known))
        arrows.append(("{:ok, tag}", unknown_tag))
        missing = layout.Items("{", (segment, '"missing required key"'))
        arrows.append((":error", layout.Items("{", (":error", missing))))
        clauses.append(
            _case_clause(
                block_head(*head, "data", "is_map(data)"),
                f"case Map.fetch(data, {tag}) do",
                arrows,
            )
        )
        error = layout.call(f"{RUNTIME_ALIAS}.type_error", '"object"', "data")
        clauses.append(layout.clause(*head, "data", error))
    elif union.tries_members:
        clauses.append(_tried_clause(union, gen, head))
    else:
        clauses.extend(_structural_clauses(union, gen, head))
    if union.tries_members and not all(
        isinstance(module.get(member), ir.Record) for member in union.members
    ):  # members of one JSON type: the value says what it is
        modules = layout.Items("[", tuple(gen.mod(member) for member in union.members))
        encoded = layout.call(f"{RUNTIME_ALIAS}.encode_tried", "value", modules)
        encode_clauses = [layout.clause("def", "to_json", "value", encoded)]
    else:
        encode_clauses = [
            clause.render("to_json") for clause in gen.encode_clauses(ir.Ref(union.name))
        ]
    members = [f"{gen.mod(member)}.t()" for member in union.members] or ["none()"]
    if union.unknown is not None:
        members.append(f"{unknown_module(module, union)}.t()")
    return UnionView(
        module=type_module(module, union),
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


def unknown_view(union: ir.UnionType, module: ir.Module) -> UnknownView:
    assert union.open_tag is not None
    doc = (
        f"A value of {type_label(union.name)} whose `{union.open_tag}` tag is none the schema lists (x-unknown: keep).\n\n"
        "A newer producer's value, kept whole: `tag` is the tag (a string, never an atom), "
        "`data` the JSON object as decoded, written back unchanged."
    )
    return UnknownView(unknown_module(module, union), doc, ex_str(union.open_tag))


def _union_doc(union: ir.UnionType, gen: FileGen) -> str:
    doc = union.doc or f"One of: {', '.join(type_label(member) for member in union.members)}."
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
    lines += checks_doc(union.schema_checks)
    return "\n".join(lines)


def _tried_clause(union: ir.UnionType, gen: FileGen, head: tuple[str, str]) -> layout.Clause:
    """`decode` of a union that tries its members (oneOf / anyOf), through the runtime."""
    members = tuple(
        layout.Items(
            "{",
            (
                ex_str(type_label(check.member)),
                _strings(check.json_types),
                _strings(check.required),
                f"&{gen.mod(check.member)}.decode/1",
            ),
        )
        for check in union.checks
    )
    exactly_one = "true" if union.match == "one_of" else "false"
    tried = layout.call(
        f"{RUNTIME_ALIAS}.try_members",
        "data",
        ex_str(type_label(union.name)),
        layout.Items("[", members),
        exactly_one,
    )
    return layout.clause(*head, "data", tried)


def _strings(values: tuple[str, ...]) -> layout.Items:
    """A list of Elixir strings."""
    return layout.Items("[", tuple(ex_str(value) for value in values))


def _structural_clauses(union: ir.UnionType, gen: FileGen, head: tuple[str, str]) -> list[Block]:
    clauses: list[Block] = []
    object_cases = [case for case in union.cases if case.json_type == "object"]
    other_cases = [case for case in union.cases if case.json_type != "object"]
    if object_cases:
        plain = [case for case in object_cases if case.tag_key is None and case.key is None]
        if len(object_cases) == 1 and plain:
            decode = layout.call(f"{gen.mod(plain[0].member)}.decode", "data")
            clauses.append(layout.clause(*head, "data", decode, "is_map(data)"))
        else:
            arrows: list[tuple[str, layout.Code]] = []
            for case in object_cases:
                target = layout.call(f"{gen.mod(case.member)}.decode", "data")
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
                        layout.call(f"{unknown_module(gen.module, union)}.decode", "data"),
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
                message = (
                    f"matches no member of {type_label(union.name)} (expected {', '.join(hints)})"
                )
                reason = layout.Items("{", ('""', ex_str(message)))
                arrows.append(("true", layout.Items("{", (":error", reason))))
            clauses.append(
                _case_clause(block_head(*head, "data", "is_map(data)"), "cond do", arrows)
            )
    expected: list[str] = ["object"] if object_cases else []
    for case in other_cases:
        guard = GUARDS[case.json_type].replace("value", "data")
        decode = layout.call(f"{gen.mod(case.member)}.decode", "data")
        clauses.append(layout.clause(*head, "data", decode, guard))
        expected.append(case.json_type)
    listed = " or ".join(dict.fromkeys(expected))
    error = layout.call(f"{RUNTIME_ALIAS}.type_error", ex_str(listed), "data")
    clauses.append(layout.clause(*head, "data", error))
    return clauses


def _case_clause(head: str, opening: str, arrows: list[tuple[str, layout.Code]]) -> str:
    """`head` / `opening` / the arrow clauses / `end` / `end`, written from column 0."""
    body = "\n".join(_unshift(line, 2) for line in layout.arrow_clauses(arrows, 6))
    return "\n".join([head, f"  {opening}", body, "  end", "end"])


def _unshift(text: str, indent: int) -> str:
    """Arrow clauses laid out at column `indent + 4`, written relative to column `indent`."""
    if not text:
        return text
    first, *rest = text.split("\n")
    return "\n".join(["    " + first, *(line[indent:] for line in rest)])
