"""Load a schema file into plain data plus the source position of every node.

YAML goes through ruamel.yaml (which keeps line and column for each key and
item); JSON through ``polytype.reading.jsonpos``. Both produce a ``Document``: plain
``dict``/``list``/scalars and a map from JSON pointer to ``Position``. Anything
that makes a file unreadable becomes a located ``Diagnostic``, never a traceback.
"""

from __future__ import annotations

import datetime
import math
import re
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, ReusedAnchorWarning, YAMLError

from polytype.diagnostics import (
    UNKNOWN_POSITION,
    Diagnostic,
    InputError,
    Position,
    join_pointer,
    json_type_name,
)
from polytype.reading import jsonpos

MAX_SCHEMA_BYTES = 8 * 1024 * 1024
MAX_NESTING = 64
# Values a YAML file may expand to once its aliases are followed (a "billion laughs" guard).
MAX_NODES = 500_000
# Nesting beyond which the YAML parser itself is not even tried (it recurses, and
# scanning deep flow collections is quadratic): far above MAX_NESTING, so only
# hostile input gets here, and it gets a located diagnostic instead of a hang.
_PRESCAN_LIMIT = 4 * MAX_NESTING


@dataclass(frozen=True)
class Origin:
    """Where a rewritten part of a document came from: a file, its positions, a pointer."""

    display_path: str
    positions: Mapping[str, Position]
    pointer: str
    # renames of the draft normaliser (normalised pointer -> written pointer)
    moves: Mapping[str, str] = field(default_factory=dict)

    def written(self, pointer: str) -> str:
        """`pointer` (below this origin's data) as the user wrote it."""
        prefix = pointer
        while prefix:
            if prefix in self.moves:
                return self.moves[prefix] + pointer[len(prefix) :]
            prefix = prefix.rsplit("/", 1)[0]
        return pointer


@dataclass(frozen=True)
class Document:
    """A parsed schema file.

    The front end may rewrite `data` (older drafts normalised, referenced schemas
    bundled into `$defs`, inline unions named); `origins` then maps the pointer of each
    moved part to where it was written, so diagnostics still name the line the user wrote.
    """

    path: Path
    display_path: str
    text: str
    data: Any
    positions: Mapping[str, Position]
    origins: Mapping[str, Origin] = field(default_factory=dict)
    # Diagnostics name pointers into `data` itself (the front end replaces what they
    # point at, then words them through `origins`); source references still translate.
    data_pointers: bool = False

    def position(self, pointer: str) -> Position:
        """The position of `pointer`, or of its closest ancestor that has one."""
        return self.locate(pointer)[1]

    def locate(self, pointer: str) -> tuple[str, Position, str]:
        """(file, position, pointer) where `pointer` of the data was written."""
        origin, rest = self._origin(pointer)
        if origin is not None:
            written = origin.written(origin.pointer + rest)
            return origin.display_path, _closest(origin.positions, written), written
        return self.display_path, _closest(self.positions, pointer), pointer

    def origin_of(self, pointer: str) -> Origin:
        """Where the data at `pointer` was written, as an origin for a part moved from there."""
        origin, rest = self._origin(pointer)
        if origin is not None:
            return Origin(
                origin.display_path, origin.positions, origin.pointer + rest, origin.moves
            )
        return Origin(self.display_path, self.positions, pointer)

    def _origin(self, pointer: str) -> tuple[Origin | None, str]:
        if not self.origins:
            return None, ""
        prefix = pointer
        while True:
            origin = self.origins.get(prefix)
            if origin is not None:
                return origin, pointer[len(prefix) :]
            if not prefix:
                return None, ""
            prefix = prefix.rsplit("/", 1)[0]

    def diagnostic(self, pointer: str, message: str) -> Diagnostic:
        if self.data_pointers:
            return Diagnostic(self.display_path, UNKNOWN_POSITION, pointer, message)
        file, position, written = self.locate(pointer)
        return Diagnostic(file, position, written, message)

    def warning(self, pointer: str, message: str) -> Diagnostic:
        return self.diagnostic(pointer, message).as_warning()


