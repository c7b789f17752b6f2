"""Read a consumed schema generously: annotations ignored, unenforced assertions warned.

JSON Schema says a keyword it does not define is an annotation, so a published
schema's `markdownDescription`, `tsType` or `x-intellij-html-description` is dropped
here without a word. Two exceptions keep typos visible: a key that looks like one of
polytype's own `x-` keys (`x-feild`) stays, for the dialect check to answer with
"did you mean", and in a strict project nothing here runs at all.

Assertion keywords no generated decoder enforces (`contentSchema`, object rules on a
schema that is not an object) are dropped with a located warning: the types stay exact,
and the warning says which values would be accepted that the schema rejects. `not`,
`if`/`then`/`else`, `dependentSchemas` and `contains` become schema checks
(`polytype.frontend.checks`), as written; `unevaluatedProperties`/`unevaluatedItems`
a check of the whole schema object that holds them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from polytype.diagnostics import Diagnostic, join_pointer, json_type_name
from polytype.dialect.keywords import (
    COUNTED_ON_MAPS,
    MAP_RULES,
    RULE_KEYWORDS,
    counts_entries,
    known_keywords,
    pattern_problem,
    untyped_assertions,
)
from polytype.frontend import checks
from polytype.frontend.drafts import SCHEMA_LISTS, SCHEMA_MAPS, SINGLE_SCHEMA
from polytype.reading.loader import Document

# Every keyword of JSON Schema 2020-12 (older drafts are normalised to it first).
JSON_SCHEMA_KEYWORDS = frozenset(
    {
        "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$defs",
        "$comment", "$vocabulary", "definitions", "allOf", "anyOf", "oneOf", "not", "if",
        "then", "else", "dependentSchemas", "prefixItems", "items", "contains", "properties",
        "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "type", "enum", "const", "multipleOf", "maximum",
        "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
        "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
        "maxProperties", "minProperties", "required", "dependentRequired", "title",
        "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
        "format", "contentEncoding", "contentMediaType", "contentSchema",
    }
)  # fmt: skip

# Assertions the generated decoders do not enforce yet, and what that lets through.
UNENFORCED = {
    "minProperties": "objects with too few keys",
    "maxProperties": "objects with too many keys",
    "propertyNames": "objects whose keys break the rule",
    "patternProperties": "keys matching a pattern whose values break its schema",
    "dependentRequired": "objects missing a dependent key",
    "unevaluatedItems": "arrays with unevaluated items",
    "unevaluatedProperties": "objects with unevaluated keys",
    "contentSchema": "encoded content that breaks its schema",
}


# The object keywords the decoders check beside a record's properties (`ir.ObjectRules`).
RECORD_RULES = frozenset(RULE_KEYWORDS) - {"patternProperties", "additionalProperties"}


@dataclass(frozen=True)
class Cleaned:
    data: Any
    warnings: tuple[Diagnostic, ...]


def clean(document: Document) -> Cleaned:
    """The bundled document's data with annotations dropped and unenforced assertions
    removed (each warned about, at the place it was written)."""
    cleaner = _Cleaner(document, _polytype_keys())
    data = cleaner.schema(document.data, "", root=True)
    return Cleaned(data, tuple(cleaner.warnings))


def _polytype_keys() -> frozenset[str]:
    return frozenset(key for key in known_keywords() if key.startswith("x-")) | {"x-polytype"}


@dataclass
class _Cleaner:
    document: Document
    polytype_keys: frozenset[str]
    warnings: list[Diagnostic] = field(default_factory=list)

    def schema(self, node: Any, pointer: str, root: bool = False) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        late: dict[str, Any] = {}
        dependent: dict[str, Any] = {}  # dependentSchemas entries checked as schemas
        on_record = isinstance(node.get("properties"), dict)  # its object rules are checked
        for key, value in node.items():
            here = join_pointer(pointer, key)
            if key.startswith("x-"):
                if key in self.polytype_keys or _looks_like(key, self.polytype_keys):
                    out[key] = value
            elif key not in JSON_SCHEMA_KEYWORDS and not (key == "nullable" and value is True):
                continue  # an annotation JSON Schema does not define
            elif key in UNENFORCED and _trivial(key, value):
                continue  # asserts nothing
            elif (
                key == "patternProperties"
                and (on_record or counts_entries(node))
                and isinstance(value, dict)
            ):
                out[key] = self._checked_patterns(value, here)  # an object's rules: checked
            elif key in ("not", "if", "then", "else", *checks.CONTAINS_KEYWORDS):
                continue  # a schema check (below), as written
            elif key == "dependentSchemas" and isinstance(value, dict):
                if on_record or counts_entries(node):
                    late.update(self._dependent_schemas(node, value, dependent))
                else:
                    dependent.update(value)
            elif key in RECORD_RULES and (on_record or key in MAP_RULES and counts_entries(node)):
                out[key] = self.schema(value, here) if key == "propertyNames" else value
            elif key in COUNTED_ON_MAPS and counts_entries(node):
                out[key] = value  # a map's (or free-form object's) entries: checked
            elif key in UNENFORCED:
                replacement = self._unenforced(node, key, value, here)
                if replacement is not None:
                    late.update(replacement)
            elif key == "pattern" and isinstance(value, str) and pattern_problem(value):
                self.warnings.append(
                    self.document.warning(
                        here,
                        f"pattern {value!r} is not checked ({pattern_problem(value)}); "
                        "strings that break it are accepted",
                    )
                )
            elif key in SINGLE_SCHEMA:
                out[key] = self.schema(value, here)
            elif key in SCHEMA_LISTS and isinstance(value, list):
                out[key] = [
                    self.schema(item, join_pointer(here, index)) for index, item in enumerate(value)
                ]
            elif key in SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {
                    name: self.schema(child, join_pointer(here, name))
                    for name, child in value.items()
                }
            else:
                out[key] = value
        out.update(late)  # replacements win over what the schema says beside them
        self._declare_required(out)
        entries = [checks.fragment(node, dependent, self._written(pointer))]
        if self._reads_unevaluated(node):
            entries.append(checks.unevaluated(node, self._written(pointer)))
        # moved here as well as in lowering: a schema made only of checks merges into
        # any allOf part and moves into any union member
        loose = untyped_assertions(out)
        if loose:
            out = {key: value for key, value in out.items() if key not in loose}
            entries.append(
                {"schema": loose, "keywords": list(loose), "pointer": self._written(pointer)}
            )
        found = [entry for entry in entries if entry is not None]
        if found:
            out[checks.CHECKS_KEY] = checks.merged(out.get(checks.CHECKS_KEY), found)
        _drop_impossible_enum_values(out)
        return out

    @staticmethod
    def _reads_unevaluated(node: dict[str, Any]) -> bool:
        """Whether `node`'s `unevaluatedProperties`/`unevaluatedItems` assert something
        that `additionalProperties` cannot say instead (see `_unenforced`)."""
        items = node.get("unevaluatedItems", True)
        keys = node.get("unevaluatedProperties", True)
        return not _trivial("unevaluatedItems", items) or not (
            _trivial("unevaluatedProperties", keys) or keys is False and _alone(node)
        )

    def _unenforced(
        self, node: dict[str, Any], key: str, value: Any, pointer: str
    ) -> dict[str, Any] | None:
        if key == "unevaluatedProperties" and value is False and _alone(node):
            return {"additionalProperties": False}  # the same thing without applicators
        if key in checks.UNEVALUATED_KEYWORDS:
            return None  # a schema check of the whole schema object (`schema`)
        if key == "patternProperties" and isinstance(value, dict):
            return self._pattern_properties(node, value, pointer)
        self.warnings.append(
            self.document.warning(
                pointer,
                f"{key!r} is not enforced by the generated decoders: they accept "
                f"{UNENFORCED[key]} (the types and the round trip are exact)",
            )
        )
        return None

    def _pattern_properties(
        self, node: dict[str, Any], patterns: dict[str, Any], pointer: str
    ) -> dict[str, Any]:
        """Keys matching a pattern are not "additional": with one pattern and nothing else
        allowed, the object is a map of that pattern's schema (the key pattern unchecked);
        otherwise additionalProperties no longer applies to every unknown key, so it goes."""
        additional = node.get("additionalProperties", True)
        if len(patterns) == 1 and additional is False and not node.get("properties"):
            [(pattern, schema)] = patterns.items()
            self.warnings.append(
                self.document.warning(
                    pointer,
                    f"keys are not checked against the pattern {pattern!r}: any key is "
                    "accepted, with a value of the pattern's schema",
                )
            )
            return {"additionalProperties": self.schema(schema, join_pointer(pointer, pattern))}
        self.warnings.append(
            self.document.warning(
                pointer,
                "'patternProperties' is not enforced by the generated decoders: keys that "
                "match a pattern are kept as free-form JSON"
                + (", and additionalProperties is not checked" if additional is not True else ""),
            )
        )
        return {"additionalProperties": True} if additional is not True else {}

    def _dependent_schemas(
        self, node: dict[str, Any], schemas: dict[str, Any], dependent: dict[str, Any]
    ) -> dict[str, Any]:
        """A dependent schema that only requires keys is a `dependentRequired` entry (an
        object rule); any other goes into `dependent`, for the node's schema check."""
        required = dict(node.get("dependentRequired") or {})
        for key, schema in schemas.items():
            keys = _required_only(schema)
            if keys is not None:
                required[key] = list(dict.fromkeys([*required.get(key, []), *keys]))
            else:
                dependent[key] = schema
        return {"dependentRequired": required} if required else {}

    def _written(self, pointer: str) -> str:
        """Where the schema at `pointer` was written: its pointer, after the file's name
        when another file holds it."""
        file, _, written = self.document.locate(pointer)
        return written if file == self.document.display_path else f"{file}#{written}"

    def _checked_patterns(self, patterns: dict[str, Any], pointer: str) -> dict[str, Any]:
        """An object's patternProperties, less the patterns Elixir's engine cannot run."""
        kept: dict[str, Any] = {}
        for pattern, schema in patterns.items():
            here = join_pointer(pointer, pattern)
            problem = pattern_problem(pattern)
            if problem:
                self.warnings.append(
                    self.document.warning(
                        here,
                        f"pattern {pattern!r} is not checked ({problem}); keys matching it "
                        "are kept as free-form JSON",
                    )
                )
                continue
            kept[pattern] = self.schema(schema, here)
        return kept

    @staticmethod
    def _declare_required(out: dict[str, Any]) -> None:
        """`required` keys without `properties` are keys of any value: declare them so."""
        required = out.get("required")
        kinds = out.get("type", "object")
        if (
            not isinstance(required, list)
            or any(key in out for key in ("$ref", "oneOf", "anyOf", "allOf"))
            or "object" not in (kinds if isinstance(kinds, list) else [kinds])
        ):
            return
        properties = out.get("properties")
        if properties is None:
            properties = out["properties"] = {}
        if isinstance(properties, dict):
            for key in required:
                if isinstance(key, str):
                    properties.setdefault(key, {})


