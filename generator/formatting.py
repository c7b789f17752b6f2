"""Formatting of generated Python: black where it is needed, and only there.

The templates emit code that is already black's output for almost every line.
Running black over a whole generated module costs about a millisecond a line
(most of a large `polytype generate`), so the formatter splits a rendered file
into top-level statements ("chunks") and looks, with a few regular expressions,
for anything black could change in each one: a line over the limit, a
single-quoted string or an escaped quote, a magic trailing comma on one line,
a docstring black would re-indent or strip, a comment without its space, a
numeric literal black would respell, a blank line black would drop. Chunks with
none of these are kept as rendered; the others go through black one by one
(in a process pool when there is much of it and more than one core). When the
split itself looks wrong (blank lines between chunks that black would change,
a chunk black cannot parse on its own, `# fmt:` directives), the whole file
goes through black, as before.

The cheap checks are conservative (a false alarm costs one black call), and
black stays the verifier: `nox -s lint` runs `black --check` over generated/,
and tests/test_formatting.py compares this function with black on every shipped
schema and a synthetic one. ``POLYTYPE_FORMAT=black`` formats whole files with
black (the reference path).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

LINE_LENGTH = 100
# Below this many lines of suspect code, black runs in this process.
PARALLEL_MIN_LINES = 4000


class FormattingError(Exception):
    """Generated code black cannot parse: a bug in a template, never in user input."""


_MODES: dict[int, Any] = {}


def _mode(line_length: int = LINE_LENGTH) -> Any:
    mode = _MODES.get(line_length)
    if mode is None:
        from black.mode import Mode, TargetVersion

        mode = _MODES[line_length] = Mode(
            line_length=line_length, target_versions={TargetVersion.PY311}
        )
    return mode


def _black(text: str, line_length: int = LINE_LENGTH) -> str:
    """black's output for `text`; raises black's InvalidInput when it does not parse."""
    import black

    return black.format_str(text, mode=_mode(line_length))


def black_format(text: str, path: str) -> str:
    """The whole file through black: the reference every fast path must equal."""
    from black.parsing import InvalidInput

    try:
        return _black(text)
    except InvalidInput as error:
        raise FormattingError(
            f"{path}: generated code does not parse ({error}); this is a polytype bug"
        ) from None


def format_python(text: str, path: str) -> str:
    """`text` as black would format it (see the module docstring for how)."""
    return format_many([(text, path)])[0]


Job = tuple[str, int]  # text for black, and the line length to format it with


def format_many(files: Sequence[tuple[str, str]]) -> list[str]:
    """Format several (text, path) files; black's work for all of them is pooled."""
    if os.environ.get("POLYTYPE_FORMAT") == "black":
        return [black_format(text, path) for text, path in files]
    plans = [_plan(text) for text, _ in files]
    jobs: list[Job] = []
    for plan in plans:
        if plan is not None:
            jobs.extend(plan.jobs)
    results = iter(_black_unique(jobs))
    out: list[str] = []
    for (text, path), plan in zip(files, plans, strict=True):
        if plan is None:
            out.append(black_format(text, path))
            continue
        formatted = [next(results) for _ in plan.jobs]
        assembled = plan.assemble(formatted)
        out.append(assembled if assembled is not None else black_format(text, path))
    return out


