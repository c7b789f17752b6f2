"""How each union finds the member a value belongs to (a pass after the build).

The build records every union as its members (`ir.UnionType(name, members)`) and a
`UnionSite` saying where it was written. This pass decides, from the members' lowered
types alone, the union's `match`:

- "tag": every member has a `const` key (one key for all) with values of its own;
- "structural": the members are told apart by JSON type and, for objects, by a tag
  or a required key no other member declares;
- "one_of" / "any_of" (generous mode only): nothing proves the members distinct, so
  the decoder tries each member as JSON Schema says. No check is lost, so such unions
  are listed in one summary line per module (`tried`); a union that tries a member
  checked less than its schema says loses one (oneOf's "exactly one") and gets a
  located warning of its own. A project's own schema (strict) gets the problem instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from polytype import ir
from polytype.diagnostics import join_pointer
from polytype.ir.json_types import json_type_of
from polytype.lowering import Problem, unions

TagValue = str | int | bool


@dataclass(frozen=True)
class UnionSite:
    """What the build knows of a union that its members do not say.

    `keyword` is `oneOf` or `anyOf`; `unknown` is the union's `x-unknown` when the
    schema sets one.
    """

    name: str
    keyword: str
    pointer: str
    unknown: str | None = None


@dataclass(frozen=True)
class Dispatch:
    """The pass's result: every union of the module with its `match` decided."""

    types: tuple[ir.NamedType, ...]
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    tried: tuple[Problem, ...] = ()  # (pointer, union name): exact unions that try members


def classify(
    types: dict[str, ir.NamedType],
    sites: tuple[UnionSite, ...],
    *,
    generous: bool,
    unknown_tags: ir.UnknownPolicy,
    loose: frozenset[str],
) -> Dispatch:
    """Decide every union of `sites`. `loose`: the types that match more than their
    schema says (typed free-form by the front end, or carrying an unchecked `format`)."""
    classifier = _Classifier(types, generous, unknown_tags, loose)
    decided = {site.name: classifier.classify(site) for site in sites if site.name in types}
    return Dispatch(
        tuple(decided.get(name, named) for name, named in types.items()),
        tuple(classifier.problems),
        tuple(classifier.warnings),
        tuple(classifier.tried),
    )


