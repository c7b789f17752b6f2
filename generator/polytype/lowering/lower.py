"""Lower a validated schema document into the IR.

This is where schema shapes get their meaning: records, enums, unions,
aliases, hoisted inline types, tags, defaults. The build here turns each definition
into a named type; the passes in `polytype.lowering` then decide how unions
dispatch and check the module as a whole; each target's namer checks the names it
derives (`name_checks`).
Structural problems the meta-schema cannot see (ambiguous unions, colliding names,
recursion that never terminates, defaults of the wrong type) are collected, from the
build and every pass, as located diagnostics.
"""

from __future__ import annotations

import hashlib
import keyword
import sys
from collections.abc import Sequence
from typing import Any

from polytype import ir, naming
from polytype.diagnostics import InputError, join_pointer
from polytype.dialect import keywords
from polytype.dialect.keywords import matching_nothing
from polytype.ir import formats
from polytype.ir.json_types import freeze_json, json_type_of
from polytype.lowering import (
    NameCheck,
    long_names,
    module_checks,
    schema_checks,
    union_dispatch,
    unions,
    untyped,
)
from polytype.lowering.lower_enums import EnumLowering
from polytype.lowering.lower_inline import InlineTypeLowering
from polytype.lowering.lower_records import RecordLowering
from polytype.lowering.lower_unions import UnionLowering
from polytype.lowering.module_checks import MAX_REFERENCE_CHAIN
from polytype.lowering.schema_facts import is_record_schema, schema_doc, types_of, union_options
from polytype.reading.loader import Document

__all__ = ["MAX_REFERENCE_CHAIN", "freeze_json", "json_type_of", "lower", "lower_generously"]

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
    *,
    unknown_enum_values: ir.UnknownPolicy = "reject",
    name_checks: Sequence[NameCheck] = (),
) -> ir.Module:
    """Build the IR module for a validated document, or raise ``InputError``.

    `unknown_tags` is the project's default for tagged unions without `x-unknown`,
    `unknown_enum_values` for string enums without it.
    `generous` (a schema the project does not own): enum values whose Python members
    or Elixir atoms would collide are numbered (`ETC_GMT_1`, `ETC_GMT_1_2`) instead of
    refused, so are the field names of keys that spell the same name (`foo_bar`,
    `foo_bar_2`), and unions whose members nothing tells apart try each member (see
    `lower_generously` for the warnings that says so). `chosen`: the formats asserted.
    `name_checks`: the targets' namers' checks of the module's names (`targets.name_checks`),
    whose problems are reported with lowering's own.
    """
    return lower_generously(
        document,
        unknown_tags,
        generous=generous,
        chosen=chosen,
        unknown_enum_values=unknown_enum_values,
        name_checks=name_checks,
    )[0]


