"""A small JSON parser that records the position of every value.

The standard library's decoder does the hard parts (strings, numbers); this
module walks the structure so that each object key and array item gets a
1-based line and column, addressed by JSON pointer. Duplicate keys are errors.

Positions are only read when something is wrong, so `parse_plain` first tries the
standard library's C decoder and records positions only when one is asked for.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from polytype.diagnostics import Position, join_pointer

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NEWLINE = re.compile("\n")
_NUMBER = json.scanner.NUMBER_RE
# The C-accelerated string scanner the standard decoder itself uses.
_SCANSTRING = "scanstring"  # not declared in typeshed, hence the lookup by name
_scanstring: Callable[[str, int, bool], tuple[str, int]] = getattr(
    json.decoder, _SCANSTRING
)  # noqa: B009 (not in typeshed)


class JSONSyntaxError(Exception):
    def __init__(self, message: str, position: Position) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def parse(text: str, max_depth: int = 64) -> tuple[Any, dict[str, Position]]:
    """Parse `text`; return the value and a JSON-pointer → position map."""
    return _Parser(text, max_depth).parse()


class _NotPlain(Exception):
    """The C decoder met something `parse` words as an error or `load` reports."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _NotPlain  # a duplicate key
    return result


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NotPlain  # `1e999`: the loader words that
    return value


def _constant(literal: str) -> Any:
    raise _NotPlain  # NaN, Infinity: not JSON


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object, parse_float=_finite, parse_constant=_constant
)
# An escape that may stand for a surrogate (the loader reports lone ones).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_plain(text: str, max_depth: int = 64) -> tuple[Any, Mapping[str, Position]] | None:
    """`parse` by the C decoder, positions taken only when asked for; None when the text
    is not plainly valid (a syntax error, a duplicate key, nesting deeper than
    `max_depth`, a number beyond floats, a surrogate escape): `parse` then words the error
    or the loader its problem. The values are the ones `parse` gives."""
    if _SURROGATE_ESCAPE.search(text) is not None:
        return None
    try:
        data = _DECODER.decode(text)
    except (ValueError, RecursionError, _NotPlain):  # JSONDecodeError is a ValueError
        return None
    if _too_deep(data, max_depth):
        return None
    return data, LazyPositions(text, max_depth)


def _too_deep(data: Any, max_depth: int) -> bool:
    """Whether a value lies deeper than `max_depth` (the root is at depth 0)."""
    if not isinstance(data, (dict, list)):
        return False
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()  # a dict or a list
        children = value.values() if isinstance(value, dict) else value
        if not children:
            continue
        if depth >= max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class LazyPositions(Mapping[str, Position]):
    """The JSON-pointer → position map of a text `parse_plain` read, each entry found when
    asked for: looking up `/a/b` lists the positions of the keys of the root and of `/a`
    (values in between are skipped by the C scanner), so a run asks for the positions of
    a few thousand definitions without walking the whole text in Python. Iterating
    parses it all."""

    def __init__(self, text: str, max_depth: int) -> None:
        self._text = text
        self._max_depth = max_depth
        self._parser = _Parser(text, max_depth)
        self._found: dict[str, Position] = {"": self._parser.position(self._parser.skip(0))}
        self._starts: dict[str, int] = {"": self._parser.skip(0)}  # where each value begins
        self._expanded: set[str] = set()
        self._all: dict[str, Position] | None = None

    def __getitem__(self, pointer: str) -> Position:
        found = self._found.get(pointer)
        if found is not None:
            return found
        if pointer.startswith("/"):
            parent = ""
            for token in pointer[1:].split("/"):
                if parent not in self._expanded:
                    if parent not in self._starts:
                        break
                    self._expand(parent)
                parent = f"{parent}/{token}"
            found = self._found.get(pointer)
            if found is not None:
                return found
        raise KeyError(pointer)

    def _expand(self, pointer: str) -> None:
        """Record the position and start of every key or item of the container at `pointer`."""
        self._expanded.add(pointer)
        text, parser = self._text, self._parser
        offset = self._starts[pointer]
        opening = text[offset]
        if opening not in "{[":
            return
        offset = parser.skip(offset + 1)
        if text[offset] in "}]":
            return
        index = 0
        while True:
            if opening == "{":
                key_at = offset
                key, offset = _scanstring(text, offset + 1, True)
                child = join_pointer(pointer, key)
                self._found[child] = parser.position(key_at)
                offset = parser.skip(parser.skip(offset) + 1)  # past the ':'
            else:
                child = f"{pointer}/{index}"
                self._found[child] = parser.position(offset)
                index += 1
            self._starts[child] = offset
            offset = parser.skip(_SKIP_VALUE(text, offset)[1])
            if text[offset] != ",":
                return
            offset = parser.skip(offset + 1)

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def _everything(self) -> dict[str, Position]:
        if self._all is None:
            self._all = _Parser(self._text, self._max_depth).parse()[1]
        return self._all


