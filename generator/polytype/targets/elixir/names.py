"""How the Elixir target spells things: paths, module names, keys, atoms and JSON scalars.

The constants every part of the target shares (the output root, the application, the
Mix project's one runtime module and the alias it is known by), the file of a module,
the check-rules and `Unknown<Union>` modules of a schema module, a struct key and how a
field is read, the term of a `const`, and the guards that tell JSON types apart; and
`check`, this namer's refusal of what its spelling makes impossible (types that become
one module, struct keys that collide, Elixir's own modules, names too long for an atom),
as located problems the build reports with every other problem of the schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import assert_never

from polytype import ir, naming
from polytype.diagnostics import NameProblems, join_pointer
from polytype.targets.base.name_checks import (
    Problem,
    colliding_fields,
    colliding_types,
    field_pointer,
)
from polytype.targets.base.render import ex_atom, ex_str
from polytype.targets.elixir.terms import ex_int

TARGET = "elixir"
PROJECT_TARGET = "elixir-project"
APP_NAME = "polytype_generated"
APP_MODULE = "PolytypeGenerated"
ROOT = "elixir"
RUNTIME_ALIAS = "R"
# The one runtime module of the Mix project, shared by every schema module's namespace.
RUNTIME_MODULE = f"{APP_MODULE}.Runtime"
# The modules the project files define besides the runtime (mix.exs, test_helper.exs).
PROJECT_MODULES = (f"{APP_MODULE}.MixProject", f"{APP_MODULE}.TestSupport")
# The last segment of each namespace's check-rules module (`checks_module`).
CHECKS_SEGMENT = "PolytypeChecks"

_PLAIN_KEY = re.compile(r"^[a-z_][a-zA-Z0-9_]*[?!]?\Z")

# the guard on `value` that holds for each JSON type
GUARDS = {
    "string": "is_binary(value)",
    "integer": "is_integer(value)",
    "number": "is_number(value)",
    "boolean": "is_boolean(value)",
    "array": "is_list(value)",
    "object": "is_map(value)",
    "null": "is_nil(value)",
}


def module_file(module_name: str) -> str:
    """`ClaudeCode.Message.SystemMessage` → `lib/claude_code/message/system_message.ex` (Macro.underscore)."""
    return "lib/" + "/".join(naming.snake_case(part) for part in module_name.split(".")) + ".ex"


def namespace(module: ir.Module) -> str:
    """The Elixir namespace of a schema module: the schema's `elixir-namespace`, else the
    module name in PascalCase, with `Schema` after it where that is Elixir's own module
    (`String` → `StringSchema`; `check` refuses such a name in a schema the project owns)."""
    if module.x_elixir_namespace:
        return module.x_elixir_namespace
    derived = naming.pascal_case(module.name)
    return derived + "Schema" if derived in naming.ELIXIR_STANDARD_MODULES else derived


def type_module(module: ir.Module, named: ir.NamedType) -> str:
    """The Elixir module of a named type: the schema's `x-elixir: {module: ...}`, else
    `<Namespace>.<Name>` from the name the schema gives the type."""
    if named.x_elixir_module:
        return named.x_elixir_module
    segment = naming.elixir_module_segment(named.name)
    return f"{namespace(module)}.{segment}"


def type_label(name: str) -> str:
    """What the Elixir docs and error messages call the type `name`: the name as a
    class or module reads (`naming.class_name`: `stringArray` → `StringArray`)."""
    return naming.class_name(name)


def checks_module(module: ir.Module) -> str:
    """The module holding what a schema module's schema checks read (definitions,
    patterns, asserted formats): `<Namespace>.PolytypeChecks`."""
    return f"{namespace(module)}.{CHECKS_SEGMENT}"


def path_segment(key: str) -> str:
    """How a key appears in an error path: exactly the Python decoders' `_segment`."""
    if key.isidentifier():
        return "." + key
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


def ex_key(name: str) -> str:
    """A keyword/struct key: `session_id:` or `"odd-key":`."""
    return f"{name}:" if _PLAIN_KEY.match(name) else f"{ex_str(name)}:"


