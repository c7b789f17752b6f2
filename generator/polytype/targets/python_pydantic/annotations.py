"""Pydantic annotations of IR type references (strict scalars, constrained
containers, exact literals, positional tuples) and what the module must define for
them: the runtime parts used, the object rules of maps, the schema checks' constants."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import assert_never

from polytype import ir
from polytype.ir import formats, tuples
from polytype.ir.object_rules import rules_digest
from polytype.ir.patterns import python_pattern
from polytype.targets.base.render import py_str
from polytype.targets.python.checks import CheckConstants
from polytype.targets.python.common import py_literal, rules_parts
from polytype.targets.python.literal_types import (
    is_literal_type,
    literal_annotation,
    literal_arguments,
)


@dataclass
class Annotations:
    """Turns IR type references into Pydantic annotations."""

    module: ir.Module
    uses: set[str] = field(default_factory=set)
    # constant -> value of the object rules of maps (`propertyNames`, `dependentRequired`)
    map_rules: dict[str, str] = field(default_factory=dict)
    # the JSON Schema constants of the schema checks the validators run
    check_constants: CheckConstants = field(init=False)

    def __post_init__(self) -> None:
        self.check_constants = CheckConstants(self.module)

    def checks(self, checks: tuple[ir.SchemaCheck, ...]) -> str:
        """`(_CHECK_X, "'not' at /x"), ...`: the arguments of `_checks`/`_schema_checks`."""
        self.uses.add("schema_checks")
        return ", ".join(self.check_constants.call(check) for check in checks)

    def named(self, name: str) -> ir.NamedType:
        return self.module.get(name)

    def annotation(self, type_ref: ir.TypeRef) -> str:
        match type_ref:
            case ir.Prim():
                return self._prim(type_ref)
            case ir.ListOf():
                item = self.annotation(type_ref.item)
                container = f"tuple[{item}, ...]" if type_ref.as_tuple else f"list[{item}]"
                args = _field_args(
                    min_length=type_ref.constraints.min_items,
                    max_length=type_ref.constraints.max_items,
                )
                metadata = [f"Field({args})"] if args else []
                if type_ref.constraints.unique_items:
                    self.uses.add("unique_items")
                    metadata.append("BeforeValidator(_unique_items)")
                return f"Annotated[{container}, {', '.join(metadata)}]" if metadata else container
            case ir.TupleOf():
                return self._tuple(type_ref)
            case ir.MapOf():  # _KEYS: no lone surrogate (Pydantic writes U+FFFD)
                args = _field_args(
                    min_length=type_ref.constraints.min_properties,
                    max_length=type_ref.constraints.max_properties,
                )
                counted = f", Field({args})" if args else ""
                free_form = (
                    isinstance(type_ref.value, ir.AnyJSON) and not type_ref.value.object_only
                )
                if free_form and not counted and type_ref.rules.is_empty():
                    return "_JSON_OBJECT"  # one check of the whole object, keys included
                if not type_ref.rules.is_empty():
                    constant = f"_MAP_RULES_{rules_digest(type_ref.rules).upper()}"
                    self.map_rules[constant] = rules_value(type_ref.rules, [], self)
                    counted += (
                        f', BeforeValidator(lambda data: _object_rules("map", data, {constant}))'
                    )
                return f"Annotated[dict[str, {self.annotation(type_ref.value)}], _KEYS{counted}]"
            case ir.Ref():
                return self.named_annotation(type_ref.name)
            case ir.LiteralValue():
                return self.literal(type_ref.value)
            case ir.JsonLiterals():
                return self.json_literals(type_ref)
            case ir.Nullable():
                return f"{self.annotation(type_ref.inner)} | None"
            case ir.AnyJSON():
                return "_JSON_OBJECT" if type_ref.object_only else "_JSON"
            case ir.Checked():  # checked on the value as it arrives, then typed
                return f"Annotated[{self.annotation(type_ref.inner)}, _checks({self.checks(type_ref.checks)})]"
            case ir.InlineUnion():
                return " | ".join(self.annotation(option) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def named_annotation(self, name: str) -> str:
        """A named type; an open enum (`x-unknown: keep`) is its members or its Unknown<Enum>,
        validated and dumped by the runtime's `_OpenEnum` (a string either way)."""
        named = self.module.types_by_name.get(name)
        if not isinstance(named, ir.EnumType) or named.unknown is None:
            return name
        self.uses.add("open_enums")
        both = f"{name} | {named.unknown}"
        return f"Annotated[{both}, _OpenEnum({name}, {named.unknown})]"

    def _tuple(self, node: ir.TupleOf) -> str:
        """A positional array: a union of Pydantic's fixed-length tuples when it has a few
        lengths (`tuples.fixed_shapes`); else `tuple[A | B, ...]` validated by position
        by the runtime's `_Positional` (pydantic-core's variadic tuple)."""
        metadata: list[str] = []
        if node.constraints.unique_items:
            self.uses.add("unique_items")
            metadata.append("BeforeValidator(_unique_items)")
        shapes = tuples.fixed_shapes(node)
        if shapes is not None:
            python = " | ".join(
                f"tuple[{', '.join(self.annotation(item) for item in shape) or '()'}]"
                for shape in shapes
            )
        else:
            union = " | ".join(dict.fromkeys(self.annotation(t) for t in node.item_types()))
            python = f"tuple[{union}, ...]"
            self.uses.add("tuples")
            prefix = "".join(f"{self.annotation(item)}, " for item in node.prefix)
            rest = "None" if node.rest is None else self.annotation(node.rest)
            args = _field_args(
                min_length=node.constraints.min_items, max_length=node.constraints.max_items
            )
            metadata.insert(0, f"_Positional(({prefix}), {rest}{', ' + args if args else ''})")
        return f"Annotated[{python}, {', '.join(metadata)}]" if metadata else python

    def literal(self, value: str | int | bool) -> str:
        # Pydantic's Literal is lax for integers and booleans (True matches 1); a record's
        # tags are checked exactly by the runtime (`_Wire.tags`), other literals here.
        self.uses.add("Literal")
        annotation = f"Literal[{py_literal(value)}]"
        if isinstance(value, (bool, int)):  # the value as read: pydantic would make 1.0 an int
            self.uses |= {"exact", "PlainValidator", "WithJsonSchema"}
            literal = py_literal(value)
            schema = f'WithJsonSchema({{"const": {literal}}})'
            return f"Annotated[{annotation}, PlainValidator(_exactly({literal})), {schema}]"
        return annotation

    def json_literals(self, node: ir.JsonLiterals) -> str:
        """A `const`/`enum` of any JSON value: checked by JSON equality and kept as read
        (`PlainValidator`: pydantic's own Literal would turn 1.0 into 1 and take True for 1)."""
        annotation = literal_annotation(node, json_value="JsonValue")
        if is_literal_type(node):
            self.uses.add("Literal")
        self.uses |= {"json_literals", "PlainValidator", "WithJsonSchema"}
        allowed, expected = literal_arguments(node)
        values = ", ".join(py_literal(value) for value in node.values)
        check = f"PlainValidator(_json_literal({allowed}, {expected}))"
        return f'Annotated[{annotation}, {check}, WithJsonSchema({{"enum": [{values}]}})]'

    def _prim(self, prim: ir.Prim) -> str:
        c = prim.constraints
        if prim.kind == "str":
            if c.pattern is not None:
                self.uses.add("pattern")
            pattern = None if c.pattern is None else python_pattern(c.pattern)
            args = _field_args(min_length=c.min_length, max_length=c.max_length, pattern=pattern)
            self.uses.add("StrictStr")
            checks = [f"Field({args})"] if args else []
            if c.format is not None:
                self.uses |= {"format", "AfterValidator", formats.runtime_part(c.format)}
                checker = formats.checker(c.format)
                checks.append(f"AfterValidator(_format({py_str(c.format)}, {checker}))")
            return f"Annotated[StrictStr, {', '.join(checks)}]" if checks else "StrictStr"
        if prim.kind == "bool":
            self.uses.add("StrictBool")
            return "StrictBool"
        number = self._number(prim)
        if c.multiple_of is None:
            return number
        self.uses.add("multiple_of")  # jsonschema's rule, not pydantic-core's float tolerance
        return f"Annotated[{number}, AfterValidator(_multiple_of({c.multiple_of!r}))]"

    def _number(self, prim: ir.Prim) -> str:
        c = prim.constraints
        args = _field_args(
            ge=c.minimum, le=c.maximum, gt=c.exclusive_minimum, lt=c.exclusive_maximum
        )
        # `_Int`: a StrictInt Python's json can write (at most 4,300 digits; runtime.py.j2)
        # an integer member takes whole-number bounds (pydantic-core refuses `ge=0.5` on int)
        int_args = _field_args(**_integer_bounds(c))
        if prim.kind == "int":
            return f"Annotated[_Int, Field({int_args})]" if int_args else "_Int"
        # `number`: an integer stays an int (exact round trip), a float stays a float;
        # `_Float` turns NaN and infinity away (runtime.py.j2)
        if args:
            int_member = f"Annotated[_Int, Field({int_args})]" if int_args else "_Int"
            return f"{int_member} | Annotated[_Float, Field({args})]"
        return "_Int | _Float"

    def is_model(self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `type_ref` is a model (a record, through checks, aliases of it and unions
        of it alone): it brings its own config, and Pydantic refuses one on its TypeAdapter."""
        match type_ref:
            case ir.Checked():
                return self.is_model(type_ref.inner, seen)
            case ir.Ref() if type_ref.name not in seen:
                pass
            case _:
                return False
        named = self.named(type_ref.name)
        match named:
            case ir.Alias():
                return self.is_model(named.type, seen | {named.name})
            case ir.UnionType():  # `Union[X]` is X itself
                only = len(named.members) == 1
                return only and self.is_model(ir.Ref(named.members[0]), seen | {named.name})
            case ir.Record():
                return True
            case ir.EnumType():
                return False
            case _ as unreachable:
                assert_never(unreachable)

    def has_pattern(self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `type_ref` itself (not through a named record) carries a `pattern`.

        `seen` holds the aliases and unions already being looked through, so that one
        that contains itself (`L = list[L]`) is looked at once.
        """
        match type_ref:
            case ir.Prim():
                return type_ref.constraints.pattern is not None
            case ir.ListOf():
                return self.has_pattern(type_ref.item, seen)
            case ir.TupleOf():
                return any(self.has_pattern(item, seen) for item in type_ref.item_types())
            case ir.MapOf():
                return self.has_pattern(type_ref.value, seen)
            case ir.Nullable():
                return self.has_pattern(type_ref.inner, seen)
            case ir.InlineUnion():
                return any(self.has_pattern(option, seen) for option in type_ref.options)
            case ir.Checked():
                return self.has_pattern(type_ref.inner, seen)
            case ir.Ref() if type_ref.name not in seen:
                named = self.named(type_ref.name)
                inside = seen | {named.name}
                if isinstance(named, ir.Alias):
                    return self.has_pattern(named.type, inside)
                if isinstance(named, ir.UnionType):
                    return any(self.has_pattern(ir.Ref(member), inside) for member in named.members)
            case ir.Ref() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
                pass
            case _ as unreachable:
                assert_never(unreachable)
        return False


def _integer_bounds(c: ir.Constraints) -> dict[str, int | None]:
    """The bounds as integers that admit exactly the same integers.

    pydantic-core refuses a bound that is not a whole number on an int (`minimum: 0.5`);
    for integers, `>= 0.5` is `>= 1`, `> 0.5` is `>= 1`, `<= 2.5` is `<= 2`, `< 2.5` is `<= 2`.
    """
    bounds: dict[str, int | None] = {"ge": None, "le": None}
    lower = [math.ceil(c.minimum)] if c.minimum is not None else []
    if c.exclusive_minimum is not None:
        lower.append(math.floor(c.exclusive_minimum) + 1)
    upper = [math.floor(c.maximum)] if c.maximum is not None else []
    if c.exclusive_maximum is not None:
        upper.append(math.ceil(c.exclusive_maximum) - 1)
    if lower:
        bounds["ge"] = max(lower)
    if upper:
        bounds["le"] = min(upper)
    return bounds


def _field_args(**constraints: object) -> str:
    return ", ".join(
        f"{key}={_py_value(value)}" for key, value in constraints.items() if value is not None
    )


def _py_value(value: object) -> str:
    if isinstance(value, str):
        return py_str(value)
    return repr(value)


def rules_value(rules: ir.ObjectRules, keys: list[str], types: Annotations) -> str:
    """The `_Rules` tuple of an object's rules, `keys` its declared keys."""
    types.uses.add("object_rules")

    def adapter(type_ref: ir.TypeRef | None) -> str:
        if type_ref is None:
            return "None"
        annotation = types.annotation(type_ref)
        if isinstance(type_ref, ir.Ref) or types.is_model(type_ref):
            return f"TypeAdapter({annotation})"
        return f'TypeAdapter({annotation}, config=ConfigDict(regex_engine="python-re"))'

    keys_set = (
        "frozenset({" + ", ".join(py_str(key) for key in keys) + "})" if keys else "frozenset()"
    )

    def search(pattern: str) -> str:
        return f"re.compile({py_str(python_pattern(pattern))}).search"

    parts = [keys_set, *rules_parts(rules, search, adapter)]
    return f"({', '.join(parts)})"
