"""The intermediate representation: the only thing targets ever see.

Every node is a frozen dataclass holding plain values and tuples, so an IR
module can be hashed, compared and shared between targets without anybody
patching it after construction. Lowering (``polytype.lowering.lower``) builds it from a
validated schema document; targets turn it into files.

The nodes live in `type_refs` (the types written in fields and aliases: `TypeRef`) and
`named_types` (`Record`, `EnumType`, `UnionType`, `Alias`, `Module`); this module
re-exports them all, so every stage says `ir.Record`, and holds the walks over a
module that targets share (`nested_types`, `schema_checks`, `runtime_checks`, ...).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from polytype.ir.named_types import (
    Alias,
    Default,
    EnumType,
    EnumValue,
    Field,
    MemberCheck,
    Module,
    NamedType,
    Record,
    SourceRef,
    StructuralCase,
    UnionMatch,
    UnionType,
)
from polytype.ir.type_refs import (
    BOUND_ATTRIBUTES,
    NO_CONSTRAINTS,
    NO_RULES,
    AnyJSON,
    Checked,
    Constraints,
    EnumStyle,
    ExtraPolicy,
    FrozenJSONObject,
    InlineUnion,
    JSONData,
    JsonLiterals,
    JSONScalar,
    ListOf,
    LiteralValue,
    MapOf,
    Nullable,
    ObjectRules,
    Prim,
    PrimKind,
    Ref,
    SchemaCheck,
    TupleOf,
    TypeRef,
    UnknownPolicy,
    nullable,
)

__all__ = [
    "Alias",
    "AnyJSON",
    "BOUND_ATTRIBUTES",
    "Checked",
    "Constraints",
    "Default",
    "EnumStyle",
    "EnumType",
    "EnumValue",
    "ExtraPolicy",
    "Field",
    "FrozenJSONObject",
    "InlineUnion",
    "JSONData",
    "JSONScalar",
    "JsonLiterals",
    "ListOf",
    "LiteralValue",
    "MapOf",
    "MemberCheck",
    "Module",
    "NO_CONSTRAINTS",
    "NO_RULES",
    "NamedType",
    "Nullable",
    "ObjectRules",
    "Prim",
    "PrimKind",
    "Record",
    "Ref",
    "SchemaCheck",
    "SourceRef",
    "StructuralCase",
    "TupleOf",
    "TypeRef",
    "UnionMatch",
    "UnionType",
    "UnknownPolicy",
    "child_types",
    "nested_types",
    "nullable",
    "open_unions",
    "runtime_checks",
    "schema_checks",
    "unknown_member_name",
]


def unknown_member_name(union_name: str) -> str:
    """What an open union or enum (`x-unknown: keep`) keeps an unlisted tag or value in:
    `Unknown<Union>`, `Unknown<Enum>`."""
    return f"Unknown{union_name}"


def open_unions(module: Module, name: str, seen: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The Unknown* members a value of union `name` can decode to, nested unions included."""
    named = module.types_by_name.get(name)
    if not isinstance(named, UnionType) or name in seen:
        return ()
    found: list[str] = [named.unknown] if named.unknown else []
    for member in named.members:
        found.extend(open_unions(module, member, seen | {name}))
    return tuple(dict.fromkeys(found))


def child_types(type_ref: TypeRef) -> tuple[TypeRef, ...]:
    """The types `type_ref` is built from, one level down (a map's rules' types too)."""
    match type_ref:
        case ListOf():
            return (type_ref.item,)
        case TupleOf():
            return type_ref.item_types()
        case MapOf():
            return (type_ref.value, *type_ref.rules.types())
        case Nullable() | Checked():
            return (type_ref.inner,)
        case InlineUnion():
            return type_ref.options
        case Prim() | Ref() | LiteralValue() | JsonLiterals() | AnyJSON():
            return ()
        case _ as unreachable:
            assert_never(unreachable)


def nested_types(module: Module) -> Iterator[TypeRef]:
    """Every type written in the module's named types (fields, a record's rules, alias
    types), nested ones included: references are not followed."""
    stack: list[TypeRef] = []
    for named in module.types:
        if isinstance(named, Record):
            stack.extend(item.type for item in named.fields)
            stack.extend(named.rules.types())
        elif isinstance(named, Alias):
            stack.append(named.type)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child_types(node))


