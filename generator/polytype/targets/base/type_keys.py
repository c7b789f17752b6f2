"""Helper-name fragments for type references (`list_str_minlen1`, `map_opt_json`).

Every target names its private decode/encode helpers after the type they handle. The
shape of a fragment is shared; what differs between targets is spelled by the target
(`KeySpelling`): what counts as the same type, how a list, a literal, a checked type,
a number or a pattern is written. `TypeKeys` keeps the fragments injective within one
generated file: a fragment already taken by a different type gets a numeric suffix
(`list_str_2`), so every helper handles exactly one type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, assert_never

from polytype import ir
from polytype.ir import formats
from polytype.ir.object_rules import rules_digest
from polytype.targets.base.helper_names import BOUND_KEYS, function_suffix, literal_key


class KeySpelling(Protocol):
    """What a target decides about its helper-name fragments."""

    def key_identity(self, type_ref: ir.TypeRef) -> str:
        """Equal for two types the target decodes alike, different otherwise (a repr:
        `LiteralValue(True) == LiteralValue(1)`, but the helpers differ)."""
        ...

    def list_prefix(self, type_ref: ir.ListOf) -> str:
        """`list_`, or another prefix where the target renders this list differently."""
        ...

    def literal_fragment(self, type_ref: ir.LiteralValue) -> str: ...

    def checked_prefix(self, type_ref: ir.Checked) -> str:
        """The part before the inner type's key (`checked_<digest>_`)."""
        ...

    def number_fragment(self, value: int | float) -> str: ...

    def pattern_fragment(self, pattern: str) -> str: ...


@dataclass
class TypeKeys:
    """The fragments of one generated file, injective (see the module docstring)."""

    spelling: KeySpelling
    _keys: dict[str, str] = field(default_factory=dict)  # identity -> key
    _owners: dict[str, str] = field(default_factory=dict)  # key -> identity

    def key(self, type_ref: ir.TypeRef) -> str:
        identity = self.spelling.key_identity(type_ref)
        known = self._keys.get(identity)
        if known is not None:
            return known
        base = self._describe(type_ref)
        key, number = base, 2
        while self._owners.get(key, identity) != identity:
            key, number = f"{base}_{number}", number + 1
        self._keys[identity] = key
        self._owners[key] = identity
        return key

    def _describe(self, type_ref: ir.TypeRef) -> str:
        match type_ref:
            case ir.Prim():
                key: str = type_ref.kind
                if not type_ref.constraints.is_empty():
                    key += "_" + self.constraint_key(type_ref.constraints)
                return key
            case ir.ListOf():
                key = self.spelling.list_prefix(type_ref) + self.key(type_ref.item)
                if type_ref.constraints.checks_items():
                    key += "_" + self.constraint_key(type_ref.constraints)
                return key
            case ir.TupleOf():
                parts = [self.key(item) for item in type_ref.prefix]
                rest = type_ref.rest
                parts.append("closed" if rest is None else "rest_" + self.key(rest))
                key = "tuple_of_" + "_".join(parts)
                if type_ref.constraints.checks_items():
                    key += "_" + self.constraint_key(type_ref.constraints)
                return key
            case ir.MapOf():
                key = "map_" + self.key(type_ref.value)
                if type_ref.constraints.checks_entries():
                    key += "_" + self.constraint_key(type_ref.constraints)
                if not type_ref.rules.is_empty():
                    key += "_rules" + rules_digest(type_ref.rules)
                return key
            case ir.Ref():
                return function_suffix(type_ref.name)
            case ir.LiteralValue():
                return self.spelling.literal_fragment(type_ref)
            case ir.JsonLiterals():
                return literal_key(type_ref)
            case ir.Nullable():
                return "opt_" + self.key(type_ref.inner)
            case ir.AnyJSON():
                return "json_object" if type_ref.object_only else "json"
            case ir.Checked():
                return self.spelling.checked_prefix(type_ref) + self.key(type_ref.inner)
            case ir.InlineUnion():
                return "union_" + "_or_".join(self.key(option) for option in type_ref.options)
            case _ as unreachable:
                assert_never(unreachable)

    def constraint_key(self, constraints: ir.Constraints) -> str:
        spelling = self.spelling
        parts = [
            BOUND_KEYS[attribute] + spelling.number_fragment(value)
            for attribute, value in constraints.bounds()
        ]
        if constraints.pattern is not None:
            parts.append(spelling.pattern_fragment(constraints.pattern))
        if constraints.unique_items:
            parts.append("unique")
        if constraints.multiple_of is not None:
            parts.append("mult" + spelling.number_fragment(constraints.multiple_of))
        if constraints.format is not None:
            parts.append(formats.runtime_part(constraints.format))
        return "_".join(parts)
