"""`const` and `enum` of any JSON value: the IR node for what tags and string enums cannot hold.

A scalar `const` (string, integer, boolean) stays an `ir.LiteralValue`, what tags are
made of; an `enum` of strings stays a named `ir.EnumType`. Everything else (`const: null`,
`const: 1.5`, a `const` array or object, `enum: [1, 2, 3]`, `enum: ["a", 1, null, {...}]`,
`enum: []`, `type: "null"` alone) becomes an `ir.JsonLiterals`, which every flavor checks
by JSON equality and keeps as the very value it read (so it encodes back exactly).

This module decides the node and the texts every flavor shares (the JSON types it holds,
the list of allowed values an error names); lowering calls it from its type lowering.
"""

from __future__ import annotations

import json

from polytype import ir

# Characters of the allowed values an error message lists before it says "…".
LISTED_LIMIT = 80

EMPTY_ENUM = "an empty enum accepts nothing: every value is rejected"


def const_type(value: ir.JSONData) -> ir.TypeRef:
    """The type of `const: value`: a tag-capable literal for a string, integer or boolean."""
    if isinstance(value, (str, int)):  # bool is an int
        return ir.LiteralValue(value)
    return ir.JsonLiterals((value,))


def enum_type(values: tuple[ir.JSONData, ...]) -> ir.JsonLiterals:
    """The type of an `enum` that is not a string enum: its values, repeated ones once."""
    unique: list[ir.JSONData] = []
    for value in values:
        if not any(json_equal(value, seen) for seen in unique):
            unique.append(value)
    return ir.JsonLiterals(tuple(unique))


def json_equal(first: ir.JSONData, second: ir.JSONData) -> bool:
    """JSON equality of IR values: 1 and 1.0 equal, true and 1 not, objects unordered."""
    if isinstance(first, bool) or isinstance(second, bool):
        return type(first) is type(second) and first == second
    if isinstance(first, (int, float)) and isinstance(second, (int, float)):
        return first == second
    if isinstance(first, tuple) and isinstance(second, tuple):
        return len(first) == len(second) and all(map(json_equal, first, second))
    if isinstance(first, ir.FrozenJSONObject) and isinstance(second, ir.FrozenJSONObject):
        left, right = dict(first.items), dict(second.items)
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return type(first) is type(second) and first == second


def json_types(node: ir.JsonLiterals) -> frozenset[str]:
    """The JSON types of the values `node` accepts (a number of either kind: both, since
    `1.0` equals `1`)."""
    found: set[str] = set()
    for value in node.values:
        if value is None:
            found.add("null")
        elif isinstance(value, bool):
            found.add("boolean")
        elif isinstance(value, (int, float)):
            found |= {"integer", "number"}
        elif isinstance(value, str):
            found.add("string")
        elif isinstance(value, tuple):
            found.add("array")
        else:
            found.add("object")
    return frozenset(found)


def equality_matters(node: ir.JsonLiterals) -> bool:
    """Whether JSON equality differs from plain comparison here: numbers, arrays, objects."""
    return any(not isinstance(value, (str, bool)) and value is not None for value in node.values)


EQUALITY = "JSON equality: 1 equals 1.0, true does not equal 1, objects in any key order"


def thaw(value: ir.JSONData) -> object:
    """IR JSON back to plain JSON data."""
    if isinstance(value, ir.FrozenJSONObject):
        return {key: thaw(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


def listed(node: ir.JsonLiterals) -> str:
    """The allowed values as an error names them: JSON texts, shortened when long."""
    if not node.values:
        return "nothing (the enum is empty)"
    texts = [json.dumps(thaw(value), ensure_ascii=False) for value in node.values]
    shown: list[str] = []
    length = 0
    for text in texts:
        if shown and length + len(text) > LISTED_LIMIT:
            return ", ".join(shown) + f", … ({len(texts) - len(shown)} more)"
        shown.append(text if len(text) <= LISTED_LIMIT else text[: LISTED_LIMIT - 1] + "…")
        length += len(text) + 2
    return ", ".join(shown)


def expected(node: ir.JsonLiterals) -> str:
    """What a rejection says was expected: `1` or `one of 1, 2, 3`."""
    text = listed(node)
    return text if len(node.values) <= 1 else f"one of {text}"
