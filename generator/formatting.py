"""Formatting of generated Python with black, in-process."""

from __future__ import annotations

import black
from black.mode import Mode, TargetVersion
from black.parsing import InvalidInput

_MODE = Mode(line_length=100, target_versions={TargetVersion.PY311})


class FormattingError(Exception):
    """Generated code black cannot parse: a bug in a template, never in user input."""


def format_python(text: str, path: str) -> str:
    try:
        return black.format_str(text, mode=_MODE)
    except InvalidInput as error:
        raise FormattingError(
            f"{path}: generated code does not parse ({error}); this is a polytype bug"
        ) from None