# Skips a value of a text known to be valid (its result is dropped): the decoder's C
# scanner, (value, end) of the value at an offset (not declared in typeshed).
_SCAN_ONCE = "scan_once"
_SKIP_VALUE: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), _SCAN_ONCE)


class _Parser:
    def __init__(self, text: str, max_depth: int) -> None:
        self.text = text
        self.max_depth = max_depth
        self.positions: dict[str, Position] = {}
        self.line_starts = [0] + [match.end() for match in _NEWLINE.finditer(text)]

    def position(self, offset: int) -> Position:
        line = bisect_right(self.line_starts, offset) - 1
        return Position(line + 1, offset - self.line_starts[line] + 1)

    def fail(self, message: str, offset: int) -> JSONSyntaxError:
        return JSONSyntaxError(message, self.position(offset))

    def skip(self, offset: int) -> int:
        match = _WHITESPACE.match(self.text, offset)
        assert match is not None
        return match.end()

    def parse(self) -> tuple[Any, dict[str, Position]]:
        offset = self.skip(0)
        self.positions[""] = self.position(offset)
        value, offset = self.value(offset, "", 0)
        offset = self.skip(offset)
        if offset != len(self.text):
            raise self.fail("extra data after the JSON value", offset)
        return value, self.positions

    def value(self, offset: int, pointer: str, depth: int) -> tuple[Any, int]:
        if depth > self.max_depth:
            raise self.fail(f"nesting deeper than {self.max_depth} levels", offset)
        if offset >= len(self.text):
            raise self.fail("unexpected end of input", offset)
        char = self.text[offset]
        if char == "{":
            return self.object(offset + 1, pointer, depth)
        if char == "[":
            return self.array(offset + 1, pointer, depth)
        if char == '"':
            return self.string(offset + 1)
        for word, result in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, offset):
                return result, offset + len(word)
        match = _NUMBER.match(self.text, offset)
        if match is None:
            raise self.fail(self.unexpected(char), offset)
        integer, fraction, exponent = match.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), match.end()
        return int(integer), match.end()

    @staticmethod
    def unexpected(char: str) -> str:
        if char == "'":
            return 'unexpected character "\'": JSON strings use double quotes'
        if char in "/#":
            return f"unexpected character {char!r}: JSON has no comments"
        if char in "]}":
            return f"unexpected {char!r}: a value is missing"
        return f"unexpected character {char!r}"

    def string(self, offset: int) -> tuple[str, int]:
        try:
            return _scanstring(self.text, offset, True)
        except json.JSONDecodeError as error:
            raise self.fail(error.msg, error.pos) from None

    def object(self, offset: int, pointer: str, depth: int) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        offset = self.skip(offset)
        if self.text.startswith("}", offset):
            return result, offset + 1
        while True:
            offset = self.skip(offset)
            if not self.text.startswith('"', offset):
                char = self.text[offset : offset + 1]
                if char == "}":
                    raise self.fail("trailing comma before '}'", offset)
                detail = f": {self.unexpected(char)}" if char and char in "'/#" else ""
                raise self.fail(f"expected a string key{detail}", offset)
            key_offset = offset
            key, offset = self.string(offset + 1)
            if key in result:
                raise self.fail(f"duplicate key {key!r}", key_offset)
            child = join_pointer(pointer, key)
            self.positions[child] = self.position(key_offset)
            offset = self.skip(offset)
            if not self.text.startswith(":", offset):
                raise self.fail("expected ':' after a key", offset)
            offset = self.skip(offset + 1)
            result[key], offset = self.value(offset, child, depth + 1)
            offset = self.skip(offset)
            if self.text.startswith(",", offset):
                offset += 1
                continue
            if self.text.startswith("}", offset):
                return result, offset + 1
            raise self.fail("expected ',' or '}'", offset)

    def array(self, offset: int, pointer: str, depth: int) -> tuple[list[Any], int]:
        result: list[Any] = []
        offset = self.skip(offset)
        if self.text.startswith("]", offset):
            return result, offset + 1
        while True:
            offset = self.skip(offset)
            if result and self.text.startswith("]", offset):
                raise self.fail("trailing comma before ']'", offset)
            child = join_pointer(pointer, len(result))
            self.positions[child] = self.position(offset)
            item, offset = self.value(offset, child, depth + 1)
            result.append(item)
            offset = self.skip(offset)
            if self.text.startswith(",", offset):
                offset += 1
                continue
            if self.text.startswith("]", offset):
                return result, offset + 1
            raise self.fail("expected ',' or ']'", offset)
