"""The Jinja environment every target renders with, and its escaping filters.

Templates only loop and print. Anything that turns schema text into code
(quoting, escaping, comment wrapping) is a filter here, tested on hostile input.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.abc import Traversable
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from polytype import __version__
from polytype.cachedir import cache_dir
from polytype.ir.fixtures import FixtureCase
from polytype.package_data import template_root


class _TraversableLoader(jinja2.BaseLoader):
    """Loads templates from an importlib.resources tree (works from a wheel or a checkout)."""

    def __init__(self, root: Traversable) -> None:
        self.root = root

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Any]:
        node = self.root
        for part in template.split("/"):
            node = node.joinpath(part)
        if not node.is_file():
            raise jinja2.TemplateNotFound(template)
        return node.read_text(encoding="utf-8"), None, lambda: True


# `\\uD83D\\uDE00` from json.dumps, not preceded by an escaped backslash: one non-BMP character.
_JSON_SURROGATE_PAIR = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})"
)


def _join_surrogates(match: re.Match[str]) -> str:
    high, low = int(match.group(2), 16), int(match.group(3), 16)
    code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    return f"{match.group(1)}\\U{code:08x}"


def py_str(value: str) -> str:
    """A Python string literal, pure ASCII, that evaluates to `value` exactly (any characters).

    The escapes are JSON's, which Python shares, except that a character beyond
    U+FFFF becomes `\\U0001f600` (Python reads JSON's surrogate pair as two
    separate, unencodable surrogates).
    """
    if type(value) is str:  # noqa: E721 (a str subclass, or any other JSON value, below)
        return _py_str(value)
    return _JSON_SURROGATE_PAIR.sub(_join_surrogates, json.dumps(value, ensure_ascii=True))


@lru_cache(maxsize=65536)
def _py_str(value: str) -> str:
    """`py_str` of a string: what `json.dumps` prints for one (its ASCII encoder), cached,
    since a module prints the same names and keys many times."""
    literal: str = encode_basestring_ascii(value)
    if value.isascii():
        return literal
    return _JSON_SURROGATE_PAIR.sub(_join_surrogates, literal)


@lru_cache(maxsize=16384)
def py_comment(text: str, width: int = 88, prefix: str = "# ") -> str:
    """`text` as comment lines; every line break in the text starts a new comment line
    (cached: a module repeats its fields' descriptions and constraint notes)."""
    lines: list[str] = []
    for paragraph in _safe_text(text).splitlines() or [""]:
        wrapped = _wrapped(paragraph, width - len(prefix))
        lines.extend((prefix + line).rstrip() for line in wrapped)
    return "\n".join(lines)


def _wrapped(paragraph: str, width: int) -> list[str]:
    """`textwrap.wrap(paragraph, width)`, or `[""]` for none, up to trailing spaces: a
    line that fits as it is (most do) is its own wrapping, without textwrap's splitting."""
    if len(paragraph) <= width and "\t" not in paragraph:
        return [paragraph]
    return textwrap.wrap(paragraph, width=width) or [""]


def _docstring_char(char: str) -> str:
    if char == "\\":
        return "\\\\"
    if char == "\n":
        return char
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        code = ord(char)
        if code < 0x100:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    return char


_NAMED_ESCAPES = {"\t": "\\t", "\r": "\\r"}
# The ASCII characters `_docstring_char` escapes besides the backslash: every control
# character but the line feed.
_DOCSTRING_ASCII_ESCAPES = re.compile("[\x00-\x09\x0b-\x1f\x7f]")


def paragraphs(parts: list[str]) -> str:
    """The parts that are not blank, a blank line between each (a title without a
    description gives no empty paragraph)."""
    return "\n\n".join(part for part in parts if part.strip())


def py_docstring(text: str, indent: str = "") -> str:
    """A triple-quoted docstring that evaluates to `text` and can never close early or escape.

    Backslashes are doubled; controls, invisible and bidirectional characters
    (Trojan Source) and line separators other than `\\n` become escapes, so the
    docstring's value is still exactly `text` (for text of several lines, up to the
    indentation of its continuation lines); triple quotes are escaped, and quotes at
    either end and a trailing space on a line are written `\\x22` and `\\x20` so
    that formatters keep them as they are.
    """
    if text.isascii() and _DOCSTRING_ASCII_ESCAPES.search(text) is None:
        body = text.replace("\\", "\\\\")  # the only ASCII character left to escape
    else:
        body = "".join(_docstring_char(char) for char in text)
    body = body.replace('"""', '\\"\\"\\"')
    # a quote at either end, even an escaped one, makes formatters pad the docstring with a space
    if body.startswith('"'):
        body = "\\x22" + body[1:]
    if body.endswith('"'):
        escaped = (len(body) - 1 - len(body[:-1].rstrip("\\"))) % 2 == 1
        body = body[: -2 if escaped else -1] + "\\x22"
    body = "\n".join(
        line[:-1] + "\\x20" if line.endswith(" ") else line for line in body.split("\n")
    )
    lines = body.splitlines() or [""]  # only "\n" is left to split on
    if len(lines) == 1:
        return f'"""{lines[0]}"""'
    joined = "\n".join((indent + line) if line.strip() else "" for line in lines[1:])
    return f'"""{lines[0]}\n{joined}\n{indent}"""'


# ASCII characters `_safe_text` rewrites; other text is checked by Unicode category.
_UNSAFE_ASCII = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
# Controls, invisible format characters (bidi overrides, zero-width space, BOM: Trojan
# Source), line and paragraph separators, private-use, unassigned and surrogates.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"})


def _safe_text(text: str) -> str:
    """Replace characters that must never appear raw in generated source with visible escapes."""
    if text.isascii() and _UNSAFE_ASCII.search(text) is None:
        return text
    out = []
    for char in text:
        code = ord(char)
        if char in "\n\t" or (code >= 0x20 and code != 0x7F and code < 0x80):
            out.append(char)
        elif unicodedata.category(char) not in _UNSAFE_CATEGORIES:
            out.append(char)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)


