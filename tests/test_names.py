"""Each target names what the schema names: the IR keeps the schema's names and
overrides, `targets.python.names` and `targets.elixir.names` derive the rest."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from polytype import ir
from polytype.compile import read_schema
from polytype.targets.elixir import names as elixir_names
from polytype.targets.python import names as python_names


def _read(tmp_path: Path, file_name: str, schema: dict[str, Any], strict: bool) -> ir.Module:
    path = tmp_path / file_name
    path.write_text(json.dumps(schema), encoding="utf-8")
    return read_schema(path, file_name, strict=strict).module


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
            "a_b": {  # Python `AB`; Elixir keeps the schema's name: `AB`, not `Ab`
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
    assert record.name == "AB" and record.fields[0].x_field == "item_name"
    assert python_names.field_names(record, module.types_by_name) == ("item_name", "tool_call_id")
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
