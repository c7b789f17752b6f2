"""Lower a validated schema document into the IR.

This is where schema shapes get their meaning: records, enums, unions,
aliases, hoisted inline types, tags, defaults, names. Structural problems the
meta-schema cannot see (ambiguous unions, colliding names, recursion that never
terminates, defaults of the wrong type) are collected as located diagnostics.
"""

from __future__ import annotations

import hashlib
import keyword
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import jsonschema

from generator import ir, naming, unions
from generator.diagnostics import Diagnostic, InputError, join_pointer
from generator.loader import Document
from generator.object_rules import map_rules, object_rules, pattern_map, rename_rules

_PRIMITIVES: dict[str, ir.PrimKind] = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
}
_CONSTRAINT_KEYS = {
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minimum": "minimum",
    "maximum": "maximum",
    "exclusiveMinimum": "exclusive_minimum",
    "exclusiveMaximum": "exclusive_maximum",
    "minItems": "min_items",
    "maxItems": "max_items",
    "minProperties": "min_properties",
    "maxProperties": "max_properties",
    "uniqueItems": "unique_items",
    "multipleOf": "multiple_of",
}


# How many aliases and unions may stand between a use of a type and a concrete shape.
MAX_REFERENCE_CHAIN = 64

# Packages a module's generated package must not shadow when generated/python is on the
# path: what the generated code and its tests import (Pydantic and what Pydantic imports,
# pytest), and polytype itself. The standard library is checked through sys.
IMPORTED_PACKAGES = frozenset(
    {
        "pydantic", "pydantic_core", "typing_extensions", "annotated_types",
        "typing_inspection", "pytest", "_pytest", "pluggy", "iniconfig", "packaging",
        "generator", "polytype",
    }
)  # fmt: skip

# The longest atom the BEAM can create, in characters (struct keys, atom enums, string consts).


def lower(
    document: Document, unknown_tags: ir.UnknownPolicy = "reject", generous: bool = False
) -> ir.Module:
    """Build the IR module for a validated document, or raise ``InputError``.

    `unknown_tags` is the project's default for tagged unions without `x-unknown`.
    `generous` (a schema the project does not own): enum values whose Python members
    or Elixir atoms would collide are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`) instead of
    refused, and unions whose members nothing tells apart try each member (see
    `lower_generously` for the warnings that says so).
    """
    return lower_generously(document, unknown_tags, generous=generous)[0]


def lower_generously(
    document: Document,
    unknown_tags: ir.UnknownPolicy = "reject",
    approximated: frozenset[str] = frozenset(),
    generous: bool = True,
) -> tuple[ir.Module, tuple[tuple[str, str], ...]]:
    """`lower`, and the (pointer, message) of each warning about what was lowered with a
    weaker guarantee than the schema's types (generous mode only). `approximated`: the
    schemas the front end typed as free-form JSON (they match more than the schema says)."""
    lowering = _Lowering(
        document, unknown_tags=unknown_tags, generous=generous, approximated=approximated
    )
    try:
        return lowering.run(), tuple(lowering.warnings)
    except RecursionError:
        raise InputError(
            [
                document.diagnostic(
                    "",
                    "the definitions refer to each other too deeply to generate "
                    f"(more than {MAX_REFERENCE_CHAIN} levels of aliases and unions?)",
                )
            ]
        ) from None