# --- Elixir ------------------------------------------------------------------

_EX_NAMED_ESCAPES = {"\\": "\\\\", '"': '\\"', "#": "\\#", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_EX_PLAIN_ATOM = re.compile(r"^[a-z_][a-zA-Z0-9_@]*[?!]?\Z")
_EX_ATOM_NEEDS_QUOTES = frozenset({"true", "false", "nil", "__aliases__", "__block__"})


def _needs_unicode_escape(char: str) -> bool:
    """Characters that must not appear raw in generated source: controls, invisibles, bidi, separators."""
    category = unicodedata.category(char)
    if category == "Cs":
        raise ValueError(f"lone surrogate U+{ord(char):04X} cannot appear in an Elixir string")
    return category in ("Cc", "Cf", "Co", "Cn", "Zl", "Zp")


# Printable ASCII other than the characters Elixir strings escape: nothing to do.
_EX_PLAIN_TEXT = re.compile(r"[ !$-\[\]-~]*")


def _ex_escape(text: str, keep: str = "") -> str:
    if _EX_PLAIN_TEXT.fullmatch(text):
        return text
    out = []
    for char in text:
        if char in keep:
            out.append(char)
        elif char in _EX_NAMED_ESCAPES:
            out.append(_EX_NAMED_ESCAPES[char])
        elif _needs_unicode_escape(char):
            out.append(f"\\u{{{ord(char):X}}}")
        else:
            out.append(char)
    return "".join(out)


@lru_cache(maxsize=65536)
def ex_str(value: str) -> str:
    """An Elixir string literal that evaluates to `value` exactly and never interpolates.

    `\\`, `"` and `#` are escaped (so `#{...}` is inert), controls, invisible and
    bidirectional characters become `\\u{...}` escapes.
    """
    return '"' + _ex_escape(value) + '"'


def ex_atom(name: str) -> str:
    """An Elixir atom literal for `name`: `:accept_edits`, or quoted when it needs it (`:"foo-bar"`)."""
    if _EX_PLAIN_ATOM.match(name) and name not in _EX_ATOM_NEEDS_QUOTES:
        return ":" + name
    return ":" + ex_str(name)


_PRINTABLE_ASCII = re.compile(r"[ -~\t\n]*")


def ex_doc(text: str, indent: str = "  ") -> str:
    """A heredoc for `@moduledoc`/`@doc` whose value is `text` + a final newline, always inert.

    Prefers `~S\"\"\"` (no escapes, no interpolation: the text reads as written).
    A `~S` heredoc still ends at a line that is only `\"\"\"` and turns `\\\"\"\"`
    into `\"\"\"`, and it cannot express control or invisible characters, so text
    that needs any of those becomes a plain heredoc with every `\\`, `"` and `#`
    escaped. Content lines are indented like the closing delimiter.
    """
    lines = text.split("\n")
    plain = _PRINTABLE_ASCII.fullmatch(text) is not None  # no character needs an escape
    sigil_safe = (
        '\\"""' not in text
        and not any(line.lstrip(" \t").startswith('"""') for line in lines)
        and "\r" not in text
        and (
            plain
            or not any(
                char != "\t" and _needs_unicode_escape(char) for char in text if char != "\n"
            )
        )
    )
    if sigil_safe:
        opener, body = '~S"""', lines
    else:
        opener, body = '"""', [_ex_escape(line) for line in lines]
    rendered = [(indent + line) if line else "" for line in body]
    return opener + "\n" + "\n".join(rendered) + "\n" + indent + '"""'


# --- Markdown --------------------------------------------------------------


_MD_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_MD_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\\": "\\\\",
    "*": "\\*",
    "_": "\\_",
    "[": "\\[",
    "]": "\\]",
}