def _run_black(jobs: list[Job]) -> list[str | None]:
    """black over each job (None where one does not parse alone), in a process pool when large."""
    if not jobs:
        return []
    lines = sum(text.count("\n") for text, _ in jobs)
    workers = min(os.cpu_count() or 1, 8)
    if lines >= PARALLEL_MIN_LINES and workers > 1 and "fork" in _start_methods():
        import multiprocessing

        if multiprocessing.current_process().daemon:
            return _black_batch(jobs)  # already a pool worker (pipeline renders modules in one)

        import black  # noqa: F401 - imported before forking, so workers start warm

        batches = [jobs[index::workers] for index in range(workers)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(_black_batch, batches)
        results: list[str | None] = [None] * len(jobs)
        for index, batch in enumerate(done):
            results[index::workers] = batch
        return results
    return _black_batch(jobs)


def _start_methods() -> list[str]:
    import multiprocessing

    return multiprocessing.get_all_start_methods() if sys.platform != "win32" else []


def _black_batch(jobs: list[Job]) -> list[str | None]:
    from black.parsing import InvalidInput

    results: list[str | None] = []
    for text, line_length in jobs:
        try:
            results.append(_black(text, line_length))
        except InvalidInput:
            results.append(None)
    return results


def _black_unique(jobs: list[Job]) -> list[str | None]:
    """black over each distinct job once (the runtime parts repeat across modules and flavors)."""
    distinct = list(dict.fromkeys(jobs))
    done = dict(zip(distinct, _run_black(distinct), strict=True))
    return [done[job] for job in jobs]


# --- black's layout, for targets that build long statements ---------------------------------


def call_layout(head: str, args: Sequence[str], tail: str = ")", indent: int = 0) -> str:
    """`head` + the arguments + `tail` laid out as black lays out a call that ends a statement.

    `head` ends with the opening bracket, e.g. `X = frozenset(`; `indent` is the column of
    the statement. One line when it fits; else the arguments alone on the next line; else
    one argument a line with a trailing comma. Continuation lines carry their indentation,
    the first line none. A lone argument that is itself a collection literal too long for
    its line is exploded instead (black's way with `{...}` and `[...]`). Anything past the
    line length is left for the formatter to hand to black.
    """
    one_line = head + ", ".join(args) + tail
    if indent + len(one_line) <= LINE_LENGTH:
        return one_line
    pad, inner = " " * indent, " " * (indent + 4)
    body = ", ".join(args)
    if indent + 4 + len(body) <= LINE_LENGTH:
        return f"{head}\n{inner}{body}\n{pad}{tail}"
    if len(args) == 1 and args[0][:1] in "{[" and _literal_items(args[0]) is not None:
        items = _literal_items(args[0]) or []
        exploded = collection_layout(args[0][0], items, args[0][-1], indent + 4)
        return f"{head}\n{inner}{exploded}\n{pad}{tail}"
    lines = "".join(f"{inner}{arg},\n" for arg in args)
    return f"{head}\n{lines}{pad}{tail}"


def ternary_layout(head: str, expression: str, indent: int) -> str:
    """`head` (`x = `) and a conditional expression, as black lays them out at `indent`.

    A conditional expression has two delimiters of the same priority, so black keeps
    the invisible parentheses around it and, when the line is too long, moves the
    expression alone to the next line inside real ones.
    """
    one_line = head + expression
    if indent + len(one_line) <= LINE_LENGTH or indent + 4 + len(expression) > LINE_LENGTH:
        return one_line  # fits, or beyond this helper: the formatter hands it to black
    return f"{head}(\n{' ' * (indent + 4)}{expression}\n{' ' * indent})"


def literal_layout(head: str, opening: str, items: Sequence[str], closing: str) -> str:
    """`head` (e.g. `X: dict[str, int] = `) and a collection literal, as black lays it out."""
    one_line = head + opening + ", ".join(items) + closing
    if len(one_line) <= LINE_LENGTH or not items:
        return one_line
    return head + collection_layout(opening, items, closing, 0)


def collection_layout(opening: str, items: Sequence[str], closing: str, indent: int) -> str:
    """A collection literal exploded one item a line, with the magic trailing comma."""
    inner = " " * (indent + 4)
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + " " * indent + closing


def _literal_items(literal: str) -> list[str] | None:
    """The items of a `{...}`/`[...]` literal of plain strings, or None when it is anything else."""
    body = literal[1:-1]
    items = [item.strip() for item in body.split(", ")] if body else []
    if all(re.fullmatch(r'"[^"\\]*"', item) for item in items):
        return items
    return None


# --- the plan: chunks, and which of them black must see -------------------------------------


class _Plan:
    """A file as chunks, with black jobs for the suspect parts (whole chunks or single statements)."""

    def __init__(
        self,
        lines: list[str],
        chunks: list[tuple[int, int]],
        suspects: dict[int, list[int]],
        separators: list[int],
    ) -> None:
        self.lines = lines
        self.chunks = chunks  # (first line, end line) without the blank lines after
        self.separators = separators  # blank lines before each chunk but the first
        # (first line, end line, indentation) of each part black must format
        self.parts: list[tuple[int, int, int]] = []
        for index, suspect_lines in sorted(suspects.items()):
            self.parts.extend(_parts(lines, *chunks[index], suspect_lines))
        self.jobs: list[Job] = [
            ("".join(line[indent:] + "\n" for line in lines[first:end]), LINE_LENGTH - indent)
            for first, end, indent in self.parts
        ]

    def assemble(self, formatted: list[str | None]) -> str | None:
        replaced: dict[int, tuple[int, list[str]]] = {}
        for (first, end, indent), text in zip(self.parts, formatted, strict=True):
            if text is None:
                return None
            pad = " " * indent
            replaced[first] = (
                end,
                [pad + line if line else line for line in text.split("\n")[:-1]],
            )
        pieces: list[str] = []
        for index, (first, end) in enumerate(self.chunks):
            if index:
                pieces.extend([""] * self.separators[index - 1])
            position = first
            while position < end:
                if position in replaced:
                    position, new_lines = replaced[position]
                    pieces.extend(new_lines)
                else:
                    pieces.append(self.lines[position])
                    position += 1
        pieces.append("")
        return "\n".join(pieces)


def _parts(
    lines: list[str], first: int, end: int, suspect_lines: list[int]
) -> list[tuple[int, int, int]]:
    """The smallest statements around `suspect_lines` black can format alone, or the chunk."""
    whole = [(first, end, 0)]
    if end - first <= 3:
        return whole
    try:
        tree = ast.parse("\n".join(lines[first:end]))
    except SyntaxError:
        return whole
    parts: dict[int, tuple[int, int, int]] = {}
    for number in suspect_lines:
        statement = _innermost(tree.body, number - first + 1)
        if statement is None or isinstance(statement, _COMPOUND) or _is_string(statement):
            return whole
        start = first + statement.lineno - 1
        stop = first + (statement.end_lineno or statement.lineno)
        indent = statement.col_offset
        text = lines[start:stop]
        if (
            indent > LINE_LENGTH // 2
            or any(line[:indent].strip() for line in text)
            or '"""' in "".join(text)
            or len(lines[start]) - len(lines[start].lstrip(" ")) != indent
        ):
            return whole
        parts[start] = (start, stop, indent)
    return sorted(parts.values())


def _innermost(body: list[Any], lineno: int) -> Any:
    for statement in body:
        if statement.lineno <= lineno <= (statement.end_lineno or statement.lineno):
            for name in ("body", "orelse", "finalbody"):
                found = _innermost(getattr(statement, name, None) or [], lineno)
                if found is not None:
                    return found
            for handler in getattr(statement, "handlers", None) or []:
                found = _innermost(handler.body, lineno)
                if found is not None:
                    return found
            for case in getattr(statement, "cases", None) or []:
                found = _innermost(case.body, lineno)
                if found is not None:
                    return found
            return statement
    return None


def _is_string(statement: Any) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


_COMPOUND = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.Match,
)