def schema_checks(module: Module) -> tuple[SchemaCheck, ...]:
    """`module_schema_checks`, computed once a module (kept with it as `runtime_checks`
    is: lowering, every target and the docs ask, each a walk of every type)."""
    found = module.__dict__.get(_SCHEMA_CHECKS)
    if found is None:
        found = module.__dict__[_SCHEMA_CHECKS] = module_schema_checks(module)
    return found


_SCHEMA_CHECKS = "_schema_checks"


def module_schema_checks(module: Module) -> tuple[SchemaCheck, ...]:
    """Every schema check of the module: records' and unions' own, then those of
    `Checked` types wherever they are."""
    found: list[SchemaCheck] = []
    for named in module.types:
        if isinstance(named, (Record, UnionType)):
            found.extend(named.schema_checks)
    for node in nested_types(module):
        if isinstance(node, Checked):
            found.extend(node.checks)
    return tuple(found)


def runtime_checks(module: Module) -> frozenset[str]:
    """`module_runtime_checks`, computed once a module (every target asks; a module is
    immutable, so the answer is kept with it, as `Module.types_by_name` is)."""
    found = module.__dict__.get(_RUNTIME_CHECKS)
    if found is None:
        found = module.__dict__[_RUNTIME_CHECKS] = module_runtime_checks(module)
    return found


_RUNTIME_CHECKS = "_runtime_checks"


def module_runtime_checks(module: Module) -> frozenset[str]:
    """The runtime helpers a module's types need beyond the common ones: constraint
    checks (`unique_items`, `multiple_of`, `properties`, `object_rules`), `tuples` for
    positional arrays, `json_literals` for a `const` or `enum` of any JSON value,
    `tried_members` for unions that try their members, `schema_checks` for a
    `SchemaCheck` anywhere and `format_<name>` for each asserted `format` (`date-time`:
    `format_date_time`), so that a module without them carries none."""
    found: set[str] = set()
    for named in module.types:
        match named:
            case UnionType():
                if named.tries_members:
                    found.add("tried_members")
                if named.schema_checks:
                    found.add("schema_checks")
            case Record():
                if not named.rules.is_empty():
                    found.add("object_rules")
                if named.schema_checks:
                    found.add("schema_checks")
            case EnumType() | Alias():
                pass
            case _ as unknown_named:
                assert_never(unknown_named)
    for node in nested_types(module):
        if isinstance(node, Prim) and node.constraints.format is not None:
            found.add("format_" + node.constraints.format.replace("-", "_"))
        match node:
            case Prim() if node.constraints.multiple_of is not None:
                found.add("multiple_of")
            case JsonLiterals():
                found.add("json_literals")
            case ListOf() | TupleOf():
                if node.constraints.unique_items:
                    found.add("unique_items")
                if isinstance(node, TupleOf):
                    found.add("tuples")
            case MapOf():
                if node.constraints.checks_entries():
                    found.add("properties")
                if not node.rules.is_empty():
                    found.add("object_rules")
            case Checked():
                found.add("schema_checks")
            case Prim() | Ref() | LiteralValue() | Nullable() | AnyJSON() | InlineUnion():
                pass
            case _ as unreachable:
                assert_never(unreachable)
    if module.formats and "schema_checks" in found:  # the checks' evaluators assert them too
        fragments = [check.schema for check in schema_checks(module)]
        fragments += [schema for _, schema in module.check_defs]
        for name in _format_values(fragments, frozenset(module.formats)):
            found.add("format_" + name.replace("-", "_"))
    return frozenset(found)


def _format_values(fragments: list[JSONData], asserted: frozenset[str]) -> set[str]:
    """The asserted names a `format` key holds anywhere in `fragments` (one that is data,
    not a keyword, at worst costs an unused checker)."""
    found: set[str] = set()
    stack = list(fragments)
    while stack:
        node = stack.pop()
        if isinstance(node, FrozenJSONObject):
            for key, value in node.items:
                if key == "format" and isinstance(value, str) and value in asserted:
                    found.add(value)
                stack.append(value)
        elif isinstance(node, tuple):
            stack.extend(node)
    return found