_MD_TABLE = str.maketrans(_MD_ESCAPES)
_MD_SPECIAL = re.compile(r"[&<>\\*_\[\]`]")


def _md_inline(text: str) -> str:
    """Schema prose as inert Markdown: code spans kept, HTML, emphasis and link syntax escaped elsewhere."""
    if _MD_SPECIAL.search(text) is None:  # most prose: nothing to escape, no code span
        return text
    out: list[str] = []
    position = 0
    for match in _MD_CODE_SPAN.finditer(text):
        out.append(text[position : match.start()].translate(_MD_TABLE))
        out.append(match.group(0))
        position = match.end()
    out.append(text[position:].translate(_MD_TABLE))
    return "".join(out)


def md_cell(text: str) -> str:
    """Text for one Markdown table cell: `|` escaped (also in code spans), line breaks as `<br>`, HTML inert."""
    text = _safe_text(text).replace("\t", " ")
    lines = [line.strip() for line in text.strip().split("\n")]
    return "<br>".join(_md_inline(line) for line in lines).replace("|", "\\|")


@lru_cache(maxsize=65536)
def md_code(text: str) -> str:
    """`text` as an inline code span that survives a table cell (backticks, `|`, newlines);
    cached, since a page prints the same keys, names and types many times."""
    text = _safe_text(text).replace("\n", " ").replace("\t", " ")
    if "`" not in text and "|" not in text:  # the common case: nothing to fence or escape
        return f"`{text}`" if text.strip() else f"` {text} `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def md_text(text: str) -> str:
    """A paragraph of schema prose: HTML, emphasis and link syntax inert, code spans kept, no headings."""
    lines = _safe_text(text).strip().split("\n")
    escaped = [_md_inline(line) for line in lines]
    # a line starting with `#`, `>`, `-`, `+`, `=` or `1.` would change the block structure
    escaped = [_MD_NUMBERED.sub(r"\1\2\\\3", line) for line in escaped]
    return "\n".join(_MD_BLOCK_MARK.sub(r"\1\\\2", line) for line in escaped)


_MD_NUMBERED = re.compile(r"^(\s*)(\d+)([.)])")
_MD_BLOCK_MARK = re.compile(r"^(\s*)([#>+=-])")


_MERMAID_UNSAFE = re.compile(r"[^A-Za-z0-9_ .,:|\[\]\"'()\-+*/=?!@$%^&]")


def mermaid_text(text: str) -> str:
    """A Mermaid class-member text: characters that could end the class body or the line replaced."""
    return _MERMAID_UNSAFE.sub("_", text.replace("\n", " "))