_STATEMENT_START = re.compile(r"[A-Za-z_@#\"']")
_CONTINUES = re.compile(r"(?:else|elif|except|finally|case)\b")
_DEF = re.compile(r"(?:async\s+def|def|class|@)")
_TRIPLE = re.compile(r'(?<!\\)"""')


def _plan(text: str) -> _Plan | None:
    """Split `text` into chunks and flag the suspect ones; None: let black do the whole file."""
    if (
        not text.endswith("\n")
        or text.endswith("\n\n")
        or text.startswith("\n")
        or "# fmt:" in text
        or "\r" in text
        or "\t" in text
        or "\f" in text
        or "'''" in text
    ):
        return None
    lines = text.split("\n")  # the last element is "" (the text ends with a newline)
    chunks = _chunks(lines)
    if chunks is None:
        return None
    suspect_lines = _suspect_lines(text, lines)
    if suspect_lines is None:
        return None
    starts = [first for first, _ in chunks]
    suspects: dict[int, list[int]] = {}
    for line in sorted(suspect_lines):
        suspects.setdefault(bisect_right(starts, line) - 1, []).append(line)
    return _Plan(lines, chunks, suspects, _separators(lines, chunks))


def _chunks(lines: list[str]) -> list[tuple[int, int]] | None:
    """Top-level statements as (first, end) line ranges; comments attach to what follows."""
    starts: list[int] = []
    in_string = False
    pending_comment: int | None = None
    after_decorator = False
    for number, line in enumerate(lines[:-1]):
        if not in_string:
            if line and not line[0].isspace():
                if line[0] == "#":
                    if pending_comment is None:
                        pending_comment = number
                else:
                    if (
                        not after_decorator
                        and _STATEMENT_START.match(line)
                        and not _CONTINUES.match(line)
                    ):
                        starts.append(pending_comment if pending_comment is not None else number)
                    pending_comment = None
                    after_decorator = line[0] == "@"
            elif line:
                if pending_comment is not None:
                    return None  # a comment at column 0 inside a block: black moves it
            elif pending_comment is not None:
                starts.append(pending_comment)  # a comment standing alone is a chunk
                pending_comment = None
        if '"""' in line and len(_TRIPLE.findall(line)) % 2:
            in_string = not in_string
    if pending_comment is not None:
        starts.append(pending_comment)  # comments at the very end stand alone
    if in_string or not starts or starts[0] != 0:
        return None
    chunks: list[tuple[int, int]] = []
    bounds = starts + [len(lines) - 1]
    for first, following in zip(bounds, bounds[1:], strict=False):
        end = following
        while end > first and not lines[end - 1]:
            end -= 1
        chunks.append((first, end))
    return chunks


