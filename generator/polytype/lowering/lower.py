"""Lower a validated schema document into the IR.

This is where schema shapes get their meaning: records, enums, unions,
aliases, hoisted inline types, tags, defaults. The build here turns each definition
into a named type; the passes in `polytype.lowering` then decide how unions
dispatch, check the module as a whole and give everything its Python name.
Structural problems the meta-schema cannot see (ambiguous unions, colliding names,
recursion that never terminates, defaults of the wrong type) are collected, from the
build and every pass, as located diagnostics.
"""

from __future__ import annotations

import hashlib
import keyword
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import jsonschema

from polytype import ir, naming
from polytype.diagnostics import Diagnostic, InputError, join_pointer
from polytype.dialect import keywords
from polytype.ir import formats, literals
from polytype.ir.json_types import freeze_json, json_type_of
from polytype.lowering import (
    Problem,
    module_checks,
    python_names,
    schema_checks,
    tuples,
    union_dispatch,
)
from polytype.lowering.module_checks import MAX_REFERENCE_CHAIN
from polytype.lowering.object_rules import map_rules, object_rules, pattern_map
from polytype.reading.loader import Document

__all__ = ["MAX_REFERENCE_CHAIN", "freeze_json", "json_type_of", "lower", "lower_generously"]

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

# Packages a module's generated package must not shadow when generated/python is on the
# path: what the generated code and its tests import (Pydantic and what Pydantic imports,
# pytest), and polytype itself. The standard library is checked through sys.
IMPORTED_PACKAGES = frozenset(
    {
        "pydantic", "pydantic_core", "typing_extensions", "annotated_types",
        "typing_inspection", "pytest", "_pytest", "pluggy", "iniconfig", "packaging",
        "polytype",
    }
)  # fmt: skip


def lower(
    document: Document,
    unknown_tags: ir.UnknownPolicy = "reject",
    generous: bool = False,
    chosen: formats.FormatChoice = formats.NO_FORMATS,
) -> ir.Module:
    """Build the IR module for a validated document, or raise ``InputError``.

    `unknown_tags` is the project's default for tagged unions without `x-unknown`.
    `generous` (a schema the project does not own): enum values whose Python members
    or Elixir atoms would collide are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`) instead of
    refused, so are the field names of keys that spell the same name (`foo_bar`,
    `foo_bar_2`), and unions whose members nothing tells apart try each member (see
    `lower_generously` for the warnings that says so). `chosen`: the formats asserted.
    """
    return lower_generously(document, unknown_tags, generous=generous, chosen=chosen)[0]