def _closest(positions: Mapping[str, Position], pointer: str) -> Position:
    while True:
        found = positions.get(pointer)
        if found is not None:
            return found
        if not pointer:
            return UNKNOWN_POSITION
        pointer = pointer.rsplit("/", 1)[0]


def load(path: Path, display_path: str | None = None) -> Document:
    """Read and parse one schema file; raises ``InputError`` with located diagnostics."""
    shown = display_path or str(path)
    try:
        # Check the size before reading, so a huge file costs nothing.
        size = path.stat().st_size
        raw = b"" if size > MAX_SCHEMA_BYTES else path.read_bytes()
    except OSError as error:
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", f"cannot read file: {error.strerror}")]
        ) from None
    if size > MAX_SCHEMA_BYTES or len(raw) > MAX_SCHEMA_BYTES:
        raise InputError(
            [
                Diagnostic(
                    shown,
                    UNKNOWN_POSITION,
                    "",
                    f"file is {max(size, len(raw)):,} bytes; schemas are limited to {MAX_SCHEMA_BYTES:,} bytes",
                )
            ]
        )
    text = _decode_text(raw, shown)
    if not text.strip():
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", "file is empty: expected a schema object")]
        )
    plain = jsonpos.parse_plain(text, MAX_NESTING) if path.suffix == ".json" else None
    positions: Mapping[str, Position]
    if plain is not None:  # valid, and none of the problems below (see parse_plain)
        data, positions = plain
    elif path.suffix == ".json":
        try:
            data, positions = jsonpos.parse(text, max_depth=MAX_NESTING)
        except jsonpos.JSONSyntaxError as error:
            raise InputError(
                [Diagnostic(shown, error.position, "", f"invalid JSON: {error.message}")]
            ) from None
    else:
        data, positions = _load_yaml(text, shown)
    document = Document(path, shown, text, data, positions)
    problems = [] if plain is not None else list(_value_problems(document))
    if problems:
        raise InputError(problems)
    if not isinstance(data, dict):
        raise InputError(
            [
                document.diagnostic(
                    "", f"expected a schema object at the top level, got {_kind(data)}"
                )
            ]
        )
    return document


def _decode_text(raw: bytes, shown: str) -> str:
    if b"\x00" in raw:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        raise InputError(
            [Diagnostic(shown, Position(line, 1), "", "file contains NUL bytes: not a text schema")]
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(
            [Diagnostic(shown, Position(line, column), "", "file is not valid UTF-8 text")]
        ) from None


def _load_yaml(text: str, shown: str) -> tuple[Any, dict[str, Position]]:
    too_deep = _prescan_depth(text)
    if too_deep is not None:
        raise InputError(
            [Diagnostic(shown, too_deep, "", f"nesting deeper than {MAX_NESTING} levels")]
        )
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    try:
        with warnings.catch_warnings():
            # ruamel warns (on stderr, naming its own source file) when an anchor is defined
            # twice; an alias would then silently mean the later one: a located error instead
            warnings.simplefilter("error", ReusedAnchorWarning)
            tree = yaml.load(text)
    except ReusedAnchorWarning as warning:
        raise InputError([_reused_anchor(str(warning), shown)]) from None
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(mark.line + 1, mark.column + 1) if mark else UNKNOWN_POSITION
        problem = error.problem or "invalid YAML"
        if error.context and "duplicate" not in problem:
            context = error.context
            start = error.context_mark
            if start is not None and mark is not None and start.line != mark.line:
                context += f" (started at line {start.line + 1}, column {start.column + 1})"
            problem = f"{context}: {problem}"
        raise InputError(
            [Diagnostic(shown, position, "", f"invalid YAML: {_one_line(problem)}")]
        ) from None
    except YAMLError as error:
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", f"invalid YAML: {_one_line(str(error))}")]
        ) from None
    except RecursionError:
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", f"nesting deeper than {MAX_NESTING} levels")]
        ) from None
    sizes: dict[int, int] = {}
    if _expanded_size(tree, sizes) > MAX_NODES:
        pointer, position = _largest_expansion(tree, sizes)
        raise InputError(
            [
                Diagnostic(
                    shown,
                    position,
                    pointer,
                    f"YAML aliases expand the document to more than {MAX_NODES:,} values "
                    "(this part is repeated too often)",
                )
            ]
        )
    positions: dict[str, Position] = {"": Position(1, 1)}
    problems: list[Diagnostic] = []
    data = _Plain(positions, problems, shown).convert(tree, "", 0)
    if problems:
        raise InputError(problems)
    return data, positions


