"""Where a large generated Python module may be cut into runs of whole top-level statements.

Tools that hold a module's syntax tree whole (ruff formatting it, `ast.parse` reading
its imports) take about 30 to 300 bytes a byte of source: a module of several megabytes
goes to them in pieces of about a given size instead, cut where no statement can span
the cut.
"""

from __future__ import annotations

import re

# Before a top-level `class`/`def`/decorator that follows two blank lines: the two blank
# lines are what the formatter writes there in any case, and nothing before them changes
# how the statement after them is laid out (or the other way round).
BLANK_LINES_CUT = re.compile(r"\n\n\n(?=class |def |async def |@)")
# Before any line that starts a top-level statement (one at column 0 that does not go on
# an `if` or `try` above it): enough to read a module's names, not to lay it out.
STATEMENT_CUT = re.compile(r"\n(?=[A-Za-z_@])(?!(?:else|elif|except|finally)\b)")


def top_level_spans(text: str, size: int, cut_at: re.Pattern[str]) -> list[tuple[int, int]]:
    """(start, end) of each piece of `text`, each about `size` characters or more, cut at
    a match of `cut_at` that is neither inside a `\"\"\"` string (polytype's only
    multi-line strings) nor right after a decorator's line. A piece keeps the first
    newline of its cut; the rest of the cut (blank lines) belongs to none."""
    spans: list[tuple[int, int]] = []
    start = 0
    quotes = 0  # triple quotes before `searched`
    searched = 0
    while True:
        cut = cut_at.search(text, start + size)
        while cut is not None:
            quotes += text.count('"""', searched, cut.start())
            searched = cut.start()
            if quotes % 2 == 0 and not _after_decorator(text, cut.start()):
                break
            cut = cut_at.search(text, cut.end())
        if cut is None:
            break
        spans.append((start, cut.start() + 1))
        start = searched = cut.end()
    spans.append((start, len(text)))
    return spans


def _after_decorator(text: str, newline: int) -> bool:
    """Whether the line that ends at `newline` is a decorator's (what follows belongs to it)."""
    return text.startswith("@", text.rfind("\n", 0, newline) + 1)
