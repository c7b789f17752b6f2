"""The pass that names unions: inline unions that cannot stay inline, and members.

An inline union two of whose members share a JSON type becomes a definition named
after its place (`SamplingMessage` + `content` → `SamplingMessageContent`); the
members of a named union that are not references become definitions, named by
`title`, by a constant tag (`SessionUpdate` + `plan` → `SessionUpdatePlan`), by
their JSON type, else by position (`...Option2`).
"""

from __future__ import annotations

from typing import Any

from polytype import naming
from polytype.diagnostics import join_pointer
from polytype.frontend.drafts import POINTER_KEYWORDS, name_key
from polytype.frontend.shaping_state import ShapingState
from polytype.frontend.union_rewrites import union_keyword


class UnionNaming(ShapingState):
    """Inline unions that cannot stay inline, and named unions' members, made definitions."""

    def _hoist_inline_union(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        """An inline union whose members share a JSON type becomes a named union."""
        keyword = union_keyword(node)
        if keyword is None or _is_definition(pointer) or not self._members_clash(node[keyword]):
            return node
        base = self._unique(_given_name(node) or self._place_name(pointer))
        union = dict(node)
        nullable = [m for m in node[keyword] if isinstance(m, dict) and m.get("type") == "null"]
        union[keyword] = [m for m in node[keyword] if m not in nullable]
        self.added[base] = self._name_union_members(base, union, pointer)
        self.moved[f"/$defs/{base}"] = pointer
        reference = {"$ref": f"#/$defs/{base}"}
        if nullable:
            return {"anyOf": [reference, {"type": "null"}]}
        return reference

    def _members_clash(self, members: list[Any]) -> bool:
        """Whether two members may share a JSON type (a member whose types the schema
        does not say may share any): then only a named union can tell them apart."""
        seen: set[str] = set()
        for member in members:
            kinds = self._json_types(member)
            if kinds is None:
                return True
            kinds = {"number" if kind == "integer" else kind for kind in kinds}
            if kinds & seen:
                return True
            seen |= kinds
        return False

    def _name_union_members(self, name: str, schema: Any, pointer: str | None = None) -> Any:
        """A named union's members that are not references become definitions."""
        keyword = union_keyword(schema) if isinstance(schema, dict) else None
        if keyword is None:
            return schema
        members = schema[keyword]
        if all(isinstance(m, dict) and "$ref" in m for m in members):
            return schema
        where = pointer if pointer is not None else f"/$defs/{name}"
        named: list[Any] = []
        for index, member in enumerate(members):
            if isinstance(member, dict) and "$ref" in member and len(member) == 1:
                named.append(member)
                continue
            if isinstance(member, dict) and member.get("type") == "null" and len(member) == 1:
                named.append(member)
                continue
            preferred = self.preferred.get(id(member))
            member_name = self._unique(
                name + preferred if preferred else _member_name(name, members, index)
            )
            self.added[member_name] = member
            self.moved[f"/$defs/{member_name}"] = join_pointer(join_pointer(where, keyword), index)
            named.append({"$ref": f"#/$defs/{member_name}"})
        return {**schema, keyword: named}

    def _place_name(self, pointer: str) -> str:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
        owner = ""
        if len(tokens) >= 2 and tokens[0] == "$defs":
            owner, tokens = tokens[1], tokens[2:]
        words = [t for t in tokens if t not in POINTER_KEYWORDS and not t.isdigit()]
        return owner + "".join(naming.pascal_case(word) for word in words) or "Union"

    def _unique(self, wanted: str) -> str:
        taken = {name_key(name) for name in (*self.defs, *self.added)}
        name, number = wanted, 1
        while name_key(name) in taken:
            number += 1
            name = f"{wanted}{number}"
        return name


def _given_name(schema: dict[str, Any]) -> str | None:
    """The name a schema asks for: `x-name`, else its `title` in PascalCase."""
    name = schema.get("x-name")
    if isinstance(name, str) and name:
        return name
    title = schema.get("title")
    if isinstance(title, str) and naming.ascii_identifier(title).strip("_"):
        return naming.pascal_case(title)
    return None


def _member_name(union: str, members: list[Any], index: int) -> str:
    """A member's name: its own (`x-name`, `title`), else the union's and its constant
    tag (`EventStart`), else its JSON type when no other member has it (`SchemaBoolean`),
    else the one key that tells it apart (`TriggerSchedule` for the member that alone
    requires `schedule`), else its place (`EventOption2`)."""
    member = members[index]
    if isinstance(member, dict):
        given = _given_name(member)
        if given is not None:
            return given
        tag = _tag_value(member)
        if tag is not None:
            return union + naming.pascal_case(tag)
        kind = member.get("type")
        kinds = [other.get("type") if isinstance(other, dict) else None for other in members]
        if isinstance(kind, str) and kind != "null" and kinds.count(kind) == 1:
            return union + naming.pascal_case(kind)
        key = _distinguishing_key(members, index)
        if key is not None:
            return union + naming.pascal_case(key)
    return f"{union}Option{index + 1}"


def _keys(member: Any, keyword: str) -> set[str]:
    """The `required` keys, or the `properties` names, of an object member."""
    found = member.get(keyword) if isinstance(member, dict) else None
    if keyword == "properties":
        found = list(found) if isinstance(found, dict) else None
    if not isinstance(found, list):
        return set()
    return {name for name in found if isinstance(name, str)}


def _distinguishing_key(members: list[Any], index: int) -> str | None:
    """The member's only required key, or its only property, when no other member
    requires or declares that key: the word a reader would name it by."""
    others: set[str] = set()
    for other in (m for i, m in enumerate(members) if i != index):
        others |= _keys(other, "required") | _keys(other, "properties")
    for keyword in ("required", "properties"):
        own = _keys(members[index], keyword)
        if len(own) == 1:
            (key,) = own
            if key not in others and naming.ascii_identifier(key).strip("_"):
                return key
    return None


def _tag_value(member: dict[str, Any]) -> str | None:
    """The value of a required property that holds one string constant."""
    properties = member.get("properties")
    if not isinstance(properties, dict):
        return None
    required = member.get("required")
    for key in required if isinstance(required, list) else []:
        schema = properties.get(key) if isinstance(key, str) else None
        if not isinstance(schema, dict):
            continue
        value = schema.get("const")
        if value is None and isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1:
            value = schema["enum"][0]
        if isinstance(value, str) and naming.ascii_identifier(value).strip("_"):
            return value
    return None


def _is_definition(pointer: str) -> bool:
    return pointer.count("/") == 2 and pointer.startswith("/$defs/")