_OCCURRENCE = re.compile(r"(first|second) occurrence .*?line (\d+), column (\d+)")


def _reused_anchor(text: str, shown: str) -> Diagnostic:
    """A located diagnostic from ruamel's `ReusedAnchorWarning` text."""
    anchor = re.search(r"duplicate anchor (.+?)\n", text)
    name = anchor.group(1) if anchor else "an anchor"
    where = {kind: (int(line), int(column)) for kind, line, column in _OCCURRENCE.findall(text)}
    line, column = where.get("second", (1, 1))
    first = where.get("first")
    earlier = f" (first defined at line {first[0]}, column {first[1]})" if first else ""
    return Diagnostic(
        shown,
        Position(line, column),
        "",
        f"invalid YAML: anchor {name} is defined again{earlier}; give each anchor its own name",
    )


def _children(node: Any) -> list[tuple[str | int, Any, tuple[int, int]]]:
    if isinstance(node, CommentedMap):
        return [(str(key), value, _mark(node, key, 0)) for key, value in node.items()]
    if isinstance(node, CommentedSeq):
        return [(index, item, _mark(node, index, 0)) for index, item in enumerate(node)]
    return []


def _mark(node: CommentedMap | CommentedSeq, key: Any, which: int) -> tuple[int, int]:
    """0-based line and column of a key (or item); a merged key (`<<`) has none: the mapping's own."""
    found = (getattr(node.lc, "data", None) or {}).get(key)
    if found is None:
        return (node.lc.line or 0, node.lc.col or 0)
    return (found[which], found[which + 1])


def _expanded_size(node: Any, sizes: dict[int, int]) -> int:
    """How many values `node` stands for once YAML aliases are followed (shared parts counted once each)."""
    if not isinstance(node, (CommentedMap, CommentedSeq)):
        return 1
    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = MAX_NODES + 1  # a container inside itself expands forever
    total = 1 + sum(_expanded_size(child, sizes) for _, child, _ in _children(node))
    sizes[id(node)] = total
    return total


def _largest_expansion(node: Any, sizes: dict[int, int]) -> tuple[str, Position]:
    """The deepest value that on its own still expands beyond MAX_NODES (where to point)."""
    pointer, position = "", Position(1, 1)
    while True:
        for token, child, (line, column) in _children(node):
            if sizes.get(id(child), 1) > MAX_NODES:
                pointer = join_pointer(pointer, token)
                position = Position(line + 1, column + 1)
                node = child
                break
        else:
            return pointer, position


@dataclass
class _Plain:
    """Turns ruamel's round-trip nodes into plain Python values, recording positions."""

    positions: dict[str, Position]
    problems: list[Diagnostic]
    shown: str

    def problem(self, pointer: str, message: str) -> None:
        position = self.positions.get(pointer, UNKNOWN_POSITION)
        self.problems.append(Diagnostic(self.shown, position, pointer, message))

    def convert(self, node: Any, pointer: str, depth: int) -> Any:
        if depth > MAX_NESTING:
            self.problem(pointer, f"nesting deeper than {MAX_NESTING} levels")
            return None
        tag = getattr(getattr(node, "tag", None), "value", None)
        if isinstance(tag, str) and tag and isinstance(node, (CommentedMap, CommentedSeq)):
            self.problem(pointer, f"YAML tag {tag} is not supported in a schema")
            return None
        if isinstance(node, CommentedMap):
            return self.mapping(node, pointer, depth)
        if isinstance(node, CommentedSeq):
            items = []
            for index, item in enumerate(node):
                line, column = _mark(node, index, 0)
                child = join_pointer(pointer, index)
                self.positions[child] = Position(line + 1, column + 1)
                items.append(self.convert(item, child, depth + 1))
            return items
        return self.scalar(node, pointer)

    def mapping(self, node: CommentedMap, pointer: str, depth: int) -> Any:
        if getattr(node, "merge", None):
            self.problem(pointer, "YAML merge keys (<<) are not supported in a schema")
            return None
        result: dict[str, Any] = {}
        for key in node:
            line, column = _mark(node, key, 0)
            child = join_pointer(pointer, key if isinstance(key, str) else _key_text(key))
            self.positions[child] = Position(line + 1, column + 1)
            if not isinstance(key, str):
                self.problem(
                    child,
                    f"keys must be strings; YAML reads {_key_text(key)} as {_kind(key)} (quote it)",
                )
                continue
            result[key] = self.convert(node[key], child, depth + 1)
        return result

    def scalar(self, node: Any, pointer: str) -> Any:
        tag = getattr(getattr(node, "tag", None), "value", None)
        if isinstance(tag, str) and tag:
            self.problem(pointer, f"YAML tag {tag} is not supported in a schema")
            return None
        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, str):
            return str(node)
        if isinstance(node, (datetime.date, datetime.datetime)):
            self.problem(pointer, "YAML read this as a date; quote it to make it a string")
            return str(node)
        self.problem(pointer, f"unsupported YAML value {type(node).__name__}")
        return None


