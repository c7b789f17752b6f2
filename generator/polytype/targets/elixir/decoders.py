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
from polytype.targets.elixir.clauses import with_step
from polytype.targets.elixir.names import GUARDS, RUNTIME_ALIAS, json_scalar, literal_term
from polytype.targets.elixir.snippets import FileSnippets, HelperView
from polytype.targets.elixir.terms import ex_int, ex_json_literal, ex_number


class Decoders(FileSnippets):
    """The decoder of each type a file's snippets read, with the helpers it needs."""

    def rules(self, rules: ir.ObjectRules) -> str:
        """The arguments `object_rules/9` of the runtime takes after the object and its
        declared keys, for an object's rules."""

        def capture(type_ref: ir.TypeRef | None) -> str:
            return "nil" if type_ref is None else f"&{self.decoder(type_ref)}/1"

        patterns = ", ".join(
            f"{{{self.pattern_attribute(pattern)}, {capture(type_ref)}}}"
            for pattern, type_ref in rules.pattern_properties
        )
        dependent = ", ".join(
            f"{{{ex_str(key)}, [{', '.join(ex_str(other) for other in needed)}]}}"
            for key, needed in rules.dependent_required
        )
        parts = [
            f"[{patterns}]",
            capture(rules.additional),
            "true" if rules.closed else "false",
            capture(rules.property_names),
            f"[{dependent}]",
            "nil" if rules.min_properties is None else ex_int(rules.min_properties),
            "nil" if rules.max_properties is None else ex_int(rules.max_properties),
        ]
        return ", ".join(parts)

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

    def _helper_clauses(self, name: str, type_ref: HelperKind) -> list[str]:
        match type_ref:
            case ir.ListOf():
                listed = f"{RUNTIME_ALIAS}.list(value, &{self.decoder(type_ref.item)}/1)"
                checks = self._items_checks(type_ref.constraints)
                return [self._with_checks(name, listed, "items", checks)]
            case ir.TupleOf():
                prefix = ", ".join(f"&{self.decoder(item)}/1" for item in type_ref.prefix)
                rest = "nil" if type_ref.rest is None else f"&{self.decoder(type_ref.rest)}/1"
                positional = f"{RUNTIME_ALIAS}.tuple(value, [{prefix}], {rest})"
                checks = self._items_checks(type_ref.constraints)
                return [self._with_checks(name, positional, "items", checks)]
            case ir.MapOf():
                mapped = f"{RUNTIME_ALIAS}.map(value, &{self.decoder(type_ref.value)}/1)"
                checks = [
                    f"{RUNTIME_ALIAS}.{attribute}(entries, {ex_int(bound)})"
                    for attribute, bound in (
                        ("min_properties", type_ref.constraints.min_properties),
                        ("max_properties", type_ref.constraints.max_properties),
                    )
                    if bound is not None
                ]
                if not type_ref.rules.is_empty():  # on the JSON: a pattern's decoder reads JSON
                    rules = self.rules(type_ref.rules)
                    checks.append(f"{RUNTIME_ALIAS}.object_rules(value, [], {rules})")
                return [self._with_checks(name, mapped, "entries", checks)]
            case ir.Nullable():
                return [
                    f"defp {name}(nil), do: {{:ok, nil}}",
                    f"defp {name}(value), do: {self.decoder(type_ref.inner)}(value)",
                ]
            case ir.LiteralValue():
                expected = ex_str(json.dumps(type_ref.value))
                clauses = [
                    f"defp {name}({json_scalar(type_ref.value)}), do: {{:ok, {literal_term(type_ref.value)}}}",
                    f"defp {name}(value), do: {RUNTIME_ALIAS}.literal_error({expected}, value)",
                ]
                if type(type_ref.value) is int:  # JSON equality: 1.0 is the const 1, kept as read
                    guard = f"defp {name}(value) when is_float(value) and value == {ex_int(type_ref.value)},"
                    clauses.insert(1, f"{guard} do: {{:ok, value}}")
                return clauses
            case ir.JsonLiterals():
                allowed = "[" + ", ".join(ex_json_literal(value) for value in type_ref.values) + "]"
                expected = ex_str(literals.expected(type_ref))
                return [
                    f"defp {name}(value), do: {RUNTIME_ALIAS}.one_of(value, {allowed}, {expected})"
                ]
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
        checks: list[str] = []
        if type_ref.kind == "str":
            if constraints.min_length is not None:
                checks.append(
                    f"{RUNTIME_ALIAS}.min_length(checked, {ex_int(constraints.min_length)})"
                )
            if constraints.max_length is not None:
                checks.append(
                    f"{RUNTIME_ALIAS}.max_length(checked, {ex_int(constraints.max_length)})"
                )
            if constraints.pattern is not None:
                attribute = self.pattern_attribute(constraints.pattern)
                checks.append(f"{RUNTIME_ALIAS}.pattern(checked, {attribute})")
            if constraints.format is not None:
                checks.append(f"{RUNTIME_ALIAS}.format(checked, {ex_str(constraints.format)})")
        else:
            for attribute in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum"):
                bound = getattr(constraints, attribute)
                if bound is not None:
                    literal = ex_number(bound)
                    checks.append(f"{RUNTIME_ALIAS}.{attribute}(checked, {literal})")
            divisor = constraints.multiple_of
            if divisor is not None:
                literal = ex_number(divisor)
                checks.append(f"{RUNTIME_ALIAS}.multiple_of(checked, {literal})")
        self.helpers[name] = HelperView(
            name, (self._with_checks(name, f"{base}(value)", "checked", checks),)
        )
        return name

    def _items_checks(self, constraints: ir.Constraints) -> list[str]:
        checks = []
        if constraints.min_items is not None:
            checks.append(f"{RUNTIME_ALIAS}.min_items(items, {ex_int(constraints.min_items)})")
        if constraints.max_items is not None:
            checks.append(f"{RUNTIME_ALIAS}.max_items(items, {ex_int(constraints.max_items)})")
        if constraints.unique_items:  # on the JSON input: JSON equality, not the decoded terms
            checks.append(f"{RUNTIME_ALIAS}.unique_items(value)")
        return checks

    @staticmethod
    def _with_checks(name: str, first: str, variable: str, checks: list[str]) -> str:
        if not checks:
            return f"defp {name}(value), do: {first}"
        lines = [f"defp {name}(value) do", f"  with {{:ok, {variable}}} <- {first},"]
        for index, check in enumerate(checks):
            ending = "," if index < len(checks) - 1 else " do"
            # laid out at column 9 of the module (this clause is shifted by 2 later)
            step = with_step(f":ok <- {check}", ending).replace("\n  ", "\n")
            lines.append(f"       {step}{ending}")
        lines += [f"    {{:ok, {variable}}}", "  end", "end"]
        return "\n".join(lines)

    def _checked_clause(self, name: str, checked: ir.Checked) -> str:
        """Each check on the JSON value as it arrives, then the decode of `inner`."""
        inner = self.decoder(checked.inner)
        lines = [f"defp {name}(value) do"]
        for index, call in enumerate(self.check_calls("value", checked.checks)):
            ending = "," if index < len(checked.checks) - 1 else " do"
            # laid out at column 9 of the module (this clause is shifted by 2 later)
            step = with_step(f":ok <- {call}", ending).replace("\n  ", "\n")
            lines.append(f"{'  with ' if index == 0 else '       '}{step}{ending}")
        lines += [f"    {inner}(value)", "  end", "end"]
        return "\n".join(lines)

    def _inline_union_clauses(self, name: str, union: ir.InlineUnion) -> list[str]:
        clauses: list[str] = []
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
                clauses.append(
                    f"defp {name}(value) when {guard}, do: {self.decoder(option)}(value)"
                )
        listed = " or ".join(dict.fromkeys(expected))
        clauses.append(
            f"defp {name}(value), do: {RUNTIME_ALIAS}.type_error({ex_str(listed)}, value)"
        )
        return clauses
