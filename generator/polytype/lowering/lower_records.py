"""Lowering of records: an object schema with properties becomes an `ir.Record`.

Its fields (names, presence, defaults checked against the property's schema,
aliases, `sequence: tuple`), JSON keys two fields read, and its object rules and
extra-key policy.
"""

from __future__ import annotations

from typing import Any

from polytype import ir, naming
from polytype.diagnostics import join_pointer
from polytype.dialect.keywords import matching_nothing
from polytype.ir.json_types import freeze_json
from polytype.lowering.lowering_state import LoweringState
from polytype.lowering.object_rules import object_rules
from polytype.lowering.schema_facts import schema_doc


class RecordLowering(LoweringState):
    """Records and their fields."""

    def _lower_record(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        doc: str,
        notes: str,
        x_elixir_module: str | None,
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
                property_schema = matching_nothing(where)
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
            x_elixir_module=x_elixir_module,
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
            type=type_ref,
            required=required,
            default=default,
            doc=schema_doc(schema),
            notes=str(schema.get("x-notes", "")),
            aliases=aliases,
            x_field=schema.get("x-field"),
            x_elixir_field=(schema.get("x-elixir") or {}).get("field"),
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
        import jsonschema  # only for a default to check (jsonschema is slow to import)

        validator = jsonschema.Draft202012Validator(probe)
        error = jsonschema.exceptions.best_match(validator.iter_errors(schema["default"]))
        if error is not None:
            self._problem(
                join_pointer(pointer, "default"),
                f"default does not match the property's schema: {error.message}",
            )

    def _check_field_names(self, fields: list[ir.Field], pointer: str) -> None:
        """A JSON key that two fields read (a key of one, an alias of another). (Keys that
        spell one name once converted are the targets' namers' to refuse.)"""
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
