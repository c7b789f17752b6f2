"""Load a schema file into plain data plus the source position of every node.

YAML goes through ruamel.yaml (which keeps line and column for each key and
item); JSON through ``generator.jsonpos``. Both produce a ``Document``: plain
``dict``/``list``/scalars and a map from JSON pointer to ``Position``. Anything
that makes a file unreadable becomes a located ``Diagnostic``, never a traceback.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator import jsonpos
from generator.diagnostics import (
    UNKNOWN_POSITION,
    Diagnostic,
    InputError,
    Position,
    join_pointer,
)

MAX_SCHEMA_BYTES = 8 * 1024 * 1024
MAX_NESTING = 64


@dataclass(frozen=True)
class Document:
    """A parsed schema file."""

    path: Path
    display_path: str
    text: str
    data: Any
    positions: Mapping[str, Position]

    def position(self, pointer: str) -> Position:
        """The position of `pointer`, or of its closest ancestor that has one."""
        while True:
            found = self.positions.get(pointer)
            if found is not None:
                return found
            if not pointer:
                return UNKNOWN_POSITION
            pointer = pointer.rsplit("/", 1)[0]

    def diagnostic(self, pointer: str, message: str) -> Diagnostic:
        return Diagnostic(self.display_path, self.position(pointer), pointer, message)


def load(path: Path, display_path: str | None = None) -> Document:
    """Read and parse one schema file; raises ``InputError`` with located diagnostics."""
    shown = display_path or str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", f"cannot read file: {error.strerror}")]
        ) from None
    if len(raw) > MAX_SCHEMA_BYTES:
        raise InputError(
            [
                Diagnostic(
                    shown,
                    UNKNOWN_POSITION,
                    "",
                    f"file is {len(raw):,} bytes; schemas are limited to {MAX_SCHEMA_BYTES:,} bytes",
                )
            ]
        )
    text = _decode_text(raw, shown)
    if not text.strip():
        raise InputError(
            [Diagnostic(shown, UNKNOWN_POSITION, "", "file is empty: expected a schema object")]
        )
    if path.suffix == ".json":
        try:
            data, positions = jsonpos.parse(text, max_depth=MAX_NESTING)
        except jsonpos.JSONSyntaxError as error:
            raise InputError(
                [Diagnostic(shown, error.position, "", f"invalid JSON: {error.message}")]
            ) from None
    else:
        data, positions = _load_yaml(text, shown)
    document = Document(path, shown, text, data, positions)
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
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(
            [Diagnostic(shown, Position(line, column), "", "file is not valid UTF-8 text")]
        ) from None


def _load_yaml(text: str, shown: str) -> tuple[Any, dict[str, Position]]:
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    try:
        tree = yaml.load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(mark.line + 1, mark.column + 1) if mark else UNKNOWN_POSITION
        problem = error.problem or "invalid YAML"
        if error.context and "duplicate" not in problem:
            problem = f"{error.context}: {problem}"
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
    positions: dict[str, Position] = {"": Position(1, 1)}
    problems: list[Diagnostic] = []
    data = _plain(tree, "", 0, positions, problems, shown)
    if problems:
        raise InputError(problems)
    return data, positions


def _plain(
    node: Any,
    pointer: str,
    depth: int,
    positions: dict[str, Position],
    problems: list[Diagnostic],
    shown: str,
) -> Any:
    """Turn ruamel's round-trip nodes into plain Python values, recording positions."""
    if depth > MAX_NESTING:
        problems.append(
            Diagnostic(
                shown,
                positions.get(pointer, UNKNOWN_POSITION),
                pointer,
                f"nesting deeper than {MAX_NESTING} levels",
            )
        )
        return None
    if isinstance(node, CommentedMap):
        result: dict[str, Any] = {}
        for key in node:
            line, column = node.lc.key(key)
            child = join_pointer(pointer, str(key))
            positions[child] = Position(line + 1, column + 1)
            if not isinstance(key, str):
                problems.append(
                    Diagnostic(
                        shown,
                        positions[child],
                        child,
                        f"keys must be strings, got {_kind(key)} {key!r}",
                    )
                )
                continue
            result[key] = _plain(node[key], child, depth + 1, positions, problems, shown)
        return result
    if isinstance(node, CommentedSeq):
        items = []
        for index, item in enumerate(node):
            line, column = node.lc.item(index)
            child = join_pointer(pointer, index)
            positions[child] = Position(line + 1, column + 1)
            items.append(_plain(item, child, depth + 1, positions, problems, shown))
        return items
    if node is None or isinstance(node, bool):
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    if isinstance(node, (datetime.date, datetime.datetime)):
        problems.append(
            Diagnostic(
                shown,
                positions.get(pointer, UNKNOWN_POSITION),
                pointer,
                "YAML read this as a date; quote it to make it a string",
            )
        )
        return str(node)
    problems.append(
        Diagnostic(
            shown,
            positions.get(pointer, UNKNOWN_POSITION),
            pointer,
            f"unsupported YAML value {type(node).__name__}",
        )
    )
    return None


def _kind(value: Any) -> str:
    return jsonpos.json_type_name(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())
