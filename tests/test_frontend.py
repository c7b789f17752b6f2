"""The front end reads schemas it does not own: every draft, every kind of `$ref`,
unknown keywords as annotations, located warnings for what it approximates, and the
strict mode that keeps refusing all of it for projects that own their schemas.

Each test writes a small project in a temporary directory, runs the real CLI
(`polytype.cli.main`), and, where it generates, decodes and re-encodes a value with
the generated dataclasses to prove the types it claims.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from polytype import ir
from polytype.cli import main
from polytype.compile import read_schema
from polytype.frontend.drafts import normalise

from .conftest import REPO, import_file


def _project(root: Path, files: dict[str, Any], settings: str = "") -> Path:
    (root / "schema").mkdir(parents=True)
    for name, content in files.items():
        path = root / "schema" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, indent=2)
        path.write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses", "docs"]\n' + settings,
        encoding="utf-8",
    )
    return root


def _generate(
    root: Path, capsys: pytest.CaptureFixture[str], *extra: str, schema: str | None = None
) -> tuple[int, str]:
    argv = ["--project", str(root), *extra, "generate"]
    if schema is not None:
        argv.append(str(root / "schema" / schema))
    code = main(argv)
    return code, capsys.readouterr().err


def _models(root: Path, module: str) -> ModuleType:
    path = root / "generated" / "python" / module / "dataclass_models.py"
    return import_file(path, f"frontend_{module}_{abs(hash(root))}")


def _round_trip(models: ModuleType, type_name: str, value: Any) -> Any:
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in type_name).lstrip("_")
    decoded = getattr(models, f"decode_{snake}")(value)
    return getattr(models, f"encode_{snake}")(decoded)


def test_unknown_keywords_are_annotations_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "Editor settings",
        "type": "object",
        "markdownDescription": "**bold**",
        "x-intellij-html-description": "<b>bold</b>",
        "properties": {"tabSize": {"type": "integer", "tsType": "number", "example": 4}},
    }
    root = _project(tmp_path, {"editor.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "warning" not in err  # annotations are not approximations
    value = {"tabSize": 4, "other": [1]}
    assert _round_trip(_models(root, "editor"), "EditorSettings", value) == value

    code, err = _generate(root, capsys, "--strict")
    assert code == 2
    assert "/markdownDescription: unknown keyword 'markdownDescription'" in err
    assert "/properties/tabSize/tsType" in err


def test_a_mistyped_polytype_key_is_still_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "A",
        "type": "object",
        "properties": {"b": {"type": "string", "x-feild": "c"}},
    }
    code, err = _generate(_project(tmp_path, {"a.json": schema}), capsys)
    assert code == 2
    assert "x-feild" in err and "did you mean 'x-field'" in err


def test_typed_assertions_on_an_untyped_schema_are_schema_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """uniqueItems and multipleOf are checked on arrays and numbers; on a schema with no
    type (free-form JSON) they are schema checks, which apply them where JSON Schema does."""
    text = (
        "title: Loose\n"
        "type: object\n"
        "properties:\n"
        "  tags: {uniqueItems: true}\n"
        "  size: {multipleOf: 4}\n"
        "  kept: {type: array, uniqueItems: true}\n"
        "  plain: {uniqueItems: false}\n"
    )
    root = _project(tmp_path, {"loose.yaml": text})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "warning" not in err
    read = read_schema(root / "schema" / "loose.yaml", "schema/loose.yaml", strict=False)
    found = {c.pointer: c.schema for c in ir.schema_checks(read.module)}
    assert found == {
        "/properties/tags": ir.FrozenJSONObject((("uniqueItems", True),)),
        "/properties/size": ir.FrozenJSONObject((("multipleOf", 4),)),
    }
    code, err = _generate(tmp_path, capsys, "--strict")  # exact: strict takes it too
    assert code == 0, err


def test_unenforced_assertions_are_located_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`unevaluatedItems`, `contains` and `not` are schema checks (enforced, no warning);
    what is still unenforced (`contentSchema`) is a located warning."""
    text = (
        "title: Tagged\n"
        "type: object\n"
        "properties:\n"
        "  tags:\n"
        "    type: array\n"
        "    prefixItems: [{type: string}]\n"
        "    unevaluatedItems: false\n"
        "    contains: {const: x}\n"
        "  size: {type: integer, not: {const: 4}}\n"
        "  body:\n"
        "    type: string\n"
        "    contentMediaType: application/json\n"
        "    contentSchema: {type: object}\n"
    )
    root = _project(tmp_path, {"tagged.yaml": text})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert (
        "schema/tagged.yaml:13:5: warning: /properties/body/contentSchema: "
        "'contentSchema' is not enforced" in err
    )
    assert "unevaluatedItems" not in err and "contains" not in err and "/not" not in err
    models = _models(root, "tagged")
    assert _round_trip(models, "Tagged", {"tags": ["x"]}) == {"tags": ["x"]}
    for bad, where in (
        ({"tags": ["x", "y"]}, r"\$\.tags: breaks 'unevaluatedItems' at /properties/tags"),
        ({"tags": ["y"]}, r"\$\.tags: breaks 'contains'"),
        ({"size": 4}, r"\$\.size: breaks 'not'"),
    ):
        with pytest.raises(models.DecodeError, match=where):
            models.decode_tagged(bad)
    code, err = _generate(root, capsys, "--strict")
    assert code == 2 and "'unevaluatedItems'" in err and "contains" not in err


