"""Exit 0 means it builds, on catalogue shapes (issue 31): schema shapes found by the
SchemaStore catalogue's slices (`python -m tests.schemastore --slice N/M`) whose output
mypy --strict or the Elixir compiler rejected, each reproduced on a small schema.

All cases are the modules of one project (`strict = false`, as a consumed schema is
generated), generated once; every Python flavor is type-checked by one mypy --strict run
and imported, and the behaviour each fix is about is checked.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from polytype.cli import main
from polytype.ir.json_types import freeze_json
from polytype.targets.elixir.terms import ex_json_literal
from pydantic import TypeAdapter, ValidationError

from .conftest import import_file

SCHEMAS = {
    "free_json_defaults": """\
description: >-
  A container default of a field typed as free-form JSON (Pydantic's `JsonValue`): its
  literal's inferred type (`dict[str, str]`) is not the field's, which is invariant.
title: Settings
type: object
properties:
  headings: {type: object, default: {Age: "[Age](https://example.com)", Rank: top}}
  columns: {type: array, default: [name, 1, {wide: true}]}
  maybe: {type: [object, "null"], default: {a: [b]}}
  anything: {default: {nested: [x, {y: 1}]}}
  empty: {type: object, default: {}}
""",
    "container_definitions": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  Schemas kept in containers under definitions (`definitions/fixture/full`, `full` no
  keyword): the draft-07 `dependencies` there were not read as `dependentSchemas`, and
  were silently not checked.
type: object
properties:
  elements: {type: array, items: {$ref: "#/definitions/element/full"}}
definitions:
  element:
    full:
      oneOf: [{$ref: "#/definitions/case/full"}, {$ref: "#/definitions/fixture/full"}]
  case:
    full:
      type: object
      required: [case]
      additionalProperties: false
      properties: {case: {type: string}}
  fixture:
    full:
      type: object
      required: [fixture]
      additionalProperties: false
      properties: {fixture: {type: string}, before: {type: string}, after: {type: string}}
      dependencies:
        before: {allOf: [{not: {required: [after]}}]}
        after: {allOf: [{not: {required: [before]}}]}
""",
    "narrowed_union_property": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  An object whose property is a nullable union, narrowed by each `anyOf` member of the
  object to one value (`const`): the narrowing was kept beside the union, where it would
  be ignored, so the property became free-form JSON and accepted anything.
title: Option
type: object
properties:
  kind:
    anyOf:
      - {const: text}
      - {const: number}
      - {type: string, pattern: "^[A-Z][a-zA-Z]*$"}
      - {type: array, items: {const: text}}
      - {type: "null"}
  value: {}
anyOf:
  - properties: {kind: {const: text}, value: {type: string}}
  - properties: {kind: {const: number}, value: {type: number}}
  - properties: {kind: {type: string, pattern: "^[A-Z][a-zA-Z]*$"}, value: {type: object}}
""",
    "documented_enum": """\
description: >-
  An enum whose values are documented by a oneOf of consts: each member was the enum
  and its const together, the decoder read the enum, and every value matched both
  members of a oneOf (exactly one must), so no value decoded.
title: Stack
type: object
properties:
  server:
    type: string
    enum: [system, local]
    oneOf:
      - {const: system, description: The system's server.}
      - {const: local, description: A server of its own.}
      - {const: remote, description: Not among the enum values, so it matches nothing.}
""",
    "refs_into_item_lists": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  References into a draft-07 array-form `items` (`options/items/0`), which polytype reads
  as 2020-12 `prefixItems`: they pointed nowhere, became free-form JSON, and a oneOf of
  the list and its first item then matched a number twice.
title: Rule
type: object
definitions:
  options:
    type: array
    items: [{type: number, minimum: 1}, {type: string, enum: [exclude]}]
    additionalItems: false
properties:
  options:
    oneOf: [{$ref: "#/definitions/options"}, {$ref: "#/definitions/options/items/0"}]
  first: {$ref: "#/definitions/options/items/0"}
""",
    "shared_tag": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  A oneOf whose members both get `version: "4"` from beside it: the first member took
  `version = "4"` as its tag, so every document decoded as that member.
title: Manifest
type: object
properties: {version: {const: "4"}}
required: [version]
oneOf:
  - {$ref: "#/definitions/Mini"}
  - {$ref: "#/definitions/Full"}
definitions:
  Mini:
    type: object
    properties: {detached: {type: string}}
    required: [detached]
  Full:
    type: object
    properties: {steps: {type: array, items: {type: string}}}
    required: [steps]
""",
    "bookkeeping_names": """\
description: >-
  Properties named like the dataclass decoder's own locals (`present` decoded into
  `f_present`, the set of keys present): the set overwrote the field, which mypy
  rejected and which wrote the set back as the property.
title: Rule
type: object
properties:
  present: {type: boolean, default: true}
  extra: {type: string}
  level: {enum: [error, warning], default: error}
""",
    "number_list_defaults": """\
description: >-
  Container defaults whose items are a union (a JSON number is `int | float`, a nullable
  string): Pydantic's factory is a union of callables, so mypy inferred `[1]` alone as
  `list[int]`, which is not the field's `list[int | float]` (invariant).
title: Icon
type: object
properties:
  scale: {type: array, items: {type: number}, default: [1, 2.5]}
  labels: {type: array, items: {type: [string, "null"]}, default: [a]}
  sizes: {type: object, additionalProperties: {type: number}, default: {small: 1}}
""",
    "look_alike_members": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  A number, a string or a named union of two arrays, one holding an object: the Elixir
  encoder told the union's members apart by their patterns (both lists), kept the first,
  whose items encode as themselves, and wrote the object back as a struct.
title: Rules
type: object
properties:
  quotes:
    oneOf:
      - {type: integer}
      - {type: string}
      - $ref: "#/definitions/quoted"
definitions:
  quoted:
    oneOf:
      - type: array
        items: [{type: string}, {enum: [single, double]}]
        additionalItems: false
        minItems: 2
      - type: array
        items:
          - {type: string}
          - {enum: [single, double]}
          - {type: object, properties: {avoidEscape: {type: boolean}}, additionalProperties: false}
        additionalItems: false
        minItems: 3
""",
    "manager_aliases": """\
$schema: http://json-schema.org/draft-07/schema#
description: >-
  A recursive configuration whose keys are named definitions that are only the
  configuration again (`ansible: {$ref: "#"}`, as each package manager's section of a
  bot's configuration is): the TypedDict keys named those aliases, and mypy, which walks
  every path of aliases through the TypedDicts a recursive alias reaches, took time
  exponential in their number.
title: Config
type: object
properties:
  name: {type: string}
  ansible: {$ref: "#/definitions/ansible"}
  cargo: {$ref: "#/definitions/cargo"}
  npm: {$ref: "#/definitions/npm"}
  pip: {$ref: "#/definitions/pip"}
  rules: {type: array, items: {$ref: "#/definitions/npm"}}
definitions:
  ansible: {$ref: "#", description: The Ansible manager's settings.}
  cargo: {$ref: "#", description: The Cargo manager's settings.}
  npm: {$ref: "#/definitions/ansible", description: The npm manager's settings.}
  pip: {$ref: "#/definitions/cargo"}
""",
    "null_items": """\
description: >-
  Lists whose items can only be null (a linter's ignored warnings): the dataclass
  decoder called a `-> None` item decoder in a comprehension, which mypy refuses
  (func-returns-value).
title: Lint
type: object
required: [seen]
properties:
  seen: {type: array, items: {type: "null"}}
  ignored: {type: array, items: {type: "null"}}
  blanks: {type: array, items: {enum: [null]}}
""",
    "nul_pattern": """\
description: >-
  A pattern holding a NUL character (a path with no NUL in it): PCRE reads a pattern as
  a C string, so the Elixir module's Regex.compile! stopped at the NUL and the module
  did not compile.
title: Paths
type: object
patternProperties:
  "^.+$": {type: string, pattern: "^(/)?([^/\\0]+(/)?)+$"}
""",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("catalogue-build")
    (root / "schema").mkdir()
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\nstrict = false\n', encoding="utf-8"
    )
    for name, text in SCHEMAS.items():
        (root / "schema" / f"{name}.yaml").write_text(text, encoding="utf-8")
    assert main(["--project", str(root), "generate"]) == 0
    return root


