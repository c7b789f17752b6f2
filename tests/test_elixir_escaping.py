"""The Elixir literal filters (`ex_str`, `ex_atom`, `ex_doc`) on hostile input.

Two layers: a small Python model of the escapes `ex_str` emits proves exactness
for any string (hypothesis), and a compile test evaluates the filters' output
with the real `elixir` to prove it prints the input back, literally, without
running anything (`#{System.halt()}` must not end the VM).
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polytype.targets.base.render import ex_atom, ex_doc, ex_str

HOSTILE = [
    "",
    "plain text",
    "#{System.halt()}",
    "#{System.halt(1)} and \\#{not_escaped}",
    '"""',
    '"""\nSystem.halt()\n"""',
    '  """',
    '\t"""',
    '""" trailing',
    'a \\""" b',
    'ends with a quote"',
    '"starts with a quote',
    "back\\slash \\n not a newline \\",
    "trailing backslash\\",
    "\\",
    "line one\nline two\n\n  indented line\n",
    "carriage\r\nreturn\rlone",
    "tab\there",
    "nul\x00byte and escape\x1b[31m and del\x7f",
    "bidi \u202egnirts\u202c and zero\u200bwidth and \u2028separator\u2029",
    "emoji 🚀 and ü and 世界",
    '~S"""\nsigil inside\n"""',
    "'''single quotes'''",
    '\u00a0"""',
    '\u3000""" ideographic space',
    "end\ndo\nfn -> x end",
    "#",
    "#{",
    "}",
]

_EX_ESCAPE = re.compile(r"\\(?:u\{([0-9A-F]+)\}|(.))", re.DOTALL)
_SIMPLE = {"\\": "\\", '"': '"', "#": "#", "n": "\n", "t": "\t", "r": "\r"}


def decode_ex_str(literal: str) -> str:
    """Evaluate the subset of Elixir string escapes that `ex_str` emits (a model of the real thing)."""
    assert literal.startswith('"') and literal.endswith('"') and len(literal) >= 2
    body = literal[1:-1]

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return chr(int(match.group(1), 16))
        char = match.group(2)
        assert char in _SIMPLE, f"unexpected escape \\{char}"
        return _SIMPLE[char]

    # every `"` and `#` in the body must be escaped
    stripped = _EX_ESCAPE.sub("", body)
    assert '"' not in stripped and "#" not in stripped and "\\" not in stripped
    return _EX_ESCAPE.sub(replace, body)


def _no_raw_dangerous(text: str) -> None:
    for char in text:
        if char in "\n\t":
            continue
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cf", "Zl", "Zp"), f"raw {char!r} in {text!r}"


@pytest.mark.parametrize("value", HOSTILE)
def test_ex_str_is_exact_and_inert(value: str) -> None:
    literal = ex_str(value)
    assert decode_ex_str(literal) == value
    assert "\n" not in literal and "\r" not in literal
    _no_raw_dangerous(literal)
    assert "#{" not in literal.replace("\\#{", "")


text_without_surrogates = st.text(st.characters(blacklist_categories=["Cs"]), max_size=60)


@given(text_without_surrogates)
@settings(max_examples=300)
def test_ex_str_round_trips_any_text(value: str) -> None:
    assert decode_ex_str(ex_str(value)) == value


def test_ex_str_refuses_lone_surrogates() -> None:
    with pytest.raises(ValueError, match="surrogate"):
        ex_str("\ud800")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("accept_edits", ":accept_edits"),
        ("ok?", ":ok?"),
        ("foo-bar", ':"foo-bar"'),
        ("nil", ':"nil"'),
        ("true", ':"true"'),
        ("Foo", ':"Foo"'),
        ("#{x}", ':"\\#{x}"'),
        ("with space", ':"with space"'),
        ("", ':""'),
    ],
)
def test_ex_atom_quotes_when_needed(name: str, expected: str) -> None:
    assert ex_atom(name) == expected


def test_ex_doc_prefers_sigil() -> None:
    assert ex_doc("Hello #{world} \\ there") == '~S"""\n  Hello #{world} \\ there\n  """'


@pytest.mark.parametrize("value", ['"""', '  """ x', 'a \\""" b', "nul\x00", "bidi\u202e", "cr\r"])
def test_ex_doc_falls_back_to_escaped_heredoc(value: str) -> None:
    doc = ex_doc(value)
    assert doc.startswith('"""\n')
    body = doc[len('"""\n') : -len('\n  """')]
    assert decode_ex_str('"' + body.removeprefix("  ") + '"') == value


@pytest.mark.parametrize("value", HOSTILE)
def test_ex_doc_never_closes_early(value: str) -> None:
    doc = ex_doc(value, "    ")
    lines = doc.split("\n")
    assert lines[0] in ('~S"""', '"""') and lines[-1] == '    """'
    for line in lines[1:-1]:
        assert not line.lstrip(" \t").startswith('"""'), line
        assert line == "" or line.startswith("    ")
    if lines[0] == '~S"""':
        assert '\\"""' not in doc
    _no_raw_dangerous(doc)


# --- the real compiler ------------------------------------------------------

elixir = pytest.mark.skipif(shutil.which("elixir") is None, reason="elixir is not installed")


def _evaluate(snippets: list[tuple[str, str]]) -> tuple[list[str], str]:
    """Run a script that prints every (doc, string) pair base64-encoded, one line each."""
    parts = []
    for index, (doc, string) in enumerate(snippets):
        parts.append(
            f"defmodule PolytypeEscape{index} do\n"
            f"  @moduledoc {doc}\n"
            f"  def doc, do: @moduledoc\n"
            f"  def string, do: {string}\n"
            f"end\n"
            f'IO.puts(Base.encode64(PolytypeEscape{index}.doc()) <> " " <> '
            f"Base.encode64(PolytypeEscape{index}.string()))"
        )
    parts.append('IO.puts("done")')
    result = subprocess.run(
        ["elixir", "-e", "\n".join(parts)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines(), result.stderr


@elixir
def test_filters_compile_to_the_literal_text() -> None:
    snippets = [(ex_doc(value, "  "), ex_str(value)) for value in HOSTILE]
    lines, stderr = _evaluate(snippets)
    assert lines[-1] == "done", "the script stopped early: something was evaluated"
    assert "warning" not in stderr, stderr
    for value, line in zip(HOSTILE, lines[:-1], strict=True):
        doc_b64, string_b64 = line.split(" ")
        assert base64.b64decode(doc_b64).decode("utf-8") == value + "\n", json.dumps(value)
        assert base64.b64decode(string_b64).decode("utf-8") == value, json.dumps(value)


@elixir
def test_atoms_compile_to_the_name() -> None:
    names = [
        "accept_edits",
        "foo-bar",
        "nil",
        "true",
        "#{System.halt()}",
        'quote"d',
        "ok?",
        "emoji🚀",
    ]
    script = "\n".join(f"IO.puts(Base.encode64(Atom.to_string({ex_atom(name)})))" for name in names)
    result = subprocess.run(
        ["elixir", "-e", script + '\nIO.puts("done")'],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "done"
    assert [base64.b64decode(line).decode("utf-8") for line in lines[:-1]] == names