class _Classifier:
    def __init__(
        self,
        types: dict[str, ir.NamedType],
        generous: bool,
        unknown_tags: ir.UnknownPolicy,
        loose: frozenset[str],
    ) -> None:
        self.types = types
        self.generous = generous
        self.unknown_tags = unknown_tags
        self.loose = loose
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.tried: list[Problem] = []

    def classify(self, site: UnionSite) -> ir.UnionType:
        union = self.types[site.name]
        assert isinstance(union, ir.UnionType)
        members = list(union.members)
        tag = self._find_tag(members)
        if tag is not None:
            tag_key, tag_values = tag
            return replace(
                union,
                match="tag",
                tag=tag_key,
                tag_values=tag_values,
                unknown=self._unknown_member(site),
            )
        cases, ambiguities = self._structural_cases(site, members)
        if self.generous and (ambiguities or not unions.keys_prove_distinct(cases, self.types)):
            return self._tried(union, site, ambiguities)
        self.problems.extend(ambiguities)
        return replace(union, cases=tuple(cases), unknown=self._structural_unknown(site, cases))

    def _tried(
        self, union: ir.UnionType, site: UnionSite, ambiguities: list[Problem]
    ) -> ir.UnionType:
        """Nothing proves the members distinct: the decoder tries them as JSON Schema says
        (listed in the module's summary when no structural case could be found at all,
        warned when a member is checked less than its schema says; a required key that
        other members may carry as an unknown key is exact when tried, and quiet)."""
        match = unions.match_of(site.keyword)
        checks = unions.member_checks(
            union.members,
            self.types,
            lambda member: json_type_of(ir.Ref(member), self.types),
        )
        loose = [member for member in union.members if member in self.loose]
        if match == "one_of" and loose:
            # a free-form member matches more than its schema: counting it would reject
            # valid values, so the exact members are tried first and the first match wins
            match = "any_of"
            checks = tuple(sorted(checks, key=lambda check: check.member in loose))
        if loose:
            reason = (
                ambiguities[0][1]
                if ambiguities
                else f"union {union.name} has members told apart by keys others may carry"
            )
            self.warnings.append((site.pointer, unions.warning_text(reason, match, loose)))
        elif ambiguities:
            self.tried.append((site.pointer, union.name))
        return replace(union, match=match, checks=checks)

    # -- tags ----------------------------------------------------------------

    def tag_values(
        self, member: str, key: str, seen: frozenset[str] = frozenset()
    ) -> list[TagValue] | None:
        """The values `member` takes for tag `key`, or None when it has no such tag."""
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            for item in named.fields:
                if item.json_key == key and item.is_tag:
                    assert isinstance(item.type, ir.LiteralValue)
                    return [item.type.value]
            return None
        if isinstance(named, ir.UnionType) and member not in seen:
            values: list[TagValue] = []
            for inner in named.members:
                inner_values = self.tag_values(inner, key, seen | {member})
                if inner_values is None:
                    return None
                values.extend(inner_values)
            return values or None
        return None

    def _tag_keys(self, member: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """The tag keys of `member` (a nested union: of its first member)."""
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return [item.json_key for item in named.tag_fields]
        if isinstance(named, ir.UnionType) and named.members and member not in seen:
            return self._tag_keys(named.members[0], seen | {member})
        return []

    def _find_tag(self, members: list[str]) -> tuple[str, tuple[tuple[TagValue, str], ...]] | None:
        if not members:
            return None
        for key in self._tag_keys(members[0]):
            mapping: dict[TagValue, str] = {}
            for member in members:
                values = self.tag_values(member, key)
                if values is None or any(value in mapping for value in values):
                    break
                for value in values:
                    mapping[value] = member
            else:
                return key, tuple(mapping.items())
        return None

    def _unknown_member(self, site: UnionSite) -> str | None:
        """`Unknown<Union>` when the tagged union keeps unlisted tags (`x-unknown`, else
        the project's default)."""
        if (site.unknown or self.unknown_tags) != "keep":
            return None
        unknown = ir.unknown_member_name(site.name)
        if unknown in self.types:
            self.problems.append(
                (
                    join_pointer(site.pointer, "x-unknown"),
                    f"x-unknown: keep generates the member {unknown!r}, which is already a type name",
                )
            )
            return None
        return unknown

    def _structural_unknown(self, site: UnionSite, cases: list[ir.StructuralCase]) -> str | None:
        """An open structural union: its object members without a tag are told apart by keys.

        Needs one tag key for the tagged object members and no catch-all object member.
        """
        objects = [case for case in cases if case.json_type == "object"]
        tag_keys = {case.tag_key for case in objects if case.tag_key is not None}
        catch_all = any(case.tag_key is None and case.key is None for case in objects)
        if len(tag_keys) == 1 and not catch_all:
            return self._unknown_member(site)
        if site.unknown == "keep":
            self.problems.append(
                (
                    join_pointer(site.pointer, "x-unknown"),
                    f"x-unknown: keep needs a tag: {site.name}'s object members share no const "
                    "tag key (or one of them takes any object)",
                )
            )
        return None

    # -- JSON types and keys -------------------------------------------------

    def _structural_cases(
        self, site: UnionSite, members: list[str]
    ) -> tuple[list[ir.StructuralCase], list[Problem]]:
        """The cases that tell the members apart, and the pairs nothing tells apart."""
        name, pointer = site.name, site.pointer
        cases: list[ir.StructuralCase] = []
        ambiguities: list[Problem] = []
        by_json_type: dict[str, str] = {}
        object_members: list[str] = []
        for member in members:
            kinds = json_type_of(ir.Ref(member), self.types)
            kinds_without_int = kinds - {"integer"} if "number" in kinds else kinds
            for kind in sorted(kinds_without_int):
                if kind == "object":
                    object_members.append(member)
                    continue
                if kind in by_json_type and by_json_type[kind] != member:
                    ambiguities.append(
                        (
                            pointer,
                            f"union {name} cannot tell {by_json_type[kind]} from {member}: "
                            f"both are JSON {kind}s",
                        )
                    )
                by_json_type[kind] = member
                cases.append(ir.StructuralCase(member, kind))
        if "number" in by_json_type and "integer" in by_json_type:
            ambiguities.append(
                (
                    pointer,
                    f"union {name} cannot tell {by_json_type['integer']} from "
                    f"{by_json_type['number']}: a number may be an integer",
                )
            )
        object_cases, object_ambiguities = self._object_cases(site, object_members)
        return cases + object_cases, ambiguities + object_ambiguities

    def _object_cases(
        self, site: UnionSite, members: list[str]
    ) -> tuple[list[ir.StructuralCase], list[Problem]]:
        if len(members) == 1:
            return [ir.StructuralCase(members[0], "object")], []
        name, pointer = site.name, site.pointer
        tagged: list[ir.StructuralCase] = []
        keyed: list[ir.StructuralCase] = []
        ambiguities: list[Problem] = []
        declared = {member: self._declared_keys(member) for member in members}
        # a key = value that two members both have tells neither (`manifestVersion: "4"`
        # beside a oneOf, merged into every member): it is no member's tag
        holders: dict[tuple[str, TagValue], list[str]] = {}
        for member in members:
            for key in self._tag_keys(member):
                values = self.tag_values(member, key)
                if values and len(values) == 1:
                    holders.setdefault((key, values[0]), []).append(member)
        used_tags = {tag: owners[0] for tag, owners in holders.items() if len(owners) > 1}
        pending: list[tuple[str, str, TagValue]] = []
        unclear: set[str] = set()
        for member in members:
            case = None
            for key in self._tag_keys(member):
                values = self.tag_values(member, key)
                if values and len(values) == 1 and (key, values[0]) not in used_tags:
                    case = ir.StructuralCase(member, "object", tag_key=key, tag_value=values[0])
                    used_tags[(key, values[0])] = member
                    break
            if case is not None:
                tagged.append(case)
                continue
            others = set().union(*(declared[other] for other in members if other != member))
            unique = [key for key in self._required_keys(member) if key not in others]
            if unique:
                keyed.append(ir.StructuralCase(member, "object", key=unique[0]))
                continue
            clash = next(
                (
                    (key, values[0], used_tags[(key, values[0])])
                    for key in self._tag_keys(member)
                    for values in [self.tag_values(member, key) or []]
                    if len(values) == 1 and (key, values[0]) in used_tags
                ),
                None,
            )
            if clash is not None:
                key, value, other = clash
                if other == member:  # the first of several members with this key = value:
                    # said once, by the next one, unless that one is told apart otherwise
                    pending.append((member, key, value))
                    continue
                message = (
                    f"union {name} cannot tell {member} from {other}: both have "
                    f"{key!r} = {value!r}, and {member} has no required key that the others "
                    "do not declare"
                )
            else:
                message = (
                    f"union {name} cannot tell {member} apart from the other members: "
                    "it has no tag and no required key that the others do not declare"
                )
            ambiguities.append((pointer, message))
            unclear.add(member)
        for member, key, value in pending:
            sharing = [other for other in holders[(key, value)] if other != member]
            if not any(other in unclear for other in sharing):
                message = (
                    f"union {name} cannot tell {member} from {sharing[0]}: both have "
                    f"{key!r} = {value!r}, and {member} has no required key that the others "
                    "do not declare"
                )
                ambiguities.append((pointer, message))
        return tagged + keyed, ambiguities

    def _declared_keys(self, member: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """Every key `member` declares (a nested union: any of its members)."""
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return {
                spelling for item in named.fields for spelling in (item.json_key, *item.aliases)
            }
        if isinstance(named, ir.UnionType) and member not in seen:
            inner_seen = seen | {member}
            return set().union(*(self._declared_keys(inner, inner_seen) for inner in named.members))
        return set()

    def _required_keys(self, member: str) -> list[str]:
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return [item.json_key for item in named.fields if item.required and not item.aliases]
        return []
