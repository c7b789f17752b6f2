"""The imports a generated module keeps: the ones its code uses.

A flavor file that imports its runtime is rendered with every import it could need
(the names the runtime defines among them) and then keeps only the names its code
refers to, as ruff's F401 would: a name in code, in a string that is a type (an
annotation, `cast`'s first argument, a subscript, `TypeAliasType`'s value) or in
`__all__` (a re-export). A name the module defines itself is never imported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

from polytype.targets.base.top_level import STATEMENT_CUT, top_level_spans

_TYPE_CALLS = {"cast": 0, "TypeAliasType": 1}


def top_level_names(text: str) -> set[str]:
    """The names a module's top level defines (functions, classes, assignments)."""
    return _defined(ast.parse(text))


def prune_imports(text: str) -> str:
    """`text` with the top-level imports it does not use removed (`__future__` stays).

    A generated module is too large to parse for this (parsing and walking it cost as
    much as rendering it): the names it uses are read off its text (`_used_in_text`),
    comments and docstrings aside. Where the text cannot tell (an imported name only a
    string holds, which may be a type or a value; a top-level `if`, which may define
    names), the syntax tree decides, as it did for every module before."""
    code = _code_only(text)
    lined = "\n" + code  # each line after a newline: the patterns look for one, fast
    if _TOP_LEVEL_IF.search(lined):
        return _prune_parsed(text)
    lines = code.split("\n")
    imports = [
        node
        for node in _import_statements(lined, lines)
        if isinstance(node, ast.Import)
        or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
    ]
    if not imports:
        return text
    rest = _distinct_lines(lines, imports)
    imported = _imported(imports)
    used = _used_in_text(rest, lined, imported)
    if used is None or used.in_strings or used.as_targets:
        # a name only a string holds may be a type or a value, a name only an annotated
        # target spells may be a binding or a dict key: as the syntax tree says
        return _prune_parsed(text)
    return _rewrite(text, imports, used.in_code - _defined_in_text("\n" + rest))


def _prune_parsed(text: str) -> str:
    """`prune_imports` on the module's syntax tree, parsed a run of whole top-level
    statements at a time (`top_level_spans`): a tree takes about 60 bytes a byte of
    source, and the flavor file of a large schema has megabytes."""
    whole = [(0, len(text))]
    spans = (
        top_level_spans(text, PARSE_PIECE_CHARS, STATEMENT_CUT)
        if len(text) > PARSE_PIECE_CHARS
        else whole
    )
    try:
        imports, used = _read_parsed(text, spans)
    except SyntaxError:
        if spans == whole:
            raise
        imports, used = _read_parsed(text, whole)  # a cut the cheap check got wrong
    if not imports:
        return text
    return _rewrite(text, imports, used)


# The source characters parsed at once: a syntax tree of some 16 MB.
PARSE_PIECE_CHARS = 64 * 1024


def _read_parsed(
    text: str, spans: list[tuple[int, int]]
) -> tuple[list[ast.Import | ast.ImportFrom], set[str]]:
    """The top-level imports of `text` (numbered by their lines in it) and the names its
    other statements use and do not define, read off each span's syntax tree in turn."""
    imports: list[ast.Import | ast.ImportFrom] = []
    used: set[str] = set()
    defined: set[str] = set()
    lines_before = 0
    counted = 0
    for start, end in spans:
        lines_before += text.count("\n", counted, start)
        counted = start
        body = ast.parse(text[start:end]).body
        found = [
            node
            for node in body
            if isinstance(node, ast.Import)
            or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
        ]
        for node in found:
            node.lineno, node.end_lineno = node.lineno + lines_before, _end(node) + lines_before
        imports.extend(found)
        used |= _used(node for node in body if node not in found)
        defined |= _defined_in(body)
        del body  # before the next piece's tree is built
    return imports, used - defined


