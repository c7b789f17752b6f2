"""The view objects the Pydantic templates print: models, fields, type aliases,
the functions beside them, and TypeAdapters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldView:
    name: str
    annotation: str
    value: str  # "" (a bare required field) or the right-hand side, e.g. `Field(alias="x")`
    tag_value: str = ""  # a tag's value: its default as type checkers see it


@dataclass(frozen=True)
class RecordView:
    name: str
    base: str
    doc: str
    config: str
    wire: str  # "" when the record needs no wire rules
    fields: tuple[FieldView, ...]
    methods_template: str | None = None
    checked: bool = False  # a `_CheckedModel`, or a `_SpelledModel` that needs to be one
    rules: str = ""  # the constant holding the record's object rules (`_object_rules`)
    rules_value: str = ""  # its value, assigned once every type is defined
    unknown_tag: str = ""  # an open union's Unknown<Union> model: its tag key as a literal
    schema_checks: str = ""  # `(_CHECK_X, "'not' at /x"), ...`: run on the JSON object first


@dataclass(frozen=True)
class FunctionView:
    name: str
    signature: str
    doc: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class AliasView:
    """A module-level type alias: a union or a named non-record type."""

    name: str
    doc: str
    value: str
    functions: tuple[FunctionView, ...] = ()
    # an alias that names itself, through lists or maps (`L = list[L]`), is written as
    # `TypeAliasType`, which pydantic resolves lazily; a plain alias would be a NameError
    recursive: bool = False


@dataclass(frozen=True)
class AdapterView:
    name: str
    type_name: str
    config: str  # "" or ", config=ConfigDict(...)"
    # what the adapter validates when it is not just the type (an open enum's annotation)
    annotation: str = ""
    python_type: str = ""  # ... and what it returns then (`X | UnknownX`)

    @property
    def statement(self) -> str:
        """`XAdapter: TypeAdapter[X] = _Adapter(X, ...)` (the runtime's depth-checking adapter)."""
        adapted = self.annotation or self.type_name
        returned = self.python_type or self.type_name
        return f"{self.name}: TypeAdapter[{returned}] = _Adapter({adapted}{self.config})"
