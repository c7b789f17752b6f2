"""How the Python flavors name what the schema names: types, record fields, enum members.

The IR holds the schema's names (type names, JSON keys, enum values, `x-field`); the
three Python flavors ask here for the Python spelling, by `polytype.naming`'s rules, and
render a module respelled so (`python_module`). `check` is this namer's refusal of what
the spelling makes impossible (two types or fields that become one Python name, a field
that would hide a type, a reserved `x-field`): located problems, which the build reports
with every other problem of the schema. A consumed schema's field and enum-member
collisions are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`) instead.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import replace
from functools import cache

from polytype import ir, naming
from polytype.diagnostics import NameProblems, join_pointer
from polytype.ir.renaming import rename_named
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.name_checks import (
    Problem,
    colliding_fields,
    colliding_types,
    field_pointer,
)


def type_name(name: str) -> str:
    """The Python class or alias of the type the schema names `name`: unchanged unless it
    reads like a variable or would shadow something (`naming.python_type_name`)."""
    return naming.python_type_name(name)


def type_names(module: ir.Module) -> dict[str, str]:
    """Every type's Python name, by the name the schema gives it."""
    return {named.name: type_name(named.name) for named in module.types}


def python_module(module: ir.Module) -> ir.Module:
    """`module` with every type, and every reference to it, under its Python name: what
    the Python flavors render (the module itself when no name changes)."""
    renamed = {name: python for name, python in type_names(module).items() if python != name}
    if not renamed:
        return module
    root = None if module.root is None else renamed.get(module.root, module.root)
    return replace(
        module, types=tuple(rename_named(named, renamed) for named in module.types), root=root
    )


@cache
def enum_members(enum: ir.EnumType) -> tuple[str, ...]:
    """The Python member of each value of `enum`, in order: `in_progress` → `IN_PROGRESS`."""
    return tuple(
        naming.numbered_in_turn([naming.python_enum_member(value.value) for value in enum.values])
    )


def enum_member(enum: ir.EnumType, value: str) -> str:
    """The Python member of the value `value` of `enum`."""
    members = enum_members(enum)
    return next(
        member for item, member in zip(enum.values, members, strict=True) if item.value == value
    )


def field_names(record: ir.Record, type_names: Container[str]) -> tuple[str, ...]:
    """The Python attribute of each field of `record`, in order. `type_names`: the
    module's Python type names (`python_module(module).types_by_name`).

    The schema's `x-field`, else the key in snake_case, never private or shadowing
    (`naming.python_field_name`); keys of a consumed schema that spell one name are
    numbered (`foo_bar`, `foo_bar_2`); a name that is also a type's gets a trailing `_`,
    since it would hide the type in the class body (`check` refuses the fields where
    that cannot be done).
    """
    names = naming.numbered_repeats(
        [naming.python_field(item.json_key, item.x_field) for item in record.fields]
    )
    return tuple(name + "_" if name in type_names else name for name in names)


def field_name(record: ir.Record, item: ir.Field, type_names: Container[str]) -> str:
    """The Python attribute of the field `item` of `record`."""
    return field_names(record, type_names)[record.fields.index(item)]


# -- what the Python spelling makes impossible -----------------------------------------


def check(module: ir.Module, pointers: Mapping[str, str], generous: bool) -> NameProblems:
    """What is wrong with `module`'s names in Python. `pointers`: where each type was
    written; `generous` (a consumed schema): colliding field names are numbered, not
    refused. First types whose functions' suffix would be one, reserved `x-field`s and
    keys that spell one attribute; then, for a module without other problems, types that
    take one class name and fields that would hide a class."""
    first = colliding_types(module, pointers, function_suffix, "function suffix")
    then = colliding_types(module, pointers, type_name, "Python name")
    python_types = set(type_names(module).values())
    for named in module.types:
        if isinstance(named, ir.Record):
            pointer = pointers.get(named.name, "")
            first.extend(_reserved_fields(named, pointer))
            if not generous:
                first.extend(
                    colliding_fields(
                        named,
                        pointer,
                        lambda item: naming.python_field(item.json_key, item.x_field),
                        "Python",
                    )
                )
            then.extend(_shadowing_fields(named, pointer, python_types))
    return NameProblems(tuple(first), tuple(then))


def _reserved_fields(record: ir.Record, pointer: str) -> list[Problem]:
    """An `x-field` Python reserves (a keyword, a name the class body or module uses) or
    makes private (a leading `_`)."""
    problems: list[Problem] = []
    for item in record.fields:
        if not item.x_field:
            continue
        name = naming.python_field(item.json_key, item.x_field)
        where = join_pointer(field_pointer(pointer, item), "x-field")
        if name.startswith("_"):
            problems.append(
                (where, f"x-field {name!r} starts with '_' (private in Python and Pydantic)")
            )
        elif name in (
            naming.PYTHON_RESERVED
            | naming.PYTHON_MEMBER_RESERVED
            | naming.PYTHON_CLASS_BODY_NAMES
            | naming.PYTHON_MODULE_NAMES
        ):
            problems.append((where, f"x-field {name!r} is a reserved name in Python"))
    return problems


def _shadowing_fields(record: ir.Record, pointer: str, python_types: set[str]) -> list[Problem]:
    """A field named like a type would hide that type in the class body (annotations):
    `field_names` gives it a trailing `_`, unless the schema named it (`x-field`) or that
    name is taken too."""
    names = naming.numbered_repeats(
        [naming.python_field(item.json_key, item.x_field) for item in record.fields]
    )
    used = set(names)
    problems: list[Problem] = []
    for item, name in zip(record.fields, names, strict=True):
        if name not in python_types:
            continue
        new_name = name + "_"
        if item.x_field is not None or new_name in used or new_name in python_types:
            where = field_pointer(pointer, item)
            problems.append(
                (
                    join_pointer(where, "x-field") if item.x_field is not None else where,
                    f"field name {name!r} is also the Python name of a type; set x-field",
                )
            )
            continue
        used.add(new_name)
    return problems