def _separators(lines: list[str], chunks: list[tuple[int, int]]) -> list[int]:
    """How many blank lines black leaves before each chunk (after the first).

    At the top level black keeps up to two blank lines between statements, puts
    exactly two around a function or class definition (a comment directly above a
    definition belongs to it, which is why comments start their chunk), exactly one
    after the module docstring and at least one after the imports.
    """
    wanted: list[int] = []
    previous = ""
    for index, (first, _) in enumerate(chunks):
        code = first
        while code < len(lines) - 1 and lines[code].startswith("#"):
            code += 1
        line = lines[code] if code < len(lines) - 1 else ""
        kind = (
            "def"
            if _DEF.match(line)
            else (
                "import"
                if line.startswith(("import ", "from "))
                else "docstring" if index == 0 and line.startswith(('"', "'")) else "other"
            )
        )
        if index:
            blank = min(first - chunks[index - 1][1], 2)
            if kind == "def" or previous == "def":
                blank = 2
            elif previous == "docstring":
                blank = 1
            elif previous == "import" and kind != "import":
                blank = max(blank, 1)
            wanted.append(blank)
        previous = kind
    return wanted


# Everything black could change that a line-by-line look can find. Strings and comments are
# matched whole, so a quote inside a comment or a `#` inside a string is not mistaken.
_TOKENS = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # triple-quoted string
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'  # double-quoted string
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"  # single-quoted string: black prefers double quotes
    r"|#[^\n]*",  # comment
    re.DOTALL,
)
# Code black would change, each with a literal or a small set of first characters so that
# the scan over a large file stays fast.
_SUSPECT_CODE = [
    re.compile(r",[ \t]*[)\]}]"),  # a magic trailing comma on one line: black explodes
    re.compile(r"[(\[{][ \t]*\n[ \t]*[)\]}]"),  # empty brackets across lines: black joins them
    re.compile(r"\\\n"),  # a backslash continuation
    re.compile(r" \n"),  # trailing whitespace
    re.compile(r"\n\n\n\n"),  # three blank lines
    re.compile(r":\n\n"),  # a blank line opening a block
    re.compile(r";[ \t]*\n"),  # a trailing semicolon
    re.compile(r"(?<=\S)[ \t]{2,}(?=[^\s#])"),  # a run of spaces inside code: black collapses it
    # numeric literals black respells: 1e+5, 1E5, 0XFF, 0xff, 1., .5 (JSON has no others);
    # a literal first, the digit before it checked by _respelled_number
    re.compile(r"e\+(?=\d)|E(?=[-+]?\d)|\.(?![\w.])|\.(?=\d)"),
    re.compile(r"0[XOB]|0x[0-9A-F]*[a-f]"),
]

