"""Lowering of enums and literals: a string `enum` becomes an `ir.EnumType`, one
value a literal, any other `enum` a set of JSON literals."""

from __future__ import annotations

from typing import Any

from polytype import ir, naming
from polytype.diagnostics import join_pointer
from polytype.ir import literals
from polytype.ir.json_types import freeze_json
from polytype.lowering.lowering_state import LoweringState


class EnumLowering(LoweringState):
    """Named enums, and enums inline (a literal, a hoisted enum, JSON literals)."""

    def _lower_enum(
        self,
        name: str,
        schema: dict[str, Any],
        pointer: str,
        doc: str,
        notes: str,
        x_elixir_module: str | None,
        source: ir.SourceRef,
    ) -> ir.EnumType:
        values: list[ir.EnumValue] = []
        # what each value becomes in Python and Elixir (`naming`'s rules, as the targets'
        # namers apply them): spelled alike, they are numbered in a consumed schema and
        # refused in an owned one
        seen_py: dict[str, str] = {}
        seen_atoms: dict[str, str] = {}
        listed: set[str] = set()  # (a string enum's values: a set, not a scan of `values`)
        for index, value in enumerate(schema["enum"]):
            py_name = naming.python_enum_member(value)
            atom = naming.elixir_atom(value)
            where = join_pointer(join_pointer(pointer, "enum"), index)
            if value in listed:
                self._problem(where, f"enum value {value!r} is listed twice")
                continue
            listed.add(value)
            if self.generous:
                py_name = naming.numbered(py_name, seen_py)
                atom = naming.numbered(atom, seen_atoms)
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
            values.append(ir.EnumValue(value))
        python = schema.get("x-python") or {}
        elixir = schema.get("x-elixir") or {}
        # open (`x-unknown: keep`, else the project's default): an unlisted string is kept
        kept = (schema.get("x-unknown") or self.unknown_enum_values) == "keep"
        return ir.EnumType(
            name,
            tuple(values),
            style=python.get("enum-base", "str"),
            atoms=bool(elixir.get("atoms", False)),
            unknown=ir.unknown_member_name(name) if kept else None,
            doc=doc,
            notes=notes,
            x_elixir_module=x_elixir_module,
            source=source,
        )

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
        return ir.nullable(result) if nullable else result
