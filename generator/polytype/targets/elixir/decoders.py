"""The decoders of a generated file: a `defp` helper per type that is not a module's own.

A decoder takes decoded JSON and gives `{:ok, term}` or `{:error, {path, reason}}`:
the runtime's for plain scalars, the type's module for a named type, and for the
rest a private helper written here (lists, tuples, maps and their object rules,
nullable values, consts, enums of any JSON, schema checks, inline unions).
"""

from __future__ import annotations

import json
from typing import assert_never

from polytype import ir
from polytype.ir import literals
from polytype.ir.json_types import json_type_of
from polytype.targets.base.helper_names import HelperKind
from polytype.targets.base.render import ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.clauses import Block, block_head, with_step
from polytype.targets.elixir.names import GUARDS, RUNTIME_ALIAS, json_scalar, literal_term
from polytype.targets.elixir.snippets import FileSnippets, HelperView
from polytype.targets.elixir.terms import ex_int, ex_json_literal, ex_number


class Decoders(FileSnippets):
    """The decoder of each type a file's snippets read, with the helpers it needs."""

    def rules(self, rules: ir.ObjectRules) -> tuple[layout.Code, ...]:
        """The arguments `object_rules/9` of the runtime takes after the object and its
        declared keys, for an object's rules."""

        def capture(type_ref: ir.TypeRef | None) -> str:
            return "nil" if type_ref is None else f"&{self.decoder(type_ref)}/1"

        patterns = tuple(
            layout.Items("{", (self.pattern_attribute(pattern), capture(type_ref)))
            for pattern, type_ref in rules.pattern_properties
        )
        dependent = tuple(
            layout.Items(
                "{", (ex_str(key), layout.Items("[", tuple(ex_str(other) for other in needed)))
            )
            for key, needed in rules.dependent_required
        )
        return (
            layout.Items("[", patterns),
            capture(rules.additional),
            "true" if rules.closed else "false",
            capture(rules.property_names),
            layout.Items("[", dependent),
            "nil" if rules.min_properties is None else ex_int(rules.min_properties),
            "nil" if rules.max_properties is None else ex_int(rules.max_properties),
        )

    def decoder(self, type_ref: ir.TypeRef) -> str:
        """The name of a one-argument function returning `{:ok, term} | {:error, {path, reason}}`."""
        match type_ref:
            case ir.Prim():
                base = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[
                    type_ref.kind
                ]
                base = f"{RUNTIME_ALIAS}.{base}"
                if type_ref.constraints.is_empty():
                    return base
                return self._constrained_prim(type_ref, base)
            case ir.Ref():
                return f"{self.mod(type_ref.name)}.decode"
            case ir.AnyJSON():
                return (
                    f"{RUNTIME_ALIAS}.json_object"
                    if type_ref.object_only
                    else f"{RUNTIME_ALIAS}.json_value"
                )
            case _:
                return self._helper(type_ref)

    def _helper(self, type_ref: HelperKind) -> str:
        """A private decoder of its own for `type_ref`, written once per type."""
        name = self.helper_name("d", type_ref)
        if name in self.helpers:
            return name
        self.helpers[name] = HelperView(name, ())  # reserve before recursing
        self.helpers[name] = HelperView(name, tuple(self._helper_clauses(name, type_ref)))
        return name

    def _helper_clauses(self, name: str, type_ref: HelperKind) -> list[Block]:
        match type_ref:
            case ir.ListOf():
                listed = layout.call(
                    f"{RUNTIME_ALIAS}.list", "value", f"&{self.decoder(type_ref.item)}/1"
                )
                checks = self._items_checks(type_ref.constraints)
                return [self._with_checks(name, listed, "items", checks)]
            case ir.TupleOf():
                prefix = layout.Items(
                    "[", tuple(f"&{self.decoder(item)}/1" for item in type_ref.prefix)
                )
                rest = "nil" if type_ref.rest is None else f"&{self.decoder(type_ref.rest)}/1"
                positional = layout.call(f"{RUNTIME_ALIAS}.tuple", "value", prefix, rest)
                checks = self._items_checks(type_ref.constraints)
                return [self._with_checks(name, positional, "items", checks)]
            case ir.MapOf():
                mapped = layout.call(
                    f"{RUNTIME_ALIAS}.map", "value", f"&{self.decoder(type_ref.value)}/1"
                )
                checks = [
                    layout.call(f"{RUNTIME_ALIAS}.{attribute}", "entries", ex_int(bound))
                    for attribute, bound in (
                        ("min_properties", type_ref.constraints.min_properties),
                        ("max_properties", type_ref.constraints.max_properties),
                    )
                    if bound is not None
                ]
                if not type_ref.rules.is_empty():  # on the JSON: a pattern's decoder reads JSON
                    rules = self.rules(type_ref.rules)
                    checks.append(
                        layout.call(f"{RUNTIME_ALIAS}.object_rules", "value", "[]", *rules)
                    )
                return [self._with_checks(name, mapped, "entries", checks)]
            case ir.Nullable():
                return [
                    layout.clause("defp", name, "nil", layout.Items("{", (":ok", "nil"))),
                    layout.clause(
                        "defp", name, "value", layout.call(self.decoder(type_ref.inner), "value")
                    ),
                ]
            case ir.LiteralValue():
                expected = ex_str(json.dumps(type_ref.value))
                ok = layout.Items("{", (":ok", literal_term(type_ref.value)))
                error = layout.call(f"{RUNTIME_ALIAS}.literal_error", expected, "value")
                clauses: list[Block] = [
                    layout.clause("defp", name, json_scalar(type_ref.value), ok),
                    layout.clause("defp", name, "value", error),
                ]
                if type(type_ref.value) is int:  # JSON equality: 1.0 is the const 1, kept as read
                    guard = f"is_float(value) and value == {ex_int(type_ref.value)}"
                    kept = layout.Items("{", (":ok", "value"))
                    clauses.insert(1, layout.clause("defp", name, "value", kept, guard))
                return clauses
            case ir.JsonLiterals():
                allowed = layout.Items(
                    "[", tuple(ex_json_literal(value) for value in type_ref.values)
                )
                expected = ex_str(literals.expected(type_ref))
                call = layout.call(f"{RUNTIME_ALIAS}.one_of", "value", allowed, expected)
                return [layout.clause("defp", name, "value", call)]
            case ir.Checked():
                return [self._checked_clause(name, type_ref)]
            case ir.InlineUnion():
                return self._inline_union_clauses(name, type_ref)
            case _ as unreachable:
                assert_never(unreachable)

    def _constrained_prim(self, type_ref: ir.Prim, base: str) -> str:
        name = self.helper_name("d", type_ref)
        if name in self.helpers:
            return name
        constraints = type_ref.constraints
        checks: list[layout.Code] = []
        if type_ref.kind == "str":
            if constraints.min_length is not None:
                checks.append(
                    layout.call(
                        f"{RUNTIME_ALIAS}.min_length", "checked", ex_int(constraints.min_length)
                    )
                )
            if constraints.max_length is not None:
                checks.append(
                    layout.call(
                        f"{RUNTIME_ALIAS}.max_length", "checked", ex_int(constraints.max_length)
                    )
                )
            if constraints.pattern is not None:
                attribute = self.pattern_attribute(constraints.pattern)
                checks.append(layout.call(f"{RUNTIME_ALIAS}.pattern", "checked", attribute))
            if constraints.format is not None:
                checks.append(
                    layout.call(f"{RUNTIME_ALIAS}.format", "checked", ex_str(constraints.format))
                )
        else:
            for attribute in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum"):
                bound = getattr(constraints, attribute)
                if bound is not None:
                    literal = ex_number(bound)
                    checks.append(layout.call(f"{RUNTIME_ALIAS}.{attribute}", "checked", literal))
            divisor = constraints.multiple_of
            if divisor is not None:
                literal = ex_number(divisor)
                checks.append(layout.call(f"{RUNTIME_ALIAS}.multiple_of", "checked", literal))
        self.helpers[name] = HelperView(
            name, (self._with_checks(name, layout.call(base, "value"), "checked", checks),)
        )
        return name

    def _items_checks(self, constraints: ir.Constraints) -> list[layout.Code]:
        checks: list[layout.Code] = []
        if constraints.min_items is not None:
            checks.append(
                layout.call(f"{RUNTIME_ALIAS}.min_items", "items", ex_int(constraints.min_items))
            )
        if constraints.max_items is not None:
            checks.append(
                layout.call(f"{RUNTIME_ALIAS}.max_items", "items", ex_int(constraints.max_items))
            )
        if constraints.unique_items:  # on the JSON input: JSON equality, not the decoded terms
            checks.append(layout.call(f"{RUNTIME_ALIAS}.unique_items", "value"))
        return checks

    @staticmethod
    def _with_checks(
        name: str, first: layout.Call, variable: str, checks: list[layout.Code]
    ) -> Block:
        if not checks:
            return layout.clause("defp", name, "value", first)
        # laid out at column 9 of the module (this clause is shifted by 2 later)
        step = with_step(f"{{:ok, {variable}}}", first, ",").replace("\n  ", "\n")
        lines = [block_head("defp", name, "value"), f"  with {step},"]
        for index, check in enumerate(checks):
            ending = "," if index < len(checks) - 1 else " do"
            # laid out at column 9 of the module (this clause is shifted by 2 later)
            step = with_step(":ok", check, ending).replace("\n  ", "\n")
            lines.append(f"       {step}{ending}")
        lines += [f"    {{:ok, {variable}}}", "  end", "end"]
        return "\n".join(lines)

    def _checked_clause(self, name: str, checked: ir.Checked) -> str:
        """Each check on the JSON value as it arrives, then the decode of `inner`."""
        inner = self.decoder(checked.inner)
        lines = [block_head("defp", name, "value")]
        for index, call in enumerate(self.check_calls("value", checked.checks)):
            ending = "," if index < len(checked.checks) - 1 else " do"
            # laid out at column 9 of the module (this clause is shifted by 2 later)
            step = with_step(":ok", call, ending).replace("\n  ", "\n")
            lines.append(f"{'  with ' if index == 0 else '       '}{step}{ending}")
        lines += [f"    {inner}(value)", "  end", "end"]
        return "\n".join(lines)

    def _inline_union_clauses(self, name: str, union: ir.InlineUnion) -> list[Block]:
        clauses: list[Block] = []
        expected: list[str] = []
        seen: set[str] = set()
        types = self.module.types_by_name
        for option in union.options:
            for json_type in sorted(json_type_of(option, types)):
                expected.append(json_type)
                guard = GUARDS[json_type]
                if guard in seen:
                    continue
                seen.add(guard)
                decode = layout.call(self.decoder(option), "value")
                clauses.append(layout.clause("defp", name, "value", decode, guard))
        listed = " or ".join(dict.fromkeys(expected))
        error = layout.call(f"{RUNTIME_ALIAS}.type_error", ex_str(listed), "value")
        clauses.append(layout.clause("defp", name, "value", error))
        return clauses
