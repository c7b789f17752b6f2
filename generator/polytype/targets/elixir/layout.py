"""Elixir laid out as `mix format` lays it out, for the constructs the Elixir target emits.

Elixir may be missing where polytype runs, so the formatter cannot be called. The
views build code with its parts (a `Call` and its arguments, `Items` of a list or
tuple, a `Clause` with its head, guard and body, a `Conditional`), never text to be
read again, and the only thing left to decide here is what depends on widths: whether
a line fits in `mix format`'s 98 columns, counting what precedes the code on its line (a
key, `!=`, `::`) and what follows it (a `,` or closing bracket), and if not:

- a call, a list or a map: one element a line (`mix format` keeps a call broken that
  way even when it would fit, so a broken call is stable); a list or a map stays on the
  line of its key, `=>` or `::`, a map entry's other values go under the key;
- a tuple: filled element by element, each on the line so far when it fits there, else
  on a line of its own aligned after the `{`;
- `fn head -> body end`: the body under the head, `end` on a line of its own;
- `def head, do: body`: `do:` on the next line, then the body on a line of its own
  (a head too long by itself breaks first: the guard, else the argument);
- a block of statements or clauses: a blank line around every multi-line one,
  except right after a module attribute (`@doc false`);
- `case`/`cond` clauses: all on one line each, or all broken after `->` with blank
  lines between them.

A plain `str` is a term that never breaks (a name, a number, a string or an atom).
tests/test_formatting.py runs `mix format --check-formatted` over the generated
project when Elixir is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH = 98


def fits(line: str, indent: int) -> bool:
    return indent + len(line) <= WIDTH and "\n" not in line


@dataclass(frozen=True)
class Call:
    """`name(arg, ...)` as a view builds it: the arguments are known, never re-read."""

    name: str
    args: tuple[Code, ...]
    one_line: str = field(init=False, repr=False, compare=False)  # `flat`, worked out once

    def __post_init__(self) -> None:
        line = f"{self.name}(" + ", ".join(map(flat, self.args)) + ")"
        object.__setattr__(self, "one_line", line)

    def __str__(self) -> str:
        return self.one_line


@dataclass(frozen=True)
class Items:
    """`[a, b]` (`opening` "[") or `{a, b}` (`opening` "{") as a view builds it."""

    opening: str
    items: tuple[Code, ...]
    one_line: str = field(init=False, repr=False, compare=False)  # `flat`, worked out once

    def __post_init__(self) -> None:
        line = self.opening + ", ".join(map(flat, self.items)) + _CLOSING[self.opening]
        object.__setattr__(self, "one_line", line)

    def __str__(self) -> str:
        return self.one_line


@dataclass(frozen=True)
class Alternatives:
    """`a | b | c` (a typespec) as a view builds it."""

    members: tuple[Code, ...]
    one_line: str = field(init=False, repr=False, compare=False)  # `flat`, worked out once

    def __post_init__(self) -> None:
        line = " | ".join(map(flat, self.members))
        object.__setattr__(self, "one_line", line)

    def __str__(self) -> str:
        return self.one_line


def alternatives(*members: Code) -> Alternatives:
    """`a | b`, nested alternatives flattened into one."""
    flattened: list[Code] = []
    for member in members:
        flattened.extend(member.members if isinstance(member, Alternatives) else (member,))
    return Alternatives(tuple(flattened))


@dataclass(frozen=True)
class Arrow:
    """`key => value`, an entry of a map (a map typespec's `optional(K) => V`)."""

    key: str
    value: Code
    one_line: str = field(init=False, repr=False, compare=False)  # `flat`, worked out once

    def __post_init__(self) -> None:
        line = f"{self.key} => {flat(self.value)}"
        object.__setattr__(self, "one_line", line)

    def __str__(self) -> str:
        return self.one_line


@dataclass(frozen=True)
class Fn:
    """`fn head -> body end`, an anonymous function of one clause."""

    head: str
    body: Code
    one_line: str = field(init=False, repr=False, compare=False)  # `flat`, worked out once

    def __post_init__(self) -> None:
        line = f"fn {self.head} -> {flat(self.body)} end"
        object.__setattr__(self, "one_line", line)

    def __str__(self) -> str:
        return self.one_line


# What a view hands the layout: a call, a list/tuple/map, a typespec union, a map entry or
# an anonymous function with its parts, or a term that `mix format` never breaks (a name,
# a number, a string literal, an atom).
Code = str | Call | Items | Alternatives | Arrow | Fn

_CLOSING = {"[": "]", "{": "}", "%{": "}"}


def call(name: str, *args: Code) -> Call:
    return Call(name, args)


def flat(code: Code) -> str:
    """`code` on one line (each part's line is worked out when the part is built: laying
    code out asks for it at every level)."""
    return code if isinstance(code, str) else code.one_line


def hugs(code: Code, before: str = "", column: int = 0) -> bool:
    """A list or a map stays on the line of what precedes it (`before`, from `column`:
    `key: [`, `=> %{`, `:: [`) when that much fits, broken inside."""
    return (
        isinstance(code, Items)
        and code.opening in ("[", "%{")
        and column + len(before) + len(code.opening) <= WIDTH
    )


def laid(code: Code, indent: int, start: int | None = None, tail: int = 0) -> str:
    """`code` starting at column `start` (default `indent`) with `tail` columns after it on
    its last line (a `,`, a closing bracket, ` do`), broken as `mix format` breaks it where
    it does not fit: a call, list or map one element a line (at `indent` + 2, the closing
    bracket at `indent`), a tuple filled element by element aligned after its `{`, a union
    one member a line behind `|`, a map entry's value under its key unless it is a list or
    a map, an `fn`'s body under its head. Continuation lines carry their indentation; the
    first line has none. A `str` is a term that never breaks."""
    column = indent if start is None else start
    one_line = flat(code)
    if isinstance(code, str) or column + len(one_line) + tail <= WIDTH:
        return one_line
    if isinstance(code, Alternatives):  # one a line, each after the first behind a `|`
        first, *rest = code.members
        pad = "\n" + " " * indent + "| "
        laid_rest = [
            laid(member, indent + 2, tail=tail if index == len(rest) - 1 else 0)
            for index, member in enumerate(rest)
        ]
        return laid(first, indent, column, 0 if rest else tail) + "".join(
            pad + member for member in laid_rest
        )
    if isinstance(code, Arrow):
        if hugs(code.value, f"{code.key} => ", column):
            return f"{code.key} => " + laid(code.value, indent, column + len(code.key) + 4, tail)
        return f"{code.key} =>\n{' ' * (indent + 2)}{laid(code.value, indent + 2, tail=tail)}"
    if isinstance(code, Fn):
        body = laid(code.body, indent + 2)
        return f"fn {code.head} ->\n{' ' * (indent + 2)}{body}\n{' ' * indent}end"
    if isinstance(code, Items) and code.opening == "{":
        return _filled(code.items, indent, column, tail)
    parts = code.args if isinstance(code, Call) else code.items
    if not parts:
        return one_line
    pad = " " * (indent + 2)
    head = f"{code.name}(" if isinstance(code, Call) else code.opening
    closing = ")" if isinstance(code, Call) else _CLOSING[code.opening]
    inner = (",\n" + pad).join(
        laid(part, indent + 2, tail=1 if index < len(parts) - 1 else 0)
        for index, part in enumerate(parts)
    )
    return f"{head}\n{pad}{inner}\n{' ' * indent}{closing}"


def _filled(items: Sequence[Code], indent: int, column: int, tail: int) -> str:
    """A tuple too long for one line, `{` at `column`: each element goes on the line so far
    when it fits there (with its `,`, or the `}` and `tail` after the last), else on a line
    of its own aligned after the `{`; an element too long by itself breaks."""
    text = "{"
    column += 1
    for index, item in enumerate(items):
        last = index == len(items) - 1
        after = tail + 1 if last else 1
        if index:
            if column + 1 + len(flat(item)) + after <= WIDTH:
                text += " "
                column += 1
            else:
                text += "\n" + " " * (indent + 1)
                column = indent + 1
        laid_item = laid(item, indent + 1, column, after)
        text += laid_item + ("}" if last else ",")
        line = laid_item.rpartition("\n")
        column = (len(line[2]) if line[1] else column + len(laid_item)) + 1
    return text


@dataclass(frozen=True)
class Clause:
    """`keyword name(argument) when guard, do: body`: a one-line function clause as a
    view builds it (`guard` "" for none)."""

    keyword: str  # "def" or "defp"
    head: Call
    guard: str
    body: Code

    def head_text(self) -> str:
        when = f" when {self.guard}" if self.guard else ""
        return f"{self.keyword} {flat(self.head)}{when}"

    def __str__(self) -> str:
        return f"{self.head_text()}, do: {flat(self.body)}"


def clause(keyword: str, name: str, argument: str, body: Code, guard: str = "") -> Clause:
    return Clause(keyword, Call(name, (argument,)), guard, body)


def definition(clause: Clause, indent: int) -> str:
    """`clause` at column `indent`: on one line when it fits, else `do:` under the head
    (the head broken first when it does not fit on its own), then the body under `do:`."""
    text = str(clause)
    if fits(text, indent):
        return text
    head = clause.head_text()
    pad = " " * (indent + 2)
    if not fits(head + ",", indent):
        # continuation lines align after the keyword: `def ` is 4 columns, `defp ` 5
        aligned = " " * (indent + len(clause.keyword) + 1)
        bare = f"{clause.keyword} {flat(clause.head)}"
        do = _do(clause.body, len(aligned))
        if clause.guard and fits(bare, indent):
            return f"{bare}\n{aligned}when {clause.guard},\n{aligned}{do}"
        if clause.head.args:
            guard = f"\n{aligned}when {clause.guard}" if clause.guard else ""
            return f"{_broken_head(clause, indent)}{guard},\n{aligned}{do}"
    return f"{head},\n{pad}{_do(clause.body, indent + 2)}"


def _do(body: Code, indent: int) -> str:
    """`do: body` at column `indent`, the body under `do:` when the line is too long."""
    if fits("do: " + flat(body), indent):
        return "do: " + flat(body)
    return f"do:\n{' ' * (indent + 2)}{laid(body, indent + 2)}"


def block_head(keyword: str, name: str, argument: str, guard: str, indent: int) -> str:
    """`keyword name(argument) when guard do` opening a block at column `indent`; a head
    too long by itself breaks its argument, `when` then under it."""
    head = clause(keyword, name, argument, "", guard)
    text = head.head_text() + " do"
    if fits(text, indent) or fits(f"{keyword} {flat(head.head)}", indent):
        return text
    aligned = " " * (indent + len(keyword) + 1)
    when = f"\n{aligned}when {guard}" if guard else ""
    return f"{_broken_head(head, indent)}{when} do"


def _broken_head(clause: Clause, indent: int) -> str:
    """`def name(arg, ...)` too long for its line: one argument a line, as in a def head;
    an argument `pattern = variable` that does not fit breaks after its `=`."""
    aligned = indent + len(clause.keyword) + 1  # continuation lines align after `def `
    pad = " " * (aligned + 2)
    laid_args: list[str] = []
    for argument in map(flat, clause.head.args):
        pattern, equals, variable = argument.rpartition(" = ")
        if not fits(argument, aligned + 2) and equals:
            argument = f"{pattern} =\n{' ' * (aligned + 4)}{variable}"
        laid_args.append(argument)
    closing = " " * aligned + ")"
    return (
        f"{clause.keyword} {clause.head.name}(\n{pad}"
        + f",\n{pad}".join(laid_args)
        + f"\n{closing}"
    )


@dataclass(frozen=True)
class Conditional:
    """`if left or right, do: then, else: otherwise`, `right` either `not is_nil(x)`
    (`compared` "") or `x != compared`."""

    left: str
    checked: str  # the value `right` looks at
    compared: Code  # what it must differ from; "" for `not is_nil(checked)`
    then: Code
    otherwise: Code

    def right(self) -> str:
        if self.compared == "":
            return f"not is_nil({self.checked})"
        return f"{self.checked} != {flat(self.compared)}"

    def __str__(self) -> str:
        condition = f"{self.left} or {self.right()}"
        return f"if {condition}, do: {flat(self.then)}, else: {flat(self.otherwise)}"


def _right(conditional: Conditional, indent: int) -> str:
    """The right of `or` at column `indent`, too long: a list hugs the `!=`, anything else
    goes under it; `not is_nil(x)` breaks the call, lined up with `not`."""
    text = conditional.right()
    if fits(text, indent):  # `mix format` does not count the `,` after the condition
        return text
    compared = conditional.compared
    if compared == "":
        return "not " + _forced(call("is_nil", conditional.checked), indent)
    if isinstance(compared, Items) and compared.opening == "[":
        start = indent + len(conditional.checked) + 4
        return f"{conditional.checked} != {laid(compared, indent, start)}"
    return f"{conditional.checked} !=\n{' ' * (indent + 2)}{flat(compared)}"


def _forced(code: Call, indent: int) -> str:
    """A call broken one argument a line even where it would fit."""
    pad = " " * (indent + 2)
    inner = (",\n" + pad).join(laid(arg, indent + 2) for arg in code.args)
    return f"{code.name}(\n{pad}{inner}\n{' ' * indent})"


def assignment(variable: str, conditional: Conditional, indent: int) -> str:
    """`variable = conditional`; one that does not fit goes under it, keywords broken."""
    one_line = f"{variable} = {conditional}"
    if fits(one_line, indent):
        return one_line
    pad = " " * (indent + 2)
    condition = f"if {conditional.left} or {conditional.right()}"
    keywords = indent + 4
    if not fits(condition + ",", indent + 2):
        # `if a or\n b,`: the keywords then line up with the condition's first word
        right = _right(conditional, indent + 7)
        condition = f"if {conditional.left} or\n{' ' * (indent + 7)}{right}"
        keywords = indent + 5
    return (
        f"{variable} =\n{pad}{condition},\n"
        + _keyword_value("do", conditional.then, keywords, ",")
        + "\n"
        + _keyword_value("else", conditional.otherwise, keywords, "")
    )


def assigned(variable: str, code: Code, indent: int) -> str:
    """`variable = code` at column `indent`; one that does not fit puts `code` on the next
    line, two columns in, broken there as `laid` breaks it (as `mix format` does)."""
    one_line = f"{variable} = {flat(code)}"
    if fits(one_line, indent):
        return one_line
    return f"{variable} =\n{' ' * (indent + 2)}{laid(code, indent + 2)}"


def _keyword_value(key: str, value: Code, indent: int, ending: str) -> str:
    """`key: value` of a keyword list broken one pair a line (column `indent`)."""
    pad = " " * indent
    if fits(f"{key}: {flat(value)}{ending}", indent):
        return f"{pad}{key}: {flat(value)}{ending}"
    return f"{pad}{key}:\n{pad}  {laid(value, indent + 2, tail=len(ending))}{ending}"


def pair(key: str, value: Code, indent: int, ending: str) -> str:
    """`key: value` or `"key" => value` (`key` with its `:` or ` =>`) in a broken map or
    struct type (column `indent`): when the line is too long, a list or a map breaks after
    the key, anything else goes under it."""
    text = f"{key} {flat(value)}"
    if fits(text + ending, indent):
        return text
    if hugs(value, f"{key} ", indent):
        return f"{key} {laid(value, indent, indent + len(key) + 1, len(ending))}"
    return f"{key}\n{' ' * (indent + 2)}{laid(value, indent + 2, tail=len(ending))}"


def arrow_clause(pattern: str, body: Code, indent: int, broken: bool) -> str:
    """`pattern -> body` of a `case`/`cond`; `broken` puts the body under the pattern."""
    if not broken:
        return f"{pattern} -> {flat(body)}"
    pad = " " * (indent + 2)
    return f"{pattern} ->\n{pad}{laid(body, indent + 2)}"


def arrow_clauses(clauses: Sequence[tuple[str, Code]], indent: int) -> list[str]:
    """The clauses of one `case`/`cond`: one line each when all fit, else all broken."""
    broken = not all(fits(f"{pattern} -> {flat(body)}", indent) for pattern, body in clauses)
    laid_clauses = [arrow_clause(pattern, body, indent, broken) for pattern, body in clauses]
    if not broken:
        return laid_clauses
    result: list[str] = []
    for index, clause in enumerate(laid_clauses):
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


def keyword_call(head: str, pairs: Sequence[tuple[str, Code]], indent: int) -> str:
    """`defstruct a: nil, b: 1` (each key with its `:`): broken one pair a line, aligned
    after `head `."""
    one_line = f"{head} " + ", ".join(f"{key} {flat(value)}" for key, value in pairs)
    if fits(one_line, indent) and len(pairs) <= 1:
        return one_line
    column = indent + len(head) + 1
    pad = " " * column
    laid_pairs: list[str] = []
    for index, (key, value) in enumerate(pairs):
        ending = "," if index < len(pairs) - 1 else ""
        laid_pairs.append(pair(key, value, column, ending))
    return f"{head} " + (",\n" + pad).join(laid_pairs)


def list_literal(items: Sequence[Code], indent: int, prefix: str = "") -> str:
    """`prefix[a, b]`, one item a line (closing bracket under `prefix`) when it does not fit."""
    one_line = prefix + flat(Items("[", tuple(items)))
    if fits(one_line, indent) or not items:
        return one_line
    pad = " " * (indent + 2)
    laid_items = [
        laid(item, indent + 2, tail=1 if index < len(items) - 1 else 0)
        for index, item in enumerate(items)
    ]
    return (
        prefix + "[\n" + ",\n".join(pad + item for item in laid_items) + "\n" + " " * indent + "]"
    )


def type_spec(head: str, code: Code, indent: int) -> str:
    """`@type t :: code` at column `indent`; too long, a list or a map breaks after `::`
    (its elements at `indent` + 8), anything else goes under `::` at `indent` + 8."""
    one_line = f"{head} :: {flat(code)}"
    if fits(one_line, indent):
        return one_line
    if hugs(code, f"{head} :: ", indent):
        return f"{head} :: " + laid(code, indent + 6, indent + len(head) + 4)
    return f"{head} ::\n{' ' * (indent + 8)}{laid(code, indent + 8)}"


def union_type(head: str, members: Sequence[str], indent: int) -> str:
    """`@type t :: A | B`, one member a line under `::` when it does not fit."""
    return type_spec(head, alternatives(*members), indent)