# The keywords of `UNENFORCED` whose value is a schema: `true` or `{}` there asserts nothing.
_SCHEMA_VALUED = frozenset(
    {"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
)


def _drop_impossible_enum_values(out: dict[str, Any]) -> None:
    """`enum` values of a JSON type that `type` excludes can never match: not values."""
    values, declared = out.get("enum"), out.get("type")
    if not isinstance(values, list) or declared is None:
        return
    kinds = declared if isinstance(declared, list) else [declared]
    allowed = {kind for kind in kinds if isinstance(kind, str)}
    if "number" in allowed:
        allowed.add("integer")
    possible = [value for value in values if _json_type(value) in allowed]
    if possible and len(possible) != len(values):
        out["enum"] = possible


def _json_type(value: Any) -> str:
    """The JSON type of `value`, where `1.0` is an integer (as JSON Schema counts it)."""
    if isinstance(value, float) and value.is_integer():
        return "integer"
    return json_type_name(value)


def _trivial(key: str, value: Any) -> bool:
    """Assertions of `UNENFORCED` that assert nothing (`propertyNames: {}`, ...)."""
    if key == "minProperties":
        return bool(value == 0) and not isinstance(value, bool)
    if key in _SCHEMA_VALUED:
        return value is True or bool(value == {})
    if key in ("patternProperties", "dependentRequired"):
        return bool(value == {})
    return False


def _required_only(schema: Any) -> list[str] | None:
    """The keys a schema requires when requiring them is all it asserts (`true`: none)."""
    if schema is True:
        return []
    if not isinstance(schema, dict):
        return None
    keys = schema.get("required", [])
    rest = set(schema) - {"required"} - _ANNOTATIONS
    if rest or not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        return None
    return keys


_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "deprecated"})


def _alone(node: dict[str, Any]) -> bool:
    """Whether nothing beside `unevaluatedProperties` evaluates keys but `properties`
    (so that it says what `additionalProperties` would), on a schema that is an object
    (without `properties` or `type: object` it says nothing about other JSON values)."""
    if not isinstance(node.get("properties"), dict) and node.get("type") != "object":
        return False
    return not any(
        key in node
        for key in (
            "allOf",
            "anyOf",
            "oneOf",
            "$ref",
            "$dynamicRef",
            "if",
            "dependentSchemas",
            "additionalProperties",
            "patternProperties",
        )
    )


def _looks_like(key: str, known: frozenset[str]) -> bool:
    return bool(difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.8))