# What is not code: a comment, or a triple-quoted string (polytype's only multi-line
# strings are docstrings). A one-line string is kept: it may be a type. One match is the
# code before a piece that is not code (group `code`: runs of plain characters, one-line
# strings, a quote that starts neither) and that piece, so that the callback runs once a
# comment or docstring rather than once a string. A string's prefix (`f`, `rb`) is left
# as a name that no import has.
_NOT_CODE = re.compile(
    r"""(?P<code>(?:[^"'#]++|"[^"\\\n]*(?:\\.[^"\\\n]*)*"(?!")|'[^'\\\n]*(?:\\.[^'\\\n]*)*'(?!')"""
    r"""|"(?!"")|'(?!''))*+)"""
    r'''(?:"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'''
    r"""|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"""
    r"|#[^\n]*|\Z)"
)
# The patterns of what starts a line begin with its newline (the text searched starts with
# one): the engine then skips to each newline, where `^` would have it try every character.
_TOP_LEVEL_IF = re.compile(r"\n(?:if|elif|else)\b")
_IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_TOP_LEVEL_DEFINED = re.compile(
    r"\n(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)|(\w+)[ \t]*(?::|=(?!=)))"
)
_IMPORT_START = re.compile(r"\n(?:import|from)[ \t]")
# a one-line string, as a group: `split` hands back the code around the strings and them
_STRING = re.compile(r"""("[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*')""")
_ALL = re.compile(r"\n__all__(?:[ \t]*:[^=\n]*)?[ \t]*=[ \t]*(\[[^\]]*\])")


def _code_only(text: str) -> str:
    """`text` with its comments and triple-quoted strings blanked, each line in its place."""
    return _NOT_CODE.sub(_blank, text)


def _blank(match: re.Match[str]) -> str:
    code = match.group("code")
    return code + "\n" * match.group().count("\n", len(code))


def _import_statements(lined: str, lines: list[str]) -> list[ast.stmt]:
    """The top-level import statements of a module (comments and docstrings blanked;
    `lined` its text after a newline, `lines` its lines), each parsed on its own and
    numbered where it stands in the module."""
    statements: list[ast.stmt] = []
    end = -1
    for start in _IMPORT_START.finditer(lined):
        number = lined.count("\n", 0, start.start())  # the newline before line 0 is the first
        if number <= end:  # a line of the statement before
            continue
        end = number
        if "(" in lines[number]:
            while ")" not in lines[end]:
                end += 1
        node = ast.parse("\n".join(lines[number : end + 1])).body[0]
        node.lineno, node.end_lineno = number + 1, end + 1
        statements.append(node)
    return statements


def _distinct_lines(lines: list[str], imports: list[ast.Import | ast.ImportFrom]) -> str:
    """The lines other than those of `imports`, each once, in no particular order: whether
    a name stands in a line does not depend on the lines around it, and a large generated
    module repeats most of its lines (a third as much text to search)."""
    kept: dict[str, None] = {}
    cursor = 0
    for node in imports:
        kept.update(dict.fromkeys(lines[cursor : node.lineno - 1]))
        cursor = _end(node)
    kept.update(dict.fromkeys(lines[cursor:]))
    return "\n".join(kept)