# Long lines black cannot shorten and leaves alone: a comment on its own line, a one-line
# docstring (its quotes and spaces are checked with the other strings).
_LONG_BUT_STABLE = re.compile(r' *#[^\n]*| *"""[^"\\\n]+"""')
_CLOSING_ONLY = re.compile(r"[)\]}]+,?")  # its own check covers what is inside
_CLOSING_LINE = re.compile(r"\n[ ]*[)\]}][^\n]*")
_NESTED_DEF = re.compile(r"\n(?:\n)*([ ]+)(?:async def|def|class|@)[^\n]*")
_STRING_PREFIX = re.compile(r"[A-Za-z]{1,2}$")


def _suspect_lines(text: str, lines: list[str]) -> set[int]:
    """Line numbers (0-based) of everything black might change."""
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)

    def line_of(position: int) -> int:
        return bisect_right(offsets, position) - 1

    suspect: set[int] = set()
    for number, line in enumerate(lines):
        if len(line) > LINE_LENGTH or (not line.isascii() and _width(line) > LINE_LENGTH):
            if not _LONG_BUT_STABLE.fullmatch(line):
                suspect.add(number)
    token_starts: list[int] = []
    token_ends: list[int] = []
    for match in _TOKENS.finditer(text):
        token = match.group()
        start = match.start()
        token_starts.append(start)
        token_ends.append(match.end())
        if token[0] == "#":
            if not _comment_ok(text, start, token):
                suspect.add(line_of(start))
            continue
        if start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            prefix = _STRING_PREFIX.search(text, max(0, start - 2), start)
            if (
                prefix is None
                or prefix.group() not in ("r", "b", "f", "rb", "br", "fr", "rf")
                or "\\" in token
                or "'" in token
            ):
                suspect.add(line_of(start))
                continue
        if token.startswith('"""'):
            if not _docstring_ok(text, start, token):
                suspect.add(line_of(start))
                suspect.add(line_of(match.end() - 1))
        elif (token[0] == "'" or "\\" in token) and not _quotes_stable(token):
            suspect.add(line_of(start))

    def in_token(position: int) -> bool:
        index = bisect_right(token_starts, position) - 1
        return index >= 0 and position < token_ends[index]

    for pattern in _SUSPECT_CODE:
        for match in pattern.finditer(text):
            if in_token(match.start()):
                continue
            first = match.group()[0]
            if first == "," and _one_tuple(text, match.start()):
                continue
            if first in "eE." and not _respelled_number(text, match.start()):
                continue
            suspect.add(line_of(match.start()))
            suspect.add(line_of(match.end() - 1))
    for match in _CLOSING_LINE.finditer(text):
        # a line of closing brackets after a line without a trailing comma: black joins the
        # three lines when they fit in one
        number = line_of(match.start() + 1)
        previous = lines[number - 1].rstrip()
        if (
            previous
            and previous[-1] not in ",([{"
            and not _CLOSING_ONLY.fullmatch(previous.strip())
            and not in_token(match.start() + 1)
        ):
            opener = lines[number - 2] if number >= 2 else ""
            joined = len(opener) + len(previous.strip()) + len(lines[number].strip())
            if not opener.endswith(("(", "[", "{")) or joined <= LINE_LENGTH:
                suspect.add(number)
    for match in _NESTED_DEF.finditer(text):
        if in_token(match.start(1)):
            continue
        blank = match.group().count("\n") - 1
        number = line_of(match.start(1))
        previous = lines[number - blank - 1].strip()
        if previous.startswith("@") or previous.endswith(":"):
            if blank:
                suspect.add(number)
        elif blank != 1:
            suspect.add(number)
    return suspect


