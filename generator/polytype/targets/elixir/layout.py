"""Elixir laid out as `mix format` lays it out, for the constructs the Elixir target emits.

Elixir may be missing where polytype runs, so the formatter cannot be called; the
target builds one-line snippets and these functions break the ones that do not fit
in `mix format`'s 98 columns the way it does:

- a call: one argument a line (`mix format` keeps a call broken that way even when
  it would fit, so a broken call is stable);
- a tuple: one element a line, aligned after the `{`;
- `def head, do: body`: `do:` on the next line, then the body on a line of its own;
- a block of statements or clauses: a blank line around every multi-line one,
  except right after a module attribute (`@doc false`);
- `case`/`cond` clauses: all on one line each, or all broken after `->` with blank
  lines between them.

Snippets are scanned, not parsed: strings (with their escapes) and brackets are
skipped, which is enough for what the target writes. tests/test_formatting.py runs
`mix format --check-formatted` over the generated project when Elixir is installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

WIDTH = 98
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}


def fits(line: str, indent: int) -> bool:
    return indent + len(line) <= WIDTH and "\n" not in line


@dataclass(frozen=True)
class Call:
    """`name(arg, ...)` as a view builds it: the arguments are known, never re-read."""

    name: str
    args: tuple[Code, ...]

    def __str__(self) -> str:
        return flat(self)


@dataclass(frozen=True)
class Items:
    """`[a, b]` (`opening` "[") or `{a, b}` (`opening` "{") as a view builds it."""

    opening: str
    items: tuple[Code, ...]

    def __str__(self) -> str:
        return flat(self)


# What a view hands the layout: a call or a list/tuple with its parts, or a term that
# `mix format` never breaks (a name, a number, a string literal, an atom).
Code = str | Call | Items


def call(name: str, *args: Code) -> Call:
    return Call(name, args)


def flat(code: Code) -> str:
    """`code` on one line."""
    if isinstance(code, Call):
        return f"{code.name}(" + ", ".join(flat(arg) for arg in code.args) + ")"
    if isinstance(code, Items):
        closing = "]" if code.opening == "[" else "}"
        return code.opening + ", ".join(flat(item) for item in code.items) + closing
    return code


def laid(code: Code, indent: int) -> str:
    """`code` at column `indent`, broken as `mix format` breaks it where it does not fit:
    a call or a list one element a line, a tuple one element a line aligned after `{`.
    Continuation lines carry their indentation; the first line has none. A `str` is a
    term that never breaks."""
    one_line = flat(code)
    if fits(one_line, indent) or isinstance(code, str):
        return one_line
    if isinstance(code, Items) and code.opening == "{":
        if len(code.items) < 2:
            return one_line
        pad = " " * (indent + 1)
        return "{" + (",\n" + pad).join(laid(item, indent + 1) for item in code.items) + "}"
    parts = code.args if isinstance(code, Call) else code.items
    if not parts:
        return one_line
    pad = " " * (indent + 2)
    head = f"{code.name}(" if isinstance(code, Call) else "["
    closing = ")" if isinstance(code, Call) else "]"
    inner = (",\n" + pad).join(laid(part, indent + 2) for part in parts)
    return f"{head}\n{pad}{inner}\n{' ' * indent}{closing}"


def _outside_strings(text: str, start: int = 0) -> Iterator[tuple[int, int]]:
    """(index, bracket depth before it) of every character from `start` that is not inside
    a string literal (the quotes themselves included)."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == '"':
            index += 1
            while index < len(text) and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
        else:
            yield index, depth
            if char in _OPEN:
                depth += 1
            elif char in _CLOSE:
                depth -= 1
        index += 1


def _top_level(text: str) -> list[int]:
    """Positions in `text` outside every string and bracket pair (depth 0)."""
    return [
        index
        for index, depth in _outside_strings(text)
        if depth == 0 and text[index] not in _OPEN and text[index] not in _CLOSE
    ]


def _find_top(text: str, needle: str) -> int:
    """The first position of `needle` (no quote, bracket or `_` in it) outside every
    string and bracket pair, or -1. String contents are masked and depths counted by
    `str` methods: the target asks this of every long line it lays out."""
    at = text.find(needle)
    if at < 0:
        return -1
    masked = _STRING.sub(_blank, text) if '"' in text else text
    at = masked.find(needle)
    while at >= 0:
        opened = sum(masked.count(bracket, 0, at) for bracket in _OPEN)
        if opened == sum(masked.count(bracket, 0, at) for bracket in _CLOSE):
            return at
        at = masked.find(needle, at + 1)
    return -1


# A string literal (with its escapes) as `_outside_strings` skips it: to its closing
# quote, or to the end of an unterminated one.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.DOTALL)


def _blank(literal: re.Match[str]) -> str:
    """A string literal with all but its opening quote replaced, position for position."""
    return '"' + "_" * (len(literal.group()) - 1)


