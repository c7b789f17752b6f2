"""Validation rules shared by the stdlib Python flavors (dataclasses and TypedDicts).

Both flavors check JSON data with the same runtime helpers
(``templates/python_common/runtime.py.j2``) and the same generated checks, so a
value is accepted or rejected, with the same ``DecodeError`` path and message,
whichever flavor reads it. This module decides those checks once: helper
function names and bodies, constraint checks, the statements that validate a
record, tagged and structural union dispatch, enum value tables.

A `Flavor` (`flavors`) says what differs: the dataclass flavor builds new values (`_list`
makes a new list of decoded items, a record decoder builds a dataclass), the
TypedDict flavor checks values in place and returns the very same object
(`_check_list` returns the list it was given). The snippets come back as
`snippet_views`; the order of aliases is `alias_order`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import assert_never

from polytype import ir
from polytype.ir import formats, tuples
from polytype.ir.json_types import json_type_of
from polytype.ir.patterns import python_pattern
from polytype.ir.wording import unchecked
from polytype.targets.base.helper_names import (
    HelperKind,
    function_suffix,
)
from polytype.targets.base.render import py_str
from polytype.targets.base.type_keys import TypeKeys
from polytype.targets.python.alias_order import refs, string_aliases
from polytype.targets.python.checks import CheckConstants
from polytype.targets.python.common import (
    json_type_check,
    named_annotation,
    py_literal,
    rules_parts,
)
from polytype.targets.python.flavors import DATACLASSES, Flavor
from polytype.targets.python.literal_types import (
    is_literal_type,
    literal_annotation,
    literal_arguments,
)
from polytype.targets.python.snippet_views import HelperView, RecordChecks, TagCheck


@dataclass
class Codecs:
    """Produces validation snippets; collects the helper functions and constants they use."""

    module: ir.Module
    flavor: Flavor = DATACLASSES
    helpers: dict[str, HelperView] = field(default_factory=dict)
    patterns: dict[str, str] = field(default_factory=dict)
    uses_literal: bool = False  # an annotation says `Literal[...]` (the module imports it)
    # helper-name fragments, so that two different types (a type named `Str` and `str`,
    # consts "a-b" and "a_b") never share a helper
    _type_keys: TypeKeys = field(init=False)
    # the JSON Schema constants of the schema checks the snippets run
    check_constants: CheckConstants = field(init=False)
    # aliases whose value is a string at run time (`alias_order.string_aliases`)
    string_aliases: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.check_constants = CheckConstants(self.module)
        self.string_aliases = string_aliases(self.module)
        self._type_keys = TypeKeys(self)

    def evaluated_annotation(self, type_ref: ir.TypeRef) -> str:
        """`type_ref`'s annotation where Python evaluates it (`cast`, and signatures in a
        module without `from __future__ import annotations`): quoted when it names an alias
        that is a string at run time, since `float | "..."` raises TypeError."""
        annotation = self.annotation(type_ref)
        return py_str(annotation) if refs(type_ref) & self.string_aliases else annotation

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    def checker(self, name: str) -> str:
        """The private function that decodes (or validates) the named type `name`."""
        return f"{self.flavor.checker_prefix}{function_suffix(name)}"

    # annotations -------------------------------------------------------

    def annotation(self, type_ref: ir.TypeRef) -> str:
        match type_ref:
            case ir.Prim():
                return type_ref.kind
            case ir.ListOf():
                item = self.annotation(type_ref.item)
                return f"tuple[{item}, ...]" if self._as_tuple(type_ref) else f"list[{item}]"
            case ir.TupleOf():
                return self._tuple_annotation(type_ref)
            case ir.MapOf():
                return f"dict[str, {self.annotation(type_ref.value)}]"
            case ir.Ref():
                return named_annotation(self.module, type_ref.name)
            case ir.LiteralValue():
                self.uses_literal = True
                return f"Literal[{py_literal(type_ref.value)}]"
            case ir.JsonLiterals():
                self.uses_literal = self.uses_literal or is_literal_type(type_ref)
                return literal_annotation(type_ref)
            case ir.Nullable():
                return f"{self.annotation(type_ref.inner)} | None"
            case ir.AnyJSON():
                return "dict[str, JSONValue]" if type_ref.object_only else "JSONValue"
            case ir.Checked():  # the checks narrow values, not their type
                return self.annotation(type_ref.inner)
            case ir.InlineUnion():
                return " | ".join(self.annotation(option) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def _as_tuple(self, type_ref: ir.ListOf) -> bool:
        return type_ref.as_tuple and self.flavor.tuples

    def _tuple_annotation(self, type_ref: ir.TupleOf) -> str:
        """A positional array (`prefixItems`): the JSON list itself where containers are
        checked in place (TypedDicts: `list[A | B]`); else a Python tuple, exactly typed
        when it has a few lengths (`tuple[float, float] | tuple[float]`, see
        `tuples.fixed_shapes`), or else a tuple of the union of the item types."""
        union = " | ".join(dedupe([self.annotation(item) for item in type_ref.item_types()]))
        if not self.flavor.tuples:
            return f"list[{union}]"
        shapes = tuples.fixed_shapes(type_ref)
        if shapes is None:
            return f"tuple[{union}, ...]"
        return " | ".join(
            f"tuple[{', '.join(self.annotation(item) for item in shape) or '()'}]"
            for shape in shapes
        )

    # decoders ----------------------------------------------------------

    def decoder(self, type_ref: ir.TypeRef) -> str:
        """The name of a function `(object) -> T` that decodes (or validates) `type_ref`."""
        match type_ref:
            case ir.Prim():
                base = {"str": "_str", "int": "_int", "float": "_float", "bool": "_bool"}[
                    type_ref.kind
                ]
                if type_ref.constraints.is_empty():
                    return base
                return self._constrained_prim(type_ref, base)
            case ir.Ref():
                return self.checker(type_ref.name)
            case ir.AnyJSON():
                return "_json_object" if type_ref.object_only else "_json_value"
            case _:
                return self._helper(type_ref)

    def _helper(self, type_ref: HelperKind) -> str:
        """A private decoder of its own for `type_ref`, rendered once per type."""
        key = self.type_key(type_ref)
        name = f"{self.flavor.helper_prefix}{key}"
        if name in self.helpers:
            return name
        annotation = self.evaluated_annotation(type_ref)
        signature = f"def {name}(value: object) -> {annotation}:"
        self.helpers[name] = HelperView(name, signature, ())  # reserve before recursing
        self.helpers[name] = HelperView(name, signature, self._helper_body(type_ref, annotation))
        return name

    def _helper_body(self, type_ref: HelperKind, annotation: str) -> tuple[str, ...]:
        match type_ref:
            case ir.ListOf():
                item = self.decoder(type_ref.item)
                expression = f"{self.flavor.list_function}(value, {item})"
                if self._as_tuple(type_ref):
                    expression = f"tuple({expression})"
                return self._list_constraints(expression, type_ref.constraints)
            case ir.TupleOf():
                return self._tuple_body(type_ref, annotation)
            case ir.MapOf():
                expression = f"{self.flavor.map_function}(value, {self.decoder(type_ref.value)})"
                body = self._map_constraints(expression, type_ref.constraints)
                if not type_ref.rules.is_empty():
                    body = (self.rules_check(type_ref.rules, "frozenset[str]()", "_object(value)"),)
                    body += self._map_constraints(expression, type_ref.constraints)
                return body
            case ir.Nullable() if self.null_only(type_ref.inner):
                return (f"{self.decoder(type_ref.inner)}(value)", "return None")
            case ir.Nullable():
                return (f"return None if value is None else {self.decoder(type_ref.inner)}(value)",)
            case ir.LiteralValue():
                return (
                    f"return cast({annotation}, _literal(value, {py_literal(type_ref.value)}))",
                )
            case ir.JsonLiterals():
                allowed, expected = literal_arguments(type_ref)
                return (f"return cast({annotation}, _json_literal(value, {allowed}, {expected}))",)
            case ir.Checked():  # the checks on the value as it is, then its type
                call = f"{self.decoder(type_ref.inner)}(value)"
                return (
                    *self.check_lines(type_ref.checks, "value"),
                    *self.returning(call, type_ref),
                )
            case ir.InlineUnion():
                return self._inline_union_body(type_ref)
            case _ as unreachable:
                assert_never(unreachable)

    def null_only(self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `type_ref` takes nothing but null (`type: null` alone): its checker is
        typed `-> None`, which mypy refuses to see used as a value."""
        if isinstance(type_ref, ir.Ref) and type_ref.name not in seen:
            named = self.module.types_by_name.get(type_ref.name)
            return isinstance(named, ir.Alias) and self.null_only(named.type, seen | {named.name})
        return unchecked(type_ref) == ir.JsonLiterals((None,))

    def check_lines(self, checks: tuple[ir.SchemaCheck, ...], variable: str) -> list[str]:
        """The statements running `checks` on the JSON value in `variable` (see `_schema_check`)."""
        return [
            f"_schema_check({variable}, {self.check_constants.name(check)}, "
            f"{py_str(check.described)})"
            for check in checks
        ]

    def returning(self, call: str, type_ref: ir.TypeRef, indent: str = "") -> list[str]:
        """`return <call>`, or the call and `return None` when `type_ref` is null only."""
        if self.null_only(type_ref):
            return [f"{indent}{call}", f"{indent}return None"]
        return [f"{indent}return {call}"]

    def _constrained_prim(self, type_ref: ir.Prim, base: str) -> str:
        constraints = type_ref.constraints
        key = self.type_key(type_ref)
        name = f"{self.flavor.helper_prefix}{key}"
        if name not in self.helpers:
            lines = [f"checked = {base}(value)"]
            if type_ref.kind == "str":
                if constraints.min_length is not None:
                    lines.append(f"if len(checked) < {constraints.min_length}:")
                    lines.append(
                        f'    raise DecodeError("must have at least {constraints.min_length} character(s)")'
                    )
                if constraints.max_length is not None:
                    lines.append(f"if len(checked) > {constraints.max_length}:")
                    lines.append(
                        f'    raise DecodeError("must have at most {constraints.max_length} character(s)")'
                    )
                if constraints.pattern is not None:
                    pattern = self.pattern_constant(constraints.pattern)
                    lines.append(f"if {pattern}.search(checked) is None:")
                    if python_pattern(constraints.pattern) == constraints.pattern:
                        lines.append(
                            f'    raise DecodeError(f"does not match pattern {{{pattern}.pattern!r}}")'
                        )
                    else:  # as the schema wrote it, not with its properties spelled out
                        message = f"does not match pattern {constraints.pattern!r}"
                        lines.append(f"    raise DecodeError({py_str(message)})")
                if constraints.format is not None:
                    lines.append(f"if not {formats.checker(constraints.format)}(checked):")
                    lines.append(
                        f"    raise DecodeError({py_str(formats.failure(constraints.format))})"
                    )
            else:
                for attribute, operator, words in (
                    ("minimum", "<", "at least"),
                    ("maximum", ">", "at most"),
                    ("exclusive_minimum", "<=", "more than"),
                    ("exclusive_maximum", ">=", "less than"),
                ):
                    bound = getattr(constraints, attribute)
                    if bound is not None:
                        lines.append(f"if checked {operator} {bound!r}:")
                        lines.append(f'    raise DecodeError("must be {words} {bound!r}")')
                if constraints.multiple_of is not None:
                    divisor = repr(constraints.multiple_of)
                    lines.append(f"if not _multiple_of(checked, {divisor}):")
                    lines.append(f'    raise DecodeError("must be a multiple of {divisor}")')
            lines.append("return checked")
            annotation = self.annotation(ir.Prim(type_ref.kind))
            self.helpers[name] = HelperView(
                name, f"def {name}(value: object) -> {annotation}:", tuple(lines)
            )
        return name

    def _list_constraints(self, expression: str, constraints: ir.Constraints) -> tuple[str, ...]:
        if not constraints.checks_items():
            return (f"return {expression}",)
        lines = [f"items = {expression}"]
        if constraints.min_items is not None:
            lines.append(f"if len(items) < {constraints.min_items}:")
            lines.append(
                f'    raise DecodeError("must have at least {constraints.min_items} item(s)")'
            )
        if constraints.max_items is not None:
            lines.append(f"if len(items) > {constraints.max_items}:")
            lines.append(
                f'    raise DecodeError("must have at most {constraints.max_items} item(s)")'
            )
        if constraints.unique_items:  # on the JSON input: JSON equality, not the decoded values'
            lines.append("_unique_items(value)")
        lines.append("return items")
        return tuple(lines)

    def _tuple_body(self, type_ref: ir.TupleOf, annotation: str) -> tuple[str, ...]:
        """Each item by its position (`_tuple`), then the array's own constraints; the
        decoded items as a tuple (dataclasses) or the very list given (TypedDicts)."""
        prefix = "".join(f"{self.decoder(item)}, " for item in type_ref.prefix)
        rest = "None" if type_ref.rest is None else self.decoder(type_ref.rest)
        result = "tuple(items)" if self.flavor.tuples else "value"
        lines = list(
            self._list_constraints(f"_tuple(value, ({prefix}), {rest})", type_ref.constraints)
        )
        lines[-1] = f"return cast({annotation}, {result})"
        if len(lines) == 1:  # no constraint reads the items: a TypedDict checks them only
            checked = f"_tuple(value, ({prefix}), {rest})"
            lines.insert(0, f"items = {checked}" if self.flavor.tuples else checked)
        return tuple(lines)

    def _map_constraints(self, expression: str, constraints: ir.Constraints) -> tuple[str, ...]:
        if not constraints.checks_entries():
            return (f"return {expression}",)
        lines = [f"entries = {expression}"]
        for bound, operator, words in (
            (constraints.min_properties, "<", "at least"),
            (constraints.max_properties, ">", "at most"),
        ):
            if bound is not None:
                lines.append(f"if len(entries) {operator} {bound}:")
                lines.append(f'    raise DecodeError("must have {words} {bound} propert(ies)")')
        lines.append("return entries")
        return tuple(lines)

    def pattern_constant(self, pattern: str) -> str:
        if pattern not in self.patterns:
            self.patterns[pattern] = f"_PATTERN_{len(self.patterns)}"
        return self.patterns[pattern]

    def _inline_union_body(self, union: ir.InlineUnion) -> tuple[str, ...]:
        lines: list[str] = []
        expected: list[str] = []
        for option in union.options:
            for json_type in sorted(json_type_of(option, self.module.types_by_name)):
                lines.append(f"if {json_type_check(json_type, 'value')}:")
                if _checked_by_type(option):  # the test above is the whole check
                    lines.append("    return value")
                else:
                    lines += self.returning(f"{self.decoder(option)}(value)", option, "    ")
                expected.append(json_type)
        lines.append(f"raise _type_error({py_str(' or '.join(dedupe(expected)))}, value)")
        return tuple(lines)

    def type_key(self, type_ref: ir.TypeRef) -> str:
        """A stable identifier fragment describing `type_ref` (names helper functions),
        unique within the module (`type_keys.TypeKeys`)."""
        return self._type_keys.key(type_ref)

    # how this module spells its helper-name fragments (`type_keys.KeySpelling`)

    def key_identity(self, type_ref: ir.TypeRef) -> str:
        return repr(type_ref)

    def list_prefix(self, type_ref: ir.ListOf) -> str:
        return "tuple_" if self._as_tuple(type_ref) else "list_"

    def literal_fragment(self, type_ref: ir.LiteralValue) -> str:
        # ASCII only: Python folds identifiers with NFKC, so `ﬁ` and `fi` would be one name
        return "lit_" + re.sub(r"[^0-9A-Za-z_]", "_", str(type_ref.value))

    def checked_prefix(self, type_ref: ir.Checked) -> str:
        checked = "_".join(self.check_constants.name(check) for check in type_ref.checks)
        return "checked" + checked.lower().replace("_check_", "_") + "_"

    def number_fragment(self, value: int | float) -> str:
        """A number as a fragment of a helper name: `2.5` → `2p5`, `-1e-05` → `m1em05`."""
        return str(value).replace(".", "p").replace("-", "m").replace("+", "")

    def pattern_fragment(self, pattern: str) -> str:
        return "re" + self.pattern_constant(pattern).rsplit("_", 1)[-1]

    # records -----------------------------------------------------------

    def record_checks(self, record: ir.Record) -> RecordChecks:
        """The statements that check a record, in the order every flavor runs them."""
        suffix = function_suffix(record.name)
        keys_name = f"_{suffix.upper()}_KEYS"
        tags = []
        for item in record.tag_fields:
            assert isinstance(item.type, ir.LiteralValue)
            value = item.type.value
            tags.append(TagCheck(py_str(item.json_key), py_literal(value), isinstance(value, str)))
        alias_pairs = [(alias, item.json_key) for item in record.fields for alias in item.aliases]
        all_keys = [item.json_key for item in record.fields] + [alias for alias, _ in alias_pairs]
        known = (
            "frozenset({" + ", ".join(py_str(k) for k in all_keys) + "})"
            if all_keys
            else "frozenset[str]()"
        )
        required = tuple(item for item in record.fields if item.required and not item.is_tag)
        optional = tuple(item for item in record.fields if not item.required)
        return RecordChecks(
            schema_checks=tuple(self.check_lines(record.schema_checks, "obj")),
            tags=tuple(tags),
            forbid_check=(
                f"_forbid_unknown(obj, {keys_name})" if record.extra_policy == "forbid" else ""
            ),
            fields=required + optional,
            keeps_extra=record.extra_policy == "keep",
            extra_check=f"_unknown(obj, {keys_name})",
            keys_name=keys_name,
            keys=known,
            alias_pairs=tuple(alias_pairs),
            rules_check=self.rules_check(record.rules, keys_name),
        )

    def rules_check(self, rules: ir.ObjectRules, keys_name: str, obj: str = "obj") -> str:
        """The statement checking `obj` against an object's rules ("" without any)."""
        if rules.is_empty():
            return ""
        parts = rules_parts(
            rules, lambda pattern: f"{self.pattern_constant(pattern)}.search", self.decoder
        )
        return f"_object_rules({obj}, {keys_name}, ({', '.join(parts)}))"

    def field_check(self, item: ir.Field, default: str = "None") -> str:
        """The call that checks (and returns) one non-tag field of `obj`; `default` when absent."""
        decoder = self.decoder(item.type)
        if item.aliases:
            spellings = "(" + ", ".join(py_str(s) for s in (item.json_key, *item.aliases)) + ")"
            if item.required:
                return f"_required_aliased(obj, {spellings}, {decoder})"
            return f"_optional_aliased(obj, {spellings}, {decoder}, {default})"
        if item.required:
            return f"_required(obj, {py_str(item.json_key)}, {decoder})"
        return f"_optional(obj, {py_str(item.json_key)}, {decoder}, {default})"

    # enums -------------------------------------------------------------

    def enum_values_name(self, enum: ir.EnumType) -> str:
        return f"_{function_suffix(enum.name).upper()}_VALUES"

    # unions ------------------------------------------------------------

    def tag_table_name(self, union: ir.UnionType) -> str:
        return f"_{function_suffix(union.name).upper()}_BY_TAG"

    def tag_table(self, union: ir.UnionType) -> tuple[tuple[str, str], ...]:
        """(tag literal, checker) for a tagged union; empty for a structural one."""
        if union.tag is None:
            return ()
        return tuple(
            (py_literal(value), self.checker(member)) for value, member in union.tag_values
        )

    def union_body(self, union: ir.UnionType, with_checks: bool = True) -> tuple[str, ...]:
        """The body of the union's checker, `data` in, the member's checker's result out:
        its schema checks first (unless the caller runs them, `with_checks=False`)."""
        if with_checks and union.schema_checks:
            checks = tuple(self.check_lines(union.schema_checks, "data"))
            return checks + self.union_body(union, with_checks=False)
        if union.tries_members:
            return self._tried_members_body(union)
        if union.tag is not None:
            dispatch = (
                f"return _dispatch(obj, {py_str(union.tag)}, {self.tag_table_name(union)})(obj)"
            )
            if union.unknown is None:
                return ("obj = _object(data)", dispatch)
            # an unlisted string tag is kept whole; a missing or non-string one stays an error
            return (
                "obj = _object(data)",
                f"tag = obj.get({py_str(union.tag)})",
                f"if type(tag) is str and tag not in {self.tag_table_name(union)}:",
                f"    return {self.flavor.keep_unknown.format(name=union.unknown)}",
                dispatch,
            )
        lines: list[str] = []
        object_cases = [case for case in union.cases if case.json_type == "object"]
        other_cases = [case for case in union.cases if case.json_type != "object"]
        if object_cases:
            lines.append("if type(data) is dict:")
            for case in object_cases:
                checker = self.checker(case.member)
                if case.tag_key is not None:
                    lines.append(
                        f"    if data.get({py_str(case.tag_key)}) == {py_literal(case.tag_value)}:"
                    )
                    lines.append(f"        return {checker}(data)")
                elif case.key is not None:
                    lines.append(f"    if {py_str(case.key)} in data:")
                    lines.append(f"        return {checker}(data)")
                else:
                    lines.append(f"    return {checker}(data)")
            if union.open_tag is not None:  # kept whole; `obj` and `tag` as the flavor expects
                lines.append("    obj = data")
                lines.append(f"    tag = obj.get({py_str(union.open_tag)})")
                lines.append("    if type(tag) is str:")
                lines.append(
                    f"        return {self.flavor.keep_unknown.format(name=union.unknown)}"
                )
            if not any(case.tag_key is None and case.key is None for case in object_cases):
                hints = [
                    (
                        f"{case.tag_key}={case.tag_value!r}"
                        if case.tag_key is not None
                        else f"key {case.key!r}"
                    )
                    for case in object_cases
                ]
                message = f"matches no member of {union.name} (expected {', '.join(hints)})"
                lines.append(f"    raise DecodeError({py_str(message)})")
        expected: list[str] = ["object"] if object_cases else []
        for case in other_cases:
            lines.append(f"if {json_type_check(case.json_type, 'data')}:")
            call = f"{self.checker(case.member)}(data)"
            lines += self.returning(call, ir.Ref(case.member), "    ")
            expected.append(case.json_type)
        lines.append(f"raise _type_error({py_str(' or '.join(dedupe(expected)))}, data)")
        return tuple(lines)

    def _tried_members_body(self, union: ir.UnionType) -> tuple[str, ...]:
        """`_try_members` over the pre-check of each member, in order (oneOf / anyOf)."""
        lines = [f"members: tuple[_Member[{union.name}], ...] = ("]
        for check in union.checks:
            kinds = "".join(f"{py_str(kind)}, " for kind in check.json_types)
            required = "".join(f"{py_str(key)}, " for key in check.required)
            lines.append(
                f"    ({py_str(check.member)}, ({kinds}), ({required}), "
                f"{self.checker(check.member)}),"
            )
        lines.append(")")
        exactly_one = union.match == "one_of"
        lines.append(
            f"return _try_members(data, {py_str(union.name)}, members, exactly_one={exactly_one})"
        )
        return tuple(lines)


def _checked_by_type(option: ir.TypeRef) -> bool:
    """Whether a JSON type test alone checks `option`: a string or a boolean (an integer
    has a size limit, a number may be NaN)."""
    return (
        isinstance(option, ir.Prim)
        and option.kind in ("str", "bool")
        and option.constraints.is_empty()
    )


def dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