def test_every_python_flavor_type_checks(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *SCHEMAS],
        cwd=project / "generated" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_free_json_defaults_are_the_documented_values(project: Path) -> None:
    folder = project / "generated" / "python" / "free_json_defaults"
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_free_json_pydantic")
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_free_json_dc")
    for built in (pydantic.Settings(), dataclasses.Settings()):
        assert built.headings == {"Age": "[Age](https://example.com)", "Rank": "top"}
        assert built.columns == ["name", 1, {"wide": True}]
        assert built.maybe == {"a": ["b"]} and built.anything == {"nested": ["x", {"y": 1}]}
        assert built.empty == {}
    first, second = pydantic.Settings(), pydantic.Settings()
    first.headings["Age"] = "changed"
    assert second.headings["Age"] != "changed"  # each instance has its own copy


def test_dependencies_in_definition_containers_are_checked(project: Path) -> None:
    folder = project / "generated" / "python" / "container_definitions"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_containers_dc")
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_containers_pd")
    both = {"elements": [{"fixture": "f", "before": "x", "after": "y"}]}
    one = {"elements": [{"fixture": "f", "before": "x"}]}
    decode = dataclasses.decode_container_definitions
    with pytest.raises(dataclasses.DecodeError, match="dependentSchemas"):
        decode(both)
    assert dataclasses.encode_container_definitions(decode(one)) == one
    with pytest.raises(ValidationError):
        pydantic.ContainerDefinitions.model_validate(both)
    assert (
        pydantic.ContainerDefinitions.model_validate(one).model_dump(
            mode="json", by_alias=True, exclude_unset=True
        )
        == one
    )


