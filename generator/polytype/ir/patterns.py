"""Regular expressions as the targets' engines read them.

Schemas carry ECMA-262 patterns, which Python's `re` reads (and which is how jsonschema
and the Python decoders check them) except for Unicode property escapes (`\\p{Letter}`):
`python_pattern` spells those as code point classes. Elixir's `Regex` is PCRE, which
differs in its escapes; `pcre_pattern` translates, and `pcre_problem` names what PCRE
cannot do at all.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections.abc import Callable

from polytype import ir

_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")
_HEX8 = re.compile(r"[0-9A-Fa-f]{8}")
_PROPERTY = re.compile(r"\{(?:(General_Category|gc|Script|sc|Script_Extensions|scx)=)?(\w+)\}")

# ECMA-262's long General_Category names (and aliases), which PCRE knows only by their
# short names: `\p{Letter}` is `\p{L}`.
_CATEGORIES = {
    "Letter": "L",
    "Cased_Letter": "L&",
    "Uppercase_Letter": "Lu",
    "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm",
    "Other_Letter": "Lo",
    "Mark": "M",
    "Combining_Mark": "M",
    "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me",
    "Number": "N",
    "Decimal_Number": "Nd",
    "digit": "Nd",
    "Letter_Number": "Nl",
    "Other_Number": "No",
    "Punctuation": "P",
    "punct": "P",
    "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps",
    "Close_Punctuation": "Pe",
    "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf",
    "Other_Punctuation": "Po",
    "Symbol": "S",
    "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc",
    "Modifier_Symbol": "Sk",
    "Other_Symbol": "So",
    "Separator": "Z",
    "Space_Separator": "Zs",
    "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp",
    "Other": "C",
    "Control": "Cc",
    "cntrl": "Cc",
    "Format": "Cf",
    "Surrogate": "Cs",
    "Private_Use": "Co",
    "Unassigned": "Cn",
}


def pcre_pattern(pattern: str) -> str:
    """`pattern` (JSON Schema's ECMA-262 regex, as Python's `re` reads it) for PCRE.

    PCRE has no `\\uXXXX`, `\\UXXXXXXXX` or `\\N{NAME}` escapes: they become `\\x{...}`
    (a UTF-16 surrogate pair `\\uD83D\\uDE00` one code point). A Unicode property
    `\\p{...}` by a long General_Category name or as `Script=Name` takes PCRE's
    spelling (`\\p{L}`, `\\p{Greek}`). A NUL character, which ends a pattern for PCRE,
    becomes `\\x{0}`. Everything else is passed through: the two engines read it alike.
    """
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char != "\\" or index + 1 >= len(pattern):
            # a NUL in the pattern ends it for PCRE (a C string): written as its escape
            out.append("\\x{0}" if char == "\0" else char)
            index += 1
            continue
        escape = pattern[index + 1]
        code: int | None = None
        end = index + 2
        if escape == "u" and _HEX4.match(pattern, index + 2):
            code, end = int(pattern[index + 2 : index + 6], 16), index + 6
            if 0xD800 <= code < 0xDC00 and pattern.startswith("\\u", end):
                if _HEX4.match(pattern, end + 2):
                    low = int(pattern[end + 2 : end + 6], 16)
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        end += 6
        elif escape == "U" and _HEX8.match(pattern, index + 2):
            code, end = int(pattern[index + 2 : index + 10], 16), index + 10
        elif escape == "N" and pattern.startswith("{", index + 2) and "}" in pattern[index + 3 :]:
            close = pattern.index("}", index + 3)
            try:
                code = ord(unicodedata.lookup(pattern[index + 3 : close]))
            except KeyError:
                code = None
            end = close + 1
        elif escape == "\0":  # an escaped NUL is the NUL itself
            code = 0
        elif escape in "pP" and (found := _PROPERTY.match(pattern, index + 2)):
            name = found.group(2)
            if found.group(1) in (None, "General_Category", "gc"):
                name = _CATEGORIES.get(name, name)
            out.append(f"\\{escape}{{{name}}}")
            index = found.end()
            continue
        if code is None:
            out.append(pattern[index:end])
        else:
            out.append(f"\\x{{{code:X}}}")
        index = end
    return "".join(out)


def python_pattern(pattern: str) -> str:
    """`pattern` for Python's `re`, which has no Unicode property escapes: `\\p{L}`,
    `\\p{Letter}`, `\\p{gc=Lu}` become the class of their code points (`[A-Za-z...]`,
    by this Python's Unicode database), `\\P{...}` its complement; inside a class
    (`[\\p{L}\\d]`) the ranges join it. A pattern without them is returned as it is;
    what this cannot spell (a script, `\\P` inside a class) stays, and `re` refuses it.
    """
    if "\\p" not in pattern and "\\P" not in pattern:
        return pattern
    out: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            escape = pattern[index + 1]
            found = _PROPERTY.match(pattern, index + 2) if escape in "pP" else None
            categories = _general_categories(found) if found else None
            if found is None or categories is None or (escape == "P" and in_class):
                out.append(pattern[index : index + 2])
                index += 2
                continue
            ranges = _class_ranges(categories)
            if in_class:
                out.append(ranges)
            else:
                out.append(f"[{'^' if escape == 'P' else ''}{ranges}]")
            index = found.end()
            continue
        if char == "[" and not in_class:
            in_class = True
            if pattern.startswith("[^]", index) or pattern.startswith("[]", index):
                out.append(pattern[index : index + (3 if pattern[index + 1] == "^" else 2)])
                index += 3 if pattern[index + 1] == "^" else 2
                continue
        elif char == "]" and in_class:
            in_class = False
        out.append(char)
        index += 1
    return "".join(out)


def _general_categories(found: re.Match[str]) -> frozenset[str] | None:
    """The two-letter General_Category values a `\\p{...}` names, or None (a script)."""
    if found.group(1) not in (None, "General_Category", "gc"):
        return None
    name = _CATEGORIES.get(found.group(2), found.group(2))
    if name in ("L&", "LC"):
        return frozenset({"Lu", "Ll", "Lt"})
    if name in _ALL_CATEGORIES:
        return frozenset({name})
    if len(name) == 1:
        grouped = frozenset(c for c in _ALL_CATEGORIES if c.startswith(name))
        return grouped or None
    return None


_ALL_CATEGORIES = frozenset(
    {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps",
     "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs",
     "Co", "Cn"}
)  # fmt: skip


@functools.cache
def _class_ranges(categories: frozenset[str]) -> str:
    """The code points of `categories` as the inside of a character class, escaped."""
    ranges: list[str] = []
    start: int | None = None
    for code in range(sys.maxunicode + 2):
        inside = code <= sys.maxunicode and unicodedata.category(chr(code)) in categories
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            last = code - 1
            ranges.append(
                _escaped(start) if start == last else f"{_escaped(start)}-{_escaped(last)}"
            )
            start = None
    return "".join(ranges)


def _escaped(code: int) -> str:
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


_GROUP_NAME = re.compile(r"\(\?P?<([^>=!]*)>")


def pcre_problem(pattern: str) -> str | None:
    """Why PCRE (Elixir's `Regex`, in Unicode mode) would refuse `pattern`, or None."""
    translated = pcre_pattern(pattern)
    for match in re.finditer(r"\\x\{([0-9A-F]+)\}", translated):
        if 0xD800 <= int(match.group(1), 16) <= 0xDFFF:
            return "a lone UTF-16 surrogate escape (\\uD800-\\uDFFF) matches no Unicode text"
    for match in _GROUP_NAME.finditer(pattern):
        if not match.group(1).isascii():
            return f"the group name {match.group(1)!r} is not ASCII, which PCRE requires"
    return None


# Keywords whose value is a schema, a list of schemas, or a map of schemas (2020-12,
# and the older spellings a fragment may still hold).
_SCHEMA = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "items",
        "additionalItems",
        "contains",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_SCHEMA_MAPS = frozenset({"properties", "dependentSchemas", "$defs", "definitions"})


def translated(
    schema: ir.JSONData, translate: Callable[[str], str], patterns: list[str] | None = None
) -> ir.JSONData:
    """A JSON Schema fragment (a schema check's) with every `pattern` and
    `patternProperties` key translated by `translate` for a target's engine, everything
    else as it is. The translated patterns are appended to `patterns` when it is given.

    Only schema positions are walked: a `const`, `enum` or `properties` key that happens
    to be spelled `pattern` is data, not a keyword.
    """
    if not isinstance(schema, ir.FrozenJSONObject):
        return schema
    found = [] if patterns is None else patterns
    entries: list[tuple[str, ir.JSONData]] = []
    for key, value in schema.items:
        if key == "pattern" and isinstance(value, str):
            value = translate(value)
            found.append(value)
        elif key == "patternProperties" and isinstance(value, ir.FrozenJSONObject):
            value = ir.FrozenJSONObject(
                tuple(
                    (translate(source), translated(item, translate, found))
                    for source, item in value.items
                )
            )
            found.extend(source for source, _ in value.items)
        elif key in _SCHEMA_LISTS and isinstance(value, tuple):
            value = tuple(translated(item, translate, found) for item in value)
        elif key in _SCHEMA_MAPS and isinstance(value, ir.FrozenJSONObject):
            value = ir.FrozenJSONObject(
                tuple((name, translated(item, translate, found)) for name, item in value.items)
            )
        elif key in _SCHEMA:
            value = translated(value, translate, found)
        entries.append((key, value))
    return ir.FrozenJSONObject(tuple(entries))