def _split_args(inner: str) -> list[str]:
    """`a, f(b, c), "d, e"` -> [`a`, `f(b, c)`, `"d, e"`]."""
    args: list[str] = []
    start = 0
    for position in _top_level(inner):
        if inner[position] == ",":
            args.append(inner[start:position].strip())
            start = position + 1
    args.append(inner[start:].strip())
    return [arg for arg in args if arg]


def _closing(text: str, opening: int) -> int:
    """The index of the bracket closing the one at `opening`."""
    for index, depth in _outside_strings(text, opening):
        if depth == 1 and text[index] in _CLOSE:
            return index
    return -1


def expression(text: str, indent: int, force: bool = False) -> str:
    """`text` (one line) at column `indent`, broken where it does not fit (or `force`d to).

    Continuation lines carry their indentation; the first line has none.
    """
    if fits(text, indent) and not force:
        return text
    if text.startswith("[") and _closing(text, 0) == len(text) - 1:
        items = _split_args(text[1:-1])
        if items:
            pad = " " * (indent + 2)
            laid = [expression(item, indent + 2) for item in items]
            return "[\n" + pad + (",\n" + pad).join(laid) + "\n" + " " * indent + "]"
        return text
    if text.startswith("{") and _closing(text, 0) == len(text) - 1:
        items = _split_args(text[1:-1])
        if len(items) > 1:
            pad = " " * (indent + 1)
            laid = [expression(item, indent + 1) for item in items]
            return "{" + (",\n" + pad).join(laid) + "}"
        return text
    opening = text.find("(")
    if opening > 0 and _closing(text, opening) == len(text) - 1 and _find_top(text, " ") < 0:
        args = _split_args(text[opening + 1 : -1])
        if args:
            pad = " " * (indent + 2)
            laid = [expression(arg, indent + 2) for arg in args]
            return (
                text[: opening + 1]
                + "\n"
                + pad
                + (",\n" + pad).join(laid)
                + "\n"
                + " " * indent
                + ")"
            )
    return text


def definition(text: str, indent: int) -> str:
    """`def head, do: body` (or `defp`, or a `test` call) at column `indent`."""
    if fits(text, indent):
        return text
    at = _find_top(text, ", do: ")
    if at < 0:
        return expression(text, indent)
    head, body = text[:at], text[at + len(", do: ") :]
    pad = " " * (indent + 2)
    if not fits(head + ",", indent):
        # continuation lines align after the keyword: `def ` is 4 columns, `defp ` 5
        aligned = " " * (indent + len(head.partition(" ")[0]) + 1)
        guard = _find_top(head, " when ")
        if guard > 0 and fits(head[:guard], indent):
            return f"{head[:guard]}\n{aligned}when {head[guard + 6 :]},\n{aligned}do: {body}"
        broken = _broken_head(head, indent)
        if broken is not None:
            return f"{broken},\n{aligned}do: {body}"
    if fits("do: " + body, indent + 2):
        return f"{head},\n{pad}do: {body}"
    return f"{head},\n{pad}do:\n{pad}  {expression(body, indent + 4)}"


def _broken_head(head: str, indent: int) -> str | None:
    """`def name(arg, ...)` too long for its line: one argument a line, as in a def head."""
    keyword, _, call = head.partition(" ")
    opening = call.find("(")
    if opening <= 0 or _closing(call, opening) != len(call) - 1:
        return None  # a guard, or no arguments
    args = _split_args(call[opening + 1 : -1])
    aligned = indent + len(keyword) + 1  # continuation lines align after `def `/`defp `
    pad = " " * (aligned + 2)
    laid: list[str] = []
    for arg in args:
        at = _find_top(arg, " = ")
        if not fits(arg, aligned + 2) and at > 0:
            arg = f"{arg[:at]} =\n{' ' * (aligned + 4)}{arg[at + 3 :]}"
        laid.append(arg)
    closing = " " * aligned + ")"
    return f"{keyword} {call[: opening + 1]}\n{pad}" + f",\n{pad}".join(laid) + f"\n{closing}"


def _comparison(text: str, indent: int, ending: str) -> str:
    """`a != b` (column `indent`) too long: a list hugs the operator, anything else goes under."""
    if fits(text + ending, indent):
        return text
    at = _find_top(text, " != ")
    if at < 0:
        if text.startswith("not "):  # `not is_nil(x)`: the call breaks, lined up with `not`
            return "not " + expression(text[4:], indent, force=True)
        return text
    left, right = text[:at], text[at + 4 :]
    if right.startswith("[") and _closing(right, 0) == len(right) - 1:
        return f"{left} != {expression(right, indent)}"
    return f"{left} !=\n{' ' * (indent + 2)}{right}"


