"""How the Elixir target spells things: paths, module names, keys, atoms and JSON scalars.

The constants every part of the target shares (the output root, the application, the
Mix project's one runtime module and the alias it is known by), the file of a module,
the check-rules and `Unknown<Union>` modules of a schema module, a struct key and how a
field is read, the term of a `const`, and the guards that tell JSON types apart.
"""

from __future__ import annotations

import json
import re
from functools import cache

from polytype import ir, naming
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
    (`String` → `StringSchema`; lowering refuses such a name in a schema the project owns)."""
    if module.x_elixir_namespace:
        return module.x_elixir_namespace
    derived = naming.pascal_case(module.name)
    return derived + "Schema" if derived in naming.ELIXIR_STANDARD_MODULES else derived


def type_module(module: ir.Module, named: ir.NamedType) -> str:
    """The Elixir module of a named type: the schema's `x-elixir: {module: ...}`, else
    `<Namespace>.<Name>` from the name the schema gives the type."""
    if named.x_elixir_module:
        return named.x_elixir_module
    segment = naming.elixir_module_segment(named.schema_name or named.name)
    return f"{namespace(module)}.{segment}"


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