def mermaid_id(name: str) -> str:
    """A Mermaid class identifier: letters, digits and `_` only."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "_"


@dataclass(frozen=True)
class RenderEnv:
    """What every target gets besides the IR: Jinja, the tool version, project paths, fixtures.

    Paths are project-relative with forward slashes so output never depends on
    where the project is checked out.
    """

    jinja: jinja2.Environment
    version: str
    fixtures_dir: str
    output_dir: str
    fixtures: Mapping[str, tuple[FixtureCase, ...]] = field(default_factory=dict)
    # `[tool.polytype] python-package`: the package every module's Python goes under
    python_package: str | None = None
    # A project's Python modules import their runtime from the package's `_runtime.py`
    # (and `_pydantic_runtime.py`); without it (vendoring, drift) each file carries its own.
    shared_runtime: bool = False
    # The renderers each module of the project is rendered into (`targets.rendered_targets`)
    renderers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def fixtures_for(self, module: str) -> tuple[FixtureCase, ...]:
        return self.fixtures.get(module, ())

    def has_template(self, template: str) -> bool:
        try:
            self.jinja.get_template(template)
        except jinja2.TemplateNotFound:
            return False
        return True

    def render(self, template: str, **context: Any) -> str:
        return self.jinja.get_template(template).render(version=self.version, **context)


def provenance(module_name: str) -> str:
    """The first line of every generated file, without its comment marker.

    It names the module, not the schema file or its hash: renaming the file or editing
    one description then changes only the outputs whose content depends on it. The
    schema path and every hash live in manifest.json (and in vendored copies).
    """
    return (
        f"Generated by polytype {__version__} from module {module_name} "
        "(source schema and hashes: manifest.json). DO NOT EDIT."
    )


def template_loader(user_templates: Path | None = None) -> jinja2.BaseLoader:
    """The built-in templates, each replaceable by a file of the same relative path under
    `user_templates` (`[tool.polytype] templates`)."""
    builtin = _TraversableLoader(template_root())
    if user_templates is None:
        return builtin
    return jinja2.ChoiceLoader(
        [jinja2.FileSystemLoader(str(user_templates), encoding="utf-8"), builtin]
    )


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates in the user's cache directory: compiling the ~40 templates took
    about a tenth of a 1,000-type generate. Jinja checks each entry against its template's
    source (a user's replacement, or an edited template, compiles anew); the file names
    carry the Jinja and polytype versions and the environment's options. A cache that
    cannot be written (a read-only home) is only not kept."""

    def __init__(self, options: str) -> None:
        directory = cache_dir() / "templates"
        key = f"{jinja2.__version__}-{__version__}-{options}".encode()
        tag = hashlib.sha256(key).hexdigest()[:16]
        super().__init__(str(directory), f"{tag}-%s.cache")
        self._folder = directory

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):  # unreadable or cut short: compiled anew
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def make_env(
    fixtures_dir: str = "tests/fixtures",
    output_dir: str = "generated",
    fixtures: Mapping[str, tuple[FixtureCase, ...]] | None = None,
    user_templates: Path | None = None,
    python_package: str | None = None,
    shared_runtime: bool = False,
    renderers: Mapping[str, tuple[str, ...]] | None = None,
) -> RenderEnv:
    options: dict[str, Any] = {
        "undefined": jinja2.StrictUndefined,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "autoescape": False,
    }
    jinja = jinja2.Environment(
        loader=template_loader(user_templates),
        bytecode_cache=_TemplateCache(repr(sorted(options.items()))),
        # An env lives for one build, whose templates do not change meanwhile: each
        # template it loads stays in a plain dict (there are some fifty), never checked
        # against its source again. Jinja's default (an LRU cache behind a lock, and an
        # up-to-date check) was paid at each of a large module's thousands of includes.
        cache_size=-1,
        auto_reload=False,
        **options,
    )
    jinja.filters["py_str"] = py_str
    jinja.filters["py_comment"] = py_comment
    jinja.filters["py_docstring"] = py_docstring
    jinja.filters["paragraphs"] = paragraphs
    jinja.filters["ex_str"] = ex_str
    jinja.filters["ex_atom"] = ex_atom
    jinja.filters["ex_doc"] = ex_doc
    jinja.filters["md_cell"] = md_cell
    jinja.filters["md_code"] = md_code
    jinja.filters["md_text"] = md_text
    jinja.filters["mermaid_text"] = mermaid_text
    jinja.filters["mermaid_id"] = mermaid_id
    jinja.filters["provenance"] = provenance
    return RenderEnv(
        jinja,
        __version__,
        fixtures_dir,
        output_dir,
        dict(fixtures or {}),
        python_package,
        shared_runtime,
        dict(renderers or {}),
    )
