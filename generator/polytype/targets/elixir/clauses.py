"""Function clauses and `with` steps laid out at their column in a module body.

A clause is a `layout.Clause` (one line, laid out where it goes) or a block written
from column 0; these place them where `mix format` puts them: a one-line `def` broken
when too long, a block moved into place, a `with` step's call put under its pattern
when the line does not fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from polytype.targets.elixir import layout

# A function clause: one line (`layout.Clause`), or a block written from column 0 (`str`).
Block = layout.Clause | str


def with_step(pattern: layout.Code, call: layout.Code, ending: str) -> str:
    """`pattern <- call` of a `with` (column 9), the call under it when the line is too long
    (a `{:ok, variable}` pattern too long for its line is filled as a tuple is; `mix format`
    does not count the ` <-` after it)."""
    step = f"{layout.flat(pattern)} <- {layout.flat(call)}"
    if layout.fits(step + ending, 9):
        return step
    return f"{layout.laid(pattern, 9)} <-\n{' ' * 11}{layout.laid(call, 11)}"


def block_head(keyword: str, name: str, argument: str, guard: str = "") -> str:
    """The first line(s) of a block clause of a module body, written from column 0."""
    return _unshift(layout.block_head(keyword, name, argument, guard, 2))


def _unshift(text: str) -> str:
    """Lines laid out at column 2, written from column 0 (`_shift` moves them back)."""
    return text.replace("\n  ", "\n")


def _shift(text: str, indent: int) -> str:
    """A block written from column 0 (its first line aside) moved to column `indent`."""
    pad = " " * indent
    first, *rest = text.split("\n")
    return "\n".join([first, *(pad + line if line else line for line in rest)])


def clause_at(clause: Block, indent: int) -> str:
    """A `def`/`defp` clause at `indent`: one-liners laid out, blocks moved into place."""
    if isinstance(clause, str):
        return _shift(clause, indent)
    return layout.definition(clause, indent)


def clause_block(clauses: Sequence[Block], indent: int = 2) -> str:
    """Clauses at `indent`, one after another, laid out as a block."""
    return layout.block([clause_at(clause, indent) for clause in clauses], indent)
