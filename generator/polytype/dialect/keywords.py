"""The keyword tables of the dialect and the walk over a document's schemas: what each JSON
Schema keyword is to polytype (annotation, assertion, a check no type carries), read by
the front end, validation and lowering alike. Nothing here validates or lowers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from polytype import naming
from polytype.diagnostics import join_pointer
from polytype.ir.patterns import pcre_problem, python_pattern
from polytype.package_data import dialect_schema_text

DEFINITION_KEYS = ("$defs", "definitions")


# Keywords the meta-schema accepts (they are JSON Schema) but no generated decoder
# enforces: a schema using them would accept data the decoders reject, or the
# other way round, so they are refused rather than silently ignored.
UNSUPPORTED_KEYWORDS = {
    "allOf": "combine the schemas into one",
    "not": "",
    "if": "",
    "then": "",
    "else": "",
    "patternProperties": "",
    "contains": "",
    "minProperties": "",
    "maxProperties": "",
    "dependentRequired": "",
    "propertyNames": "",
    "unevaluatedProperties": "use additionalProperties",
}


# Counts the decoders check on a map or a free-form object, not (yet) on a record.
COUNTED_ON_MAPS = frozenset({"minProperties", "maxProperties"})


# Object keywords the decoders check beside a record's properties (`ir.ObjectRules`).
CHECKED_ON_RECORDS = frozenset(
    {
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "minProperties",
        "maxProperties",
    }
)


# ... and on a map or a free-form object.
CHECKED_ON_MAPS = frozenset({"propertyNames", "dependentRequired", "patternProperties"})


def pattern_problem(pattern: str) -> str:
    """Why a pattern (`pattern`, a `patternProperties` key) cannot be checked by every
    flavor: Python's `re` cannot read it, or PCRE cannot run it ("" when it can)."""
    try:
        re.compile(python_pattern(pattern))
    except re.error as error:
        return f"Python's re cannot read it ({error})"
    return pcre_problem(pattern) or ""


def counts_entries(schema: dict[str, Any]) -> bool:
    """Whether `schema` is an object without declared properties (a map, or free-form),
    whose `minProperties`/`maxProperties` the decoders check."""
    declared = schema.get("type")
    return (
        declared in ("object", ["object"])
        and "properties" not in schema
        and (schema.get("additionalProperties") is not False or "patternProperties" in schema)
    )


# Keywords that only annotate: they never change what a schema accepts.
ANNOTATIONS = frozenset(
    {
        "$comment", "description", "title", "default", "examples", "deprecated", "readOnly",
        "writeOnly", "$schema", "$id", "$anchor", "$defs", "definitions", "format",
        "contentMediaType", "contentEncoding",
    }
)  # fmt: skip


# What may stand beside `$ref`: annotations, `nullable` and the x- vocabulary.
# Anything else would be ignored by lowering, which only follows the reference.
REF_SIBLINGS = ANNOTATIONS | {"$ref", "nullable"}


# Beside `oneOf`/`anyOf` likewise: the union is the whole type.
UNION_SIBLINGS = ANNOTATIONS | {"oneOf", "anyOf", "nullable"}


@lru_cache(maxsize=1)
def dialect_schema() -> dict[str, Any]:
    """The dialect meta-schema shipped inside the package."""
    text = dialect_schema_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def known_keywords() -> list[str]:
    return sorted(dialect_schema()["$defs"]["schema"]["properties"])


def walk_schemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in a document (by pointer), children after parents.

    Descends only into keywords whose values are schemas, so a property
    named `$ref` or a `default` holding a dict is not mistaken for a schema.
    (A loop over a stack, not recursion: large documents are walked several times.)
    """
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        pointer, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield pointer, node
        children: list[tuple[str, Any]] = []
        for keyword in ("$defs", "definitions", "properties", "patternProperties"):
            group = node.get(keyword)
            if isinstance(group, dict):
                base = join_pointer(pointer, keyword)
                children.extend((join_pointer(base, name), child) for name, child in group.items())
        for keyword in _SCHEMA_KEYWORDS:
            child = node.get(keyword)
            if isinstance(child, dict):
                children.append((join_pointer(pointer, keyword), child))
        for keyword in ("oneOf", "anyOf", "allOf", "prefixItems"):
            group = node.get(keyword)
            if isinstance(group, list):
                base = join_pointer(pointer, keyword)
                children.extend(
                    (join_pointer(base, index), child) for index, child in enumerate(group)
                )
        stack.extend(reversed(children))


_SCHEMA_KEYWORDS = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
)


def resolve_pointer(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer (RFC 6901), or None when it does not exist."""
    if pointer == "":
        return data
    if not pointer.startswith("/"):
        return None
    node = data
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


# The key the front end writes on a schema whose checks it moved (a list of entries
# `{"schema": fragment, "keywords": [...], "pointer": where}`).
CHECKS_KEY = "x-polytype-checks"