def test_unevaluated_properties_beside_a_reference_see_what_it_evaluates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Arazzo's and OpenAPI 3.1's idiom: properties, a `$ref` to the `^x-` extensions
    and `unevaluatedProperties: false`, which only the whole schema object can judge."""
    schema = {
        "title": "Info",
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "required": ["title"],
        "$ref": "#/$defs/extensions",
        "unevaluatedProperties": False,
        "$defs": {"extensions": {"patternProperties": {"^x-": True}}},
    }
    root = _project(tmp_path, {"info.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "unevaluatedProperties" not in err
    models = _models(root, "info")
    for good in ({"title": "t"}, {"title": "t", "x-logo": {"url": "u"}}):
        assert _round_trip(models, "Info", good) == good
    with pytest.raises(models.DecodeError, match=r"^\$: breaks 'unevaluatedProperties' at /"):
        models.decode_info({"title": "t", "summary": "s"})


def test_every_kind_of_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = {
        "$id": "https://example.com/geo/common.json",
        "$defs": {
            "Point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
            },
            "Label": {"$anchor": "label", "type": "string", "minLength": 1},
        },
    }
    vendored = {"type": "object", "properties": {"unit": {"enum": ["m", "km"]}}}
    main_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "origin": {"$ref": "common.json#/$defs/Point"},
            "by_id": {"$ref": "https://example.com/geo/common.json#/$defs/Point"},
            "label": {"$ref": "https://example.com/geo/common.json#label"},
            "scale": {"$ref": "https://vendor.example/schemas/scale.json"},
            "children": {"type": "array", "items": {"$ref": "#"}},
            "size": {"type": "object", "properties": {"w": {"type": "integer", "minimum": 0}}},
            "also_size": {"$ref": "#/properties/size"},
        },
        "required": ["origin"],
    }
    root = _project(
        tmp_path,
        {"scene.json": main_schema, "common.json": common},
        '\n[tool.polytype.ref-map]\n"https://vendor.example/schemas/" = "vendor"\n',
    )
    (root / "vendor").mkdir()
    (root / "vendor" / "scale.json").write_text(json.dumps(vendored), encoding="utf-8")
    code, err = _generate(root, capsys, schema="scene.json")
    assert code == 0, err
    models = _models(root, "scene")
    # the titleless root is named after its file; references became named types
    for name in ("Scene", "Point", "Label", "Scale", "SceneSize"):
        assert hasattr(models, name) or hasattr(models, f"decode_{name.lower()}"), name
    value = {
        "origin": {"x": 1.5, "y": 2},
        "by_id": {"x": 0, "y": 0},
        "label": "home",
        "scale": {"unit": "km"},
        "children": [{"origin": {"x": 3, "y": 4}, "children": []}],
        "size": {"w": 3},
        "also_size": {"w": 4},
    }
    assert _round_trip(models, "Scene", value) == value
    with pytest.raises(models.DecodeError, match=r"\$\.children\[0\]\.origin"):
        models.decode_scene({"origin": {"x": 1, "y": 2}, "children": [{"origin": {"x": 1}}]})
    with pytest.raises(models.DecodeError, match=r"\$\.label"):
        models.decode_scene({"origin": {"x": 1, "y": 2}, "label": ""})


def test_an_unknown_absolute_url_is_a_located_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "Remote",
        "type": "object",
        "properties": {"thing": {"$ref": "https://nowhere.example/thing.json"}},
    }
    root = _project(tmp_path, {"remote.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "schema/remote.json:" in err and "/properties/thing/$ref: cannot resolve" in err
    assert "ref-map" in err
    value = {"thing": {"anything": [1, None]}}
    assert _round_trip(_models(root, "remote"), "Remote", value) == value


def test_draft_04_is_normalised() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "http://example.com/s.json",
        "definitions": {"N": {"type": "number", "minimum": 0, "exclusiveMinimum": True}},
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
            "a": {"type": "string"},
        },
        "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
    }
    result = normalise(schema, "draft-04").data
    assert result["$id"] == "http://example.com/s.json" and "id" not in result
    assert result["definitions"]["N"] == {"type": "number", "exclusiveMinimum": 0}
    assert result["properties"]["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "string"}],
        "items": False,
    }
    assert result["dependentRequired"] == {"a": ["b"]}
    assert result["dependentSchemas"] == {"c": {"required": ["d"]}}


def test_draft_07_ignores_keywords_beside_ref(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Config",
        "definitions": {
            "Name": {"type": "string"},
            "Level": {"type": "integer", "exclusiveMinimum": 0},
        },
        "type": "object",
        "properties": {
            "name": {"$ref": "#/definitions/Name", "type": "integer"},
            "level": {"$ref": "#/definitions/Level"},
        },
    }
    root = _project(tmp_path, {"settings.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "settings")
    value = {"name": "n", "level": 1}
    assert _round_trip(models, "Config", value) == value
    with pytest.raises(models.DecodeError, match=r"\$\.level"):
        models.decode_config({"level": 0})


def test_names_that_are_not_identifiers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = {
        "$defs": {
            "Vector2<number>": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            },
            "Holder": {"type": "object", "properties": {"v": {"$ref": "#/$defs/Vector2<number>"}}},
        }
    }
    root = _project(tmp_path, {"shapes.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "shapes")
    assert hasattr(models, "Vector2Number")
    value = {"v": {"x": 1, "y": 2}}
    assert _round_trip(models, "Holder", value) == value


def test_what_cannot_be_typed_becomes_free_form_json_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "Message",
        "type": "object",
        "properties": {
            "body": {
                "anyOf": [
                    {"type": "object", "properties": {"text": {"type": "string"}}},
                    {"type": "object", "properties": {"html": {"type": "string"}}},
                ]
            },
            "id": {"type": "string"},
            # its name, MessageMeta, is taken: it cannot be typed here
            "meta": {"type": "object", "properties": {"v": {"type": "integer"}}},
            # a const object is no longer free-form: checked by JSON equality (test_literals.py)
            "version": {"const": {"major": 1}},
        },
        "required": ["id"],
        "$defs": {"MessageMeta": {"type": "string"}},
    }
    root = _project(tmp_path, {"message.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "schema/message.json:" in err
    assert "/properties/meta: typed as free-form JSON (kept exactly, not checked)" in err
    assert "/properties/version" not in err
    # members nothing tells apart are no longer free-form: each is tried (tests/test_untagged_unions.py)
    assert "1 union whose members no tag, JSON type or required key tells apart" in err
    models = _models(root, "message")
    value = {
        "id": "1",
        "body": {"html": "<p>", "extra": [True, None]},
        "meta": {"any": 2},
        "version": {"major": 1.0},
    }
    assert _round_trip(models, "Message", value) == value
    with pytest.raises(models.DecodeError, match=r"\$\.version: expected \{\"major\": 1\}"):
        models.decode_message({"id": "1", "version": {"major": 2}})
    with pytest.raises(models.DecodeError, match=r"\$\.id"):
        models.decode_message({"id": 1})
    code, err = _generate(root, capsys, "--strict")
    assert code == 2 and "inline union options 1 and 2 are both JSON objects" in err


def test_strict_in_the_project_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = {
        "title": "A",
        "type": "object",
        "properties": {"b": {"type": "string"}},
        "tsType": "A",
    }
    root = _project(tmp_path, {"a.json": schema}, "strict = true\n")
    code, err = _generate(root, capsys)
    assert code == 2 and "unknown keyword 'tsType'" in err
    assert not (root / "generated").exists()


def test_the_shipped_schemas_read_the_same_either_way(tmp_path: Path) -> None:
    """The front end's passes change nothing in schemas written for polytype: without
    `strict`, the five shipped schemas generate byte-identical output and no warning."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "schema", root / "schema")
    shutil.copytree(REPO / "tests" / "fixtures", root / "tests" / "fixtures")
    (root / "pyproject.toml").write_text('[tool.polytype]\nschema-dir = "schema"\n', "utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "polytype", "generate"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    ours = {
        p.relative_to(root / "generated"): p.read_bytes()
        for p in (root / "generated").rglob("*")
        if p.is_file()
    }
    shipped = {
        p.relative_to(REPO / "generated"): p.read_bytes()
        for p in (REPO / "generated").rglob("*")
        if p.is_file() and not {"_build", "deps", "__pycache__"} & set(p.parts)
    }
    assert sorted(ours) == sorted(shipped)
    assert [path for path in ours if ours[path] != shipped[path]] == []