def _respelled_number(text: str, position: int) -> bool:
    """Whether the `e+`, `E` or `.` at `position` belongs to a number black would respell."""
    before = text[position - 1] if position else " "
    if text[position] in "eE":
        return before.isdigit()
    after = text[position + 1 : position + 2]
    if before.isdigit():
        return not (after.isdigit() or after.isalpha() or after == "_")  # `1.` but not `1.5`
    return after.isdigit() and not (before.isalnum() or before in "_.)]\"'")  # `.5`


def _one_tuple(text: str, comma: int) -> bool:
    """`(x,)` (not a call): black keeps that trailing comma."""
    if text[comma + 1 : comma + 2] != ")":
        return False
    line_start = text.rfind("\n", 0, comma) + 1
    depth = 0
    for position in range(comma - 1, line_start - 1, -1):
        char = text[position]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                before = text[position - 1] if position > line_start else " "
                return char == "(" and not (before.isalnum() or before in "_)]")
            depth -= 1
        elif char == "," and depth == 0:
            return False
        elif char in "\"'":
            return False
    return False


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def _comment_ok(text: str, start: int, token: str) -> bool:
    if token.rstrip() != token or not (token == "#" or token.startswith("# ")):
        return False
    if token.startswith("#  ") and "type:" in token:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if before.strip():
        # an inline comment: exactly two spaces before it
        return before.endswith("  ") and not before.endswith("   ")
    return True


_ESCAPES_TO_NORMALIZE = re.compile(r"\\[xuUN]")
_UNESCAPED_NEW_QUOTE = {q: re.compile(rf"(([^\\]|^)(\\\\)*){q}") for q in "'\""}
_ESCAPED_QUOTE = {q: re.compile(rf"([^\\]|^)\\((?:\\\\)*){q}") for q in "'\""}


def _quotes_stable(token: str) -> bool:
    """A one-line string without prefix that black's quote and escape normalization keeps.

    The quote choice follows black's `normalize_string_quotes`: double quotes unless the
    other quotes need fewer backslashes; unnecessary escaped quotes are removed.
    """
    if _ESCAPES_TO_NORMALIZE.search(token):
        return False  # \\x, \\u, \\N escapes: black may change their case
    orig, new = token[0], "'" if token[0] == '"' else '"'
    body = token[1:-1]
    unescaped = _sub_twice(_ESCAPED_QUOTE[new], rf"\1\2{new}", body)
    if unescaped != body:
        return False  # an escaped quote that needs no escape
    new_body = _sub_twice(_ESCAPED_QUOTE[orig], rf"\1\2{orig}", body)
    new_body = _sub_twice(_UNESCAPED_NEW_QUOTE[new], rf"\1\\{new}", new_body)
    orig_count, new_count = body.count("\\"), new_body.count("\\")
    if new_count > orig_count:
        return True
    return new_count == orig_count and orig == '"'


def _sub_twice(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    return pattern.sub(replacement, pattern.sub(replacement, text))


def _docstring_ok(text: str, start: int, token: str) -> bool:
    """A triple-quoted string black would leave exactly as it is, were it a docstring.

    Mirrors black's docstring handling: the first line stripped, the others re-indented
    to the statement's indentation and right-stripped, blank lines emptied, padding
    added next to a quote or a trailing backslash.
    """
    body = token[3:-3]
    if not body or body[0] == '"' or "\\" in body and re.search(r"\\\s*\n|\\[xuUN]|\\$", body):
        return False
    if "\n" not in body:
        return body == body.strip() and body[-1] != '"'
    line_start = text.rfind("\n", 0, start) + 1
    indent = text[line_start:start]
    if indent.strip():
        return False  # not a statement on its own line: not worth reasoning about
    first, *rest = body.split("\n")
    if first != first.strip():
        return False
    content = [line for line in rest if line.strip()]
    if not content:
        return False  # black pulls the closing quotes up to the first line
    if min(len(line) - len(line.lstrip(" ")) for line in content) != len(indent):
        return False
    for line in rest[:-1]:
        if line and (not line.strip() or line != line.rstrip()):
            return False
    last = rest[-1]
    if last.strip():
        return last == last.rstrip() and last[-1] != '"'
    return last == indent
