"""Each pass of lowering after the build, on IR values built by hand (`polytype.lowering`).

The passes are functions of frozen values: the build's named types in, new named types
and `(pointer, message)` problems out. These tests call each one directly; the last
test runs the CLI on a schema whose result depended, before the passes, on the order
in which its definitions were met.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from polytype import ir, naming
from polytype.cli import main
from polytype.diagnostics import NameProblems
from polytype.ir.json_types import ANY_JSON_TYPE, json_type_of
from polytype.lowering import long_names, module_checks, union_dispatch
from polytype.targets.python import names as python_names
from polytype.targets.python.names import field_names as python_field_names

from .conftest import import_file

STRING = ir.Prim("str")


def _record(name: str, *fields: ir.Field, extra: ir.ExtraPolicy = "keep") -> ir.Record:
    return ir.Record(name, fields, extra_policy=extra)


def _field(key: str, type_ref: ir.TypeRef, required: bool = True) -> ir.Field:
    return ir.Field(key, type_ref, required, x_field=key)


def _types(*named: ir.NamedType) -> dict[str, ir.NamedType]:
    return {item.name: item for item in named}


def _module(*named: ir.NamedType) -> ir.Module:
    return ir.Module("m", "m", "", "schema/m.json", "", None, named)


def _classify(
    types: dict[str, ir.NamedType], *sites: union_dispatch.UnionSite, generous: bool = False
) -> union_dispatch.Dispatch:
    return union_dispatch.classify(
        types, sites, generous=generous, unknown_tags="reject", loose=frozenset()
    )


def _site(
    name: str, keyword: str = "oneOf", unknown: str | None = None
) -> union_dispatch.UnionSite:
    return union_dispatch.UnionSite(name, keyword, f"/$defs/{name}", unknown)


CAT = _record("Cat", _field("kind", ir.LiteralValue("cat")), _field("meow", STRING))
DOG = _record("Dog", _field("kind", ir.LiteralValue("dog")), _field("bark", STRING))


# --- union_dispatch ---------------------------------------------------------------


def test_a_union_whose_members_share_a_tag_key_dispatches_on_it() -> None:
    types = _types(CAT, DOG, ir.UnionType("Pet", ("Cat", "Dog")))
    dispatch = _classify(types, _site("Pet"))
    pet = _types(*dispatch.types)["Pet"]
    assert isinstance(pet, ir.UnionType)
    assert (pet.match, pet.tag, pet.tag_values) == ("tag", "kind", (("cat", "Cat"), ("dog", "Dog")))
    assert dispatch.problems == dispatch.warnings == ()


def test_members_of_different_json_types_dispatch_structurally() -> None:
    number = ir.Alias("Count", ir.Prim("int"))
    types = _types(CAT, number, ir.UnionType("CatOrCount", ("Cat", "Count")))
    union = _types(*_classify(types, _site("CatOrCount")).types)["CatOrCount"]
    assert isinstance(union, ir.UnionType)
    assert union.match == "structural"
    assert [(case.member, case.json_type) for case in union.cases] == [
        ("Count", "integer"),
        ("Cat", "object"),
    ]


def test_members_nothing_tells_apart_are_a_problem_of_an_owned_schema() -> None:
    first, second = ir.Alias("First", STRING), ir.Alias("Second", STRING)
    types = _types(first, second, ir.UnionType("Either", ("First", "Second")))
    dispatch = _classify(types, _site("Either"))
    assert dispatch.problems == (
        ("/$defs/Either", "union Either cannot tell First from Second: both are JSON strings"),
    )
    assert dispatch.warnings == ()


def test_a_consumed_schema_tries_such_members_and_says_so() -> None:
    first, second = ir.Alias("First", STRING), ir.Alias("Second", STRING)
    types = _types(first, second, ir.UnionType("Either", ("First", "Second")))
    dispatch = _classify(types, _site("Either", "anyOf"), generous=True)
    either = _types(*dispatch.types)["Either"]
    assert isinstance(either, ir.UnionType)
    assert either.match == "any_of"
    assert [check.json_types for check in either.checks] == [("string",), ("string",)]
    assert dispatch.problems == ()
    # no check is lost: listed for the module's summary line, not warned on its own
    assert dispatch.warnings == ()
    assert dispatch.tried == (("/$defs/Either", "Either"),)


def test_a_loose_member_of_a_one_of_is_tried_last_and_the_first_match_wins() -> None:
    free, cat = ir.Alias("Free", ir.AnyJSON()), CAT
    types = _types(free, cat, ir.UnionType("Either", ("Free", "Cat")))
    dispatch = union_dispatch.classify(
        types, (_site("Either"),), generous=True, unknown_tags="reject", loose=frozenset({"Free"})
    )
    either = _types(*dispatch.types)["Either"]
    assert isinstance(either, ir.UnionType)
    assert either.match == "any_of"
    assert [check.member for check in either.checks] == ["Cat", "Free"]
    assert "Free (checked less than the schema says) last" in dispatch.warnings[0][1]


def test_x_unknown_keep_names_a_member_that_must_not_be_a_type() -> None:
    taken = _record("UnknownPet")
    types = _types(CAT, DOG, taken, ir.UnionType("Pet", ("Cat", "Dog")))
    dispatch = _classify(types, _site("Pet", unknown="keep"))
    assert dispatch.problems == (
        (
            "/$defs/Pet/x-unknown",
            "x-unknown: keep generates the member 'UnknownPet', which is already a type name",
        ),
    )
    open_types = _types(CAT, DOG, ir.UnionType("Pet", ("Cat", "Dog")))
    pet = _types(*_classify(open_types, _site("Pet", unknown="keep")).types)["Pet"]
    assert isinstance(pet, ir.UnionType) and pet.unknown == "UnknownPet"


def test_a_union_that_contains_itself_does_not_recurse_forever() -> None:
    # Outer's first member is Inner, whose first member is Outer: a cycle the chains
    # check reports; classifying a union beside it must still end
    types = _types(
        CAT,
        ir.UnionType("Outer", ("Inner", "Cat")),
        ir.UnionType("Inner", ("Outer", "Cat")),
        ir.UnionType("Beside", ("Outer", "Cat")),
    )
    dispatch = _classify(types, _site("Beside"), generous=True)
    assert _types(*dispatch.types)["Beside"] != types["Beside"]


# --- module_checks ----------------------------------------------------------------


def test_chains_reports_a_union_defined_only_through_itself() -> None:
    types = _types(
        ir.Alias("Text", STRING),
        ir.UnionType("Node", ("Text", "Group")),
        ir.UnionType("Group", ("Node",)),
    )
    problems, cyclic = module_checks.chains(types, {"Node": "/$defs/Node"})
    assert cyclic == {"Node", "Group"}
    assert problems == [
        (
            "/$defs/Node",
            "type Node is defined only through itself (Node -> Group -> Node); a union or "
            "alias cannot contain itself directly",
        )
    ]


def test_termination_reports_a_record_every_value_of_which_contains_itself() -> None:
    endless = _record("Endless", _field("next", ir.Ref("Endless")))
    ended = _record("Ended", _field("next", ir.Nullable(ir.Ref("Ended"))))
    listed = _record("Listed", _field("next", ir.ListOf(ir.Ref("Listed"))))
    problems = module_checks.termination(_types(endless, ended, listed), {}, set())
    assert [message.split(":")[0] for _, message in problems] == [
        "type Endless can never be finite"
    ]


def test_converted_names_and_lengths_are_located() -> None:
    types = _types(_record("FooBar"), _record("Foo_Bar"), _record("X" * 200))
    found = python_names.check(_module(*types.values()), {"Foo_Bar": "/$defs/Foo_Bar"}, False)
    assert found.first[0] == (
        "/$defs/Foo_Bar",
        "types 'FooBar' and 'Foo_Bar' both become the function suffix 'foo_bar'",
    )
    too_long = module_checks.lengths("m", False, types, {})
    assert len(too_long) == 1 and "characters; the limit is" in too_long[0][1]


# --- the Python namer's type names --------------------------------------------------


def test_a_type_named_like_a_builtin_is_respelled_and_so_is_every_reference() -> None:
    holder = _record("Holder", _field("value", ir.ListOf(ir.Ref("Exception"))))
    module = _module(_record("Exception"), holder)
    assert python_names.type_names(module) == {"Exception": "Exception_", "Holder": "Holder"}
    respelled = python_names.python_module(module)
    holder_after = respelled.get("Holder")
    assert isinstance(holder_after, ir.Record)
    assert holder_after.fields[0].type == ir.ListOf(ir.Ref("Exception_"))
    assert [named.name for named in respelled.types] == ["Exception_", "Holder"]
    assert python_names.python_module(respelled) is respelled


@pytest.mark.parametrize(
    ("key", "python"),
    [
        ("list", "List"),
        ("caps", "Caps"),
        ("variable_mapValue", "VariableMapValue"),
        ("key_value_input_", "KeyValueInput"),
        ("_trim", "Trim"),
        ("type", "Type_"),  # `TypeAdapter` is Pydantic's
        ("_TrimState", "_TrimState"),
        ("Enum", "Enum_"),
    ],
)
def test_type_names_become_pascal_case_class_names(key: str, python: str) -> None:
    """A `$defs` key written like a variable becomes the class name a person would
    write; a name that would shadow something still gains a `_`."""
    assert python_names.type_name(key) == python


def test_a_field_named_like_a_type_gets_a_trailing_underscore_unless_the_schema_named_it() -> None:
    record = _record("Holder", _field("Item", ir.Ref("Item")))
    module = _module(
        _record("Item"), ir.Record("Holder", (ir.Field("Item", ir.Ref("Item"), True),))
    )
    assert python_names.check(module, {}, False) == NameProblems()
    assert python_field_names(module.get("Holder"), module.types_by_name) == ("item",)
    assert python_field_names(record, {"Item"}) == ("Item_",)
    refused = python_names.check(
        _module(_record("Item"), record), {"Holder": "/$defs/Holder"}, False
    )
    assert refused.then == (
        (
            "/$defs/Holder/properties/Item/x-field",
            "field name 'Item' is also the Python name of a type; set x-field",
        ),
    )


# --- json_types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_ref", "expected"),
    [
        (ir.Prim("float"), {"number", "integer"}),
        (ir.Nullable(ir.LiteralValue(True)), {"boolean", "null"}),
        (ir.AnyJSON(), set(ANY_JSON_TYPE)),
        (ir.Ref("Loop"), set()),  # a union met again inside itself says nothing
    ],
)
def test_json_type_of(type_ref: ir.TypeRef, expected: set[str]) -> None:
    types = _types(ir.UnionType("Loop", ("Loop",)))
    assert json_type_of(type_ref, types, frozenset({"Loop"})) == expected


# --- the passes run after the build: order of definitions does not matter ---------

LATER_DEFINED = """\
$defs:
  Notification:
    anyOf:
      - {$ref: "#/$defs/Session", title: SessionMember}
      - {title: Extension}
  Session:
    type: object
    properties:
      sessionId: {type: string}
    required: [sessionId]
