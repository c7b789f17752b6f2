"""Unions whose members nothing tells apart at generation time: decoded as JSON Schema says.

Lowering first looks for a tag, then for structural cases (JSON types, a required key
no other member declares). When neither proves the members distinct, a schema the
project owns is refused; a consumed schema (generous mode) gets a union that tries
its members (`UnionType.match` "one_of" or "any_of") and a located warning. This
module builds what such a union needs: one cheap pre-check per member (its JSON types
and the keys an object must have) and the rule's wording, shared by the warning, the
generated docstrings and the docs.
"""

from __future__ import annotations

from collections.abc import Callable

from polytype import ir
from polytype.ir.json_types import ANY_JSON_TYPE
from polytype.ir.unions import RULES


def match_of(keyword: str) -> ir.UnionMatch:
    """The union's rule from its keyword (`oneOf` or `anyOf`)."""
    return "one_of" if keyword == "oneOf" else "any_of"


def member_checks(
    members: tuple[str, ...],
    types: dict[str, ir.NamedType],
    json_types: Callable[[str], frozenset[str]],
) -> tuple[ir.MemberCheck, ...]:
    """One pre-check per member, in the members' order (the order they are tried).
    `json_types` gives the JSON types a member's values can have; a member that says
    none yet (a union still being lowered: a recursive one) is tried on every value."""
    return tuple(
        ir.MemberCheck(
            member,
            tuple(sorted(json_types(member) or ANY_JSON_TYPE)),
            required_keys(member, types),
        )
        for member in members
    )


def keys_prove_distinct(cases: list[ir.StructuralCase], types: dict[str, ir.NamedType]) -> bool:
    """Whether the object members a structural union tells apart by a required key are
    really distinct: only when every other object member refuses unknown keys. A record
    that keeps them (any consumed schema's record without `additionalProperties: false`)
    also matches a value carrying the key, and then oneOf must reject the value and
    anyOf may take an earlier member.

    Unions whose object members are partly told apart by a tag (nano-agent's `NodeData`:
    `Message` by its `role` key, the rest by `type`) keep today's dispatch: tags first,
    then keys (not exact where a value carries both; left as it was)."""
    objects = [case for case in cases if case.json_type == "object"]
    if any(case.tag_key is not None for case in objects):
        return True
    for case in objects:
        if case.key is None:
            continue
        for other in objects:
            named = types.get(other.member)
            if other is not case and not (
                isinstance(named, ir.Record) and named.extra_policy == "forbid"
            ):
                return False
    return True


def required_keys(
    member: str, types: dict[str, ir.NamedType], seen: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The keys every object value of `member` has (a record's required keys; for a
    nested union, the keys all of its members require; a union met again inside
    itself, which lowering reports as a cycle, requires none)."""
    named = types.get(member)
    if isinstance(named, ir.Record):
        return tuple(item.json_key for item in named.fields if item.required and not item.aliases)
    if isinstance(named, ir.UnionType) and named.members and member not in seen:
        inner_seen = seen | {member}
        shared = [set(required_keys(inner, types, inner_seen)) for inner in named.members]
        common = set.intersection(*shared)
        first = required_keys(named.members[0], types, inner_seen)
        return tuple(key for key in first if key in common)
    return ()


def warning_text(reason: str, match: ir.UnionMatch, loose: list[str] | None = None) -> str:
    """The located warning of a union that tries its members; `loose`: the members of a
    oneOf that match more than their schema (free-form JSON here, or an unchecked
    `format`), tried last, the first match taken."""
    if loose:
        return (
            f"{reason}; the decoder tries each member, {', '.join(loose)} (checked less than "
            "the schema says) last, and takes the first that matches (oneOf's 'exactly one' "
            "is not checked)"
        )
    return f"{reason}; the decoder tries each member ({RULES[match]})"


# Unions listed by name in the summary line; the rest are counted.
_SHOWN_TRIED = 3


def tried_summary(tried: tuple[tuple[str, str], ...]) -> str:
    """The module's one line about the unions that try each member and lose no check
    (`tried`: pointer and name of each, in schema order): said once, not once per union,
    because nothing the schema checks is lost; which member a value decodes as is the
    only thing a reader may want to know."""
    shown = ", ".join(f"{name} ({pointer})" for pointer, name in tried[:_SHOWN_TRIED])
    more = len(tried) - _SHOWN_TRIED
    count = "1 union" if len(tried) == 1 else f"{len(tried)} unions"
    return (
        f"{count} whose members no tag, JSON type or required key tells apart: the "
        "decoder tries each member as JSON Schema says (oneOf: exactly one must match; "
        f"anyOf: the first that matches), so nothing is left unchecked: {shown}"
        + (f" and {more} more" if more > 0 else "")
    )