def ex_access(variable: str, name: str) -> str:
    """Reading struct field `name` of `variable`."""
    if _PLAIN_KEY.match(name):
        return f"{variable}.{name}"
    return f"Map.fetch!({variable}, {ex_atom(name)})"


def literal_atom(value: str) -> str:
    """The atom a string `const` is held as in a struct (`"tool_use"` → `:tool_use`)."""
    return ex_atom(naming.elixir_atom(value))


def literal_term(value: str | int | bool) -> str:
    """The Elixir value of a `const`: an atom for strings, the value itself otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return ex_int(value)
    return literal_atom(value)


def json_scalar(value: str | int | bool) -> str:
    """A JSON scalar as the decoded JSON holds it (a string stays a string)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return ex_int(value)
    return ex_str(value)


def ex_str_list(values: tuple[str, ...] | list[str]) -> str:
    """A list literal of Elixir strings."""
    return "[" + ", ".join(ex_str(value) for value in values) + "]"


def unknown_module(module: ir.Module, union: ir.UnionType) -> str:
    """The Elixir module of an open union's Unknown<Union> member: `<Namespace>.Unknown<Union>`."""
    assert union.unknown is not None
    return f"{namespace(module)}.{naming.elixir_module_segment(union.unknown)}"


@cache
def enum_atoms(enum: ir.EnumType) -> tuple[str, ...]:
    """The atom (without its `:`) each value of `enum` decodes to, in order."""
    return tuple(
        naming.numbered_in_turn([naming.elixir_atom(value.value) for value in enum.values])
    )


def enum_atom(enum: ir.EnumType, value: str) -> str:
    """The atom (without its `:`) the value `value` of `enum` decodes to."""
    atoms = enum_atoms(enum)
    return next(atom for item, atom in zip(enum.values, atoms, strict=True) if item.value == value)


def field_names(record: ir.Record) -> tuple[str, ...]:
    """The struct key of each field of `record`, in order: the schema's `x-elixir:
    {field: ...}`, else its `x-field` or key in snake_case (`naming.elixir_field_name`);
    keys of a consumed schema that spell one name are numbered (`foo_bar`, `foo_bar_2`)."""
    return tuple(
        naming.numbered_repeats(
            [
                naming.elixir_field(item.json_key, item.x_field, item.x_elixir_field)
                for item in record.fields
            ]
        )
    )


def field_name(record: ir.Record, item: ir.Field) -> str:
    """The struct key of the field `item` of `record`."""
    return field_names(record)[record.fields.index(item)]


# -- what the Elixir spelling makes impossible -----------------------------------------


def check(module: ir.Module, pointers: Mapping[str, str], generous: bool) -> NameProblems:
    """What is wrong with `module`'s names in Elixir. `pointers`: where each type was
    written; `generous` (a consumed schema): colliding struct keys are numbered, not
    refused, and a namespace that is Elixir's own gains `Schema` (a warning). First types
    that become one module and struct keys that collide; then, for a module without other
    problems, Elixir's own modules redefined and names too long for an atom."""
    first = colliding_types(
        module,
        pointers,
        lambda name: naming.elixir_module_segment(name).lstrip("_"),
        "Elixir module",
    )
    then, warnings = _named_modules(module, pointers, generous)
    for named in module.types:
        pointer = pointers.get(named.name, "")
        match named:
            case ir.Record():
                if not generous:
                    first.extend(
                        colliding_fields(
                            named,
                            pointer,
                            lambda item: naming.elixir_field(
                                item.json_key, item.x_field, item.x_elixir_field
                            ),
                            "Elixir",
                        )
                    )
                then.extend(_long_fields(named, pointer))
            case ir.Alias():
                if _long_string_literal(named.type):
                    then.append((pointer, _LONG_LITERAL))
            case ir.EnumType():
                then.extend(_long_atoms(named, pointer))
            case ir.UnionType():
                pass
            case _ as unreachable:
                assert_never(unreachable)
    return NameProblems(tuple(first), tuple(then), tuple(warnings))