def test_a_union_property_narrowed_by_object_members_is_checked(project: Path) -> None:
    folder = project / "generated" / "python" / "narrowed_union_property"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_narrowed_dc")
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_narrowed_pd")
    good = [
        {"kind": "text", "value": "a"},
        {"kind": "number", "value": 2},
        {"kind": "Named", "value": {}},
    ]
    bad = [{"kind": "lowercase"}, {"kind": "text", "value": 2}, {"kind": ["text"]}]
    for document in good:
        decoded = dataclasses.decode_option(document)
        assert dataclasses.encode_option(decoded) == document
        adapter = TypeAdapter(pydantic.Option)
        dumped = adapter.validate_python(document)
        assert adapter.dump_python(dumped, mode="json", by_alias=True, exclude_unset=True) == (
            document
        )
    for document in bad:
        with pytest.raises(dataclasses.DecodeError):
            dataclasses.decode_option(document)
        with pytest.raises(ValidationError):
            TypeAdapter(pydantic.Option).validate_python(document)


def test_an_enum_documented_by_a_one_of_of_consts_decodes(project: Path) -> None:
    folder = project / "generated" / "python" / "documented_enum"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_enum_dc")
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_enum_pd")
    for document in ({"server": "system"}, {"server": "local"}):
        assert dataclasses.encode_stack(dataclasses.decode_stack(document)) == document
        built = pydantic.Stack.model_validate(document)
        assert built.model_dump(mode="json", by_alias=True, exclude_unset=True) == document
    for document in ({"server": "remote"}, {"server": "other"}):
        with pytest.raises(dataclasses.DecodeError):
            dataclasses.decode_stack(document)
        with pytest.raises(ValidationError):
            pydantic.Stack.model_validate(document)


def test_references_into_an_array_form_items_resolve(project: Path) -> None:
    folder = project / "generated" / "python" / "refs_into_item_lists"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_items_dc")
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_items_pd")
    for document in ({"options": 3}, {"options": [3, "exclude"]}, {"first": 2}):
        assert dataclasses.encode_rule(dataclasses.decode_rule(document)) == document
        built = pydantic.Rule.model_validate(document)
        assert built.model_dump(mode="json", by_alias=True, exclude_unset=True) == document
    for document in ({"options": 0}, {"first": "x"}, {"options": [3, "other"]}):
        with pytest.raises(dataclasses.DecodeError):
            dataclasses.decode_rule(document)
        with pytest.raises(ValidationError):
            pydantic.Rule.model_validate(document)


def test_a_key_value_every_member_has_is_no_tag(project: Path) -> None:
    folder = project / "generated" / "python" / "shared_tag"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_tag_dc")
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_tag_pd")
    adapter = TypeAdapter(pydantic.Manifest)
    for document in ({"version": "4", "detached": "a"}, {"version": "4", "steps": ["x"]}):
        assert dataclasses.encode_manifest(dataclasses.decode_manifest(document)) == document
        built = adapter.validate_python(document)
        assert adapter.dump_python(built, mode="json", by_alias=True, exclude_unset=True) == (
            document
        )
    for document in ({"version": "3", "steps": []}, {"version": "4"}):
        with pytest.raises(dataclasses.DecodeError):
            dataclasses.decode_manifest(document)
        with pytest.raises(ValidationError):
            adapter.validate_python(document)