def lower_generously(
    document: Document,
    unknown_tags: ir.UnknownPolicy = "reject",
    approximated: frozenset[str] = frozenset(),
    generous: bool = True,
    chosen: formats.FormatChoice = formats.NO_FORMATS,
    *,
    unknown_enum_values: ir.UnknownPolicy = "reject",
    name_checks: Sequence[NameCheck] = (),
) -> tuple[ir.Module, tuple[tuple[str, str], ...]]:
    """`lower`, and the (pointer, message) of each warning about what was lowered with a
    weaker guarantee than the schema's types (generous mode only). `approximated`: the
    schemas the front end typed as free-form JSON (they match more than the schema says)."""
    lowering = _Lowering(
        document,
        unknown_tags=unknown_tags,
        unknown_enum_values=unknown_enum_values,
        generous=generous,
        approximated=approximated,
        chosen=chosen,
        name_checks=tuple(name_checks),
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


# What a module without a root type says of its documents (a root of only definitions and
# annotations, `{}` or `true`, is free-form JSON by its own schema).
FREE_FORM_ROOT = (
    "The schema's root only holds definitions, so no type here is the module's root\n"
    "(a document of it is free-form JSON); `x-polytype: {root: Name}` names one."
)


def _module_doc(data: dict[str, Any], root: str | None) -> str:
    return "\n\n".join(text for text in (schema_doc(data), "" if root else FREE_FORM_ROOT) if text)


class _Lowering(RecordLowering, EnumLowering, UnionLowering, InlineTypeLowering):
    """The build of one module: every definition lowered by its kind, then the passes."""

    # -- entry ---------------------------------------------------------------

    def run(self) -> ir.Module:
        data = self.document.data
        options = data.get("x-polytype", {})
        stem = self.document.path.stem
        module_name = options.get("module") or naming.snake_case(stem)
        if "module" not in options and not naming.ascii_identifier(stem).strip("_"):
            self._problem(
                "",
                f"cannot derive a module name from the file name {self.document.path.name!r}; "
                "set x-polytype: {module: ...}",
            )
        elif self.generous and "module" not in options and self._module_name_problem(module_name):
            module_name = self._safe_module_name(module_name)
        else:
            self._check_module_name(module_name, "module" in options)
        self.asserted = self.chosen.for_module(module_name)
        self._collect_definitions()
        # a snapshot: lowering hoists inline types into `definitions` (already lowered there)
        for name, (pointer, schema) in list(self.definitions.items()):
            if name not in self.types:
                self._lower_named(name, schema, pointer)
        chain_problems, cyclic = module_checks.chains(self.types, self.pointers)
        self._problems(chain_problems)
        self._dispatch_unions(cyclic)
        self._problems(module_checks.open_enum_names(self.types, self.pointers))
        self._problems(module_checks.termination(self.types, self.pointers, cyclic))
        root = options.get("root") or self.document_root
        if root is not None and root not in self.types:
            self._problem(join_pointer("/x-polytype", "root"), f"root type {root!r} is not defined")
        if self.generous:
            root = self._shorten_long_names(root)
            self._report_untyped()
        module = ir.Module(
            name=module_name,
            title=str(options.get("title") or data.get("title") or module_name),
            doc=_module_doc(data, root),
            schema_path=self.document.display_path,
            schema_sha256=hashlib.sha256(self.document.text.encode("utf-8")).hexdigest(),
            x_elixir_namespace=options.get("elixir-namespace") or None,
            types=tuple(self.types.values()),
            root=root,
            formats=tuple(sorted(self.asserted)),
            x_module=options.get("module") or None,
        )
        found = [check(module, self.pointers, self.generous) for check in self.name_checks]
        for names in found:
            self._problems(names.first)
            self.warnings.extend(names.warnings)
        if self.problems:
            raise InputError(self.problems)
        for names in found:
            self._problems(names.then)
        self._problems(
            module_checks.lengths(module_name, "module" in options, self.types, self.pointers)
        )
        if self.problems:
            raise InputError(self.problems)
        return module

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
        if dispatch.tried:
            places = sorted(
                (self.document.locate(pointer), name) for pointer, name in dispatch.tried
            )
            tried = tuple(
                (written if file == self.document.display_path else f"{file}#{written}", name)
                for (file, _, written), name in places
            )  # in the order they were written, each where it was written
            self.warnings.append(("", unions.tried_summary(tried)))

    def _report_untyped(self) -> None:
        """One warning for every schema without `type` typed as what it accepts."""
        if self.untyped_places:
            places = [self.document.locate(pointer)[2] for pointer in self.untyped_places]
            self.warnings.append((min(self.untyped_places), untyped.summary(places)))

    def _shorten_long_names(self, root: str | None) -> str | None:
        """Shorten a consumed schema's over-long type names (`lowering.long_names`);
        returns the root's name after it."""
        shortened = long_names.shorten(self.types, self.pointers)
        self.types = {item.name: item for item in shortened.types}
        self.pointers = dict(shortened.pointers)
        self.warnings.extend(shortened.notes)
        return None if root is None else dict(shortened.renamed).get(root, root)

    def _check_module_name(self, module_name: str, explicit: bool) -> None:
        where = "/x-polytype/module" if explicit else ""
        origin = "" if explicit else " (from the file name; set x-polytype: {module: ...})"
        problem = self._module_name_problem(module_name)
        if problem:
            self._problem(where, f"module name {module_name!r} {problem}{origin}")

    @staticmethod
    def _module_name_problem(module_name: str) -> str:
        """Why `module_name` cannot be a Python package's name ("" when it can)."""
        if not module_name.isidentifier() or not module_name.isascii():
            return "is not an identifier"
        if keyword.iskeyword(module_name) or keyword.issoftkeyword(module_name):
            return "is a Python keyword and could not be imported"
        if module_name in sys.stdlib_module_names:
            return f"would shadow the standard library module {module_name!r}"
        if module_name in IMPORTED_PACKAGES:
            return (
                f"would shadow the package {module_name!r}, which the generated code, its "
                "tests or polytype itself import"
            )
        if len(module_name) > naming.MAX_MODULE_NAME:
            return f"is {len(module_name)} characters; the limit is {naming.MAX_MODULE_NAME}"
        return ""

    def _safe_module_name(self, module_name: str) -> str:
        """A consumed schema's module name derived from its file name, made importable:
        `<name>_schema`, shortened when long (with a warning saying how to choose one)."""
        problem = self._module_name_problem(module_name)
        safe = naming.shortened(f"{module_name}_schema", naming.MAX_MODULE_NAME)
        if self._module_name_problem(safe):
            safe = naming.shortened(f"schema_{module_name}", naming.MAX_MODULE_NAME)
        self.warnings.append(
            (
                "",
                f"module name {module_name!r} (from the file name) {problem}: generated as "
                f"{safe!r}; set x-polytype: {{module: ...}} to choose another",
            )
        )
        return safe

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
                    schema = matching_nothing(pointer)
                self.definitions[name] = (pointer, schema if isinstance(schema, dict) else {})
        if keywords.says_something(data) and "root" not in (data.get("x-polytype") or {}):
            # the root describes a value: a type of its own, the module's root
            name = keywords.root_type_name(data, self.document.path)
            if name in self.definitions:
                self._problem(
                    "/title" if data.get("title") else "",
                    f"the root type {name!r} (from the "
                    f"{'title' if data.get('title') else 'file name'}) collides with a "
                    "definition; give the root another title",
                )
            else:
                self.definitions[name] = ("", _root_schema(data))
                self.document_root = name

    def _lower_named(self, name: str, schema: dict[str, Any], pointer: str) -> None:
        schema, found = schema_checks.split(schema)
        if found:
            self._lower_named(name, schema, pointer)
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
        doc = schema_doc(schema)
        notes = str(schema.get("x-notes", ""))
        x_elixir_module = (schema.get("x-elixir") or {}).get("module") or None
        self.pointers[name] = pointer
        options = union_options(schema)
        if (
            options is not None
            and options
            and all(isinstance(option, dict) and "$ref" in option for option in options)
        ):
            # register first so members can refer back (recursive unions)
            self.types[name] = ir.UnionType(
                name, (), doc=doc, notes=notes, x_elixir_module=x_elixir_module, source=source
            )
            self.types[name] = self._lower_union(
                name, schema, pointer, options, doc, notes, x_elixir_module, source
            )
            return
        enum_values = schema.get("enum")
        if (
            isinstance(enum_values, list)
            and all(isinstance(v, str) for v in enum_values)
            and len(enum_values) > 1
        ):
            self.types[name] = self._lower_enum(
                name, schema, pointer, doc, notes, x_elixir_module, source
            )
            return
        if (
            is_record_schema(schema)
            and types_of(schema) <= {"object"}
            and not (self.generous and "type" not in schema)  # `untyped`: an alias of more
        ):
            if "type" not in schema:
                self._problem(pointer, untyped.refusal("object"))
            self.types[name] = ir.Record(
                name, (), source=source
            )  # placeholder keeps definition order
            self.types[name] = self._lower_record(
                name, schema, pointer, doc, notes, x_elixir_module, source
            )
            return
        self.types[name] = ir.Alias(name, ir.AnyJSON(), source=source)
        self.types[name] = ir.Alias(
            name,
            self._lower_type(schema, pointer, name),
            doc=doc,
            notes=notes,
            x_elixir_module=x_elixir_module,
            source=source,
        )


def _root_schema(data: dict[str, Any]) -> dict[str, Any]:
    """The root's own schema: the document without its definitions and dialect keys."""
    return {
        key: value
        for key, value in data.items()
        if key not in ("$defs", "definitions", "x-polytype", "$schema", "$id", "id")
    }
