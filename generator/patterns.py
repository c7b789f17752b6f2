"""Regular expressions as the targets' engines read them.

Schemas carry ECMA-262 patterns, which Python's `re` reads (and which is how jsonschema
and the Python decoders check them). Elixir's `Regex` is PCRE, which differs in its
escapes; `pcre_pattern` translates, and `pcre_problem` names what PCRE cannot do at all.
"""

from __future__ import annotations

import re
import unicodedata

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
    spelling (`\\p{L}`, `\\p{Greek}`). Everything else is passed through: the two
    engines read it alike.
    """
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char != "\\" or index + 1 >= len(pattern):
            out.append(char)
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
