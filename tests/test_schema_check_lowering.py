"""The front end and lowering of schema checks (`polytype.frontend.checks`).

`not`, `if`/`then`/`else`, `dependentSchemas` beyond required keys, `allOf` parts that
cannot merge and keywords that cannot move into a union's members are kept as the JSON
Schema the file wrote and attached to the type they constrain. These tests read real
schema files through `read_schema` and look at the IR; the flavors' verdicts on values
are tested per target (tests/test_schema_checks*.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.compile import read_schema
from polytype.diagnostics import InputError


def _read(tmp_path: Path, schema: dict[str, Any], strict: bool = False) -> ir.Module:
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return read_schema(path, "demo.json", strict=strict).module


def _thaw(value: ir.JSONData) -> Any:
    if isinstance(value, ir.FrozenJSONObject):
        return {key: _thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def _checks(named: ir.NamedType) -> list[tuple[Any, tuple[str, ...], str]]:
    assert isinstance(named, (ir.Record, ir.UnionType)), named
    return [(_thaw(c.schema), c.keywords, c.pointer) for c in named.schema_checks]


SIZE_NOT = {"type": "integer", "not": {"const": 3}}
CONDITION = {
    "if": {"properties": {"kind": {"const": "big"}}, "required": ["kind"]},
    "then": {"properties": {"size": {"minimum": 10}}},
    "else": {"properties": {"size": {"maximum": 9}}},
}


def test_not_and_conditionals_are_kept_as_written(tmp_path: Path) -> None:
    module = _read(
        tmp_path,
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Box",
            "type": "object",
            "properties": {"kind": {"type": "string"}, "size": SIZE_NOT},
            **CONDITION,
            "dependencies": {
                "kind": {"required": ["size"], "properties": {"size": {"type": "integer"}}}
            },
        },
    )
    box = module.get("Box")
    assert _checks(box) == [
        (
            {
                **CONDITION,
                "dependentSchemas": {
                    "kind": {"required": ["size"], "properties": {"size": {"type": "integer"}}}
                },
            },
            ("if", "then", "else", "dependentSchemas"),
            "",
        )
    ]
    assert isinstance(box, ir.Record)
    size = {field.json_key: field.type for field in box.fields}["size"]
    assert size == ir.Checked(
        ir.Prim("int"),
        (
            ir.SchemaCheck(
                ir.FrozenJSONObject((("not", ir.FrozenJSONObject((("const", 3),))),)),
                ("not",),
                "/properties/size",
            ),
        ),
    )


def test_required_only_dependent_schemas_stay_object_rules(tmp_path: Path) -> None:
    module = _read(
        tmp_path,
        {
            "title": "Pair",
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "dependentSchemas": {"a": {"required": ["b"]}},
        },
    )
    pair = module.get("Pair")
    assert isinstance(pair, ir.Record)
    assert pair.schema_checks == ()
    assert pair.rules.dependent_required == (("a", ("b",)),)


def test_check_defs_hold_what_the_checks_reach_as_written(tmp_path: Path) -> None:
    bad = {"required": ["bad"], "properties": {"bad": {"$ref": "#/$defs/Deeper"}}, "x-vendor": 1}
    module = _read(
        tmp_path,
        {
            "title": "Root",
            "type": "object",
            "properties": {"link": {"$ref": "#/$defs/Link"}},
            "$defs": {
                "Link": {
                    "type": "object",
                    "properties": {"href": {"type": "string"}},
                    "not": {"$ref": "#/$defs/Bad"},
                },
                "Bad": bad,
                "Deeper": {"type": "string", "minLength": 2},
                "Unrelated": {"type": "object", "properties": {"x": {"type": "integer"}}},
            },
        },
    )
    assert dict((name, _thaw(schema)) for name, schema in module.check_defs) == {
        "Bad": bad,  # as written: the annotation the types would drop is still there
        "Deeper": {"type": "string", "minLength": 2},
    }
    assert _checks(module.get("Link")) == [
        ({"not": {"$ref": "#/$defs/Bad"}}, ("not",), "/$defs/Link")
    ]


def test_an_allof_part_that_cannot_merge_is_checked(tmp_path: Path) -> None:
    """`allOf` of a record and unions of required keys: the record gives the type, the
    parts that do not merge into it are checked as schemas, self-contained (the unions
    reshaping named are inlined back) and with the verdicts of the parts as written."""
    record = {"type": "object", "properties": {"a": {"type": "string"}, "c": {"type": "string"}}}
    other = {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}
    third = {"oneOf": [{"required": ["c"]}, {"required": ["d"]}]}
    module = _read(tmp_path, {"title": "Both", "allOf": [record, other, third]})
    both = module.get("Both")
    assert isinstance(both, ir.Record)
    assert [f.json_key for f in both.fields] == ["a", "c"]
    checks = _checks(both)
    assert [(keywords, pointer) for _, keywords, pointer in checks] == [
        (("allOf",), "/allOf/1"),
        (("allOf",), "/allOf/2"),
    ]
    defs = {name: _thaw(schema) for name, schema in module.check_defs}
    values = [{}, {"a": "x"}, {"b": 1}, {"c": "x"}, {"d": 1}, {"c": "x", "d": 1}, "text", 3]
    for (schema, _, _), written in zip(checks, [other, third], strict=True):
        check = jsonschema.Draft202012Validator({**schema, "$defs": defs})
        plain = jsonschema.Draft202012Validator(written)
        assert [check.is_valid(v) for v in values] == [plain.is_valid(v) for v in values]


def test_keywords_beside_a_union_that_cannot_take_them_are_checked(tmp_path: Path) -> None:
    module = _read(
        tmp_path,
        {
            "title": "Holder",
            "type": "object",
            "properties": {
                "id": {
                    "minLength": 3,
                    "oneOf": [{"$ref": "#/$defs/Number"}, {"type": "string"}],
                    "not": {"const": "none"},
                },
                # `items` cannot merge into a member with `prefixItems`
                "pair": {
                    "items": {"type": "string"},
                    "anyOf": [
                        {"type": "array", "prefixItems": [{"type": "string"}]},
                        {"type": "integer"},
                    ],
                },
            },
            "$defs": {"Number": {"type": "number"}},
        },
    )
    holder = module.get("Holder")
    assert isinstance(holder, ir.Record)
    found = sorted((c.pointer, c.keywords, _thaw(c.schema)) for c in ir.schema_checks(module))
    assert found == [
        ("/properties/id", ("not",), {"not": {"const": "none"}}),
        ("/properties/pair", ("items",), {"items": {"type": "string"}}),
    ]


def test_a_schema_typed_as_free_form_keeps_its_checks(tmp_path: Path) -> None:
    module = _read(
        tmp_path,
        {
            "title": "Loose",
            "type": "object",
            "properties": {
                "value": {
                    "type": "object",
                    "required": ["a"],
                    "contains": 1,  # not a schema: the property is approximated
                    "not": {"required": ["b"]},
                }
            },
        },
    )
    assert [c.pointer for c in ir.schema_checks(module)] == ["/properties/value"]


def test_a_project_that_owns_its_schema_writes_checks_too(tmp_path: Path) -> None:
    """A check approximates nothing, so strict mode takes `not` and `if`/`then`/`else`
    (in polytype's dialect: references to whole definitions, in either spelling)."""
    module = _read(
        tmp_path,
        {
            "title": "Own",
            "type": "object",
            "properties": {"n": {"type": "integer", "not": {"$ref": "#/definitions/Three"}}},
            **CONDITION,
            "definitions": {"Three": {"const": 3}},
        },
        strict=True,
    )
    own = module.get("Own")
    assert _checks(own) == [(CONDITION, ("if", "then", "else"), "")]
    assert [(c.pointer, _thaw(c.schema)) for c in ir.schema_checks(module)][1:] == [
        ("/properties/n", {"not": {"$ref": "#/$defs/Three"}})
    ]
    assert module.check_defs == (("Three", ir.FrozenJSONObject((("const", 3),))),)


def test_assertions_no_type_carries_are_checked(tmp_path: Path) -> None:
    """`{minimum: 2}` has no type: lowering makes it free-form JSON, which would drop the
    bound without a word; as a check it holds for numbers, as JSON Schema says. A schema
    typed by its keywords (`items`: an array) keeps its bounds on that type."""
    module = _read(
        tmp_path,
        {
            "title": "Loose",
            "type": "object",
            "properties": {
                "either": {"anyOf": [{"type": "integer"}, {"minimum": 2}]},
                "listed": {"enum": [1, 5, "x"], "minimum": 2, "maxLength": 3},
                "items": {"items": {"type": "string"}, "minItems": 1, "minLength": 2},
            },
        },
    )
    found = sorted((c.pointer, _thaw(c.schema)) for c in ir.schema_checks(module))
    assert found == [
        ("/properties/either/anyOf/1", {"minimum": 2}),
        ("/properties/listed", {"minimum": 2, "maxLength": 3}),
    ]


def test_a_definition_false_matches_nothing(tmp_path: Path) -> None:
    module = _read(
        tmp_path,
        {
            "title": "Holder",
            "type": "object",
            "properties": {"never": {"$ref": "#/$defs/Never"}},
            "$defs": {"Never": False},
        },
    )
    validator_input = [(_thaw(c.schema), c.keywords) for c in ir.schema_checks(module)]
    assert validator_input == [({"not": {}}, ("false",))]
    assert not jsonschema.Draft202012Validator(validator_input[0][0]).is_valid(None)


def test_a_property_false_is_a_check_in_a_consumed_schema(tmp_path: Path) -> None:
    """`properties: {bar: false}`: the key may not be present. A consumed schema keeps
    its type (the key is a field no value passes); a strict project is told to remove it."""
    schema = {
        "title": "Holder",
        "type": "object",
        "properties": {"foo": True, "bar": False},
    }
    holder = _read(tmp_path, schema).get("Holder")
    assert isinstance(holder, ir.Record)
    bar = {field.json_key: field for field in holder.fields}["bar"]
    assert not bar.required and isinstance(bar.type, ir.Checked)
    assert [(_thaw(c.schema), c.keywords) for c in bar.type.checks] == [({"not": {}}, ("false",))]
    with pytest.raises(InputError):
        _read(tmp_path, schema, strict=True)
