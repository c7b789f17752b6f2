"""Every naming rule in one place: case conversion, reserved words, numbering.

The targets' namers (`targets.python.names`, `targets.elixir.names`) name by these
rules, and lowering refuses, with a location, an owned schema whose names would
collide or be reserved by the same rules; a consumed schema's collisions are numbered.
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re
import unicodedata
from functools import lru_cache

_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_IDENTIFIER = re.compile(r"[^0-9a-zA-Z_]+")

# Spelled out rather than read from `keyword.softkwlist`, which differs between Python
# versions (3.12 adds `type`): the output must not depend on the Python that runs polytype.
PYTHON_RESERVED = frozenset(keyword.kwlist) | {"match", "case", "self", "cls"}
# Names a generated dataclass module uses for its own purposes.
PYTHON_MEMBER_RESERVED = frozenset(
    {"extra", "to_dict", "from_dict", "to_json", "from_json", "_present"}
)
PYTHON_BUILTINS = frozenset(dir(builtins))

# Names a class body of a generated Python module evaluates (decorators, default
# factories, annotations under mypy and Pydantic), and attributes of
# `pydantic.BaseModel`: a field named like one of them would shadow it for the
# fields after it, so a derived field name gets a trailing `_` instead.
PYTHON_CLASS_BODY_NAMES = frozenset(
    {
        "field", "dataclass", "classmethod", "staticmethod", "property", "str", "int", "float",
        "bool", "list", "dict", "tuple", "frozenset", "set", "bytes", "object", "len",
        "construct", "copy", "from_orm", "json", "parse_file", "parse_obj", "parse_raw",
        "schema", "schema_json", "update_forward_refs", "validate", "model_computed_fields",
        "model_config", "model_construct", "model_copy", "model_dump", "model_dump_json",
        "model_extra", "model_fields", "model_fields_set", "model_json_schema",
        "model_parametrized_name", "model_post_init", "model_rebuild", "model_validate",
        "model_validate_json", "model_validate_strings",
        # reached through BaseModel's metaclass (ABCMeta): Pydantic warns when a field
        # shadows them
        "mro", "register",
        # the `**kwargs` that Pydantic's mypy plugin gives the `__init__` of a model that
        # allows extra keys: a field of that name would be a second parameter `kwargs`
        "kwargs",
    }
)  # fmt: skip

# Top-level names the generated Python modules (every flavor) import or define for
# themselves. A type never takes one of these: it is renamed with a trailing `_`
# (`python_type_name`). Names derived from a type (`decode_x`, `_X_KEYS`, ...) never
# end in `_`, so the renamed type cannot meet them either.
PYTHON_MODULE_NAMES = frozenset(
    {
        # imports
        "annotations", "json", "re", "dataclass", "field", "Enum", "Any", "Annotated",
        "Callable", "ClassVar", "Literal", "NoReturn", "NotRequired", "Required", "Self",
        "TypeAlias", "TypedDict", "TypeVar", "Union", "cast", "AliasChoices", "BaseModel",
        "BeforeValidator", "ConfigDict", "Discriminator", "Field", "JsonValue",
        "ModelWrapValidatorHandler", "PrivateAttr", "SerializationInfo",
        "SerializerFunctionWrapHandler", "StrictBool", "StrictFloat", "StrictInt", "StrictStr",
        "Tag", "TypeAdapter", "ValidationError", "ValidationInfo", "model_serializer",
        "model_validator", "InitErrorDetails", "PydanticCustomError", "SkipJsonSchema",
        "Omittable", "ContextVar", "Iterable", "TYPE_CHECKING", "AfterValidator",
        "TypeAliasType",
        # definitions of the shared runtime
        "DecodeError", "JSONValue", "_T", "_Model", "_Record", "_SpelledModel", "_CheckedModel", "_Wire",
        "_SetAside", "_FreeForm", "_Dumped",
        "_Building", "_Omittable", "_Float", "_Int", "_NotANumber", "_Adapter", "_MaybeTooDeep", "from_json",
        "VERSION", "_DEEP",
        "_KEYS", "_ErrorContext", "_OpenEnum", "_Member", "_Candidates", "_NotUnique", "_Rules",
    }
)  # fmt: skip

ELIXIR_RESERVED = frozenset(
    {
        "do", "end", "fn", "nil", "true", "false", "when", "and", "or", "not", "in",
        "catch", "rescue", "after", "else", "__MODULE__", "__struct__", "__ENV__",
        "__DIR__", "__CALLER__", "__STACKTRACE__",
    }
)  # fmt: skip


# The top-level modules of Elixir and the applications it ships (elixir, eex, ex_unit, iex,
# logger, mix; from `:application.get_key(app, :modules)` in 1.14, plus later additions).
# A generated `defmodule String` (or anything under `Elixir.`) would redefine one of them.
ELIXIR_STANDARD_MODULES = frozenset("""
    Access Agent Application ArgumentError ArithmeticError Atom BadArityError BadBooleanError
    BadFunctionError BadMapError BadStructError Base Behaviour Bitwise Calendar CaseClauseError
    Code Collectable CompileError CondClauseError Config Date DateTime Dict Duration
    DynamicSupervisor EEx Elixir Enum Enumerable ErlangError ExUnit Exception File Float Function
    FunctionClauseError GenEvent GenServer HashDict HashSet IEx IO Inspect Integer JSON Kernel
    KeyError Keyword List Logger Macro Map MapSet MatchError MismatchedDelimiterError Mix Module
    NaiveDateTime Node OptionParser PartitionSupervisor Path Port Process Protocol Range Record
    Regex Registry RuntimeError Set Stream String StringIO Supervisor SyntaxError System
    SystemLimitError Task Time TokenMissingError TryClauseError Tuple URI UndefinedFunctionError
    UnicodeConversionError Version WithClauseError
    """.split())

# Longest names polytype derives. Elixir atoms (module names, struct keys) stop at 255
# characters and file names at 255 bytes, with room kept for the writer's temporary names.
MAX_TYPE_NAME = 100
MAX_MODULE_NAME = 64
MAX_ELIXIR_NAME = 200
# What a name longer than its limit is shortened to in a consumed schema, hash included.
SHORTENED_LENGTH = 60


def shortened(name: str, limit: int = SHORTENED_LENGTH) -> str:
    """`name` cut to at most `limit` characters, deterministically: its first word, the
    last words that fit, and 6 hex digits of its hash, so two long names that end alike
    stay apart (`GithubWorkflowOnOption3...TypesItem` → `GithubTypesItem5f3a9c`).
    Snake_case names stay snake_case (`very_long_module_name…` → `very_module_name_5f3a9c`)."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:6]
    snake = "_" in name and name == name.lower()
    words = [w for w in (name.split("_") if snake else re.findall(r"[A-Z]*[a-z0-9]*", name)) if w]
    budget = limit - len(digest) - len(words[0]) - (2 if snake else 0)
    tail: list[str] = []
    for word in reversed(words[1:]):
        if sum(len(w) + snake for w in tail) + len(word) > budget:
            break
        tail.insert(0, word)
    joiner = "_" if snake else ""
    head = joiner.join([words[0][: limit - len(digest) - 1], *tail])
    return f"{head}{joiner}{digest}"[:limit]