def json_type_of(
    type_ref: ir.TypeRef,
    module_types: dict[str, ir.NamedType],
    seen: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """The JSON types a value of `type_ref` can have (`number` includes integers).

    A named type already being looked at (`seen`: a cycle of aliases and unions,
    which lowering reports) contributes nothing.
    """
    if isinstance(type_ref, ir.Prim):
        return frozenset(
            {
                "string": ["string"],
                "int": ["integer"],
                "float": ["number", "integer"],
                "bool": ["boolean"],
            }[_json_name(type_ref.kind)]
        )
    if isinstance(type_ref, ir.ListOf):
        return frozenset({"array"})
    if isinstance(type_ref, ir.MapOf):
        return frozenset({"object"})
    if isinstance(type_ref, ir.LiteralValue):
        return frozenset({_literal_json_type(type_ref.value)})
    if isinstance(type_ref, ir.Nullable):
        return json_type_of(type_ref.inner, module_types, seen) | {"null"}
    if isinstance(type_ref, ir.AnyJSON):
        return (
            frozenset({"object"})
            if type_ref.object_only
            else frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
        )
    if isinstance(type_ref, ir.InlineUnion):
        return frozenset().union(
            *(json_type_of(option, module_types, seen) for option in type_ref.options)
        )
    named = module_types.get(type_ref.name)
    if named is None or type_ref.name in seen:
        return frozenset()
    if isinstance(named, ir.Record):
        return frozenset({"object"})
    if isinstance(named, ir.EnumType):
        return frozenset({"string"})
    inner_seen = seen | {type_ref.name}
    if isinstance(named, ir.Alias):
        return json_type_of(named.type, module_types, inner_seen)
    return frozenset().union(
        *(json_type_of(ir.Ref(member), module_types, inner_seen) for member in named.members)
    )


def _json_name(kind: ir.PrimKind) -> str:
    return {"str": "string", "int": "int", "float": "float", "bool": "bool"}[kind]


def _literal_json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "string"


def freeze_json(value: Any) -> ir.JSONData:
    """Turn parsed JSON into the IR's immutable JSON representation."""
    if isinstance(value, dict):
        return ir.FrozenJSONObject(tuple((key, freeze_json(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(freeze_json(item) for item in value)
    return value  # type: ignore[no-any-return]


@dataclass
class _Lowering:
    document: Document
    generous: bool = False
    problems: list[Diagnostic] = field(default_factory=list)
    # name -> lowered type, in output order (definition order, hoisted types after their parent)
    types: dict[str, ir.NamedType] = field(default_factory=dict)
    pointers: dict[str, str] = field(default_factory=dict)
    definitions: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    unknown_tags: ir.UnknownPolicy = "reject"
    # generous mode: (pointer, message) of what was lowered with a weaker guarantee
    warnings: list[tuple[str, str]] = field(default_factory=list)
    # generous mode: the schemas typed as free-form JSON by the front end
    approximated: frozenset[str] = frozenset()

    # -- entry ---------------------------------------------------------------

    def run(self) -> ir.Module:
        data = self.document.data
        options = data.get("x-polytype", {})
        stem = self.document.path.stem
        module_name = options.get("module") or naming.snake_case(stem)
        namespace = options.get("elixir-namespace") or naming.pascal_case(module_name)
        if "module" not in options and not naming.ascii_identifier(stem).strip("_"):
            self._problem(
                "",
                f"cannot derive a module name from the file name {self.document.path.name!r}; "
                "set x-polytype: {module: ...}",
            )
        else:
            self._check_module_name(module_name, "module" in options)
        self._collect_definitions()
        # a snapshot: lowering hoists inline types into `definitions` (already lowered there)
        for name, (pointer, schema) in list(self.definitions.items()):
            if name not in self.types:
                self._lower_named(name, schema, pointer, namespace)
        self._check_names()
        cyclic = self._check_chains()
        self._check_termination(cyclic)
        root = options.get("root")
        if root is not None and root not in self.types:
            self._problem(join_pointer("/x-polytype", "root"), f"root type {root!r} is not defined")
        if self.problems:
            raise InputError(self.problems)
        renamed = self._python_names()
        self._check_elixir_names(module_name, namespace, options)
        self._check_lengths(module_name, "module" in options)
        if self.problems:
            raise InputError(self.problems)
        if root is not None:
            root = renamed.get(root, root)
        return ir.Module(
            name=module_name,
            title=str(options.get("title") or data.get("title") or module_name),
            doc=_doc(data),
            schema_path=self.document.display_path,
            schema_sha256=hashlib.sha256(self.document.text.encode("utf-8")).hexdigest(),
            elixir_namespace=namespace,
            types=tuple(self.types.values()),
            root=root,
        )

    def _problem(self, pointer: str, message: str) -> None:
        self.problems.append(self.document.diagnostic(pointer, message))

    def _check_module_name(self, module_name: str, explicit: bool) -> None:
        where = "/x-polytype/module" if explicit else ""
        origin = "" if explicit else " (from the file name; set x-polytype: {module: ...})"
        if not module_name.isidentifier() or not module_name.isascii():
            self._problem(where, f"module name {module_name!r} is not an identifier{origin}")
        elif keyword.iskeyword(module_name) or keyword.issoftkeyword(module_name):
            self._problem(
                where,
                f"module name {module_name!r} is a Python keyword and could not be imported{origin}",
            )
        elif module_name in sys.stdlib_module_names:
            self._problem(
                where,
                f"module name {module_name!r} would shadow the standard library module "
                f"{module_name!r}{origin}",
            )
        elif module_name in IMPORTED_PACKAGES:
            self._problem(
                where,
                f"module name {module_name!r} would shadow the package {module_name!r}, which "
                f"the generated code, its tests or polytype itself import{origin}",
            )

    def _collect_definitions(self) -> None:
        data = self.document.data
        for key in ("$defs", "definitions"):
            for name, schema in (data.get(key) or {}).items():
                pointer = join_pointer(f"/{key}", name)
                if not naming.ascii_identifier(name) == name or not name or name[0].isdigit():
                    self._problem(
                        pointer,
                        f"type name {name!r} is not an identifier (letters, digits and _ only)",
                    )
                    continue
                if name in self.definitions:
                    self._problem(
                        pointer, f"type {name!r} is defined in both $defs and definitions"
                    )
                    continue
                self.definitions[name] = (pointer, schema if isinstance(schema, dict) else {})
        if "properties" in data and data.get("title"):
            name = naming.pascal_case(str(data["title"]))
            if name in self.definitions:
                self._problem(
                    "/title",
                    f"the top-level type {name!r} (from the title) collides with a definition",
                )
            else:
                self.definitions[name] = ("", data)

    # -- named types ---------------------------------------------------------

    def _lower_named(self, name: str, schema: dict[str, Any], pointer: str, namespace: str) -> None:
        source = self._source(pointer)
        doc = _doc(schema)
        notes = str(schema.get("x-notes", ""))
        elixir_module = (schema.get("x-elixir") or {}).get(
            "module"
        ) or f"{namespace}.{naming.elixir_module_segment(name)}"
        self.pointers[name] = pointer
        options = _union_options(schema)
        if (
            options is not None
            and options
            and all(isinstance(option, dict) and "$ref" in option for option in options)
        ):
            # register first so members can refer back (recursive unions)
            self.types[name] = ir.UnionType(
                name, (), doc=doc, notes=notes, elixir_module=elixir_module, source=source
            )
            self.types[name] = self._lower_union(
                name, schema, pointer, options, doc, notes, elixir_module, source
            )
            return
        enum_values = schema.get("enum")
        if (
            isinstance(enum_values, list)
            and all(isinstance(v, str) for v in enum_values)
            and len(enum_values) > 1
        ):
            self.types[name] = self._lower_enum(
                name, schema, pointer, doc, notes, elixir_module, source
            )
            return
        if _is_record_schema(schema) and _types_of(schema) <= {"object"}:
            self.types[name] = ir.Record(
                name, (), source=source
            )  # placeholder keeps definition order
            self.types[name] = self._lower_record(
                name, schema, pointer, doc, notes, elixir_module, source
            )
            return
        self.types[name] = ir.Alias(name, ir.AnyJSON(), source=source)
        self.types[name] = ir.Alias(
            name,
            self._lower_type(schema, pointer, name),
            doc=doc,
            notes=notes,
            elixir_module=elixir_module,
            source=source,
        )

    def _source(self, pointer: str) -> ir.SourceRef:
        file, position, written = self.document.locate(pointer)
        return ir.SourceRef(file, position.line, position.column, written)

    def _lower_enum(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        doc: str,
        notes: str,
        elixir_module: str,
        source: ir.SourceRef,
    ) -> ir.EnumType:
        values: list[ir.EnumValue] = []
        seen_py: dict[str, str] = {}
        seen_atoms: dict[str, str] = {}
        for index, value in enumerate(schema["enum"]):
            py_name = naming.python_enum_member(value)
            atom = naming.elixir_atom(value)
            where = join_pointer(join_pointer(pointer, "enum"), index)
            if value in (v.value for v in values):
                self._problem(where, f"enum value {value!r} is listed twice")
                continue
            if self.generous:
                py_name = _numbered(py_name, seen_py)
                atom = _numbered(atom, seen_atoms)
            if py_name in seen_py:
                self._problem(
                    where,
                    f"enum values {seen_py[py_name]!r} and {value!r} both become the Python member {py_name}",
                )
            if atom in seen_atoms:
                self._problem(
                    where,
                    f"enum values {seen_atoms[atom]!r} and {value!r} both become the Elixir atom :{atom}",
                )
            seen_py[py_name] = value
            seen_atoms[atom] = value
            values.append(ir.EnumValue(value, py_name, atom))
        python = schema.get("x-python") or {}
        elixir = schema.get("x-elixir") or {}
        return ir.EnumType(
            name,
            tuple(values),
            style=python.get("enum-base", "str"),
            atoms=bool(elixir.get("atoms", False)),
            doc=doc,
            notes=notes,
            elixir_module=elixir_module,
            source=source,
        )

    def _lower_record(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        doc: str,
        notes: str,
        elixir_module: str,
        source: ir.SourceRef,
    ) -> ir.Record:
        required = set(schema.get("required", []))
        properties: dict[str, Any] = schema.get("properties") or {}
        frozen = bool(schema.get("x-frozen", False))
        fields: list[ir.Field] = []
        for key in required - set(properties):
            self._problem(
                join_pointer(pointer, "required"),
                f"required key {key!r} is not among the properties",
            )
        for key, property_schema in properties.items():
            where = join_pointer(join_pointer(pointer, "properties"), key)
            if property_schema is False:
                self._problem(
                    where,
                    "a property whose schema is false can never be present; remove it "
                    "(additionalProperties: false forbids unknown keys)",
                )
                continue
            if not isinstance(property_schema, dict):
                property_schema = {}
            fields.append(
                self._lower_field(name, key, property_schema, where, key in required, frozen)
            )
        self._check_field_names(fields, pointer)
        rules = object_rules(schema, pointer, name, self._lower_type)
        if schema.get("additionalProperties") is False and not rules.closed:
            extra_policy: ir.ExtraPolicy = "forbid"
        else:
            extra_policy = "ignore" if schema.get("x-extra") == "ignore" else "keep"
        methods = (schema.get("x-python") or {}).get("methods")
        return ir.Record(
            name,
            tuple(fields),
            frozen=frozen,
            extra_policy=extra_policy,
            rules=rules,
            doc=doc,
            notes=notes,
            methods=methods,
            elixir_module=elixir_module,
            source=source,
        )

    def _lower_field(
        self,
        owner: str,
        key: str,
        schema: dict[str, Any],
        pointer: str,
        required: bool,
        frozen: bool,
    ) -> ir.Field:
        hoist_name = owner + naming.pascal_case(key)
        type_ref = self._lower_type(schema, pointer, hoist_name)
        python = schema.get("x-python") or {}
        if python.get("sequence") == "tuple":
            inner = type_ref.inner if isinstance(type_ref, ir.Nullable) else type_ref
            if not isinstance(inner, ir.ListOf):
                self._problem(
                    join_pointer(pointer, "x-python"),
                    "sequence: tuple applies to array properties only",
                )
            elif not frozen:
                self._problem(
                    join_pointer(pointer, "x-python"),
                    "sequence: tuple applies to properties of x-frozen records only",
                )
            else:
                tuple_list = ir.ListOf(inner.item, inner.constraints, as_tuple=True)
                type_ref = (
                    ir.Nullable(tuple_list) if isinstance(type_ref, ir.Nullable) else tuple_list
                )
        py_name = schema.get("x-field") or naming.python_field_name(key)
        if schema.get("x-field") and (
            py_name
            in naming.PYTHON_RESERVED
            | naming.PYTHON_MEMBER_RESERVED
            | naming.PYTHON_CLASS_BODY_NAMES
            | naming.PYTHON_MODULE_NAMES
            or py_name.startswith("_")
        ):
            self._problem(
                join_pointer(pointer, "x-field"),
                (
                    f"x-field {py_name!r} is a reserved name in Python"
                    if not py_name.startswith("_")
                    else f"x-field {py_name!r} starts with '_' (private in Python and Pydantic)"
                ),
            )
        elixir = schema.get("x-elixir") or {}
        ex_name = elixir.get("field") or (
            naming.elixir_field_name(schema["x-field"])
            if "x-field" in schema
            else naming.elixir_field_name(key)
        )
        default = None
        if "default" in schema:
            default = ir.Default(freeze_json(schema["default"]))
            self._check_default(schema, pointer)
        if (
            "const" in schema
            and required
            and "default" in schema
            and schema["default"] != schema["const"]
        ):
            self._problem(join_pointer(pointer, "default"), "a tag's default must equal its const")
        aliases = tuple(schema.get("x-aliases", ()))
        if key in aliases:
            self._problem(
                join_pointer(pointer, "x-aliases"), f"{key!r} is the key itself, not an alias"
            )
        return ir.Field(
            json_key=key,
            py_name=py_name,
            ex_name=ex_name,
            type=type_ref,
            required=required,
            default=default,
            doc=_doc(schema),
            notes=str(schema.get("x-notes", "")),
            aliases=aliases,
        )

    def _check_default(self, schema: dict[str, Any], pointer: str) -> None:
        probe = {
            key: value
            for key, value in schema.items()
            if not key.startswith("x-") and key != "default"
        }
        probe["$defs"] = self.document.data.get("$defs", {})
        if "definitions" in self.document.data:
            probe["definitions"] = self.document.data["definitions"]
        validator = jsonschema.Draft202012Validator(probe)
        error = jsonschema.exceptions.best_match(validator.iter_errors(schema["default"]))
        if error is not None:
            self._problem(
                join_pointer(pointer, "default"),
                f"default does not match the property's schema: {error.message}",
            )

    def _check_field_names(self, fields: list[ir.Field], pointer: str) -> None:
        for attribute, label in (("py_name", "Python field"), ("ex_name", "Elixir field")):
            seen: dict[str, str] = {}
            for item in fields:
                name = getattr(item, attribute)
                if name in seen:
                    where = join_pointer(join_pointer(pointer, "properties"), item.json_key)
                    self._problem(
                        where,
                        f"keys {seen[name]!r} and {item.json_key!r} both become the {label} {name!r}; set x-field on one",
                    )
                seen[name] = item.json_key
        spellings: dict[str, str] = {}
        for item in fields:
            for spelling in (item.json_key, *item.aliases):
                if spelling in spellings and spellings[spelling] != item.json_key:
                    where = join_pointer(join_pointer(pointer, "properties"), item.json_key)
                    self._problem(
                        where,
                        f"the JSON key {spelling!r} belongs to both {spellings[spelling]!r} and {item.json_key!r}",
                    )
                spellings[spelling] = item.json_key

    # -- unions --------------------------------------------------------------

    def _lower_union(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        options: list[dict[str, Any]],
        doc: str,
        notes: str,
        elixir_module: str,
        source: ir.SourceRef,
    ) -> ir.UnionType:
        keyword = "oneOf" if "oneOf" in schema else "anyOf"
        members: list[str] = []
        for index, option in enumerate(options):
            ref = option["$ref"]
            member = ref.rsplit("/", 1)[-1]
            if member not in self.definitions:
                continue  # dangling refs were reported by validation
            if member in members:
                self._problem(
                    join_pointer(join_pointer(pointer, keyword), index),
                    f"{member} is listed twice in the union",
                )
                continue
            members.append(member)
        self._ensure_lowered(members)
        tag = self._find_tag(members)
        if tag is not None:
            tag_key, tag_values = tag
            return ir.UnionType(
                name,
                tuple(members),
                match="tag",
                tag=tag_key,
                tag_values=tag_values,
                unknown=self._unknown_member(name, schema, pointer),
                doc=doc,
                notes=notes,
                elixir_module=elixir_module,
                source=source,
            )
        known_problems = len(self.problems)
        cases = self._structural_cases(name, members, pointer)
        ambiguous = len(self.problems) > known_problems
        if self.generous and (ambiguous or not unions.keys_prove_distinct(cases, self.types)):
            # nothing proves the members distinct: the decoder tries them as JSON Schema says
            # (warned when no structural case could be found at all; a required key that
            # other members may carry as an unknown key is exact when tried, and quiet)
            match = unions.match_of(keyword)
            checks = unions.member_checks(
                tuple(members),
                self.types,
                lambda member: json_type_of(ir.Ref(member), self.types),
            )
            loose = [member for member in members if self._loose(member)]
            if match == "one_of" and loose:
                # a free-form member matches more than its schema: counting it would reject
                # valid values, so the exact members are tried first and the first match wins
                match = "any_of"
                checks = tuple(sorted(checks, key=lambda check: check.member in loose))
            if ambiguous or loose:
                reason = (
                    self.problems[known_problems].message
                    if ambiguous
                    else f"union {name} has members told apart by keys others may carry"
                )
                del self.problems[known_problems:]
                self.warnings.append((pointer, unions.warning_text(reason, match, loose)))
            return ir.UnionType(
                name,
                tuple(members),
                match=match,
                checks=checks,
                doc=doc,
                notes=notes,
                elixir_module=elixir_module,
                source=source,
            )
        return ir.UnionType(
            name,
            tuple(members),
            cases=tuple(cases),
            unknown=self._structural_unknown(name, schema, pointer, cases),
            doc=doc,
            notes=notes,
            elixir_module=elixir_module,
            source=source,
        )

    def _loose(self, member: str) -> bool:
        """Whether `member` matches more than its schema says: the front end typed it, or a
        schema inside it, as free-form JSON, or it states a `format` (not checked)."""
        where, schema = self.definitions.get(member, ("", {}))
        where = self.pointers.get(member, where)
        return (
            isinstance(schema, dict)
            and "format" in schema
            or any(
                pointer == where or pointer.startswith(where + "/") for pointer in self.approximated
            )
        )

    def _unknown_member(self, name: str, schema: dict[str, Any], pointer: str) -> str | None:
        """`Unknown<Union>` when the tagged union keeps unlisted tags (`x-unknown`, else the project's default)."""
        if schema.get("x-unknown", self.unknown_tags) != "keep":
            return None
        unknown = ir.unknown_member_name(name)
        if unknown in self.definitions:
            self._problem(
                join_pointer(pointer, "x-unknown"),
                f"x-unknown: keep generates the member {unknown!r}, which is already a type name",
            )
            return None
        return unknown

    def _structural_unknown(
        self, name: str, schema: dict[str, Any], pointer: str, cases: list[ir.StructuralCase]
    ) -> str | None:
        """An open structural union: its object members without a tag are told apart by keys.

        Needs one tag key for the tagged object members and no catch-all object member.
        """
        objects = [case for case in cases if case.json_type == "object"]
        tag_keys = {case.tag_key for case in objects if case.tag_key is not None}
        catch_all = any(case.tag_key is None and case.key is None for case in objects)
        if len(tag_keys) == 1 and not catch_all:
            return self._unknown_member(name, schema, pointer)
        if schema.get("x-unknown") == "keep":
            self._problem(
                join_pointer(pointer, "x-unknown"),
                f"x-unknown: keep needs a tag: {name}'s object members share no const tag key "
                "(or one of them takes any object)",
            )
        return None

    def _ensure_lowered(self, names: Iterable[str]) -> None:
        namespace = self.document.data.get("x-polytype", {}).get(
            "elixir-namespace"
        ) or naming.pascal_case(
            self.document.data.get("x-polytype", {}).get("module")
            or naming.snake_case(self.document.path.stem)
        )
        for member in names:
            if member not in self.types:
                member_pointer, member_schema = self.definitions[member]
                self._lower_named(member, member_schema, member_pointer, namespace)

    def tag_values(
        self, member: str, key: str, seen: frozenset[str] = frozenset()
    ) -> list[str | int | bool] | None:
        """The values `member` takes for tag `key`, or None when it has no such tag."""
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            for item in named.fields:
                if item.json_key == key and item.is_tag:
                    assert isinstance(item.type, ir.LiteralValue)
                    return [item.type.value]
            return None
        if isinstance(named, ir.UnionType) and member not in seen:
            values: list[str | int | bool] = []
            for inner in named.members:
                inner_values = self.tag_values(inner, key, seen | {member})
                if inner_values is None:
                    return None
                values.extend(inner_values)
            return values or None
        return None

    def _tag_keys(self, member: str) -> list[str]:
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return [item.json_key for item in named.tag_fields]
        if isinstance(named, ir.UnionType) and named.members:
            return self._tag_keys(named.members[0])
        return []

    def _find_tag(
        self, members: list[str]
    ) -> tuple[str, tuple[tuple[str | int | bool, str], ...]] | None:
        if not members:
            return None
        for key in self._tag_keys(members[0]):
            mapping: dict[str | int | bool, str] = {}
            for member in members:
                values = self.tag_values(member, key)
                if values is None or any(value in mapping for value in values):
                    break
                for value in values:
                    mapping[value] = member
            else:
                return key, tuple(mapping.items())
        return None

    def _structural_cases(
        self, name: str, members: list[str], pointer: str
    ) -> list[ir.StructuralCase]:
        cases: list[ir.StructuralCase] = []
        by_json_type: dict[str, str] = {}
        object_members: list[str] = []
        for member in members:
            kinds = json_type_of(ir.Ref(member), self.types)
            kinds_without_int = kinds - {"integer"} if "number" in kinds else kinds
            for kind in sorted(kinds_without_int):
                if kind == "object":
                    object_members.append(member)
                    continue
                if kind in by_json_type and by_json_type[kind] != member:
                    self._problem(
                        pointer,
                        f"union {name} cannot tell {by_json_type[kind]} from {member}: both are JSON {kind}s",
                    )
                by_json_type[kind] = member
                cases.append(ir.StructuralCase(member, kind))
        if "number" in by_json_type and "integer" in by_json_type:
            self._problem(
                pointer,
                f"union {name} cannot tell {by_json_type['integer']} from {by_json_type['number']}: a number may be an integer",
            )
        cases.extend(self._object_cases(name, object_members, pointer))
        return cases

    def _object_cases(self, name: str, members: list[str], pointer: str) -> list[ir.StructuralCase]:
        if len(members) == 1:
            return [ir.StructuralCase(members[0], "object")]
        tagged: list[ir.StructuralCase] = []
        keyed: list[ir.StructuralCase] = []
        declared = {member: self._declared_keys(member) for member in members}
        used_tags: dict[tuple[str, str | int | bool], str] = {}
        for member in members:
            case = None
            for key in self._tag_keys(member):
                values = self.tag_values(member, key)
                if values and len(values) == 1 and (key, values[0]) not in used_tags:
                    case = ir.StructuralCase(member, "object", tag_key=key, tag_value=values[0])
                    used_tags[(key, values[0])] = member
                    break
            if case is not None:
                tagged.append(case)
                continue
            others = set().union(*(declared[other] for other in members if other != member))
            unique = [key for key in self._required_keys(member) if key not in others]
            if not unique:
                clash = next(
                    (
                        (key, values[0], used_tags[(key, values[0])])
                        for key in self._tag_keys(member)
                        for values in [self.tag_values(member, key) or []]
                        if len(values) == 1 and (key, values[0]) in used_tags
                    ),
                    None,
                )
                if clash is not None:
                    key, value, other = clash
                    self._problem(
                        pointer,
                        f"union {name} cannot tell {member} from {other}: both have "
                        f"{key!r} = {value!r}, and {member} has no required key that the others "
                        "do not declare",
                    )
                    continue
                self._problem(
                    pointer,
                    f"union {name} cannot tell {member} apart from the other members: "
                    "it has no tag and no required key that the others do not declare",
                )
                continue
            keyed.append(ir.StructuralCase(member, "object", key=unique[0]))
        return tagged + keyed

    def _declared_keys(self, member: str) -> set[str]:
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return {
                spelling for item in named.fields for spelling in (item.json_key, *item.aliases)
            }
        if isinstance(named, ir.UnionType):
            return (
                set().union(*(self._declared_keys(inner) for inner in named.members))
                if named.members
                else set()
            )
        return set()

    def _required_keys(self, member: str) -> list[str]:
        named = self.types.get(member)
        if isinstance(named, ir.Record):
            return [item.json_key for item in named.fields if item.required and not item.aliases]
        return []

    # -- anonymous types ----------------------------------------------------

    def _lower_type(self, schema: Any, pointer: str, hoist_name: str) -> ir.TypeRef:
        if schema is True or schema == {}:
            return ir.AnyJSON()
        if not isinstance(schema, dict):
            self._problem(pointer, "a schema that accepts nothing cannot be generated")
            return ir.AnyJSON()
        if schema.get("nullable") is True:
            inner = self._lower_type(
                {k: v for k, v in schema.items() if k != "nullable"}, pointer, hoist_name
            )
            return inner if isinstance(inner, ir.Nullable) else ir.Nullable(inner)
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return ir.Ref(name) if name in self.definitions else ir.AnyJSON()
        if "const" in schema:
            value = schema["const"]
            if isinstance(value, (str, int, bool)) and not isinstance(value, float):
                return ir.LiteralValue(value)
            self._problem(
                join_pointer(pointer, "const"), "const must be a string, integer or boolean"
            )
            return ir.AnyJSON()
        options = _union_options(schema)
        if options is not None:
            return self._lower_inline_union(
                options, pointer, hoist_name, "oneOf" if "oneOf" in schema else "anyOf"
            )
        if "enum" in schema:
            return self._lower_inline_enum(schema, pointer, hoist_name)
        types = _type_list(schema)
        nullable = "null" in types
        concrete = [t for t in types if t != "null"]
        if not concrete:
            if nullable:
                self._problem(
                    join_pointer(pointer, "type"),
                    "a value that can only be null carries no data; use a nullable type",
                )
                return ir.AnyJSON()
            if _is_record_schema(schema):
                concrete = ["object"]
            elif "items" in schema:
                concrete = ["array"]
            else:
                return ir.AnyJSON()
        lowered = [self._lower_single(kind, schema, pointer, hoist_name) for kind in concrete]
        result = lowered[0] if len(lowered) == 1 else ir.InlineUnion(tuple(lowered))
        if isinstance(result, ir.InlineUnion):
            self._check_inline_union(result, pointer)
        return ir.Nullable(result) if nullable else result

    def _lower_single(
        self, kind: str, schema: dict[str, Any], pointer: str, hoist_name: str
    ) -> ir.TypeRef:
        if kind in _PRIMITIVES:
            return ir.Prim(_PRIMITIVES[kind], _constraints(schema))
        if kind == "array":
            items = schema.get("items", True)
            item = self._lower_type(items, join_pointer(pointer, "items"), hoist_name + "Item")
            return ir.ListOf(item, _constraints(schema))
        # object
        if _is_record_schema(schema):
            return self._hoist(hoist_name, {**schema, "type": "object"}, pointer)
        additional = schema.get("additionalProperties", True)
        if schema.get("patternProperties"):  # the values are the patterns' (or additional)
            return pattern_map(schema, pointer, hoist_name, self._lower_type)
        rules = map_rules(schema, pointer, hoist_name, self._lower_type)
        if isinstance(additional, dict) and additional:
            return ir.MapOf(
                self._lower_type(
                    additional, join_pointer(pointer, "additionalProperties"), hoist_name + "Value"
                ),
                _constraints(schema),
                rules,
            )
        constraints = _constraints(schema)
        if constraints.checks_entries() or not rules.is_empty():  # a checked map of JSON
            return ir.MapOf(ir.AnyJSON(), constraints, rules)
        return ir.AnyJSON(object_only=True)

    def _hoist(self, name: str, schema: dict[str, Any], pointer: str) -> ir.TypeRef:
        if self.pointers.get(name) == pointer:
            self._problem(
                pointer,
                f"{name} mixes an object with properties (or enum values) and other types; define the "
                "object (or enum) under its own name in $defs and refer to it, e.g. "
                'anyOf: [{$ref: "#/$defs/..."}, {type: "null"}]',
            )
            return ir.AnyJSON()
        if name in self.definitions or name in self.types:
            self._problem(
                pointer,
                f"the inline type here would be named {name!r}, which is already a type; move it to $defs under another name",
            )
            return ir.AnyJSON()
        self.definitions[name] = (pointer, schema)
        namespace = self.document.data.get("x-polytype", {}).get(
            "elixir-namespace"
        ) or naming.pascal_case(
            self.document.data.get("x-polytype", {}).get("module")
            or naming.snake_case(self.document.path.stem)
        )
        self._lower_named(name, schema, pointer, namespace)
        return ir.Ref(name)

    def _lower_inline_enum(
        self, schema: dict[str, Any], pointer: str, hoist_name: str
    ) -> ir.TypeRef:
        values = schema["enum"]
        non_null = [v for v in values if v is not None]
        nullable = len(non_null) != len(values)
        if (
            len(non_null) == 1
            and isinstance(non_null[0], (str, int, bool))
            and not isinstance(non_null[0], float)
        ):
            result: ir.TypeRef = ir.LiteralValue(non_null[0])
        elif non_null and all(isinstance(v, str) for v in non_null):
            result = self._hoist(hoist_name, {**schema, "enum": non_null}, pointer)
        else:
            self._problem(join_pointer(pointer, "enum"), "only enums of strings can be generated")
            result = ir.AnyJSON()
        return ir.Nullable(result) if nullable else result

    def _lower_inline_union(
        self, options: list[Any], pointer: str, hoist_name: str, keyword: str
    ) -> ir.TypeRef:
        nullable = False
        lowered: list[ir.TypeRef] = []
        for index, option in enumerate(options):
            if isinstance(option, dict) and _type_list(option) == ["null"] and len(option) <= 2:
                nullable = True
                continue
            item = self._lower_type(
                option,
                join_pointer(join_pointer(pointer, keyword), index),
                f"{hoist_name}Option{index + 1}",
            )
            if isinstance(item, ir.Nullable):
                nullable = True
                item = item.inner
            lowered.append(item)
        if not lowered:
            self._problem(pointer, "a union of nothing but null carries no data")
            return ir.AnyJSON()
        result = lowered[0] if len(lowered) == 1 else ir.InlineUnion(tuple(lowered))
        if isinstance(result, ir.InlineUnion):
            self._check_inline_union(result, pointer)
        return ir.Nullable(result) if nullable else result

    def _check_inline_union(self, union: ir.InlineUnion, pointer: str) -> None:
        seen: dict[str, int] = {}
        for index, option in enumerate(union.options):
            if isinstance(option, ir.Ref) and option.name not in self.types:
                self._ensure_lowered([option.name])
            kinds = json_type_of(option, self.types)
            if "number" in kinds:
                kinds = kinds - {"integer"}
            for kind in kinds:
                if (
                    kind in seen
                    or (kind == "integer" and "number" in seen)
                    or (kind == "number" and "integer" in seen)
                ):
                    self._problem(
                        pointer,
                        f"inline union options {seen.get(kind, 0) + 1} and {index + 1} are both JSON {kind}s; "
                        "name the union in $defs so it can dispatch on tags or keys",
                    )
                seen[kind] = index

    # -- whole-module checks -------------------------------------------------

    def _check_names(self) -> None:
        for rule, label in (
            (naming.snake_case, "function suffix"),
            (naming.elixir_module_segment, "Elixir module"),
        ):
            seen: dict[str, str] = {}
            for name in self.types:
                converted = rule(name).lstrip("_")
                if converted in seen:
                    self._problem(
                        self.pointers.get(name, ""),
                        f"types {seen[converted]!r} and {name!r} both become the {label} {converted!r}",
                    )
                seen[converted] = name

    def _check_elixir_names(self, module_name: str, namespace: str, options: Any) -> None:
        """No generated module may be, or live under, one of Elixir's own (`String`, `Elixir.`)."""
        if "elixir-namespace" in options:
            where, origin = "/x-polytype/elixir-namespace", ""
        else:
            where = "/x-polytype/module" if "module" in options else ""
            origin = f" (from the module name {module_name!r}; set x-polytype: {{elixir-namespace: ...}})"
        named_modules = [(where, f"Elixir namespace {namespace!r}{origin}", namespace)]
        for name, named in self.types.items():
            module = getattr(named, "elixir_module", "")
            if module and not module.startswith(namespace + "."):
                pointer = join_pointer(self.pointers.get(name, ""), "x-elixir") + "/module"
                named_modules.append((pointer, f"Elixir module {module!r}", module))
        for pointer, what, module in named_modules:
            first = module.split(".")[0]
            if first in naming.ELIXIR_STANDARD_MODULES:
                self._problem(
                    pointer,
                    f"{what} would redefine Elixir's standard module {first}; choose another name",
                )
            elif len(module) > naming.MAX_ELIXIR_NAME:
                self._problem(
                    pointer, f"{what[:60]} is longer than {naming.MAX_ELIXIR_NAME} characters"
                )

    def _check_lengths(self, module_name: str, explicit: bool) -> None:
        """Refuse names too long to be file names or Elixir atoms (each with its location)."""
        if len(module_name) > naming.MAX_MODULE_NAME:
            self._problem(
                "/x-polytype/module" if explicit else "",
                f"module name is {len(module_name)} characters; the limit is {naming.MAX_MODULE_NAME}",
            )
        for name, named in self.types.items():
            pointer = self.pointers.get(name, "")
            if len(name) > naming.MAX_TYPE_NAME:
                self._problem(
                    pointer,
                    f"type name {name[:40]!r}... is {len(name)} characters; the limit is "
                    f"{naming.MAX_TYPE_NAME} (name it with `title`, or shorten the key)",
                )
                continue
            if isinstance(named, ir.Alias) and _long_string_literal(named.type):
                self._problem(pointer, _LONG_LITERAL)
            if isinstance(named, ir.Record):
                for item in named.fields:
                    if _long_string_literal(item.type):
                        self._problem(
                            join_pointer(join_pointer(pointer, "properties"), item.json_key),
                            _LONG_LITERAL,
                        )
                    if len(item.ex_name) > naming.MAX_ELIXIR_NAME:
                        self._problem(
                            join_pointer(join_pointer(pointer, "properties"), item.json_key),
                            f"field name {item.ex_name[:40]!r}... is {len(item.ex_name)} characters; "
                            f"Elixir's limit is {naming.MAX_ELIXIR_NAME} (set x-elixir: {{field: ...}})",
                        )
            if isinstance(named, ir.EnumType) and named.atoms:
                for value in named.values:
                    if len(value.ex_atom) > naming.MAX_ELIXIR_NAME:
                        self._problem(
                            join_pointer(pointer, "enum"),
                            f"enum value {value.value[:40]!r}... is too long to be an Elixir atom "
                            f"({naming.MAX_ELIXIR_NAME} characters); drop x-elixir: {{atoms: true}}",
                        )

    def _check_chains(self) -> set[str]:
        """Reject cycles of aliases and unions (a type that is only itself) and absurdly long chains.

        Every generator walks from an alias or union to what it names; a cycle
        would never end, and a chain thousands of types long would exhaust the stack.
        """
        links: dict[str, list[str]] = {}
        for name, named in self.types.items():
            if isinstance(named, ir.UnionType):
                targets: list[str] = list(named.members)
            elif isinstance(named, ir.Alias):
                targets = sorted(_direct_names(named.type))
            else:
                targets = []
            links[name] = [target for target in targets if target in self.types]
        state: dict[str, int] = {}  # 1: on the current path, 2: finished
        cyclic: set[str] = set()
        longest: dict[str, int] = {}
        for start in self.types:
            if start in state:
                continue
            state[start] = 1
            path = [start]
            stack = [iter(links[start])]
            while stack:
                target = next(stack[-1], None)
                if target is None:
                    node = path.pop()
                    stack.pop()
                    state[node] = 2
                    longest[node] = 1 + max((longest.get(t, 0) for t in links[node]), default=0)
                    continue
                if state.get(target) == 1:
                    cycle = path[path.index(target) :]
                    cyclic.update(cycle)
                    shown = " -> ".join((*cycle, target))
                    self._problem(
                        self.pointers.get(target, ""),
                        f"type {target} is defined only through itself ({shown}); "
                        "a union or alias cannot contain itself directly",
                    )
                    continue
                if state.get(target) == 2:
                    continue
                state[target] = 1
                path.append(target)
                stack.append(iter(links[target]))
        deepest = max(self.types, key=lambda name: longest.get(name, 0), default=None)
        if deepest is not None and longest.get(deepest, 0) > MAX_REFERENCE_CHAIN:
            self._problem(
                self.pointers.get(deepest, ""),
                f"type {deepest} reaches a concrete type only through "
                f"{longest[deepest] - 1} aliases and unions (at most {MAX_REFERENCE_CHAIN})",
            )
        return cyclic

    def _python_names(self) -> dict[str, str]:
        """Give every type a Python name that shadows nothing, and every field one that
        names no type; report what cannot be renamed. Returns the renames."""
        renamed: dict[str, str] = {}
        taken: dict[str, str] = {}
        for name in self.types:
            python = naming.python_type_name(name)
            if python in taken:
                self._problem(
                    self.pointers.get(name, ""),
                    f"types {taken[python]!r} and {name!r} both become the Python name {python!r}",
                )
            taken[python] = name
            if python != name:
                renamed[name] = python
        type_names = set(taken)
        result: dict[str, ir.NamedType] = {}
        for name, named in self.types.items():
            named = _rename_named(named, renamed)
            if isinstance(named, ir.Record):
                named = replace(named, fields=self._unshadow_fields(named, name, type_names))
            result[named.name] = named
        self.types = result
        self.pointers = {
            renamed.get(name, name): pointer for name, pointer in self.pointers.items()
        }
        return renamed

    def _unshadow_fields(
        self, record: ir.Record, schema_name: str, type_names: set[str]
    ) -> tuple[ir.Field, ...]:
        """A field named like a type would hide that type in the class body (annotations)."""
        pointer = self.pointers.get(schema_name, "")
        schema = self.definitions.get(schema_name, ("", {}))[1]
        properties = schema.get("properties") if isinstance(schema, dict) else None
        used = {item.py_name for item in record.fields}
        fields: list[ir.Field] = []
        for item in record.fields:
            if item.py_name not in type_names:
                fields.append(item)
                continue
            where = join_pointer(join_pointer(pointer, "properties"), item.json_key)
            explicit = isinstance(properties, dict) and "x-field" in (
                properties.get(item.json_key) or {}
            )
            new_name = item.py_name + "_"
            if explicit or new_name in used or new_name in type_names:
                self._problem(
                    join_pointer(where, "x-field") if explicit else where,
                    f"field name {item.py_name!r} is also the Python name of a type; set x-field",
                )
                fields.append(item)
                continue
            used.add(new_name)
            fields.append(replace(item, py_name=new_name))
        return tuple(fields)

    def _check_termination(self, cyclic: set[str]) -> None:
        """Reject types whose every value would contain itself (no finite JSON exists)."""
        finite: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, named in self.types.items():
                if name not in finite and self._constructible(named, finite):
                    finite.add(name)
                    changed = True
        for name in self.types:
            if name not in finite and name not in cyclic:
                self._problem(
                    self.pointers.get(name, ""),
                    f"type {name} can never be finite: every value would contain another {name} (make a field optional, nullable or a list)",
                )

    def _constructible(self, named: ir.NamedType, finite: set[str]) -> bool:
        if isinstance(named, ir.Record):
            return all(
                self._finite_ref(item.type, finite) for item in named.fields if item.required
            )
        if isinstance(named, ir.EnumType):
            return True
        if isinstance(named, ir.Alias):
            return self._finite_ref(named.type, finite)
        return any(member in finite for member in named.members)

    def _finite_ref(self, type_ref: ir.TypeRef, finite: set[str]) -> bool:
        if isinstance(type_ref, ir.Ref):
            return type_ref.name in finite
        if isinstance(type_ref, ir.InlineUnion):
            return any(self._finite_ref(option, finite) for option in type_ref.options)
        if isinstance(type_ref, ir.ListOf):
            min_items = type_ref.constraints.min_items or 0
            return min_items == 0 or self._finite_ref(type_ref.item, finite)
        return True


def _rename_ref(type_ref: ir.TypeRef, renamed: dict[str, str]) -> ir.TypeRef:
    """`type_ref` with every named type renamed by `renamed`."""
    if isinstance(type_ref, ir.Ref):
        return ir.Ref(renamed.get(type_ref.name, type_ref.name))
    if isinstance(type_ref, ir.ListOf):
        return replace(type_ref, item=_rename_ref(type_ref.item, renamed))
    if isinstance(type_ref, ir.MapOf):
        rules = rename_rules(type_ref.rules, lambda ref: _rename_ref(ref, renamed))
        return replace(type_ref, value=_rename_ref(type_ref.value, renamed), rules=rules)
    if isinstance(type_ref, ir.Nullable):
        return replace(type_ref, inner=_rename_ref(type_ref.inner, renamed))
    if isinstance(type_ref, ir.InlineUnion):
        return replace(
            type_ref, options=tuple(_rename_ref(option, renamed) for option in type_ref.options)
        )
    return type_ref


def _rename_named(named: ir.NamedType, renamed: dict[str, str]) -> ir.NamedType:
    name = renamed.get(named.name, named.name)
    if isinstance(named, ir.Record):
        fields = tuple(replace(item, type=_rename_ref(item.type, renamed)) for item in named.fields)
        rules = rename_rules(named.rules, lambda ref: _rename_ref(ref, renamed))
        return replace(named, name=name, fields=fields, rules=rules)
    if isinstance(named, ir.EnumType):
        return replace(named, name=name)
    if isinstance(named, ir.Alias):
        return replace(named, name=name, type=_rename_ref(named.type, renamed))
    return replace(
        named,
        name=name,
        members=tuple(renamed.get(member, member) for member in named.members),
        tag_values=tuple(
            (value, renamed.get(member, member)) for value, member in named.tag_values
        ),
        cases=tuple(
            replace(case, member=renamed.get(case.member, case.member)) for case in named.cases
        ),
        checks=tuple(
            replace(check, member=renamed.get(check.member, check.member)) for check in named.checks
        ),
    )


def _numbered(name: str, taken: dict[str, str]) -> str:
    """`name`, or `name_2`, `name_3`, ... : the first that is not taken."""
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = f"{name}_{number}"
    return candidate


def _union_options(schema: dict[str, Any]) -> list[Any] | None:
    for union_keyword in ("oneOf", "anyOf"):
        options = schema.get(union_keyword)
        if isinstance(options, list):
            return options
    return None


def _direct_names(type_ref: ir.TypeRef) -> set[str]:
    """Named types `type_ref` stands for directly (not inside a list or map)."""
    if isinstance(type_ref, ir.Ref):
        return {type_ref.name}
    if isinstance(type_ref, ir.Nullable):
        return _direct_names(type_ref.inner)
    if isinstance(type_ref, ir.InlineUnion):
        return set().union(*(_direct_names(option) for option in type_ref.options))
    return set()


def _is_record_schema(schema: dict[str, Any]) -> bool:
    """An object with declared properties, or one that allows no keys at all (a record with no fields)."""
    return "properties" in schema or (
        schema.get("additionalProperties") is False and not schema.get("patternProperties")
    )


def _type_list(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if declared is None:
        return []
    return [declared] if isinstance(declared, str) else list(declared)


def _types_of(schema: dict[str, Any]) -> set[str]:
    return set(_type_list(schema)) or {"object"}


_LONG_LITERAL = (
    f"a string const longer than {naming.MAX_ELIXIR_NAME} characters cannot be an Elixir atom "
    "(string consts decode to atoms)"
)


def _long_string_literal(type_ref: ir.TypeRef) -> bool:
    """Whether `type_ref` holds a string const too long for an Elixir atom."""
    stack = [type_ref]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.LiteralValue):
            if isinstance(node.value, str) and len(node.value) > naming.MAX_ELIXIR_NAME:
                return True
        elif isinstance(node, ir.ListOf):
            stack.append(node.item)
        elif isinstance(node, ir.MapOf):
            stack.append(node.value)
        elif isinstance(node, ir.Nullable):
            stack.append(node.inner)
        elif isinstance(node, ir.InlineUnion):
            stack.extend(node.options)
    return False


# Counts: JSON Schema's non-negative integers, where `2.0` is the integer 2.
_COUNT_ATTRIBUTES = frozenset(
    {"min_length", "max_length", "min_items", "max_items", "min_properties", "max_properties"}
)


def _constraints(schema: dict[str, Any]) -> ir.Constraints:
    values = {
        attribute: _count(schema[key]) if attribute in _COUNT_ATTRIBUTES else schema[key]
        for key, attribute in _CONSTRAINT_KEYS.items()
        if key in schema
    }
    return ir.Constraints(**values) if values else ir.NO_CONSTRAINTS


def _count(value: Any) -> Any:
    """A count as an int (`minLength: 2.0` is 2: the generated code compares lengths)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _doc(schema: dict[str, Any]) -> str:
    return str(schema.get("description", "")).strip()