def _prescan_depth(text: str) -> Position | None:
    """Where the nesting of a YAML text first exceeds ``_PRESCAN_LIMIT``, or None.

    A cheap, conservative look at flow collections (`[`, `{` outside quotes,
    comments and block scalars) and at block nesting (indentation and `- `
    chains), so that absurdly deep input is refused before the parser sees it.
    It may undercount (then the parser's own limits apply); it never refuses
    a document whose real nesting is within ``MAX_NESTING``.
    """
    depth = 0
    quote: str | None = None
    block_scalar_indent: int | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_scalar_indent is not None:
            if not stripped.strip() or indent > block_scalar_indent:
                continue
            block_scalar_indent = None
        if depth == 0 and quote is None:
            column, rest = indent, stripped
            while rest[:2] in ("- ", "? ", "-\t"):
                column, rest = column + 2, rest[2:].lstrip(" \t")
            if column > 2 * _PRESCAN_LIMIT:
                return Position(number, column + 1)
        previous = " "
        index = 0
        while index < len(line):
            char = line[index]
            if quote is not None:
                if char == "\\" and quote == '"':
                    index += 1
                elif char == quote:
                    quote = None
            elif char == "#" and previous in " \t":
                break
            elif char in "\"'" and previous in " \t:-?[{,":
                quote = char
            elif char in "[{" and (depth > 0 or previous in " \t:-?"):
                depth += 1
                if depth > _PRESCAN_LIMIT:
                    return Position(number, index + 1)
            elif char in "]}" and depth > 0:
                depth -= 1
            previous = char
            index += 1
        if depth == 0 and quote is None and _BLOCK_SCALAR.search(line):
            block_scalar_indent = indent
    return None


_BLOCK_SCALAR = re.compile(r"(?:^|[ \t])[|>][1-9+-]{0,2}[ \t]*(?:#.*)?$")


def _value_problems(document: Document) -> Iterator[Diagnostic]:
    """Values JSON cannot carry or UTF-8 cannot encode: infinities, NaN, lone surrogates."""
    stack: list[tuple[str, Any]] = [("", document.data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                child = join_pointer(pointer, key)
                if _has_surrogate(key):
                    yield document.diagnostic(
                        child, "key contains a lone surrogate (not a Unicode character)"
                    )
                stack.append((child, item))
        elif isinstance(value, list):
            stack.extend((join_pointer(pointer, index), item) for index, item in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            yield document.diagnostic(
                pointer, f"{value!r} is not a JSON number (infinities and NaN cannot be generated)"
            )
        elif isinstance(value, str) and _has_surrogate(value):
            yield document.diagnostic(
                pointer, "string contains a lone surrogate (not a Unicode character)"
            )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def _key_text(key: Any) -> str:
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    if isinstance(key, (tuple, list)):
        return "[" + ", ".join(_key_text(item) for item in key) + "]"
    return str(key)


def _kind(value: Any) -> str:
    return json_type_name(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())
