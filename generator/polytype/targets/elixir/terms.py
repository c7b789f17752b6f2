"""JSON values as Elixir term literals, laid out as `mix format` lays them out.

The Elixir target writes JSON data into generated source in two places: defaults,
consts and test values (`ex_json_literal`, one line), and the JSON Schema fragments of
schema checks, which can be large (`json_term`, broken over lines the way `mix format`
breaks maps and lists). `check_schema` prepares such a fragment for the runtime's
evaluator: its patterns as PCRE reads them.
"""

from __future__ import annotations

from polytype import ir
from polytype.ir.patterns import pcre_pattern, translated
from polytype.targets.base.render import ex_str
from polytype.targets.elixir.layout import Code, Items, fits


def ex_int(value: int) -> str:
    """An integer as `mix format` writes it: digits grouped by `_` from six digits on."""
    digits = str(abs(value))
    if len(digits) >= 6:
        digits = f"{abs(value):_}"
    return ("-" if value < 0 else "") + digits


def ex_float(value: float) -> str:
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exponent.lstrip('+')}"
    if "." not in text:
        text += ".0"
    whole, _, fraction = text.partition(".")
    return f"{ex_int(int(whole)) if whole != '-0' else whole}.{fraction}"


def ex_number(value: int | float) -> str:
    return ex_float(value) if isinstance(value, float) else ex_int(value)


def ex_json_literal(value: ir.JSONData) -> str:
    """An Elixir term equal to the JSON value as `:jiffy` decodes it (maps with string keys)."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return ex_number(value)
    if isinstance(value, str):
        return ex_str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(ex_json_literal(item) for item in value) + "]"
    return (
        "%{"
        + ", ".join(f"{ex_str(key)} => {ex_json_literal(item)}" for key, item in value.items)
        + "}"
    )


def json_code(value: ir.JSONData) -> Code:
    """`ex_json_literal(value)` with its lists as parts (a list breaks; a map, as the
    target writes it on one line, does not)."""
    if isinstance(value, tuple):
        return Items("[", tuple(json_code(item) for item in value))
    return ex_json_literal(value)


def json_term(value: ir.JSONData, start: int, indent: int, ending: str = "") -> str:
    """`ex_json_literal(value)` beginning at column `start` of a line indented `indent`,
    followed by `ending`: on one line when it fits, else a map or list broken one entry a
    line (entries at `indent + 2`, the closing bracket at `indent`); an entry whose value
    does not fit keeps a map or list after its `=>` (when `key => [` fits) and moves
    anything else under it."""
    one_line = ex_json_literal(value)
    if (
        start + len(one_line + ending) <= 98
        or not value
        or not isinstance(value, (tuple, ir.FrozenJSONObject))
    ):
        return one_line
    pad = " " * (indent + 2)
    if isinstance(value, tuple):
        items = [
            json_term(item, indent + 2, indent + 2, "," if index < len(value) - 1 else "")
            for index, item in enumerate(value)
        ]
        return "[\n" + pad + (",\n" + pad).join(items) + "\n" + " " * indent + "]"
    entries = [
        _entry(key, item, indent + 2, "," if index < len(value.items) - 1 else "")
        for index, (key, item) in enumerate(value.items)
    ]
    return "%{\n" + pad + (",\n" + pad).join(entries) + "\n" + " " * indent + "}"


def _entry(key: str, value: ir.JSONData, indent: int, ending: str) -> str:
    head = f"{ex_str(key)} =>"
    one_line = f"{head} {ex_json_literal(value)}"
    if fits(one_line + ending, indent):
        return one_line
    opening = "[" if isinstance(value, tuple) else "%{"
    if (
        value
        and isinstance(value, (tuple, ir.FrozenJSONObject))
        and fits(f"{head} {opening}", indent)
    ):
        return f"{head} {json_term(value, 98, indent, ending)}"
    return f"{head}\n{' ' * (indent + 2)}{json_term(value, indent + 2, indent + 2, ending)}"


def check_schema(schema: ir.JSONData, patterns: list[str] | None = None) -> ir.JSONData:
    """A JSON Schema fragment as the runtime's evaluator reads it: every `pattern` and
    `patternProperties` key (ECMA-262) translated for PCRE (`patterns.translated`).
    The translated patterns are appended to `patterns` when it is given."""
    return translated(schema, pcre_pattern, patterns)