@lru_cache(maxsize=65536)
def ascii_identifier(text: str) -> str:
    """Fold `text` to an ASCII identifier fragment (accents dropped, other characters to `_`)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NOT_IDENTIFIER.sub("_", folded)


@lru_cache(maxsize=65536)
def snake_case(name: str) -> str:
    """`toolCallId` → `tool_call_id`, `HTTPServer` → `http_server`, `_TrimState` → `_trim_state`."""
    leading = "_" if name.startswith("_") else ""
    words = _WORD_BOUNDARY.sub("_", ascii_identifier(name)).strip("_")
    snake = re.sub(r"_+", "_", words).lower()
    if not snake:
        snake = "field"
    if snake[0].isdigit():
        snake = f"n{snake}"
    return leading + snake


@lru_cache(maxsize=65536)
def pascal_case(name: str) -> str:
    """`tool_call` → `ToolCall`; keeps existing capitals (`ToolCall` stays)."""
    parts = [p for p in re.split(r"[_\W]+", ascii_identifier(name)) if p]
    result = "".join(p[0].upper() + (p[1:].lower() if p.isupper() else p[1:]) for p in parts)
    result = result or "Type"
    if result[0].isdigit():
        result = f"T{result}"
    return result


@lru_cache(maxsize=65536)
def _words(text: str) -> str:
    """snake_case words of `text`; text with no ASCII letters or digits spells its code points."""
    if ascii_identifier(text).strip("_"):
        return snake_case(text).lstrip("_")
    if not text:
        return "empty"
    return "_".join(f"u{ord(char):04x}" for char in text[:8])


@lru_cache(maxsize=65536)
def python_field_name(json_key: str) -> str:
    """A safe Python attribute for a JSON key: snake_case, never private or shadowing.

    `toolCallId` → `tool_call_id`; `class` → `class_`; `_id` and `__init__` lose
    their leading underscores and gain a trailing one (`id_`, `init_`), since a
    leading `_` is private to Pydantic; names a class body or `BaseModel` uses
    (`field`, `list`, `json`, ...) get a trailing `_`. `日本` → `u65e5_u672c`.
    """
    name = _words(json_key)
    if (
        json_key.startswith("_")
        or name in PYTHON_RESERVED
        or name in PYTHON_MEMBER_RESERVED
        or name in PYTHON_CLASS_BODY_NAMES
    ):
        name += "_"
    return name


@lru_cache(maxsize=65536)
def class_name(name: str) -> str:
    """The type `name` (a `$defs` key) as a class or module name reads, in any language:
    a name that reads like a variable (lower-case, `variable_mapValue`, `key_value_input_`)
    becomes PascalCase, as a person would write it (`VariableMapValue`); any other name is
    itself. What the targets' docs and messages call a type."""
    if name[:1].islower() or (name.startswith("_") and not name[1:2].isupper()):
        return pascal_case(name)
    return name