def assignment(variable: str, text: str, indent: int) -> str:
    """`variable = text`; a conditional that does not fit goes under it, keywords broken."""
    one_line = f"{variable} = {text}"
    if fits(one_line, indent):
        return one_line
    pad = " " * (indent + 2)
    if text.startswith("if "):
        condition_end = _find_top(text, ", do: ")
        else_at = _find_top(text, ", else: ")
        if 0 < condition_end < else_at:
            condition = text[:condition_end]
            then = text[condition_end + len(", do: ") : else_at]
            otherwise = text[else_at + len(", else: ") :]
            keywords = indent + 4
            if not fits(condition + ",", indent + 2) and _find_top(condition, " or ") > 0:
                # `if a or\n b,`: the keywords then line up with the condition's first word
                at = _find_top(condition, " or ")
                right = _comparison(condition[at + 4 :], indent + 7, "")
                condition = f"{condition[:at]} or\n{' ' * (indent + 7)}{right}"
                keywords = indent + 5
            return (
                f"{variable} =\n{pad}{condition},\n"
                + _keyword_value("do", then, keywords, ",")
                + "\n"
                + _keyword_value("else", otherwise, keywords, "")
            )
    return f"{variable} =\n{pad}{expression(text, indent + 2)}"


def _keyword_value(key: str, value: str, indent: int, ending: str) -> str:
    """`key: value` of a keyword list broken one pair a line (column `indent`)."""
    pad = " " * indent
    if fits(f"{key}: {value}{ending}", indent):
        return f"{pad}{key}: {value}{ending}"
    return f"{pad}{key}:\n{pad}  {expression(value, indent + 2)}{ending}"


def pair(text: str, separator: str, indent: int, ending: str) -> str:
    """`key: value` or `"key" => value` in a broken map or struct type (column `indent`):
    the value goes under the key when the line is too long."""
    if fits(text + ending, indent):
        return text
    at = _find_top(text, separator)
    if at < 0:
        return text
    key, value = text[: at + len(separator)].rstrip(), text[at + len(separator) :]
    return f"{key}\n{' ' * (indent + 2)}{expression(value, indent + 2)}"


def arrow_clause(pattern: str, body: str, indent: int, broken: bool) -> str:
    """`pattern -> body` of a `case`/`cond`; `broken` puts the body under the pattern."""
    if not broken:
        return f"{pattern} -> {body}"
    pad = " " * (indent + 2)
    return f"{pattern} ->\n{pad}{expression(body, indent + 2)}"


def arrow_clauses(clauses: Sequence[tuple[str, str]], indent: int) -> list[str]:
    """The clauses of one `case`/`cond`: one line each when all fit, else all broken."""
    broken = not all(fits(f"{pattern} -> {body}", indent) for pattern, body in clauses)
    laid = [arrow_clause(pattern, body, indent, broken) for pattern, body in clauses]
    if not broken:
        return laid
    result: list[str] = []
    for index, clause in enumerate(laid):
        if index:
            result.append("")
        result.append(clause)
    return result


def block(statements: Sequence[str], indent: int) -> str:
    """Statements one after another at column `indent`, blank lines as `mix format` puts them.

    A statement's continuation lines already carry their indentation; "" is a blank
    line the caller wants. Returns the lines joined, without a final newline.
    """
    lines: list[str] = []
    previous: str | None = None
    pad = " " * indent
    for statement in statements:
        if statement == "":
            if lines and lines[-1] != "":
                lines.append("")
            previous = None
            continue
        if (
            previous is not None
            and ("\n" in statement or "\n" in previous)
            and not previous.startswith("@")
            and lines[-1] != ""
        ):
            lines.append("")
        lines.append(pad + statement)
        previous = statement
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


def keyword_call(head: str, pairs: Sequence[str], indent: int) -> str:
    """`defstruct a: nil, b: 1`: broken one pair a line, aligned after `head `."""
    one_line = f"{head} " + ", ".join(pairs)
    if fits(one_line, indent) and len(pairs) <= 1:
        return one_line
    column = indent + len(head) + 1
    pad = " " * column
    laid: list[str] = []
    for index, pair in enumerate(pairs):
        ending = "," if index < len(pairs) - 1 else ""
        key, _, value = pair.partition(": ")
        if not fits(pair + ending, column) and value:
            if value.startswith("[") and _closing(value, 0) == len(value) - 1:
                pair = f"{key}: {expression(value, column)}"
            else:
                pair = f"{key}:\n{pad}  {value}"
        laid.append(pair)
    return f"{head} " + (",\n" + pad).join(laid)


def list_literal(items: Sequence[str], indent: int, prefix: str = "") -> str:
    """`prefix[a, b]`, one item a line (closing bracket under `prefix`) when it does not fit."""
    one_line = prefix + "[" + ", ".join(items) + "]"
    if fits(one_line, indent) or not items:
        return one_line
    pad = " " * (indent + 2)
    laid = [expression(item, indent + 2) for item in items]
    return prefix + "[\n" + ",\n".join(pad + item for item in laid) + "\n" + " " * indent + "]"


def union_type(head: str, members: Sequence[str], indent: int) -> str:
    """`@type t :: A | B`, one member a line under `::` when it does not fit."""
    one_line = f"{head} :: " + " | ".join(members)
    if fits(one_line, indent):
        return one_line
    pad = " " * (indent + 8)
    if fits(" | ".join(members), indent + 8):
        return f"{head} ::\n{pad}" + " | ".join(members)
    return f"{head} ::\n{pad}" + f"\n{pad}| ".join(members)
