"""Located problems in input files, collected rather than raised one by one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Position:
    """1-based line and column in a source file."""

    line: int
    column: int


UNKNOWN_POSITION = Position(1, 1)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem: `file:line:col: pointer: message`."""

    file: str
    position: Position
    pointer: str
    message: str
    # "warning": polytype approximated something and went on (exit 0); "error" stops the run
    severity: str = "error"

    def __str__(self) -> str:
        """One line: control characters and escape sequences in any part are shown escaped,
        so that a key holding `\\n` cannot forge a second diagnostic, nor ANSI codes reach
        the terminal."""
        where = f"{printable(self.file)}:{self.position.line}:{self.position.column}"
        pointer = printable(self.pointer or "/")
        label = "warning: " if self.severity == "warning" else ""
        return f"{where}: {label}{pointer}: {printable(self.message)}"

    def as_warning(self) -> Diagnostic:
        return Diagnostic(self.file, self.position, self.pointer, self.message, "warning")


@dataclass(frozen=True)
class NameProblems:
    """What a target's namer finds wrong with a module's names: (JSON pointer, message)
    pairs, which the build locates and reports with every other problem of the schema.

    `first` is reported with the schema's own problems (names that collide once
    converted, reserved names); `then` only for a module that has none, since it judges
    the names the target would give a sound module (a class name two types would take,
    a name too long for an atom); `warnings` say what a consumed schema had renamed.
    """

    first: tuple[tuple[str, str], ...] = ()
    then: tuple[tuple[str, str], ...] = ()
    warnings: tuple[tuple[str, str], ...] = ()


def printable(text: str) -> str:
    """`text` on one line, with every non-printable character written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class InputError(Exception):
    """Raised by a pipeline stage when its input is invalid; carries every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def escape_pointer_token(token: str | int) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    if type(token) is str and "~" not in token and "/" not in token:  # noqa: E721
        return token  # most keys: nothing to escape (and no copy)
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(pointer: str, token: str | int) -> str:
    return f"{pointer}/{escape_pointer_token(token)}"


def json_type_name(value: Any) -> str:
    """The JSON name of a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