@lru_cache(maxsize=65536)
def python_type_name(name: str) -> str:
    """The Python class or alias name for the type `name` (a `$defs` key).

    Its `class_name`, unless that would shadow something: a keyword or builtin (`List`
    stays, `Exception` would not), a name the generated module imports or defines
    (`Enum`, `DecodeError`) or derives from the type's (`Type` and Pydantic's
    `TypeAdapter`), or it looks like one of the module's `_ALL_CAPS` constants. Then it
    gains a trailing `_`: `Enum` → `Enum_`.
    """
    name = class_name(name)
    if (
        name in PYTHON_RESERVED
        or name in PYTHON_BUILTINS
        or name in PYTHON_MODULE_NAMES
        or f"{name}Adapter" in PYTHON_MODULE_NAMES  # `Type` would define `TypeAdapter`
        or re.fullmatch(r"_[A-Z0-9_]+", name) is not None
        or re.fullmatch(r"__\w*__", name) is not None
    ):
        return name + "_"
    return name


def shortened_type_name(name: str) -> str:
    """A consumed schema's type name that is too long (over `MAX_TYPE_NAME` characters once
    spelled as a class name): its shortened replacement, spelled as a class name so that
    every target takes it as it is; any other name unchanged."""
    spelled = python_type_name(name)
    if len(spelled) <= MAX_TYPE_NAME:
        return name
    return python_type_name(shortened(spelled))


def python_enum_member(value: str) -> str:
    """`in_progress` → `IN_PROGRESS`, `acceptEdits` → `ACCEPT_EDITS`, `😀` → `U1F600`."""
    name = _words(value).upper()
    if name in {"NAME", "VALUE"} or name.startswith("_") or name in PYTHON_RESERVED:
        name += "_"
    return name


def python_field(json_key: str, x_field: str | None) -> str:
    """The Python attribute of a property before numbering and unshadowing: the
    schema's `x-field`, else `python_field_name` of its key."""
    return x_field or python_field_name(json_key)


def elixir_field(json_key: str, x_field: str | None, x_elixir_field: str | None) -> str:
    """The Elixir struct key of a property before numbering: the schema's
    `x-elixir: {field: ...}`, else `elixir_field_name` of its `x-field` or its key."""
    return x_elixir_field or elixir_field_name(json_key if x_field is None else x_field)


# Struct keys a generated Elixir struct uses for itself (unknown keys, presence tracking).
ELIXIR_MEMBER_RESERVED = frozenset({"extra"})


@lru_cache(maxsize=65536)
def elixir_field_name(json_key: str) -> str:
    """A safe Elixir struct key: snake_case; reserved words and the struct's own keys get `_`."""
    name = snake_case(json_key) if ascii_identifier(json_key).strip("_") else _words(json_key)
    if name.startswith("__") or name in ELIXIR_RESERVED or name in ELIXIR_MEMBER_RESERVED:
        name = name.strip("_") + "_"
    return name


@lru_cache(maxsize=65536)
def elixir_atom(value: str) -> str:
    """`acceptEdits` → `accept_edits`: the atom an enum value decodes to (as `:accept_edits`)."""
    name = _words(value)
    if name in ELIXIR_RESERVED:
        name += "_"
    return name


def elixir_module_segment(name: str) -> str:
    """`_TrimState` → `TrimState`: a valid Elixir alias segment."""
    return pascal_case(name)


def numbered(name: str, taken: dict[str, str] | set[str]) -> str:
    """`name`, or `name_2`, `name_3`, ... : the first that is not taken."""
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = f"{name}_{number}"
    return candidate


def numbered_in_turn(names: list[str]) -> list[str]:
    """`names` with each repeat numbered after the names before it (`ETC_GMT_1`,
    `ETC_GMT_1_2`): a consumed schema's enum members and atoms that spell alike."""
    taken: set[str] = set()
    result: list[str] = []
    for name in names:
        name = numbered(name, taken)
        taken.add(name)
        result.append(name)
    return result


def numbered_repeats(names: list[str]) -> list[str]:
    """`names` with each repeat numbered (`foo_bar`, `foo_bar_2`), never into a name
    another item of the list spells itself: a consumed schema's field names of keys
    such as 'foo\\tbar' and 'foo\\nbar'."""
    taken = set(names)
    claimed: set[str] = set()
    result: list[str] = []
    for name in names:
        if name in claimed:
            name = numbered(name, taken)
            taken.add(name)
        claimed.add(name)
        result.append(name)
    return result
