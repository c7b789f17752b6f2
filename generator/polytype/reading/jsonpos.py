"""A small JSON parser that records the position of every value.

The standard library's decoder does the hard parts (strings, numbers); this
module walks the structure so that each object key and array item gets a
1-based line and column, addressed by JSON pointer. Duplicate keys are errors.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import re
from bisect import bisect_right
from collections.abc import Callable
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