def _named_modules(
    module: ir.Module, pointers: Mapping[str, str], generous: bool
) -> tuple[list[Problem], list[Problem]]:
    """No generated module may be, or live under, one of Elixir's own (`String`,
    `Elixir.`); a consumed schema's namespace derived so gains `Schema` (a warning)."""
    warnings: list[Problem] = []
    if module.x_elixir_namespace:
        where, origin = "/x-polytype/elixir-namespace", ""
        name_space = module.x_elixir_namespace
    else:
        where = "/x-polytype/module" if module.x_module else ""
        origin = (
            f" (from the module name {module.name!r}; set x-polytype: {{elixir-namespace: ...}})"
        )
        name_space = naming.pascal_case(module.name)
        if generous and name_space in naming.ELIXIR_STANDARD_MODULES:
            warnings.append(
                (
                    "",
                    f"the Elixir namespace {name_space!r} (from the module name) is Elixir's "
                    f"own module: generated as {namespace(module)!r}; set x-polytype: "
                    "{elixir-namespace: ...}",
                )
            )
            name_space = namespace(module)
    named_modules = [(where, f"Elixir namespace {name_space!r}{origin}", name_space)]
    for named in module.types:
        written = named.x_elixir_module
        if written and not written.startswith(name_space + "."):
            pointer = join_pointer(pointers.get(named.name, ""), "x-elixir") + "/module"
            named_modules.append((pointer, f"Elixir module {written!r}", written))
    problems: list[Problem] = []
    for pointer, what, name in named_modules:
        first = name.split(".")[0]
        if first in naming.ELIXIR_STANDARD_MODULES:
            problems.append(
                (
                    pointer,
                    f"{what} would redefine Elixir's standard module {first}; choose another name",
                )
            )
        elif len(name) > naming.MAX_ELIXIR_NAME:
            problems.append(
                (pointer, f"{what[:60]} is longer than {naming.MAX_ELIXIR_NAME} characters")
            )
    return problems, warnings


def _long_fields(record: ir.Record, pointer: str) -> list[Problem]:
    """Struct keys, and string consts (atoms when decoded), longer than an atom may be."""
    problems: list[Problem] = []
    for item, name in zip(record.fields, field_names(record), strict=True):
        where = field_pointer(pointer, item)
        if _long_string_literal(item.type):
            problems.append((where, _LONG_LITERAL))
        if len(name) > naming.MAX_ELIXIR_NAME:
            problems.append(
                (
                    where,
                    f"field name {name[:40]!r}... is {len(name)} characters; Elixir's limit "
                    f"is {naming.MAX_ELIXIR_NAME} (set x-elixir: {{field: ...}})",
                )
            )
    return problems


def _long_atoms(enum: ir.EnumType, pointer: str) -> list[Problem]:
    """Enum values decoded to atoms (`x-elixir: {atoms: true}`) too long to be atoms."""
    if not enum.atoms:
        return []
    return [
        (
            join_pointer(pointer, "enum"),
            f"enum value {value.value[:40]!r}... is too long to be an Elixir atom "
            f"({naming.MAX_ELIXIR_NAME} characters); drop x-elixir: {{atoms: true}}",
        )
        for value, atom in zip(enum.values, enum_atoms(enum), strict=True)
        if len(atom) > naming.MAX_ELIXIR_NAME
    ]


_LONG_LITERAL = (
    f"a string const longer than {naming.MAX_ELIXIR_NAME} characters cannot be an Elixir atom "
    "(string consts decode to atoms)"
)


def _long_string_literal(type_ref: ir.TypeRef) -> bool:
    """Whether `type_ref` holds a string const too long for an Elixir atom."""
    stack = [type_ref]
    while stack:
        node = stack.pop()
        match node:
            case ir.LiteralValue():
                if isinstance(node.value, str) and len(node.value) > naming.MAX_ELIXIR_NAME:
                    return True
            case ir.ListOf():
                stack.append(node.item)
            case ir.TupleOf():
                stack.extend(node.item_types())
            case ir.MapOf():
                stack.append(node.value)
            case ir.Nullable() | ir.Checked():
                stack.append(node.inner)
            case ir.InlineUnion():
                stack.extend(node.options)
            case ir.Prim() | ir.Ref() | ir.JsonLiterals() | ir.AnyJSON():
                pass
            case _ as unreachable:
                assert_never(unreachable)
    return False