def lower_generously(
    document: Document,
    unknown_tags: ir.UnknownPolicy = "reject",
    approximated: frozenset[str] = frozenset(),
    generous: bool = True,
    chosen: formats.FormatChoice = formats.NO_FORMATS,
) -> tuple[ir.Module, tuple[tuple[str, str], ...]]:
    """`lower`, and the (pointer, message) of each warning about what was lowered with a
    weaker guarantee than the schema's types (generous mode only). `approximated`: the
    schemas the front end typed as free-form JSON (they match more than the schema says)."""
    lowering = _Lowering(
        document,
        unknown_tags=unknown_tags,
        generous=generous,
        approximated=approximated,
        chosen=chosen,
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
    # every union met, for the pass that decides how it dispatches
    union_sites: list[union_dispatch.UnionSite] = field(default_factory=list)
    # the formats the project asserts, and (once the module's name is known) this module's
    chosen: formats.FormatChoice = formats.NO_FORMATS
    asserted: frozenset[str] = frozenset()

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
        self.asserted = self.chosen.for_module(module_name)
        self._collect_definitions()
        # a snapshot: lowering hoists inline types into `definitions` (already lowered there)
        for name, (pointer, schema) in list(self.definitions.items()):
            if name not in self.types:
                self._lower_named(name, schema, pointer, namespace)
        chain_problems, cyclic = module_checks.chains(self.types, self.pointers)
        self._problems(chain_problems)
        self._dispatch_unions(cyclic)
        self._problems(module_checks.converted_names(self.types, self.pointers))
        self._problems(module_checks.termination(self.types, self.pointers, cyclic))
        root = options.get("root")
        if root is not None and root not in self.types:
            self._problem(join_pointer("/x-polytype", "root"), f"root type {root!r} is not defined")
        if self.problems:
            raise InputError(self.problems)
        renamed = self._python_names()
        self._problems(
            module_checks.elixir_modules(module_name, namespace, options, self.types, self.pointers)
        )
        self._problems(
            module_checks.lengths(module_name, "module" in options, self.types, self.pointers)
        )
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
            formats=tuple(sorted(self.asserted)),
        )

    def _problem(self, pointer: str, message: str) -> None:
        self.problems.append(self.document.diagnostic(pointer, message))

    def _problems(self, found: Iterable[Problem]) -> None:
        for pointer, message in found:
            self._problem(pointer, message)

    def _dispatch_unions(self, cyclic: set[str]) -> None:
        """Decide how every union finds its member, now that every type is lowered; a
        union on a cycle (`cyclic`, an error already) has no dispatch to decide."""
        dispatch = union_dispatch.classify(
            self.types,
            tuple(site for site in self.union_sites if site.name not in cyclic),
            generous=self.generous,
            unknown_tags=self.unknown_tags,
            loose=frozenset(name for name in self.types if self._loose(name)),
        )
        self.types = {named.name: named for named in dispatch.types}
        self._problems(dispatch.problems)
        self.warnings.extend(dispatch.warnings)

    def _python_names(self) -> dict[str, str]:
        """Give every type a Python name that shadows nothing (`lowering.python_names`);
        returns the renames."""
        schemas = {name: schema for name, (_, schema) in self.definitions.items()}
        named = python_names.assign(self.types, self.pointers, schemas)
        self.types = {item.name: item for item in named.types}
        self.pointers = dict(named.pointers)
        self._problems(named.problems)
        return dict(named.renamed)

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
                if schema is False:  # no value matches: a check that always fails
                    schema = schema_checks.matching_nothing(pointer)
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
        schema, found = schema_checks.split(schema)
        if found:
            self._lower_named(name, schema, pointer, namespace)
            named = schema_checks.on_named(self.types[name], found)
            if named is not None:
                self.types[name] = named
            else:
                self.warnings.extend(
                    (check.pointer, f"{check.described} is not enforced on the enum {name}")
                    for check in found
                )
            return
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
            if property_schema is False and self.generous:  # present: never valid
                property_schema = schema_checks.matching_nothing(where)
            elif property_schema is False:
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
        if self.generous:
            fields = _numbered_fields(fields)
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
        """The union as its members; how it dispatches is decided once every type is
        lowered (`lowering.union_dispatch`)."""
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
        # members before the union's dispatch is decided, and in the order they are met
        self._ensure_lowered(members)
        unknown = schema.get("x-unknown")
        self.union_sites.append(
            union_dispatch.UnionSite(name, keyword, pointer, unknown if unknown else None)
        )
        return ir.UnionType(
            name,
            tuple(members),
            doc=doc,
            notes=notes,
            elixir_module=elixir_module,
            source=source,
        )

    def _loose(self, member: str) -> bool:
        """Whether `member` matches more than its schema says: the front end typed it, or a
        schema inside it, as free-form JSON, or it states a `format` it does not check."""
        where, schema = self.definitions.get(member, ("", {}))
        where = self.pointers.get(member, where)
        return (
            isinstance(schema, dict)
            and "format" in schema
            and not ("string" in _type_list(schema) and schema["format"] in self.asserted)
            or any(
                pointer == where or pointer.startswith(where + "/") for pointer in self.approximated
            )
        )

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

    # -- anonymous types ----------------------------------------------------

    def _lower_type(self, schema: Any, pointer: str, hoist_name: str) -> ir.TypeRef:
        if schema is True or schema == {}:
            return ir.AnyJSON()
        if schema is False:  # accepts nothing: an enum of no values (a decode error, always)
            return ir.JsonLiterals(())
        if not isinstance(schema, dict):
            self._problem(pointer, "a schema must be an object or a boolean")
            return ir.AnyJSON()
        if keywords.CHECKS_KEY in schema:
            schema, found = schema_checks.split(schema)
            return schema_checks.checked(self._lower_type(schema, pointer, hoist_name), found)
        loose = keywords.untyped_assertions(schema, self.asserted)
        if loose:
            rest = {key: value for key, value in schema.items() if key not in loose}
            check = schema_checks.check_of(loose, self.document.locate(pointer)[2])
            return schema_checks.checked(self._lower_type(rest, pointer, hoist_name), (check,))
        if schema.get("nullable") is True:
            inner = self._lower_type(
                {k: v for k, v in schema.items() if k != "nullable"}, pointer, hoist_name
            )
            return inner if isinstance(inner, ir.Nullable) else ir.Nullable(inner)
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return ir.Ref(name) if name in self.definitions else ir.AnyJSON()
        if "const" in schema:
            return literals.const_type(freeze_json(schema["const"]))
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
                return ir.JsonLiterals((None,))
            if _is_record_schema(schema):
                concrete = ["object"]
            elif "items" in schema or "prefixItems" in schema:
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
        if kind == "string":  # `format` applies to strings only
            return ir.Prim("str", formats.constrain(_constraints(schema), schema, self.asserted))
        if kind in _PRIMITIVES:
            return ir.Prim(_PRIMITIVES[kind], _constraints(schema))
        if kind == "array":
            if tuples.is_tuple_schema(schema):
                return tuples.lower_tuple(
                    schema, pointer, hoist_name, self._lower_type, _constraints(schema)
                )
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
            if not values:  # a schema the project owns would not mean it: refused there
                where = join_pointer(pointer, "enum")
                if not self.generous:
                    self._problem(where, literals.EMPTY_ENUM)
                self.warnings.append((where, literals.EMPTY_ENUM))
            return literals.enum_type(tuple(freeze_json(value) for value in values))
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
        if not lowered:  # nothing but null
            return ir.JsonLiterals((None,))
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


def _numbered_fields(fields: list[ir.Field]) -> list[ir.Field]:
    """`fields`, where a Python or Elixir field name an earlier field already took is
    numbered (`foo_bar`, `foo_bar_2`): keys such as 'foo\\tbar' and 'foo\\nbar' that
    spell the same name once converted (generous mode; strict mode refuses them). A
    number never takes a name another field spells itself."""
    renamed = {
        attribute: _numbered_names([getattr(item, attribute) for item in fields])
        for attribute in ("py_name", "ex_name")
    }
    return [
        replace(item, py_name=renamed["py_name"][index], ex_name=renamed["ex_name"][index])
        for index, item in enumerate(fields)
    ]


def _numbered_names(names: list[str]) -> list[str]:
    """`names` with each repeat numbered, avoiding every name in the list."""
    taken = dict.fromkeys(names, "")
    claimed: set[str] = set()
    result: list[str] = []
    for name in names:
        if name in claimed:
            name = _numbered(name, taken)
            taken[name] = ""
        claimed.add(name)
        result.append(name)
    return result


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