def test_properties_named_like_decoder_locals_round_trip(project: Path) -> None:
    folder = project / "generated" / "python" / "bookkeeping_names"
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_locals_dc")
    for document in (
        {"level": "warning"},
        {"present": False, "extra": "x"},
        {"present": True, "other": 1},
    ):
        decoded = dataclasses.decode_rule(document)
        assert dataclasses.encode_rule(decoded) == document
    assert dataclasses.decode_rule({"level": "warning"}).present is True


def test_number_list_defaults_are_the_documented_values(project: Path) -> None:
    folder = project / "generated" / "python" / "number_list_defaults"
    pydantic = import_file(folder / "pydantic_models.py", "catalogue_build_numbers_pd")
    dataclasses = import_file(folder / "dataclass_models.py", "catalogue_build_numbers_dc")
    for built in (pydantic.Icon(), dataclasses.Icon()):
        assert built.scale == [1, 2.5] and built.labels == ["a"] and built.sizes == {"small": 1}


needs_elixir = pytest.mark.skipif(shutil.which("elixirc") is None, reason="elixir is not installed")


@needs_elixir
def test_elixir_compiles_and_encodes_look_alike_members(project: Path, tmp_path: Path) -> None:
    lib = project / "generated" / "elixir" / "lib"
    sources = sorted(str(path) for path in lib.rglob("*.ex"))
    compiled = subprocess.run(
        ["elixirc", "--warnings-as-errors", "-o", str(tmp_path), *sources],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    documents = [
        {"quotes": 2},
        {"quotes": ["error", "single"]},
        {"quotes": ["error", "double", {"avoidEscape": True}]},
    ]
    lines = [
        "IO.puts(to_string(LookAlikeMembers.Rules.to_json("
        f"LookAlikeMembers.Rules.from_json!({ex_json_literal(freeze_json(document))})) === "
        f"{ex_json_literal(freeze_json(document))}))"
        for document in documents
    ]
    run = subprocess.run(
        ["elixir", "-pa", str(tmp_path), "-e", "\n".join(lines)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["true"] * len(documents)


def test_typed_dict_keys_name_what_a_renaming_alias_stands_for(project: Path) -> None:
    folder = project / "generated" / "python" / "manager_aliases"
    text = (folder / "typed_dicts.py").read_text(encoding="utf-8")
    for key in ("ansible", "cargo", "npm", "pip"):
        assert f'    {key}: NotRequired["Config"]' in text
    assert 'rules: NotRequired["list[Config]"]' in text
    assert "Npm: TypeAlias = Ansible" in text  # the aliases themselves stay
    typed_dicts = import_file(folder / "typed_dicts.py", "catalogue_build_aliases_td")
    document = {"name": "a", "npm": {"pip": {"name": "b"}}, "rules": [{"cargo": {}}]}
    assert typed_dicts.validate_config(document) == document
    with pytest.raises(typed_dicts.DecodeError):
        typed_dicts.validate_config({"npm": {"pip": {"name": 1}}})


def test_lists_of_nulls_decode_and_refuse_other_items(project: Path) -> None:
    folder = project / "generated" / "python" / "null_items"
    models = import_file(folder / "dataclass_models.py", "catalogue_build_null_items_dc")
    document = {"seen": [None, None], "ignored": [], "blanks": [None]}
    assert models.decode_lint(document).to_dict() == document
    with pytest.raises(models.DecodeError, match=r"\$\.seen\[1\]"):
        models.decode_lint({"seen": [None, 1]})
    with pytest.raises(models.DecodeError, match=r"\$\.ignored\[0\]"):
        models.decode_lint({"seen": [], "ignored": ["x"]})


def test_a_pattern_holding_a_nul_checks_strings(project: Path) -> None:
    schema = (project / "schema" / "nul_pattern.yaml").read_text(encoding="utf-8")
    assert "\\0" in schema  # YAML's escape: the pattern itself holds the NUL
    folder = project / "generated" / "python" / "nul_pattern"
    models = import_file(folder / "dataclass_models.py", "catalogue_build_nul_pattern_dc")
    assert models.decode_paths({"src": "a/b/"}) == {"src": "a/b/"}  # a map of paths
    with pytest.raises(models.DecodeError, match=r"\$\.src"):
        models.decode_paths({"src": "a\0b"})