def _end(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


@dataclass(frozen=True)
class _TextNames:
    in_code: set[str]  # identifiers in code, and the names `__all__` exports
    in_strings: set[str]  # identifiers only the other one-line strings hold
    # identifiers that stand in code only where a line starts `name:` (a TypedDict's key
    # `json: str` binds no name; a dict's key on a line of its own uses one)
    as_targets: set[str]


def _used_in_text(lines: str, lined: str, names: set[str]) -> _TextNames | None:
    """Which of `names` the module's `lines` (comments and docstrings blanked, its imports
    left out: `_distinct_lines`) use: each one that stands as an identifier that is not an
    attribute, in code or in the `__all__` of `lined` (the module blanked, after a
    newline); apart, those found only in other strings (which the syntax tree counts as
    names where they are types: `_names_in_strings`). None when `__all__` is not one list
    the text can delimit. Only the imported names matter, so each is looked for (a
    substring search, done at the first use) rather than every identifier of a large
    module collected."""
    pieces = _STRING.split(lines)  # code, string, code, ..., code
    bare = '""'.join(pieces[0::2])
    standing = {name: _stands(name, bare) for name in _may_stand(names, bare)}
    in_code = {name for name, how in standing.items() if how == _USE}
    as_targets = {name for name, how in standing.items() if how == _TARGET}
    exported = _ALL.search(lined)
    if exported is None and _stands("__all__", bare) != _ABSENT:
        return None
    if exported is not None:
        in_code.update(names.intersection(_IDENTIFIER.findall(exported.group(1))))
    strings = "\n".join(pieces[1::2])  # with their quotes: each identifier stands as in code
    in_strings = {
        name
        for name in _may_stand(names - in_code - as_targets, strings)
        if _stands(name, strings) != _ABSENT
    }
    return _TextNames(in_code, in_strings, as_targets - in_code)


# How an identifier stands in a text (`_stands`): not at all, only as the first word of
# lines that go on with `:` (an annotated target or a dict key), or elsewhere (a use).
_ABSENT, _TARGET, _USE = "absent", "target", "use"


def _stands(name: str, text: str) -> str:
    """Whether identifier `name` occurs in `text` as an identifier of its own that is not
    an attribute, as `_IDENTIFIER` would find it: no word character or dot before it, no
    word character after it (a word character: `_` or one `str.isalnum` accepts, as in
    regular expressions). `_USE` at its first such place that is not the start of a line
    going on with `name:` (`_TARGET` when every place is one), else `_ABSENT`."""
    end = len(name)
    found = _ABSENT
    index = text.find(name)
    while index >= 0:
        before = text[index - 1] if index else " "
        after = text[index + end] if index + end < len(text) else " "
        if before != "." and not _is_word(before) and not _is_word(after):
            if not _starts_target(text, index, index + end):
                return _USE
            found = _TARGET
        index = text.find(name, index + 1)
    return found


def _may_stand(names: set[str], text: str) -> set[str]:
    """Those of `names` that may stand in `text` as `_stands` asks: all but the ASCII
    names that no run of word characters spells. One pass splits the text's UTF-8 at
    each byte that is not an ASCII word character (a non-ASCII character's bytes are
    none), where a `str.find` per name would scan all of a large module for each of the
    many runtime names it does not use."""
    words = set(text.encode("utf-8", "surrogatepass").translate(_WORD_BYTES).split())
    return {name for name in names if not name.isascii() or name.encode() in words}


# Each byte that is not an ASCII word character (`[A-Za-z0-9_]`) as a space.
_WORD_BYTES = bytes(
    byte if chr(byte).isascii() and (chr(byte).isalnum() or chr(byte) == "_") else 32
    for byte in range(256)
)


def _starts_target(text: str, start: int, end: int) -> bool:
    """Whether the identifier at `text[start:end]` is the first word of its line and is
    followed by `:` (not `:=`) or ` = ` (an enum member `VERSION = "version"`, a keyword
    argument on a line of its own)."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip(" \t"):
        return False
    after = text[end : end + 3]
    if after.startswith(":"):
        return not after.startswith(":=")
    return after.startswith(("=", " =")) and not after.startswith(("==", " =="))


def _is_word(character: str) -> bool:
    return character == "_" or character.isalnum()


def _imported(imports: list[ast.Import | ast.ImportFrom]) -> set[str]:
    names: set[str] = set()
    for node in imports:
        for alias in node.names:
            names.add(alias.asname or alias.name.split(".")[0])
    return names


def _defined_in_text(lined: str) -> set[str]:
    """The names the top level of `lined` (a module's lines, in any order, each after a
    newline) defines (functions, classes, assignments); only asked when no top-level `if`
    defines more (`_TOP_LEVEL_IF`)."""
    return {
        function or class_ or target
        for function, class_, target in _TOP_LEVEL_DEFINED.findall(lined)
    }


def _rewrite(text: str, imports: list[ast.Import | ast.ImportFrom], used: set[str]) -> str:
    """`text` with each of its top-level `imports` cut to the names in `used`. Only the
    lines from the first import to the last are split (a large module has many more)."""
    if not text.endswith("\n"):  # then every line, the last import's too, ends in one
        return _rewrite(text + "\n", imports, used)[:-1]
    first, last = imports[0].lineno - 1, _end(imports[-1])
    start, end = _line_start(text, first), _line_start(text, last)
    lines = text[start:end].split("\n")  # lines `first` to `last` - 1
    region: list[str] = []
    cursor = 0
    for node in imports:
        region.extend(lines[cursor : node.lineno - 1 - first])
        region.extend(_kept(node, used))
        cursor = _end(node) - first
    collapsed: list[str] = []
    for line in region:
        if not line.strip() and (not collapsed or not collapsed[-1].strip()):
            continue
        collapsed.append(line)
    while collapsed and not collapsed[-1].strip():
        collapsed.pop()
    return text[:start] + "".join(line + "\n" for line in collapsed) + text[end:]


def _line_start(text: str, number: int) -> int:
    """Where line `number` (from 0) of `text` starts; `text` has that many newlines."""
    offset = 0
    for _ in range(number):
        offset = text.index("\n", offset) + 1
    return offset


def _kept(node: ast.Import | ast.ImportFrom, used: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [
            f"import {alias.name}"
            for alias in node.names
            if (alias.asname or alias.name.split(".")[0]) in used
        ]
    names = [alias.name for alias in node.names if (alias.asname or alias.name) in used]
    if not names:
        return []
    return [f"from {'.' * node.level}{node.module or ''} import {', '.join(names)}"]


def _defined(tree: ast.Module) -> set[str]:
    return _defined_in(tree.body)


def _defined_in(body: list[ast.stmt]) -> set[str]:
    """The names `body` defines, in both branches of an `if` (`if TYPE_CHECKING:`) too."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.If):
            names |= _defined_in(node.body) | _defined_in(node.orelse)
    return names


def _used(nodes: Iterable[ast.AST]) -> set[str]:
    used: set[str] = set()
    for top in nodes:
        if isinstance(top, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in top.targets
        ):
            used.update(_strings(top.value))
        for node in ast.walk(top):
            # a name bound (`json: str` in a TypedDict, a loop variable) is not a use;
            # one that `+=` rebinds is read first
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
                used.add(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                used.add(node.target.id)
            for expression in _type_expressions(node):
                used |= _names_in_strings(expression)
    return used


def _type_expressions(node: ast.AST) -> list[ast.expr]:
    """The parts of `node` that are types, where a string is a type too."""
    found: list[ast.expr] = []
    if isinstance(node, ast.AnnAssign):
        found.append(node.annotation)
        if isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias":
            if node.value is not None:
                found.append(node.value)
    elif isinstance(node, ast.arg) and node.annotation is not None:
        found.append(node.annotation)
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
        found.append(node.returns)
    elif isinstance(node, ast.Subscript) and _is_generic(node.value):
        found.append(node.slice)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        position = _TYPE_CALLS.get(node.func.id)
        if position is not None and len(node.args) > position:
            found.append(node.args[position])
    return found


# The builtin generics a generated module subscripts with types (`list["Item"]`).
_BUILTIN_GENERICS = frozenset({"list", "dict", "tuple", "set", "frozenset", "type"})


def _is_generic(value: ast.expr) -> bool:
    """Whether a subscript of `value` takes types: a builtin generic, or a name spelled as
    a type is (`Annotated`, `Omittable`, `typing.Optional`), never `Literal`, whose
    strings are values. A variable of generated code is lower-case (`obj["json"]` reads
    a key)."""
    name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
    if not isinstance(name, str) or name == "Literal":
        return False
    return name in _BUILTIN_GENERICS or name.lstrip("_")[:1].isupper()


def _names_in_strings(expression: ast.AST) -> set[str]:
    """The names in the strings of a type expression (forward references); the values of
    a `Literal[...]` are values, not types."""
    names: set[str] = set()
    if isinstance(expression, ast.Subscript) and isinstance(expression.value, ast.Name):
        if expression.value.id == "Literal":
            return names
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        try:
            parsed = ast.parse(expression.value, mode="eval")
        except SyntaxError:
            return names
        names.update(inner.id for inner in ast.walk(parsed) if isinstance(inner, ast.Name))
        return names | _names_in_strings(parsed.body)
    for child in ast.iter_child_nodes(expression):
        names |= _names_in_strings(child)
    return names


def _strings(node: ast.expr) -> set[str]:
    return {
        item.value
        for item in ast.walk(node)
        if isinstance(item, ast.Constant) and isinstance(item.value, str)
    }
