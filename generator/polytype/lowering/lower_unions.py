"""Lowering of unions: a named `oneOf`/`anyOf` of references becomes an `ir.UnionType`
of its members (how it dispatches is decided after, by `union_dispatch`); an inline
union becomes an `ir.InlineUnion` whose options must differ in JSON type."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from polytype import ir
from polytype.diagnostics import join_pointer
from polytype.ir.json_types import json_type_of
from polytype.lowering import union_dispatch
from polytype.lowering.lowering_state import LoweringState
from polytype.lowering.schema_facts import type_list


class UnionLowering(LoweringState):
    """Named unions as their members, and inline unions."""

    def _lower_union(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        options: list[dict[str, Any]],
        doc: str,
        notes: str,
        x_elixir_module: str | None,
        source: ir.SourceRef,
    ) -> ir.UnionType:
        """The union as its members; how it dispatches is decided once every type is
        lowered (`lowering.union_dispatch`)."""
        keyword = "oneOf" if "oneOf" in schema else "anyOf"
        members: list[str] = []
        for index, option in enumerate(options):
            ref = option["$ref"]
            member = ref.rsplit("/", 1)[-1]
            if member not in self.definitions:
                continue  # dangling refs were reported by validation
            if member in members:
                self._problem(
                    join_pointer(join_pointer(pointer, keyword), index),
                    f"{member} is listed twice in the union",
                )
                continue
            members.append(member)
        # members before the union's dispatch is decided, and in the order they are met
        self._ensure_lowered(members)
        unknown = schema.get("x-unknown")
        self.union_sites.append(
            union_dispatch.UnionSite(name, keyword, pointer, unknown if unknown else None)
        )
        return ir.UnionType(
            name,
            tuple(members),
            doc=doc,
            notes=notes,
            x_elixir_module=x_elixir_module,
            source=source,
        )

    def _loose(self, member: str) -> bool:
        """Whether `member` matches more than its schema says: the front end typed it, or a
        schema inside it, as free-form JSON, or it states a `format` it does not check."""
        where, schema = self.definitions.get(member, ("", {}))
        where = self.pointers.get(member, where)
        return (
            isinstance(schema, dict)
            and "format" in schema
            and not ("string" in type_list(schema) and schema["format"] in self.asserted)
            or any(
                pointer == where or pointer.startswith(where + "/") for pointer in self.approximated
            )
        )

    def _ensure_lowered(self, names: Iterable[str]) -> None:
        for member in names:
            if member not in self.types:
                member_pointer, member_schema = self.definitions[member]
                self._lower_named(member, member_schema, member_pointer)

    def _lower_inline_union(
        self, options: list[Any], pointer: str, hoist_name: str, keyword: str
    ) -> ir.TypeRef:
        nullable = False
        lowered: list[ir.TypeRef] = []
        for index, option in enumerate(options):
            if isinstance(option, dict) and type_list(option) == ["null"] and len(option) <= 2:
                nullable = True
                continue
            item = self._lower_type(
                option,
                join_pointer(join_pointer(pointer, keyword), index),
                f"{hoist_name}Option{index + 1}",
            )
            if isinstance(item, ir.Nullable):
                nullable = True
                item = item.inner
            lowered.append(item)
        if not lowered:  # nothing but null
            return ir.JsonLiterals((None,))
        result = lowered[0] if len(lowered) == 1 else ir.InlineUnion(tuple(lowered))
        if isinstance(result, ir.InlineUnion):
            self._check_inline_union(result, pointer)
        return ir.nullable(result) if nullable else result

    def _check_inline_union(self, union: ir.InlineUnion, pointer: str) -> None:
        seen: dict[str, int] = {}
        for index, option in enumerate(union.options):
            if isinstance(option, ir.Ref) and option.name not in self.types:
                self._ensure_lowered([option.name])
            kinds = json_type_of(option, self.types)
            if "number" in kinds:
                kinds = kinds - {"integer"}
            for kind in kinds:
                if (
                    kind in seen
                    or (kind == "integer" and "number" in seen)
                    or (kind == "number" and "integer" in seen)
                ):
                    self._problem(
                        pointer,
                        f"inline union options {seen.get(kind, 0) + 1} and {index + 1} are both JSON {kind}s; "
                        "name the union in $defs so it can dispatch on tags or keys",
                    )
                seen[kind] = index
