"""Target: Pydantic v2 models rendered from the IR by polytype's own templates.

The models accept and reject exactly what the dataclass flavor does: strict
scalar types (no coercion, `bool` is never an `int`, an integer is a valid
`number` and stays an `int`), discriminated unions on the schema's tag, a
callable discriminator for structural unions, and the wire rules Pydantic has
no switch for (tags required on input, `x-aliases` written back in the spelling
that was read, field names never accepted as JSON keys on input). Those rules
live in a small runtime at the top of each generated file (see
``templates/python_pydantic/runtime.py.j2``); every decision about a type is made
here, and the templates only loop and print.

Round trip: ``X.model_validate(d).model_dump(mode="json", by_alias=True,
exclude_unset=True) == d`` for every valid ``d``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.ir import formats, tuples, unions
from polytype.ir.json_types import freeze_json, json_type_of
from polytype.ir.object_rules import rules_digest
from polytype.ir.patterns import python_pattern
from polytype.ir.wording import checks_text, unchecked
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.checks import CheckConstants, runtime_parts
from polytype.targets.python.common import (
    EnumView,
    enum_view_fields,
    isort_names,
    py_literal,
    record_doc,
    rules_parts,
    unknown_doc,
    with_note,
)
from polytype.targets.python.literal_types import literal_annotation, literal_arguments

TARGET = "python-pydantic"

# --- views -----------------------------------------------------------------


@dataclass(frozen=True)
class FieldView:
    name: str
    annotation: str
    value: str  # "" (a bare required field) or the right-hand side, e.g. `Field(alias="x")`
    tag_value: str = ""  # a tag's value: its default as type checkers see it


@dataclass(frozen=True)
class RecordView:
    name: str
    base: str
    doc: str
    config: str
    wire: str  # "" when the record needs no wire rules
    fields: tuple[FieldView, ...]
    methods_template: str | None = None
    checked: bool = False  # a `_CheckedModel`, or a `_SpelledModel` that needs to be one
    rules: str = ""  # the constant holding the record's object rules (`_object_rules`)
    rules_value: str = ""  # its value, assigned once every type is defined
    unknown_tag: str = ""  # an open union's Unknown<Union> model: its tag key as a literal
    schema_checks: str = ""  # `(_CHECK_X, "'not' at /x"), ...`: run on the JSON object first


@dataclass(frozen=True)
class FunctionView:
    name: str
    signature: str
    doc: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class AliasView:
    """A module-level type alias: a union or a named non-record type."""

    name: str
    doc: str
    value: str
    functions: tuple[FunctionView, ...] = ()
    # an alias that names itself, through lists or maps (`L = list[L]`), is written as
    # `TypeAliasType`, which pydantic resolves lazily; a plain alias would be a NameError
    recursive: bool = False


@dataclass(frozen=True)
class AdapterView:
    name: str
    type_name: str
    config: str  # "" or ", config=ConfigDict(...)"

    @property
    def statement(self) -> str:
        """`XAdapter: TypeAdapter[X] = _Adapter(X, ...)` (the runtime's depth-checking adapter)."""
        return (
            f"{self.name}: TypeAdapter[{self.type_name}] = _Adapter({self.type_name}{self.config})"
        )


# --- type annotations --------------------------------------------------------


@dataclass
class _Types:
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

    @property
    def alias_names(self) -> set[str]:
        """The unions and aliases: the types written as module-level aliases, in order."""
        return {t.name for t in self.module.types if isinstance(t, (ir.UnionType, ir.Alias))}

    def annotation(self, type_ref: ir.TypeRef) -> str:
        if isinstance(type_ref, ir.Prim):
            return self._prim(type_ref)
        if isinstance(type_ref, ir.ListOf):
            item = self.annotation(type_ref.item)
            container = f"tuple[{item}, ...]" if type_ref.as_tuple else f"list[{item}]"
            args = _field_args(
                min_length=type_ref.constraints.min_items, max_length=type_ref.constraints.max_items
            )
            metadata = [f"Field({args})"] if args else []
            if type_ref.constraints.unique_items:
                self.uses.add("unique_items")
                metadata.append("BeforeValidator(_unique_items)")
            return f"Annotated[{container}, {', '.join(metadata)}]" if metadata else container
        if isinstance(type_ref, ir.TupleOf):
            return self._tuple(type_ref)
        if isinstance(type_ref, ir.MapOf):  # _KEYS: no lone surrogate (Pydantic writes U+FFFD)
            args = _field_args(
                min_length=type_ref.constraints.min_properties,
                max_length=type_ref.constraints.max_properties,
            )
            counted = f", Field({args})" if args else ""
            if not type_ref.rules.is_empty():
                constant = f"_MAP_RULES_{rules_digest(type_ref.rules).upper()}"
                self.map_rules[constant] = _rules_value(type_ref.rules, [], self)
                counted += f', BeforeValidator(lambda data: _object_rules("map", data, {constant}))'
            return f"Annotated[dict[str, {self.annotation(type_ref.value)}], _KEYS{counted}]"
        if isinstance(type_ref, ir.Ref):
            return type_ref.name
        if isinstance(type_ref, ir.LiteralValue):
            return self.literal(type_ref.value)
        if isinstance(type_ref, ir.JsonLiterals):
            return self.json_literals(type_ref)
        if isinstance(type_ref, ir.Nullable):
            return f"{self.annotation(type_ref.inner)} | None"
        if isinstance(type_ref, ir.AnyJSON):
            return "Annotated[dict[str, _JSON], _KEYS]" if type_ref.object_only else "_JSON"
        if isinstance(type_ref, ir.Checked):  # checked on the value as it arrives, then typed
            return f"Annotated[{self.annotation(type_ref.inner)}, _checks({self.checks(type_ref.checks)})]"
        return " | ".join(self.annotation(option) for option in type_ref.options)

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
        annotation = literal_annotation(node).replace("JSONValue", "JsonValue")
        if annotation.startswith("Literal["):
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

    def has_pattern(self, type_ref: ir.TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `type_ref` itself (not through a named record) carries a `pattern`.

        `seen` holds the aliases and unions already being looked through, so that one
        that contains itself (`L = list[L]`) is looked at once.
        """
        if isinstance(type_ref, ir.Prim):
            return type_ref.constraints.pattern is not None
        if isinstance(type_ref, ir.ListOf):
            return self.has_pattern(type_ref.item, seen)
        if isinstance(type_ref, ir.TupleOf):
            return any(self.has_pattern(item, seen) for item in type_ref.item_types())
        if isinstance(type_ref, ir.MapOf):
            return self.has_pattern(type_ref.value, seen)
        if isinstance(type_ref, ir.Nullable):
            return self.has_pattern(type_ref.inner, seen)
        if isinstance(type_ref, ir.InlineUnion):
            return any(self.has_pattern(option, seen) for option in type_ref.options)
        if isinstance(type_ref, ir.Checked):
            return self.has_pattern(type_ref.inner, seen)
        if isinstance(type_ref, ir.Ref) and type_ref.name not in seen:
            named = self.named(type_ref.name)
            inside = seen | {named.name}
            if isinstance(named, ir.Alias):
                return self.has_pattern(named.type, inside)
            if isinstance(named, ir.UnionType):
                return any(self.has_pattern(ir.Ref(member), inside) for member in named.members)
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


# --- records -------------------------------------------------------------------


def _record_view(record: ir.Record, types: _Types, env: RenderEnv) -> RecordView:
    fields = tuple(_field_view(item, types) for item in record.fields)
    spelled = [item for item in record.fields if item.aliases]
    wire_args: list[str] = []
    tags = [item for item in record.fields if item.is_tag]
    if tags:
        triples = (
            _tuple([py_str(f.py_name), py_str(f.json_key), py_literal(_tag_value(f))]) for f in tags
        )
        wire_args.append("tags=" + _tuple(triples))
    exact = [item for item in tags if not isinstance(_tag_value(item), str)]
    if exact:
        triples = (
            _tuple([py_str(f.py_name), py_str(f.json_key), py_literal(_tag_value(f))])
            for f in exact
        )
        wire_args.append("exact_tags=" + _tuple(triples))
    if spelled:
        entries = (
            _tuple([py_str(f.py_name), _tuple(py_str(s) for s in (f.json_key, *f.aliases))])
            for f in spelled
        )
        wire_args.append("spellings=" + _tuple(entries))
    # names that are not JSON keys matter where unknown keys are kept or refused (see
    # `_CheckedModel`); where they are ignored, Pydantic ignores them as any unknown key
    wire_keys = {key for item in record.fields for key in (item.json_key, *item.aliases)}
    names_only = sorted({item.py_name for item in record.fields} - wire_keys)
    checks_names = bool(names_only) and record.extra_policy != "ignore"
    if checks_names:
        wire_args.append(
            "names=frozenset({" + ", ".join(py_str(name) for name in names_only) + "})"
        )
    # int and bool tags (their Literal takes True for 1) and kept names need `_CheckedModel`
    checked = checks_names or bool(exact)
    config = [f"extra={py_str(_EXTRA[record.extra_policy])}"]
    if record.frozen:
        config.append("frozen=True")
    if any(types.has_pattern(item.type) for item in record.fields):
        config.append('regex_engine="python-re"')
    rules_name, rules_value = _rules(record, types)
    return RecordView(
        name=record.name,
        schema_checks=types.checks(record.schema_checks) if record.schema_checks else "",
        rules=rules_name,
        rules_value=rules_value,
        base="_SpelledModel" if spelled else "_CheckedModel" if checked else "_Model",
        checked=checked,
        doc=record_doc(record),
        config=f"ConfigDict({', '.join(config)})",
        wire=f"_Wire({', '.join(wire_args)})" if wire_args else "",
        fields=fields,
        methods_template=_methods_template(record.methods, env) if record.methods else None,
    )


def _rules(record: ir.Record, types: _Types) -> tuple[str, str]:
    """(constant, value) of a record's object rules, checked by a `mode="before"` validator
    on the JSON object as it arrives; ("", "") without any."""
    if record.rules.is_empty():
        return "", ""
    keys = sorted({key for item in record.fields for key in (item.json_key, *item.aliases)})
    name = f"_{function_suffix(record.name).upper()}_RULES"
    return name, _rules_value(record.rules, keys, types)


def _rules_value(rules: ir.ObjectRules, keys: list[str], types: _Types) -> str:
    """The `_Rules` tuple of an object's rules, `keys` its declared keys."""
    types.uses.add("object_rules")

    def adapter(type_ref: ir.TypeRef | None) -> str:
        if type_ref is None:
            return "None"
        annotation = types.annotation(type_ref)
        if isinstance(type_ref, ir.Ref):
            return f"TypeAdapter({annotation})"
        return f'TypeAdapter({annotation}, config=ConfigDict(regex_engine="python-re"))'

    keys_set = (
        "frozenset({" + ", ".join(py_str(key) for key in keys) + "})" if keys else "frozenset()"
    )

    def search(pattern: str) -> str:
        return f"re.compile({py_str(python_pattern(pattern))}).search"

    parts = [keys_set, *rules_parts(rules, search, adapter)]
    return f"({', '.join(parts)})"


def _methods_template(block: str, env: RenderEnv) -> str | None:
    """`x-python: {methods: block}`: this flavor's own block, else the dataclass one (same API).

    A block that exists nowhere is reported by the dataclass target.
    """
    for template in (
        f"python_pydantic/methods/{block}.py.j2",
        f"python_dataclasses/methods/{block}.py.j2",
    ):
        if env.has_template(template):
            return template
    return None


def _tag_value(item: ir.Field) -> str | int | bool:
    assert isinstance(item.type, ir.LiteralValue)
    return item.type.value


_EXTRA = {"keep": "allow", "ignore": "ignore", "forbid": "forbid"}


def _tuple(items: Iterable[str]) -> str:
    """A tuple display without a magic trailing comma (black keeps it on one line when it fits)."""
    listed = list(items)
    return f"({listed[0]},)" if len(listed) == 1 else f"({', '.join(listed)})"


def _field_view(item: ir.Field, types: _Types) -> FieldView:
    args: list[str] = []
    tag_value = ""
    if item.is_tag:
        # a discriminator field takes no validator: its Literal checks the value; required
        # in JSON data, it has a default for type checkers only (__init__ fills it in)
        assert isinstance(item.type, ir.LiteralValue)
        types.uses.add("Literal")
        annotation = f"Literal[{py_literal(item.type.value)}]"
        tag_value = py_literal(item.type.value)
    elif item.required:
        annotation = types.annotation(item.type)
    elif item.default is None or (
        item.default.value is None and not _accepts_null(item.type, types)
    ):
        annotation = types.annotation(item.type)
        if not _accepts_null(item.type, types):
            # absent reads as None, but an explicit null is not a value of the type
            annotation = f"Omittable[{annotation}]"
        args.append("default=None")
    else:
        annotation = types.annotation(item.type)
        args.append(_default_arg(item, item.default.value, types))
    if item.py_name != item.json_key:
        args.append(f"alias={py_str(item.json_key)}")
    if item.aliases:
        spellings = ", ".join(py_str(s) for s in (item.json_key, *item.aliases))
        types.uses.add("AliasChoices")
        args.append(f"validation_alias=AliasChoices({spellings})")
    if item.doc:
        args.append(f"description={py_str(item.doc)}")
    return FieldView(
        item.py_name, annotation, f"Field({', '.join(args)})" if args else "", tag_value
    )


def _accepts_null(type_ref: ir.TypeRef, types: _Types) -> bool:
    """Whether JSON null is a value of `type_ref`."""
    return "null" in json_type_of(type_ref, types.module.types_by_name)


def _default_arg(item: ir.Field, value: ir.JSONData, types: _Types) -> str:
    target = unchecked(item.type.inner if isinstance(item.type, ir.Nullable) else item.type)
    if value is None:
        return "default=None"
    if isinstance(target, ir.Ref):
        named = types.named(target.name)
        if isinstance(named, ir.EnumType) and isinstance(value, str) and named.style != "literal":
            member = next(v for v in named.values if v.value == value)
            return f"default={named.name}.{member.py_name}"
        if isinstance(named, ir.Record):
            return f"default_factory=lambda: {named.name}.model_validate({py_literal(value)})"
    if isinstance(target, ir.TupleOf) and isinstance(value, tuple):  # validated as a field is
        return f"default_factory=lambda: TypeAdapter({types.annotation(target)}).validate_python({py_literal(value)})"
    if isinstance(target, ir.ListOf) and target.as_tuple and isinstance(value, tuple):
        return f"default=({''.join(py_literal(v) + ', ' for v in value)})"
    if isinstance(value, (tuple, ir.FrozenJSONObject)):
        literal = py_literal(value)
        return "default_factory=" + {"[]": "list", "{}": "dict"}.get(literal, f"lambda: {literal}")
    return f"default={py_literal(value)}"


# --- enums, unions, aliases ------------------------------------------------------


def _enum_view(enum: ir.EnumType) -> EnumView:
    return EnumView(**enum_view_fields(enum))


def _union_view(union: ir.UnionType, types: _Types) -> AliasView:
    """The union's alias; its schema checks, if any, run on the value before a member is chosen."""
    view = _union_alias(union, types)
    if not union.schema_checks or view.value == "NoReturn":
        return view
    value = f"Annotated[{view.value}, _checks({types.checks(union.schema_checks)})]"
    doc = with_note(view.doc, checks_text(union.schema_checks))
    return replace(view, value=value, doc=doc)


def _union_alias(union: ir.UnionType, types: _Types) -> AliasView:
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    doc = unions.documented(union, union.doc or f"One of: {', '.join(listed)}.")
    if not union.members:
        types.uses.add("NoReturn")
        return AliasView(union.name, doc, "NoReturn")
    if union.unknown is not None and union.tag is not None:
        # the fallback member needs a callable discriminator: no tag literal names it
        return _callable_union(union, doc, _tagged_dispatch(union, types), "unknown_tag", types)
    if len(union.members) == 1:
        # `Union[X]` is X: a discriminator over it would see X's own choices (`int | float`)
        # untagged, and the member's validation is the union's
        return AliasView(union.name, doc, union.members[0])
    if union.tag is not None:
        field_name = _shared_tag_field(union, types)
        if field_name is not None:
            if len(union.members) == 1:
                return AliasView(union.name, doc, union.members[0])
            members = " | ".join(union.members)
            return AliasView(
                union.name,
                doc,
                f"Annotated[{members}, Field(discriminator={py_str(field_name)})]",
            )
        return _callable_union(union, doc, _tagged_dispatch(union, types), "unknown_tag", types)
    if union.tries_members:
        return _callable_union(union, doc, _tried_dispatch(union, types), "union_no_match", types)
    return _callable_union(union, doc, _structural_dispatch(union, types), "union_no_match", types)


def _tried_dispatch(union: ir.UnionType, types: _Types) -> tuple[list[str], str, dict[str, str]]:
    """Instances by class, then the first member whose validator takes the value (for a
    oneOf union, the one member its `_only_member` check found)."""
    types.uses.add("tried_members")
    lines = _instance_checks(union, types)
    lines.append(
        f"return _first_member(value, {py_str(union.name)}, {_candidates_function(union)}())"
    )
    names = ", ".join(union.members)
    message = f"matches no member of {union.name} (tried {names}; {unions.RULES[union.match]})"
    return lines, message, {}


def _candidates_function(union: ir.UnionType) -> str:
    return f"_{function_suffix(union.name)}_candidates"


def _candidates_view(union: ir.UnionType, types: _Types) -> FunctionView:
    """The members a union that tries them tries: (name, JSON types, required keys, validator)."""
    lines = ["return ("]
    for check in union.checks:
        kinds = "".join(f"{py_str(kind)}, " for kind in check.json_types)
        required = "".join(f"{py_str(key)}, " for key in check.required)
        validate = (
            f"{check.member}.model_validate"
            if isinstance(types.named(check.member), ir.Record)
            else f"{check.member}Adapter.validate_python"
        )
        lines.append(f"    ({py_str(check.member)}, ({kinds}), ({required}), {validate}),")
    lines.append(")")
    name = _candidates_function(union)
    return FunctionView(
        name=name,
        signature=f"def {name}() -> _Candidates:",
        doc=f"The members of {union.name}, tried in this order ({unions.RULES[union.match]}).",
        body=tuple(lines),
    )


def _only_view(union: ir.UnionType) -> FunctionView:
    name = f"_{function_suffix(union.name)}_only"
    return FunctionView(
        name=name,
        signature=f"def {name}(value: Any) -> object:",
        doc=f"oneOf: `value` must match exactly one member of {union.name}.",
        body=(
            f"return _only_member(value, {py_str(union.name)}, {_candidates_function(union)}())",
        ),
    )


def _shared_tag_field(union: ir.UnionType, types: _Types) -> str | None:
    """The field name of `union.tag` when every leaf record declares it as a tag of the right value.

    Then `Field(discriminator=...)` expresses the dispatch, nested unions included
    (Pydantic folds a member union whose leaves share one outer tag value into the
    outer union). Otherwise the union needs a callable discriminator.
    """
    assert union.tag is not None
    names: set[str] = set()
    for value, member in union.tag_values:
        for record in _leaf_records(member, types):
            tag = next((f for f in record.fields if f.json_key == union.tag and f.is_tag), None)
            if tag is None or not isinstance(tag.type, ir.LiteralValue) or tag.type.value != value:
                return None
            if type(tag.type.value) is not type(value):
                return None
            names.add(tag.py_name)
    covered = {member for _, member in union.tag_values}
    if len(names) != 1 or covered != set(union.members):
        return None
    if any(ir.open_unions(types.module, member) for member in union.members):
        return None  # an open member union's fallback model has no tag literal to fold
    return names.pop()


def _leaf_records(name: str, types: _Types) -> list[ir.Record]:
    named = types.named(name)
    if isinstance(named, ir.Record):
        return [named]
    if isinstance(named, ir.UnionType):
        return [record for member in named.members for record in _leaf_records(member, types)]
    return []


def _tagged_dispatch(union: ir.UnionType, types: _Types) -> tuple[list[str], str, dict[str, str]]:
    assert union.tag is not None
    lines = ["if type(value) is dict:", f"    tag = value.get({py_str(union.tag)})"]
    for value, member in union.tag_values:
        lines.append(f"    if type(tag) is {type(value).__name__} and tag == {py_literal(value)}:")
        lines.append(f"        return {py_str(member)}")
    if union.unknown is not None:  # an unlisted string tag: the fallback model keeps it whole
        lines.append("    if type(tag) is str:")
        lines.append(f"        return {py_str(union.unknown)}")
    lines.append("    return None")
    lines.extend(_instance_checks(union, types))
    if union.unknown is not None:
        # not an object: the fallback model reports it as one ("$: not an object"), as a
        # union on Field(discriminator=...) does, rather than a tag error under its key
        lines.append(f"return {py_str(union.unknown)}")
    known = ", ".join(repr(value) for value, _ in union.tag_values)
    message = f"unknown or missing tag {union.tag!r}; expected one of {known}"
    return lines, message, {"discriminator": repr(union.tag)}


def _structural_dispatch(
    union: ir.UnionType, types: _Types
) -> tuple[list[str], str, dict[str, str]]:
    lines: list[str] = []
    object_cases = [case for case in union.cases if case.json_type == "object"]
    if object_cases:
        lines.append("if type(value) is dict:")
        for case in object_cases:
            if case.tag_key is not None:
                lines.append(
                    f"    if value.get({py_str(case.tag_key)}) == {py_literal(case.tag_value)}:"
                )
                lines.append(f"        return {py_str(case.member)}")
            elif case.key is not None:
                lines.append(f"    if {py_str(case.key)} in value:")
                lines.append(f"        return {py_str(case.member)}")
            else:
                lines.append(f"    return {py_str(case.member)}")
                break
        else:
            if union.unknown is not None and union.open_tag is not None:
                lines.append(f"    if type(value.get({py_str(union.open_tag)})) is str:")
                lines.append(f"        return {py_str(union.unknown)}")
            lines.append("    return None")
    lines.extend(_instance_checks(union, types))
    for case in union.cases:
        if case.json_type != "object":
            lines.append(f"if {_JSON_TYPE_CHECKS[case.json_type]}:")
            lines.append(f"    return {py_str(case.member)}")
    hints = [
        (
            f"{case.tag_key}={case.tag_value!r}"
            if case.tag_key is not None
            else f"key {case.key!r}" if case.key is not None else "object"
        )
        for case in object_cases
    ] + [case.json_type for case in union.cases if case.json_type != "object"]
    message = f"matches no member of {union.name}" + (
        f" (expected {', '.join(hints)})" if hints else ""
    )
    return lines, message, {}


_JSON_TYPE_CHECKS = {
    "string": "type(value) is str",
    "integer": "type(value) is int",
    "number": "type(value) is float or type(value) is int",
    "boolean": "type(value) is bool",
    "array": "type(value) is list or type(value) is tuple",
    "object": "type(value) is dict",
    "null": "value is None",
}


def _instance_checks(union: ir.UnionType, types: _Types) -> list[str]:
    """Values built in code (and values being serialized) are recognised by their class."""
    lines: list[str] = []
    for member in union.members:
        classes = _classes(member, types)
        if classes:
            lines.append(f"if isinstance(value, {classes}):")
            lines.append(f"    return {py_str(member)}")
    if union.unknown is not None:
        lines.append(f"if isinstance(value, {union.unknown}):")
        lines.append(f"    return {py_str(union.unknown)}")
    return lines


def _classes(name: str, types: _Types) -> str:
    named = types.named(name)
    if isinstance(named, ir.Record) or (
        isinstance(named, ir.EnumType) and named.style != "literal"
    ):
        return name
    if isinstance(named, ir.UnionType):
        leaves = [_classes(member, types) for member in named.members]
        leaves = [leaf for leaf in leaves if leaf] + ([named.unknown] if named.unknown else [])
        return "(" + ", ".join(leaves) + ",)" if leaves else ""
    return ""


def _callable_union(
    union: ir.UnionType,
    doc: str,
    dispatch: tuple[list[str], str, dict[str, str]],
    error_type: str,
    types: _Types,
) -> AliasView:
    lines, message, context = dispatch
    function = f"_{function_suffix(union.name)}_member"
    body = tuple(lines) + (() if lines and lines[-1].startswith("return ") else ("return None",))
    view = FunctionView(
        name=function,
        signature=f"def {function}(value: Any) -> str | None:",
        doc=f"The member of {union.name} that `value` is, or None: the union's dispatch rule.",
        body=body,
    )
    listed = [*union.members, *([union.unknown] if union.unknown else [])]
    members = " | ".join(f"Annotated[{member}, Tag({py_str(member)})]" for member in listed)
    arguments = [
        function,
        f"custom_error_type={py_str(error_type)}",
        f"custom_error_message={py_str(message)}",
    ]
    if context:
        pairs = "{" + ", ".join(f"{py_str(k)}: {py_str(v)}" for k, v in context.items()) + "}"
        # any union may be a member of another callable union (an open one, one that tries
        # its members), and Python's typing hashes a union's members
        types.uses.add("error_context")
        pairs = f"_ErrorContext({pairs})"
        arguments.append(f"custom_error_context={pairs}")
    types.uses.add("callable_union")
    validators = f"Discriminator({', '.join(arguments)})"
    functions: tuple[FunctionView, ...] = (view,)
    if union.tries_members:
        functions = (_candidates_view(union, types), view)
        if union.match == "one_of":
            functions += (_only_view(union),)
            validators += f", BeforeValidator({functions[-1].name})"
    value = f"Annotated[{members}, {validators}]"
    return AliasView(union.name, doc, value, functions)


def _unknown_view(union: ir.UnionType, types: _Types, env: RenderEnv) -> RecordView:
    """An open union's fallback model: no declared fields, every key kept (and checked as JSON)."""
    assert union.unknown is not None and union.open_tag is not None
    record = ir.Record(union.unknown, (), extra_policy="keep", doc=unknown_doc(union))
    view = _record_view(record, types, env)
    assert view.config == 'ConfigDict(extra="allow")', view.config
    schema = py_literal(freeze_json(_unknown_json_schema(union, types)))
    config = f'ConfigDict(extra="allow", json_schema_extra={schema})'
    return replace(view, config=config, unknown_tag=py_str(union.open_tag))


def _unknown_json_schema(union: ir.UnionType, types: _Types) -> dict[str, Any]:
    """What the fallback model takes, for `model_json_schema`: an object whose tag is a string
    the union does not list (the parent's tags pinned, a structural union's keys absent), so
    that the union's `oneOf` matches a listed member's value once."""
    assert union.open_tag is not None
    listed = list(
        dict.fromkeys(
            [value for value, _ in union.tag_values if isinstance(value, str)]
            + [case.tag_value for case in union.cases if isinstance(case.tag_value, str)]
        )
    )
    tag: dict[str, Any] = {"type": "string"}
    if listed:
        tag["not"] = {"enum": listed}
    properties: dict[str, Any] = {union.open_tag: tag}
    required = [union.open_tag]
    leaves = _leaf_records(union.name, types)
    for item in leaves[0].tag_fields if leaves else ():
        value = _tag_value(item)
        if item.json_key != union.open_tag and all(
            any(
                other.json_key == item.json_key and _tag_value(other) == value
                for other in leaf.tag_fields
            )
            for leaf in leaves
        ):
            properties[item.json_key] = {"const": value}
            required.append(item.json_key)
    schema: dict[str, Any] = {"properties": properties, "required": required}
    keys = [case.key for case in union.cases if case.key is not None]
    if keys:
        schema["not"] = {"anyOf": [{"required": [key]} for key in keys]}
    return schema


def _alias_view(alias: ir.Alias, types: _Types, defined: set[str]) -> AliasView:
    """`defined`: the unions and aliases written before this one."""
    recursive = bool(_refs(alias.type) & types.alias_names - defined)
    if recursive:
        types.uses.add("TypeAliasType")
    return AliasView(
        alias.name,
        alias.doc or f"The {alias.name} type.",
        types.annotation(alias.type),
        recursive=recursive,
    )


def _alias_order(module: ir.Module) -> list[ir.NamedType]:
    """Unions and aliases ordered so that each is defined after the aliases it uses."""
    pending = [t for t in module.types if isinstance(t, (ir.UnionType, ir.Alias))]
    names = {t.name for t in pending}
    ordered: list[ir.NamedType] = []
    done: set[str] = set()
    while pending:
        ready = [t for t in pending if (_dependencies(t) & names) <= done]
        if not ready:  # a cycle through aliases alone: keep source order
            ordered.extend(pending)
            break
        for named in ready:
            ordered.append(named)
            done.add(named.name)
            pending.remove(named)
    return ordered


def _dependencies(named: ir.NamedType) -> set[str]:
    if isinstance(named, ir.UnionType):
        return set(named.members)
    assert isinstance(named, ir.Alias)
    return _refs(named.type)


def _refs(type_ref: ir.TypeRef) -> set[str]:
    if isinstance(type_ref, ir.Ref):
        return {type_ref.name}
    if isinstance(type_ref, ir.ListOf):
        return _refs(type_ref.item)
    if isinstance(type_ref, ir.TupleOf):
        return set().union(*(_refs(item) for item in type_ref.item_types()))
    if isinstance(type_ref, ir.MapOf):
        return _refs(type_ref.value)
    if isinstance(type_ref, ir.Nullable):
        return _refs(type_ref.inner)
    if isinstance(type_ref, ir.InlineUnion):
        return set().union(*(_refs(option) for option in type_ref.options))
    if isinstance(type_ref, ir.Checked):
        return _refs(type_ref.inner)
    return set()


# --- checks ------------------------------------------------------------------------


def _check_names(module: ir.Module) -> None:
    """`<Name>Adapter` must not be another type's name.

    Lowering already keeps types off the module's own names and fields off BaseModel's
    attributes and private names (`polytype.naming`).
    """
    type_names = {named.name for named in module.types}
    problems: list[Diagnostic] = []
    for named in module.types:
        if not isinstance(named, ir.Record) and f"{named.name}Adapter" in type_names:
            source = named.source or ir.SourceRef(module.schema_path, 1, 1, f"/$defs/{named.name}")
            problems.append(
                Diagnostic(
                    source.file,
                    Position(source.line, source.column),
                    source.pointer,
                    f"{named.name}Adapter (its TypeAdapter) collides with a type of that name",
                )
            )
    if problems:
        raise InputError(problems)


# --- render ------------------------------------------------------------------------


def _adapter_config(named: ir.NamedType, types: _Types) -> str:
    """`, config=...` for a TypeAdapter: errors titled after the type; Python regexes if needed.

    A type that is a model itself (an alias of a record) brings its own config.
    """
    target: ir.NamedType = named
    while isinstance(target, ir.Alias) and isinstance(target.type, ir.Ref):
        target = types.named(target.type.name)
    if isinstance(target, ir.Record):
        return ""
    if isinstance(target, ir.UnionType) and len(target.members) == 1:
        # `Union[X]` is X itself: a union of one model is that model, which brings its own
        # config (pydantic refuses one on a TypeAdapter of a BaseModel)
        member = types.named(target.members[0])
        if _adapter_config(member, types) == "":
            return ""
    settings = [f"title={py_str(named.name)}"]
    if types.has_pattern(ir.Ref(named.name)):  # an alias's own, or a union member's
        settings.append('regex_engine="python-re"')
    return f", config=ConfigDict({', '.join(settings)})"


def module_path(module: ir.Module) -> str:
    return f"python/{module.name}/pydantic_models.py"


def render_models(module: ir.Module, env: RenderEnv) -> OutputFile:
    _check_names(module)
    types = _Types(module)
    enums = [_enum_view(t) for t in module.types if isinstance(t, ir.EnumType)]
    if any(not enum.base for enum in enums):
        types.uses.add("Literal")  # `X: TypeAlias = Literal[...]`
    records = [_record_view(t, types, env) for t in module.types if isinstance(t, ir.Record)]
    records += [
        _unknown_view(t, types, env)
        for t in module.types
        if isinstance(t, ir.UnionType) and t.unknown is not None
    ]
    aliases: list[AliasView] = []
    defined: set[str] = set()
    for named in _alias_order(module):
        if isinstance(named, ir.UnionType):
            aliases.append(_union_view(named, types))
        elif isinstance(named, ir.Alias):
            aliases.append(_alias_view(named, types, defined))
        defined.add(named.name)
    adapters = [
        AdapterView(f"{t.name}Adapter", t.name, _adapter_config(t, types))
        for t in module.types
        if not isinstance(t, ir.Record)
    ]
    exported = [t.name for t in module.types] + [a.name for a in adapters]
    exported += [t.unknown for t in module.types if isinstance(t, ir.UnionType) and t.unknown]
    uses_spellings = any(r.base == "_SpelledModel" for r in records)
    uses_checks = any(r.checked for r in records)
    schema_checks = "schema_checks" in runtime_parts(module)
    # the formats the schema checks assert need their checkers as the fields' do
    types.uses |= {part for part in runtime_parts(module) if part.startswith("format_")}
    text = env.render(
        "python_pydantic/module.py.j2",
        module=module,
        enums=enums,
        records=records,
        aliases=aliases,
        adapters=adapters,
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        uses=sorted(types.uses),
        uses_enum=any(e.base for e in enums),
        keeps_str_enums=any(e.base == "(str, Enum)" for e in enums),
        uses_spellings=uses_spellings,
        uses_checks=uses_checks,
        schema_checks=schema_checks,
        check_constants=types.check_constants.statements(),
        object_rules=[(r.rules, r.rules_value) for r in records if r.rules]
        + sorted(types.map_rules.items()),
        typing_imports=_typing_imports(types.uses),
        typing_extensions_imports=[n for n in _TYPING_EXTENSIONS_WHEN_USED if n in types.uses],
        abc_imports=["Callable", "Iterable"],  # both used by the runtime
        pydantic_imports=_pydantic_imports(types.uses, uses_spellings, uses_checks),
        core_imports=_core_imports(uses_spellings, uses_checks or "object_rules" in types.uses),
        **depth.template_values(module),
    )
    return OutputFile(module_path(module), text, TARGET, module.name, "python")


# What every module imports from typing and pydantic; the annotations used and the
# runtime's optional parts add the rest (ruff's F401 rejects an unused import).
_TYPING_ALWAYS = (
    "TYPE_CHECKING", "Annotated", "Any", "ClassVar", "Self", "TypeAlias", "TypeVar", "cast",
)  # fmt: skip
_TYPING_WHEN_USED = ("Literal", "NoReturn")
# Python 3.11's typing has no TypeAliasType; pydantic depends on typing_extensions
_TYPING_EXTENSIONS_WHEN_USED = ("TypeAliasType",)
# StrictFloat, StrictInt, AfterValidator: the runtime's `_Float` and `_Int`;
# ValidationError: its depth limit
_PYDANTIC_ALWAYS = (
    "AfterValidator", "BaseModel", "BeforeValidator", "ConfigDict", "Field", "JsonValue",
    "StrictFloat", "StrictInt", "TypeAdapter", "ValidationError", "model_validator",
)  # fmt: skip
_PYDANTIC_WHEN_USED = (
    "AliasChoices", "PlainValidator", "StrictBool", "StrictStr", "WithJsonSchema",
)  # fmt: skip


def _typing_imports(uses: set[str]) -> list[str]:
    return isort_names([*_TYPING_ALWAYS, *(name for name in _TYPING_WHEN_USED if name in uses)])


_PYDANTIC_FOR_WRAP = ("ModelWrapValidatorHandler", "ValidationInfo")
_PYDANTIC_FOR_SPELLINGS = (
    "PrivateAttr", "SerializationInfo", "SerializerFunctionWrapHandler", "model_serializer",
)  # fmt: skip


def _pydantic_imports(uses: set[str], uses_spellings: bool, uses_checks: bool) -> list[str]:
    """The names imported from pydantic, sorted as isort would."""
    names = set(_PYDANTIC_ALWAYS) | {name for name in _PYDANTIC_WHEN_USED if name in uses}
    if "callable_union" in uses:
        names |= {"Discriminator", "Tag"}
    if uses_spellings or uses_checks:  # the wrap validators of _SpelledModel, _CheckedModel
        names |= set(_PYDANTIC_FOR_WRAP)
    if uses_spellings:
        names |= set(_PYDANTIC_FOR_SPELLINGS)
    if "schema_checks" in uses:  # the validators of schema checks see the validation context
        names.add("ValidationInfo")
    return isort_names(names)


def _core_imports(uses_spellings: bool, uses_checks: bool) -> list[str]:
    """The names imported from pydantic_core: error details built by the wrap validators."""
    names = ["PydanticCustomError", "from_json"]  # the depth limit's error and its parser
    if uses_spellings or uses_checks:
        names.append("InitErrorDetails")
    return isort_names(names)


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    """The models, and their generated pytest suite (``python_pydantic_tests``)."""
    from polytype.targets.python_pydantic import tests as python_pydantic_tests

    return [render_models(module, env), *python_pydantic_tests.render(module, env)]