"""


def test_a_member_defined_after_its_union_is_still_decoded_as_itself(tmp_path: Path) -> None:
    """The union's member `SessionMember` stands for `Session`, defined after the union.
    When dispatch was decided during the build, `Session` was not lowered yet: the
    member had no JSON type, no case, and every object went to the free-form member."""
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "later.yaml").write_text(LATER_DEFINED, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(tmp_path), "generate"]) == 0
    models = import_file(
        tmp_path / "generated" / "python" / "later" / "dataclass_models.py", "later_models"
    )
    value = {"sessionId": "s-1", "extra": [1]}
    decoded = models.decode_notification(value)
    assert type(decoded).__name__ == "Session"
    assert decoded.session_id == "s-1"
    assert models.encode_notification(decoded) == value
    assert models.decode_notification(["not", "a", "session"]) == ["not", "a", "session"]


def test_a_long_type_name_in_a_consumed_schema_is_shortened_deterministically() -> None:
    """A name past the limit (a long title on a deep path) is shortened with a stable
    hash in a consumed schema, and references follow; a schema you own keeps it (and
    `module_checks.lengths` refuses it there)."""
    long_a = "Workflow" + "Option" * 20 + "TypesItem"
    long_b = "Workflow" + "Option" * 20 + "NamesItem"
    holder = _record("Holder", _field("value", ir.Ref(long_a)))
    types = _types(_record(long_a), _record(long_b), holder)
    named = long_names.shorten(types, {})
    renamed = dict(named.renamed)
    assert renamed[long_a] != renamed[long_b]
    for short in (renamed[long_a], renamed[long_b]):
        assert len(short) <= naming.SHORTENED_LENGTH and short.startswith("Workflow")
    assert renamed[long_a].removesuffix(renamed[long_a][-6:]).endswith("TypesItem")
    assert long_names.shorten(types, {}).renamed == named.renamed
    holder_after = _types(*named.types)["Holder"]
    assert isinstance(holder_after, ir.Record)
    assert holder_after.fields[0].type == ir.Ref(renamed[long_a])
    # one note for the module, at the first, naming what each became
    [(_, note)] = named.notes
    assert note.startswith("2 type names are longer than 100 characters and were shortened")
    assert all(repr(short) in note for short in (renamed[long_a], renamed[long_b]))
    single = long_names.shorten(_types(_record(long_a)), {})
    assert "is 137 characters: generated as" in single.notes[0][1]
    assert long_names.shorten(_types(holder), {}).renamed == ()


@pytest.mark.parametrize("name", ["a" * 200, "very_long_module_name_" * 5, "X" * 61, "AbcDef" * 30])
def test_shortened_names_fit_and_stay_identifiers(name: str) -> None:
    short = naming.shortened(name)
    assert len(short) <= naming.SHORTENED_LENGTH and short.isidentifier()
    assert short == naming.shortened(name)
