"""A fast yes/no check of a document against a simple JSON Schema (the dialect meta-schema).

`jsonschema` walks a large schema file at about 50 µs per node, most of a cold
`polytype generate` on a few thousand types. The meta-schema uses a handful of
keywords, so it is compiled once into nested Python closures that answer only
"valid or not", ~20× faster. When the answer is "not valid", the caller runs
`jsonschema` for the located, worded diagnostics; when the meta-schema uses a
keyword this module does not know, `compile_schema` returns None and the caller
uses `jsonschema` alone. tests/test_fastcheck.py holds both to the same answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset(
    {
        "$schema", "$id", "$comment", "$anchor", "title", "description", "default",
        "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions",
    }
)  # fmt: skip
_TYPES: dict[str, Check] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "number": lambda value: isinstance(value, (int, float)) and not isinstance(value, bool),
    "integer": lambda value: (
        isinstance(value, int)
        and not isinstance(value, bool)
        or isinstance(value, float)
        and value.is_integer()
    ),
}


class Unsupported(Exception):
    """The schema uses something this checker does not implement."""


def compile_schema(root: Any) -> Check | None:
    """A function telling whether an instance is valid against `root`; None if unsupported."""
    try:
        return _Compiler(root).compile(root)
    except Unsupported:
        return None


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: `true` is not `1`, objects compare unordered."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, (dict, list)) or isinstance(right, (dict, list)):
        return False
    return bool(left == right)


def json_key(value: Any) -> Any:
    """A hashable stand-in equal exactly when JSON values are (`json_equal`), for finding
    repeated items in one pass: `1` and `1.0` alike, `true` and `1` apart."""
    if isinstance(value, bool):
        return (bool, value)
    if isinstance(value, list):
        return (list, tuple(json_key(item) for item in value))
    if isinstance(value, dict):
        return (dict, frozenset((key, json_key(item)) for key, item in value.items()))
    return value


def multiple_of(value: int | float, divisor: int | float) -> bool:
    """`multipleOf` as jsonschema judges it, and so every generated decoder: exact for an
    integer divisor (`value % divisor`); for a float divisor the float quotient must be a
    whole number (so `0.0075` is a multiple of `0.0001`), and a quotient too large for a
    float is decided exactly with fractions."""
    if isinstance(divisor, float):
        try:
            quotient = value / divisor
            return int(quotient) == quotient
        except OverflowError:
            return (Fraction(value) / Fraction(divisor)).denominator == 1
    return value % divisor == 0


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise Unsupported("schema is not an object")
        checks: list[Check] = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS:
                continue
            method = getattr(self, "kw_" + keyword.replace("$", "dollar_"), None)
            if method is None:
                raise Unsupported(keyword)
            check = method(value, schema)
            if check is not None:
                checks.append(check)
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        return lambda value: all(check(value) for check in checks)

    # -- keywords ------------------------------------------------------------------------

    def kw_dollar_ref(self, ref: str, _: dict[str, Any]) -> Check:
        if not ref.startswith("#"):
            raise Unsupported(ref)
        if ref not in self.refs:
            target: Any = self.root
            for token in ref[1:].split("/")[1:]:
                token = token.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or token not in target:
                    raise Unsupported(ref)
                target = target[token]
            cell: list[Check] = []
            self.refs[ref] = lambda value: cell[0](value)
            cell.append(self.compile(target))
        return self.refs[ref]

    def kw_type(self, value: Any, _: dict[str, Any]) -> Check:
        if not isinstance(value, (str, list)):  # `type: 1`: the caller words the problem
            raise Unsupported(f"type {value!r}")
        names = [value] if isinstance(value, str) else list(value)
        if not all(isinstance(name, str) and name in _TYPES for name in names):
            raise Unsupported(f"type {value!r}")
        tests = [_TYPES[name] for name in names]
        if len(tests) == 1:
            return tests[0]
        return lambda instance: any(test(instance) for test in tests)

    def kw_properties(self, value: dict[str, Any], _: dict[str, Any]) -> Check:
        compiled = {name: self.compile(schema) for name, schema in value.items()}

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            for key, item in instance.items():
                sub = compiled.get(key)
                if sub is not None and not sub(item):
                    return False
            return True

        return check

    def kw_patternProperties(self, value: dict[str, Any], _: dict[str, Any]) -> Check:
        compiled = [
            (re.compile(pattern), self.compile(schema)) for pattern, schema in value.items()
        ]

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            for key, item in instance.items():
                for pattern, sub in compiled:
                    if pattern.search(key) and not sub(item):
                        return False
            return True

        return check

    def kw_additionalProperties(self, value: Any, schema: dict[str, Any]) -> Check:
        known = frozenset(schema.get("properties", {}))
        patterns = [re.compile(pattern) for pattern in schema.get("patternProperties", {})]
        sub = self.compile(value)

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            for key, item in instance.items():
                if key in known or any(pattern.search(key) for pattern in patterns):
                    continue
                if not sub(item):
                    return False
            return True

        return check

    def kw_required(self, value: list[str], _: dict[str, Any]) -> Check:
        names = list(value)
        return lambda instance: not isinstance(instance, dict) or all(n in instance for n in names)

    def kw_allOf(self, value: list[Any], _: dict[str, Any]) -> Check:
        subs = [self.compile(schema) for schema in value]
        return lambda instance: all(sub(instance) for sub in subs)

    def kw_anyOf(self, value: list[Any], _: dict[str, Any]) -> Check:
        subs = [self.compile(schema) for schema in value]
        return lambda instance: any(sub(instance) for sub in subs)

    def kw_oneOf(self, value: list[Any], _: dict[str, Any]) -> Check:
        subs = [self.compile(schema) for schema in value]
        return lambda instance: sum(1 for sub in subs if sub(instance)) == 1

    def kw_not(self, value: Any, _: dict[str, Any]) -> Check:
        sub = self.compile(value)
        return lambda instance: not sub(instance)

    def kw_enum(self, value: list[Any], _: dict[str, Any]) -> Check:
        options = list(value)
        hashable = all(isinstance(option, str) for option in options)
        if hashable:
            strings = frozenset(options)
            return lambda instance: isinstance(instance, str) and instance in strings
        return lambda instance: any(json_equal(instance, option) for option in options)

    def kw_const(self, value: Any, _: dict[str, Any]) -> Check:
        return lambda instance: json_equal(instance, value)

    def kw_items(self, value: Any, schema: dict[str, Any]) -> Check:
        skip = len(schema.get("prefixItems", ()))  # `items` judges the items past the prefix
        sub = self.compile(value)
        return lambda instance: not isinstance(instance, list) or all(map(sub, instance[skip:]))

    def kw_prefixItems(self, value: list[Any], _: dict[str, Any]) -> Check:
        subs = [self.compile(item) for item in value]
        return lambda instance: not isinstance(instance, list) or all(
            sub(item) for sub, item in zip(subs, instance, strict=False)
        )

    def kw_minItems(self, value: int, _: dict[str, Any]) -> Check:
        return lambda instance: not isinstance(instance, list) or len(instance) >= value

    def kw_maxItems(self, value: int, _: dict[str, Any]) -> Check:
        return lambda instance: not isinstance(instance, list) or len(instance) <= value

    def kw_uniqueItems(self, value: bool, _: dict[str, Any]) -> Check | None:
        if not value:
            return None

        def check(instance: Any) -> bool:
            if not isinstance(instance, list):
                return True
            for index, item in enumerate(instance):
                for other in instance[index + 1 :]:
                    if json_equal(item, other):
                        return False
            return True

        return check

    def kw_minLength(self, value: int, _: dict[str, Any]) -> Check:
        return lambda instance: not isinstance(instance, str) or len(instance) >= value

    def kw_maxLength(self, value: int, _: dict[str, Any]) -> Check:
        return lambda instance: not isinstance(instance, str) or len(instance) <= value

    def kw_pattern(self, value: str, _: dict[str, Any]) -> Check:
        pattern = re.compile(value)
        return (
            lambda instance: not isinstance(instance, str) or pattern.search(instance) is not None
        )

    def kw_format(self, value: str, _: dict[str, Any]) -> Check:
        if value != "regex":
            raise Unsupported(f"format {value}")
        return _is_regex

    def _number(self, compare: Callable[[Any], bool]) -> Check:
        def check(instance: Any) -> bool:
            if isinstance(instance, bool) or not isinstance(instance, (int, float)):
                return True
            return compare(instance)

        return check

    def kw_minimum(self, value: float, _: dict[str, Any]) -> Check:
        return self._number(lambda instance: instance >= value)

    def kw_maximum(self, value: float, _: dict[str, Any]) -> Check:
        return self._number(lambda instance: instance <= value)

    def kw_exclusiveMinimum(self, value: float, _: dict[str, Any]) -> Check:
        return self._number(lambda instance: instance > value)

    def kw_exclusiveMaximum(self, value: float, _: dict[str, Any]) -> Check:
        return self._number(lambda instance: instance < value)


def _always(_: Any) -> bool:
    return True


def _never(_: Any) -> bool:
    return False


def _is_regex(instance: Any) -> bool:
    if not isinstance(instance, str):
        return True
    try:
        re.compile(instance)
    except re.error:
        return False
    return True
