"""The names a generated Pydantic module imports from typing, typing_extensions,
pydantic and pydantic_core, sorted as isort would."""

from __future__ import annotations

from polytype.targets.python.common import isort_names

# What every module imports from typing and pydantic; the annotations used and the
# runtime's optional parts add the rest (ruff's F401 rejects an unused import).
_TYPING_ALWAYS = (
    "TYPE_CHECKING", "Annotated", "Any", "ClassVar", "Self", "TypeAlias", "TypeVar", "cast",
)  # fmt: skip
_TYPING_WHEN_USED = ("Literal", "NoReturn")
# Python 3.11's typing has no TypeAliasType; pydantic depends on typing_extensions
TYPING_EXTENSIONS_WHEN_USED = ("TypeAliasType",)
# StrictFloat, StrictInt, AfterValidator: the runtime's `_Float` and `_Int`;
# ValidationError: its depth limit
_PYDANTIC_ALWAYS = (
    "AfterValidator", "BaseModel", "BeforeValidator", "ConfigDict", "Field", "JsonValue",
    "StrictFloat", "StrictInt", "TypeAdapter", "ValidationError", "ValidationInfo",
    "model_validator",
)  # fmt: skip
_PYDANTIC_WHEN_USED = (
    "AliasChoices", "PlainValidator", "StrictBool", "StrictStr", "WithJsonSchema",
)  # fmt: skip


def typing_imports(uses: set[str]) -> list[str]:
    return isort_names([*_TYPING_ALWAYS, *(name for name in _TYPING_WHEN_USED if name in uses)])


_PYDANTIC_FOR_WRAP = ("ModelWrapValidatorHandler", "ValidationInfo")
_PYDANTIC_FOR_SPELLINGS = (
    "PrivateAttr", "SerializationInfo", "SerializerFunctionWrapHandler", "model_serializer",
)  # fmt: skip


def pydantic_imports(uses: set[str], uses_spellings: bool, uses_checks: bool) -> list[str]:
    """The names imported from pydantic, sorted as isort would."""
    names = set(_PYDANTIC_ALWAYS) | {name for name in _PYDANTIC_WHEN_USED if name in uses}
    if "callable_union" in uses:
        names |= {"Discriminator", "Tag"}
    if uses_checks or "callable_union" in uses:  # the fast path's reading of JSON text
        names.add("VERSION")
    if uses_spellings:  # the wrap validator of _SpelledModel
        names |= set(_PYDANTIC_FOR_WRAP)
    if uses_spellings:
        names |= set(_PYDANTIC_FOR_SPELLINGS)
    return isort_names(names)


def core_imports(uses_spellings: bool, uses_checks: bool) -> list[str]:
    """The names imported from pydantic_core: error details built by the wrap validators."""
    # the depth limit's error and its parser; the fast path's validator (pruned when unused)
    names = ["PydanticCustomError", "SchemaValidator", "from_json"]
    if uses_spellings or uses_checks:
        names.append("InitErrorDetails")
    return isort_names(names)
