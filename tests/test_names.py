"""Each target names what the schema names: the IR keeps the schema's names and
overrides, `targets.python.names` and `targets.elixir.names` derive the rest."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from polytype import ir
from polytype.compile import read_schema
from polytype.diagnostics import InputError, NameProblems
from polytype.targets import name_checks
from polytype.targets.elixir import names as elixir_names
from polytype.targets.python import names as python_names


def _read(tmp_path: Path, file_name: str, schema: dict[str, Any], strict: bool) -> ir.Module:
    path = tmp_path / file_name
    path.write_text(json.dumps(schema), encoding="utf-8")
    return read_schema(path, file_name, strict=strict, name_checks=name_checks()).module


def test_the_ir_holds_no_target_names() -> None:
    held = {
        item.name
        for node in (ir.Field, ir.EnumValue, ir.Record, ir.EnumType, ir.UnionType, ir.Alias)
        for item in fields(node)
    } | {item.name for item in fields(ir.Module)}
    assert not held & {"py_name", "ex_name", "ex_atom", "elixir_module", "elixir_namespace"}


def test_each_namer_names_fields_members_and_modules_from_the_schema(tmp_path: Path) -> None:
    schema = {
        "x-polytype": {"elixir-namespace": "Things"},
        "$defs": {
            "a_b": {  # the IR keeps `a_b`; Python spells `AB`, Elixir `AB` too (not `Ab`)
                "type": "object",
                "properties": {
                    "Item": {
                        "type": "string",
                        "x-field": "item_name",
                        "x-elixir": {"field": "label"},
                    },
                    "toolCallId": {"type": "integer"},
                },
                "required": ["toolCallId"],
            },
            "Mode": {
                "enum": ["in_progress", "acceptEdits"],
                "x-elixir": {"atoms": True, "module": "Elsewhere.Modes"},
            },
        },
    }
    module = _read(tmp_path, "things.json", schema, strict=True)
    record, enum = module.types
    assert isinstance(record, ir.Record) and isinstance(enum, ir.EnumType)
    assert record.name == "a_b" and record.fields[0].x_field == "item_name"
    assert python_names.type_name(record.name) == "AB"
    python_types = python_names.type_names(module).values()
    assert python_names.field_names(record, python_types) == ("item_name", "tool_call_id")
    assert elixir_names.field_names(record) == ("label", "tool_call_id")
    assert python_names.enum_members(enum) == ("IN_PROGRESS", "ACCEPT_EDITS")
    assert elixir_names.enum_atoms(enum) == ("in_progress", "accept_edits")
    assert elixir_names.namespace(module) == "Things"
    assert elixir_names.type_module(module, record) == "Things.AB"
    assert elixir_names.type_module(module, enum) == "Elsewhere.Modes"


def test_a_hoisted_type_lives_in_a_consumed_schemas_renamed_namespace(tmp_path: Path) -> None:
    """`kernel.json` would be Elixir's `Kernel`: every type, the hoisted `ThingInner`
    too, goes under `KernelSchema` (the inline type was refused as `Kernel.ThingInner`)."""
    schema = {
        "title": "Thing",
        "type": "object",
        "properties": {"inner": {"type": "object", "properties": {"a": {"type": "string"}}}},
    }
    module = _read(tmp_path, "kernel.json", schema, strict=False)
    assert elixir_names.namespace(module) == "KernelSchema"
    assert [elixir_names.type_module(module, named) for named in module.types] == [
        "KernelSchema.Thing",
        "KernelSchema.ThingInner",
    ]


def test_the_ir_holds_the_schemas_type_name_and_each_namer_spells_its_own(tmp_path: Path) -> None:
    """`Exception` would shadow Python's builtin: the Python namer spells it `Exception_`
    (and every reference to it), the Elixir namer `Things.Exception`; the IR, and every
    reference in it, holds the schema's `Exception` alone."""
    schema = {
        "x-polytype": {"elixir-namespace": "Things"},
        "$defs": {
            "Exception": {"type": "object", "properties": {"reason": {"type": "string"}}},
            "Failure": {
                "type": "object",
                "properties": {"cause": {"$ref": "#/$defs/Exception"}},
            },
        },
    }
    module = _read(tmp_path, "things.json", schema, strict=True)
    exception, failure = module.types
    assert isinstance(failure, ir.Record)
    assert exception.name == "Exception" and failure.fields[0].type == ir.Ref("Exception")
    assert python_names.type_name(exception.name) == "Exception_"
    assert elixir_names.type_module(module, exception) == "Things.Exception"
    respelled = python_names.python_module(module)
    assert [named.name for named in respelled.types] == ["Exception_", "Failure"]
    cause = respelled.get("Failure")
    assert isinstance(cause, ir.Record) and cause.fields[0].type == ir.Ref("Exception_")


COLLIDING_IN_PYTHON = """\
$defs:
  Thing:
    type: object
    properties:
      foo_bar: {type: string}
      foo-bar:
        type: string
        x-elixir: {field: other}
"""


def test_a_python_only_collision_is_the_python_namers_with_its_location(tmp_path: Path) -> None:
    """Two keys that spell one Python attribute, told apart in Elixir by `x-elixir`:
    lowering builds the module (the IR holds both keys), the Elixir namer has nothing to
    say, and the Python namer's located problem is what the build reports."""
    path = tmp_path / "things.yaml"
    path.write_text(COLLIDING_IN_PYTHON, encoding="utf-8")
    module = read_schema(path, "schema/things.yaml").module
    pointers = {"Thing": "/$defs/Thing"}
    found = python_names.check(module, pointers, False)
    assert found.first == (
        (
            "/$defs/Thing/properties/foo-bar",
            "keys 'foo_bar' and 'foo-bar' both become the Python field 'foo_bar'; set x-field on one",
        ),
    )
    assert not found.then and not found.warnings
    assert elixir_names.check(module, pointers, False) == NameProblems()
    with pytest.raises(InputError) as refused:
        read_schema(path, "schema/things.yaml", name_checks=name_checks())
    assert [str(diagnostic) for diagnostic in refused.value.diagnostics] == [
        "schema/things.yaml:6:7: /$defs/Thing/properties/foo-bar: keys 'foo_bar' and "
        "'foo-bar' both become the Python field 'foo_bar'; set x-field on one"
    ]