# Assertions on one JSON type's values; a type carries them when lowering gives it that
# JSON type (object keywords have rules of their own, `ir.ObjectRules`).
TYPED_ASSERTIONS = (
    "minLength", "maxLength", "pattern",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems", "uniqueItems",
)  # fmt: skip


def implied_type(schema: dict[str, Any]) -> str | None:
    """The JSON type the keywords of a schema without `type` belong to, where lowering
    types it so: `object` for a record's (`properties`, `additionalProperties: false`),
    `array` for `items`/`prefixItems`; None for any other schema. Such a schema accepts
    every value of another JSON type too (`lowering.untyped`)."""
    if "properties" in schema or (
        schema.get("additionalProperties") is False and not schema.get("patternProperties")
    ):
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    return None


# Keywords that give a schema without `type` a type of its own (lowering: a record, an
# array, a union, a reference) which rejects every other JSON type.
_TYPE_GIVING = ("type", "$ref", "allOf", "anyOf", "oneOf", "properties", "items", "prefixItems")


def untyped_assertions(
    schema: dict[str, Any], formats: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The assertions of a schema that lowering types as free-form JSON or as a list of
    values (`{minimum: 2}`, `{enum: [1, 5], minimum: 2}`): no type carries them, so they
    are a check, which applies them where JSON Schema does. `format` is one when it
    names one of `formats` (the module's asserted formats)."""
    if any(key in schema for key in _TYPE_GIVING) or schema.get("additionalProperties") is False:
        return {}
    found = {
        key: schema[key]
        for key in TYPED_ASSERTIONS
        if key in schema and not (key == "uniqueItems" and schema[key] is False)
    }
    if schema.get("format") in formats:
        found["format"] = schema["format"]
    return found


# The keywords that make rules, for the front end and the strict check.
RULE_KEYWORDS = (
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "dependentRequired",
    "minProperties",
    "maxProperties",
)


# The keywords that make rules on a map or a free-form object.
MAP_RULES = ("propertyNames", "dependentRequired")


def defs_refs(value: Any) -> Any:
    """`value` with `#/definitions/Name` references written `#/$defs/Name`, the one form
    checks resolve."""
    if isinstance(value, list):
        return [defs_refs(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: defs_refs(item) for key, item in value.items()}
    ref = value.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/definitions/"):
        out["$ref"] = "#/$defs/" + ref.removeprefix("#/definitions/")
    return out


# Keys of a document's root that say nothing about the value the root describes.
DOCUMENT_KEYS = frozenset(
    {"$schema", "$id", "id", "$defs", "definitions", "title", "description", "$comment",
     "x-polytype", "$vocabulary", "$anchor", "$dynamicAnchor", "$recursiveAnchor"}
)  # fmt: skip


def says_something(root: dict[str, Any]) -> bool:
    """Whether a document's root describes a value (beyond definitions and annotations):
    then the root is a type of its own (`{}` beside `$defs` is free-form JSON, no type)."""
    return any(key not in DOCUMENT_KEYS and not key.startswith("x-") for key in root)


def root_type_name(root: dict[str, Any], path: PurePath) -> str:
    """The root type's name: its `title`, else the file's name before its first dot
    (`github-workflow.json` → `GithubWorkflow`), in PascalCase."""
    title = root.get("title")
    text = title if isinstance(title, str) and title.strip() else path.name.split(".")[0]
    return naming.pascal_case(text)


# Root keys that mark an API description, not a JSON Schema: (key, what the file is,
# where its schemas are).
API_DESCRIPTIONS = (
    ("openapi", "an OpenAPI description", "#/components/schemas/"),
    ("swagger", "a Swagger (OpenAPI 2) description", "#/definitions/"),
    ("asyncapi", "an AsyncAPI description", "#/components/schemas/"),
)


def api_description(data: Any) -> tuple[str, str, str] | None:
    """(root key, what it is, where its schemas are) when `data` is an API description
    rather than a schema: a
    root `openapi`/`swagger`/`asyncapi` version string beside the description's own
    sections. A JSON Schema would read every one of its keys as an unknown keyword."""
    if not isinstance(data, dict):
        return None
    sections = {"info", "paths", "components", "channels", "definitions", "webhooks"}
    for key, what, schemas in API_DESCRIPTIONS:
        if isinstance(data.get(key), str) and sections & set(data):
            return key, what, schemas
    return None


def matching_nothing(pointer: str, keyword: str = "false", **annotations: Any) -> dict[str, Any]:
    """A schema that no value passes, said as a check at `pointer` (`breaks 'false' at
    /$defs/Never`): the definition `false`, or `allOf` parts that contradict each other.
    `annotations` (`description`, ...) are kept beside it."""
    entry = {"schema": {"not": {}}, "keywords": [keyword], "pointer": pointer}
    return {**annotations, CHECKS_KEY: [entry]}