def test_all_of_with_a_base_becomes_one_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "$defs": {
            "Base": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "size": {"type": "integer", "minimum": 0}},
                "required": ["id"],
            },
            "Photo": {
                "allOf": [
                    {"$ref": "#/$defs/Base"},
                    {
                        "properties": {"size": {"maximum": 10}, "url": {"type": "string"}},
                        "required": ["url"],
                    },
                ]
            },
        }
    }
    root = _project(tmp_path, {"media.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "free-form" not in err
    models = _models(root, "media")
    assert [f for f in models.Photo.__dataclass_fields__ if not f.startswith("_")][:3] == [
        "id",
        "url",
        "size",
    ]
    value = {"id": "p", "url": "u", "size": 10}
    assert _round_trip(models, "Photo", value) == value
    for bad, where in (
        ({"id": "p"}, r"\$\.url"),
        ({"id": "p", "url": "u", "size": 11}, r"\$\.size"),
    ):
        with pytest.raises(models.DecodeError, match=where):
            models.decode_photo(bad)


def test_additional_properties_beside_all_of_applies_to_the_parts_properties(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """To the schema beside `allOf`, the parts' properties are additional: `foo` must be a
    boolean too, and `bar` (own property) need not be."""
    schema = {
        "title": "Flags",
        "allOf": [{"properties": {"foo": {}, "size": {"type": ["integer", "boolean"]}}}],
        "properties": {"bar": {"type": "integer"}},
        "additionalProperties": {"type": "boolean"},
    }
    root = _project(tmp_path, {"flags.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "flags")
    for good in ({"foo": True, "bar": 1}, {"size": False, "other": True}, {}):
        assert _round_trip(models, "Flags", good) == good
    for bad, where in (({"foo": 1}, r"\$\.foo"), ({"size": 1}, r"\$\.size"), ({"x": 1}, r"\$\.x")):
        with pytest.raises(models.DecodeError, match=where):
            models.decode_flags(bad)


def test_contradictory_all_of_parts_reject_every_value_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`allOf` parts that contradict each other make an unsatisfiable schema: every
    validator rejects every value, and so does the generated code (a located warning
    says so); a strict project refuses the schema."""
    text = (
        "$defs:\n"
        "  Impossible:\n"
        "    description: Nothing is both.\n"
        "    allOf:\n"
        "      - {type: string}\n"
        "      - {type: integer}\n"
        "  Holder:\n"
        "    type: object\n"
        "    properties:\n"
        "      never: {$ref: '#/$defs/Impossible'}\n"
        "      name: {type: string}\n"
    )
    root = _project(tmp_path, {"never.yaml": text})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "schema/never.yaml:4:5: warning: /$defs/Impossible/allOf: the parts contradict" in err
    models = _models(root, "never")
    assert _round_trip(models, "Holder", {"name": "n"}) == {"name": "n"}
    for value in ("s", 1, None, {}):
        with pytest.raises(ValueError, match=r"\$\.never"):
            _round_trip(models, "Holder", {"never": value})
    assert _generate(root, capsys, "--strict")[0] == 2


def test_inline_unions_are_named_after_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Keywords beside a union apply to every member; object members with a constant tag
    are named after it, and the union after the property that holds it."""
    schema = {
        "$defs": {
            "SamplingMessage": {
                "type": "object",
                "properties": {
                    "content": {
                        "type": "object",
                        "properties": {"annotations": {"type": "object"}},
                        "oneOf": [
                            {
                                "properties": {
                                    "type": {"const": "text"},
                                    "text": {"type": "string"},
                                },
                                "required": ["type", "text"],
                            },
                            {
                                "properties": {
                                    "type": {"const": "image"},
                                    "data": {"type": "string"},
                                },
                                "required": ["type", "data"],
                            },
                        ],
                    }
                },
                "required": ["content"],
            }
        }
    }
    root = _project(tmp_path, {"sampling.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "free-form" not in err
    models = _models(root, "sampling")
    assert {"SamplingMessageContentText", "SamplingMessageContentImage"} <= set(dir(models))
    value = {"content": {"type": "image", "data": "AA==", "annotations": {"a": 1}}}
    assert _round_trip(models, "SamplingMessage", value) == value
    assert isinstance(
        models.decode_sampling_message(value).content, models.SamplingMessageContentImage
    )
    with pytest.raises(models.DecodeError, match=r"\$\.content"):
        models.decode_sampling_message({"content": {"type": "audio"}})


def test_a_union_with_a_free_form_member_encodes_every_member(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A member typed as free-form JSON is checked last when encoding, so a record
    inside another member is still written as JSON (stylelint's rule values)."""
    schema = {
        "$defs": {
            "Options": {"type": "object", "properties": {"message": {"type": "string"}}},
            "Rule": {
                "type": ["null", "string", "array"],
                "oneOf": [
                    {"type": ["null", "string"]},
                    {
                        "type": "array",
                        "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Options"}]},
                    },
                ],
            },
        }
    }
    root = _project(tmp_path, {"lint.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "lint")
    for value in (None, "x", ["a", {"message": "m", "other": 1}]):
        assert _round_trip(models, "Rule", value) == value


@pytest.mark.parametrize(
    "module", ["ag_ui", "bedrock_swarm", "claude_code", "nano_agent", "search_agent"]
)
def test_the_passes_change_nothing_in_a_schema_written_for_polytype(module: str) -> None:
    """Run every front-end pass on a shipped schema (which `read_schema` would not need
    to): the IR equals strict lowering's, and nothing is approximated."""
    from polytype.frontend.bundle import bundle
    from polytype.frontend.generous import clean
    from polytype.frontend.shapes import reshape
    from polytype.lowering.approximate import lower_approximating
    from polytype.lowering.lower import lower
    from polytype.reading.loader import load

    document = load(REPO / "schema" / f"{module}.yaml", f"schema/{module}.yaml")
    bundled = bundle(document)
    cleaned = clean(bundled.document)
    reshaped = reshape(replace(bundled.document, data=cleaned.data))
    module_ir, approximated = lower_approximating(reshaped.document)
    assert not (bundled.warnings or cleaned.warnings or reshaped.warnings or approximated)
    assert module_ir == lower(document)
    assert [named.source for named in module_ir.types] == [
        named.source for named in lower(document).types
    ]


def test_enum_values_that_spell_alike_are_numbered_in_a_consumed_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "Zone",
        "type": "object",
        "properties": {"tz": {"enum": ["Etc/GMT+1", "Etc/GMT-1"]}},
    }
    root = _project(tmp_path, {"zone.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "free-form" not in err
    models = _models(root, "zone")
    assert [member.name for member in models.ZoneTz] == ["ETC_GMT_1", "ETC_GMT_1_2"]
    assert models.__doc__.startswith(
        "Zone\n\nDataclasses with"
    ), "a title alone, no empty paragraph"
    for value in ({"tz": "Etc/GMT+1"}, {"tz": "Etc/GMT-1"}):
        assert _round_trip(models, "Zone", value) == value
    code, err = _generate(root, capsys, "--strict")
    assert code == 2 and "both become the Python member ETC_GMT_1" in err


def test_keys_that_spell_the_same_field_are_numbered_in_a_consumed_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`user_id_2` is a key of its own, so the repeats of `user_id` skip that name."""
    keys = ["userId", "user_id", "user-id", "user_id_2", "foo\tbar", "foo\nbar"]
    schema = {
        "title": "Account",
        "type": "object",
        "properties": {key: {"type": "integer"} for key in keys},
        "required": keys,
    }
    root = _project(tmp_path, {"account.json": schema})
    root.joinpath("pyproject.toml").write_text(
        '[tool.polytype]\nschema-dir = "schema"\ntargets = ["dataclasses", "elixir"]\n',
        encoding="utf-8",
    )
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "account")
    assert list(models.Account.__dataclass_fields__)[:6] == [
        "user_id", "user_id_3", "user_id_4", "user_id_2", "foo_bar", "foo_bar_2"
    ]  # fmt: skip
    value = {key: number for number, key in enumerate(keys)}
    assert _round_trip(models, "Account", value) == value
    assert models.decode_account(value).user_id_4 == 2
    elixir = root / "generated" / "elixir" / "lib" / "account" / "account.ex"
    struct = elixir.read_text(encoding="utf-8")
    assert all(f":{name}" in struct for name in ("user_id_3", "user_id_4", "foo_bar_2"))
    code, err = _generate(root, capsys, "--strict")
    assert code == 2 and "both become the Python field 'user_id'" in err


def test_x_name_names_an_inline_union_and_its_members(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "title": "Event",
        "type": "object",
        "properties": {
            "payload": {
                "x-name": "Payload",
                "anyOf": [
                    {
                        "x-name": "Ping",
                        "type": "object",
                        "properties": {"ping": {"type": "integer"}},
                        "required": ["ping"],
                    },
                    {
                        "title": "pong reply",
                        "type": "object",
                        "properties": {"pong": {"type": "integer"}},
                        "required": ["pong"],
                    },
                ],
            }
        },
    }
    root = _project(tmp_path, {"event.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    models = _models(root, "event")
    assert {"Payload", "Ping", "PongReply"} <= set(dir(models))
    value = {"payload": {"pong": 2}}
    assert isinstance(models.decode_event(value).payload, models.PongReply)
    assert _round_trip(models, "Event", value) == value


def test_malformed_keyword_values_are_ignored_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mistakes validators shrug off (a description string among `properties`, a number
    where a list of schemas belongs, a `$ref` that is not a string, an `$id` that is not a
    URI) are warned about and ignored, never a crash."""
    schema = {
        "$id": "http://[broken",
        "title": "Sloppy",
        "type": "object",
        "properties": {"name": {"type": "string"}, "description": "the name"},
        "allOf": 5,
        "items": "nope",
        "additionalProperties": {"$ref": 3},
    }
    root = _project(tmp_path, {"sloppy.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert (
        "/properties/description: 'description' under 'properties' is not a schema; ignored" in err
    )
    assert "/allOf: 'allOf' must be a non-empty list of schemas; ignored" in err
    assert "/additionalProperties/$ref: '$ref' must be a string; ignored" in err
    value = {"name": "n", "description": 3}
    assert _round_trip(_models(root, "sloppy"), "Sloppy", value) == value


def test_malformed_annotations_and_types_are_ignored_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`description: null` (published schemas have it), a `title` that is a number and a
    `type` that names no JSON type (`[[], "object"]`, a fuzz find that crashed the front
    end) are each a located warning in a consumed schema: the rest of the schema still
    types, and a strict project still refuses them."""
    schema = {
        "title": "Loose",
        "description": None,
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": 7},
            "odd": {"type": [[], "object", "object"]},
        },
        "required": ["name"],
    }
    root = _project(tmp_path, {"loose.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "/description: 'description' must be a string; the annotation is ignored" in err
    assert "/properties/name/title: 'title' must be a string; the annotation is ignored" in err
    assert "/properties/odd/type: 'type' must be a type name or a list of them" in err
    models = _models(root, "loose")
    value = {"name": "n", "odd": [1, {"a": None}]}
    assert _round_trip(models, "Loose", value) == value
    with pytest.raises(ValueError, match=r"\$\.name: expected string"):
        _round_trip(models, "Loose", {"name": 1})
    assert _generate(root, capsys, "--strict")[0] == 2


ROOTS = {
    # a plain draft-07 root without a title: named after the file
    "untitled.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"$ref": "#/definitions/B"}},
        "required": ["a"],
        "definitions": {"B": {"type": "integer"}},
    },
    # a map root: an alias of a map
    "tool-map.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Tool Map",
        "type": "object",
        "additionalProperties": {"$ref": "#/definitions/tool"},
        "definitions": {"tool": {"type": "object", "properties": {"x": {"type": "number"}}}},
    },
    # draft-04: keywords beside $ref are ignored, but the definitions stay reachable
    "referring.schema.json": {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "title": "Referring Root",
        "type": "string",
        "$ref": "#/definitions/Config",
        "definitions": {"Config": {"type": "object", "properties": {"name": {"type": "string"}}}},
    },
    # free-form by its own schema: no root type
    "loose.json": {"definitions": {"X": {"type": "string"}}},
    # a pointer into a definition's own keys (not a keyword): every validator resolves it
    "nested-ref.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Nested Ref",
        "$ref": "#/definitions/a1/full",
        "definitions": {
            "a1": {
                "full": {
                    "type": "object",
                    "properties": {"v": {"$ref": "#/definitions/b2/full"}},
                    "required": ["v"],
                }
            },
            "b2": {"full": {"type": "string", "minLength": 1}},
        },
    },
    # an object or null: the record under a name of its own, the root an alias of it or null
    "nullable-root.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Nullable Root",
        "type": ["object", "null"],
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": False,
    },
}


@pytest.mark.parametrize(
    ("file", "root", "value"),
    [
        ("untitled.json", "Untitled", {"a": "x", "b": 2}),
        ("tool-map.json", "ToolMap", {"t": {"x": 1.5}, "u": {}}),
        ("nested-ref.json", "NestedRef", {"v": "x"}),
        ("nullable-root.json", "NullableRoot", {"a": 1}),
        ("nullable-root.json", "NullableRoot", None),
        ("referring.schema.json", "ReferringRoot", {"name": "n"}),
        ("loose.json", None, None),
    ],
)
def test_the_root_is_a_type_whenever_it_describes_a_value(
    tmp_path: Path, file: str, root: str | None, value: Any
) -> None:
    """The root is a type (named by its title, else the file) and the module's root,
    whether it is a record without a title, a map, or a `$ref` beside definitions in
    draft-04 (where every validator resolves the pointer); a root that says nothing
    about the value has no type, and the module says so."""
    path = tmp_path / file
    path.write_text(json.dumps(ROOTS[file]), encoding="utf-8")
    read = read_schema(path, file, strict=False)
    assert read.module.root == root
    assert ("no type here is the module's root" in read.module.doc) == (root is None)
    assert not any("cannot resolve" in warning.message for warning in read.warnings)
    assert not any("free-form" in warning.message for warning in read.warnings)
    if root is not None:
        assert read.module.get(root) != ir.Alias(root, ir.AnyJSON()), "typed"
        project = _project(tmp_path / "project", {file: ROOTS[file]})
        assert main(["--project", str(project), "generate"]) == 0
        module = read.module.name
        models = _models(project, module)
        assert _round_trip(models, root, value) == value
        with pytest.raises(models.DecodeError):
            _round_trip(models, root, [])


def test_unsafe_module_names_from_file_names_are_made_safe_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A consumed schema named like a keyword, a standard-library module or an Elixir
    module (`global.json`, `mimetypes.json`, `task.json`) generates as `<name>_schema`
    (Elixir `TaskSchema`), with a warning each; a strict project refuses them."""
    record = {"type": "object", "properties": {"a": {"type": "string"}}}
    files = {
        f"{name}.json": {"title": "Thing", **record} for name in ("global", "mimetypes", "task")
    }
    root = _project(tmp_path, files)
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "module name 'global' (from the file name) is a Python keyword" in err
    assert "generated as 'mimetypes_schema'" in err
    assert "the Elixir namespace 'Task' (from the module name) is Elixir's own module" in err
    python = root / "generated" / "python"
    assert {path.name for path in python.iterdir()} >= {"global_schema", "mimetypes_schema", "task"}
    value = {"a": "x"}
    assert _round_trip(_models(root, "global_schema"), "Thing", value) == value
    assert _generate(root, capsys, "--strict")[0] == 2


def test_union_members_are_named_by_the_key_that_tells_them_apart(tmp_path: Path) -> None:
    """A member with no title and no tag is named by the one key it alone requires (or
    declares), before falling back to its position."""
    schema = {
        "title": "Workflow",
        "type": "object",
        "properties": {
            "on": {
                "oneOf": [
                    {"type": "object", "properties": {"schedule": {}}, "required": ["schedule"]},
                    {"type": "object", "properties": {"push": {"type": "object"}}},
                    {"type": "object", "required": ["a", "b"]},
                    {"type": "string"},
                ]
            }
        },
    }
    path = tmp_path / "wf.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    names = [named.name for named in read_schema(path, "wf.json", strict=False).module.types]
    assert {"WorkflowOnSchedule", "WorkflowOnPush", "WorkflowOnOption3", "WorkflowOnString"} <= set(
        names
    )


def test_null_defaults_that_change_nothing_are_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`default: null` where null does not fit changes no decoding or encoding when
    dropped: one line per module says how many, while any other wrong default keeps a
    located warning of its own."""
    properties = {name: {"type": "string", "default": None} for name in "abcde"}
    properties["f"] = {"type": "string", "default": 5}
    root = _project(
        tmp_path, {"nd.json": {"title": "C", "type": "object", "properties": properties}}
    )
    code, err = _generate(root, capsys)
    assert code == 0, err
    warnings = [line for line in err.splitlines() if ": warning: " in line]
    assert len(warnings) == 2, err
    assert "5 `default: null` ignored where null does not fit the schema" in warnings[0]
    assert "/properties/a/default, /properties/b/default, /properties/c/default and 2 more" in err
    assert "/properties/f/default: default ignored: default does not match" in err
    assert _round_trip(_models(root, "nd"), "C", {}) == {}


def test_malformed_examples_are_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`examples` that are not a list (`examples: "Yes"`) are documentation gone wrong:
    dropping them changes no decoding or encoding, so the module gets one line."""
    properties = {name: {"type": "string", "examples": "Yes"} for name in "abcd"}
    root = _project(
        tmp_path, {"ex.json": {"title": "E", "type": "object", "properties": properties}}
    )
    code, err = _generate(root, capsys)
    assert code == 0, err
    [warning] = [line for line in err.splitlines() if ": warning: " in line]
    assert warning.startswith("schema/ex.json:1:1: warning: /: 4 `examples` ignored"), err
    assert warning.endswith(
        "/properties/a/examples, /properties/b/examples, /properties/c/examples and 1 more"
    )
    assert _round_trip(_models(root, "ex"), "E", {"a": "x"}) == {"a": "x"}


def test_diff_reads_consumed_schemas_as_generate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`polytype diff` on two versions of a published schema (vendor keywords and all)
    compares them instead of refusing the keywords; a strict project still refuses."""
    old = {
        "title": "Conf",
        "type": "object",
        "tsType": "Conf",
        "properties": {"a": {"type": "string"}},
    }
    new = {**old, "properties": {"a": {"type": "integer"}}}
    root = _project(tmp_path, {"v1/conf.json": old, "v2/conf.json": new})
    argv = [
        "--project",
        str(root),
        "diff",
        str(root / "schema/v1/conf.json"),
        str(root / "schema/v2/conf.json"),
    ]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "FIELD_TYPE_CHANGED" in out and "Conf.a: string → integer" in out, out
    assert "1 breaking change(s)" in out
    assert main(["--strict", *argv]) == 2
    assert "unknown keyword 'tsType'" in capsys.readouterr().err


def test_all_of_with_one_reference_is_that_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """glTF writes `"sparse": {"allOf": [{"$ref": "accessor.sparse.schema.json"}],
    "description": ...}`: the property is the referenced type, not a copy of it named
    after the property (which used to collide with the type itself)."""
    schema = {
        "title": "Accessor",
        "type": "object",
        "properties": {
            "sparse": {"allOf": [{"$ref": "#/$defs/AccessorSparse"}], "description": "Sparse."}
        },
        "$defs": {
            "AccessorSparse": {
                "type": "object",
                "properties": {"count": {"type": "integer", "minimum": 1}},
                "required": ["count"],
            }
        },
    }
    root = _project(tmp_path, {"accessor.json": schema})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "warning" not in err
    models = _models(root, "accessor")
    assert models.Accessor.__dataclass_fields__["sparse"].type == "AccessorSparse | None"
    value = {"sparse": {"count": 2}}
    assert _round_trip(models, "Accessor", value) == value
    with pytest.raises(models.DecodeError, match=r"\$\.sparse\.count"):
        models.decode_accessor({"sparse": {"count": 0}})


def test_a_type_list_with_object_keywords_is_a_union_by_json_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The meta-schemas say `type: [object, boolean]` beside `properties` for "a schema",
    and combine seven such vocabularies with `allOf`: each is a union of a record and a
    boolean, and their `allOf` is one union again (the object parts merged, the boolean
    parts merged, the mixed combinations accepting nothing)."""
    text = (
        "title: Meta\n"
        "allOf:\n"
        "  - {$ref: '#/$defs/Core'}\n"
        "  - {$ref: '#/$defs/Validation'}\n"
        "type: [object, boolean]\n"
        "$defs:\n"
        "  Core:\n"
        "    type: [object, boolean]\n"
        "    properties:\n"
        "      $id: {type: string}\n"
        "  Validation:\n"
        "    type: [object, boolean]\n"
        "    properties:\n"
        "      minLength: {type: integer, minimum: 0}\n"
        "      schema: {$ref: '#/$defs/Core'}\n"
    )
    root = _project(tmp_path, {"meta.yaml": text})
    code, err = _generate(root, capsys)
    assert code == 0, err
    assert "free-form" not in err
    models = _models(root, "meta")
    assert {"CoreObject", "CoreBoolean", "MetaObject", "MetaBoolean"} <= set(models.__all__)
    for value in (True, {"$id": "x", "minLength": 2, "schema": False}, {"schema": {"$id": "y"}}):
        assert _round_trip(models, "Meta", value) == value
    for bad, where in (
        (3, r"\$"),
        ({"minLength": -1}, r"\$\.minLength"),
        ({"schema": "no"}, r"\$\.schema"),
    ):
        with pytest.raises(models.DecodeError, match=where):
            models.decode_meta(bad)


def test_a_reference_to_an_id_inside_a_file_beside(tmp_path: Path) -> None:
    """bowtie's matrix refers to `tag:…:implementation:version`, the `$id` of a property
    schema inside `models/implementation.json`: the files beside the schema are scanned for
    the `$id`s inside them too, and the reference takes that subschema, not the file."""
    (tmp_path / "models").mkdir()
    model = {
        "$id": "tag:example,2024:models:implementation",
        "type": "object",
        "properties": {
            "version": {
                "$id": "tag:example,2024:models:implementation:version",
                "type": "string",
                "minLength": 1,
            }
        },
    }
    (tmp_path / "models" / "implementation.json").write_text(json.dumps(model), encoding="utf-8")
    matrix = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Matrix",
        "type": "array",
        "items": {"$ref": "tag:example,2024:models:implementation:version"},
    }
    (tmp_path / "matrix.json").write_text(json.dumps(matrix), encoding="utf-8")
    # the file's own URL mapped (as the corpus maps bowtie's) or not: the same subschema
    mapped = {"tag:example,2024:models:implementation": tmp_path / "models" / "implementation.json"}
    for ref_map in ({}, mapped):
        read = read_schema(tmp_path / "matrix.json", "matrix.json", strict=False, ref_map=ref_map)
        assert read.warnings == ()
        matrix_type = read.module.get("Matrix")
        assert isinstance(matrix_type, ir.Alias) and isinstance(matrix_type.type, ir.ListOf)
        item = matrix_type.type.item
        assert isinstance(item, ir.Ref)
        version = read.module.get(item.name)
        assert isinstance(version, ir.Alias)
        assert version.type == ir.Prim("str", ir.Constraints(min_length=1))
