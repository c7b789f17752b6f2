"""What a union's dispatch rule is called wherever polytype explains it: warnings, docstrings,
docs (the lowering of such unions is `polytype.lowering.unions`)."""

from __future__ import annotations

from polytype import ir

# How each rule is worded wherever polytype explains it.
RULES: dict[ir.UnionMatch, str] = {
    "one_of": "oneOf: exactly one member must match",
    "any_of": "anyOf: first member that matches",
}


def documented(union: ir.UnionType, doc: str) -> str:
    """A union's doc text, with its rule appended when it tries its members."""
    if not union.tries_members:
        return doc
    return f"{doc}\n\nDecoding tries each member in turn ({RULES[union.match]})."
