"""`polytype init`: scaffold a project that `polytype generate` renders right away.

Writes `pyproject.toml` (`[tool.polytype]`), `schema/example.yaml` (a tagged
union, two records and an enum), the dialect meta-schema next to it for
editors, and one fixture. Refuses to overwrite anything: when any of these
files exists, nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from polytype.workflow.dialect import dialect_text
from polytype.workflow.errors import WorkflowError
from polytype.workflow.files import create_new, json_text

DIALECT_FILE = "schema/.polytype-dialect.json"

PYPROJECT = """\
# polytype reads its settings from [tool.polytype]; paths are relative to this file.
[tool.polytype]
schema-dir = "schema"
output-dir = "generated"
fixtures-dir = "tests/fixtures"
"""

EXAMPLE_SCHEMA = """\
# yaml-language-server: $schema=.polytype-dialect.json
$schema: https://json-schema.org/draft/2020-12/schema
title: Example events
description: A first polytype schema. Edit it, then run `polytype generate`.
x-polytype:
  module: example
  root: Event

$defs:
  Event:
    description: One event of the example stream, dispatched on `type`.
    oneOf:
      - $ref: "#/$defs/Greeting"
      - $ref: "#/$defs/Farewell"

  Mood:
    description: How the sender feels.
    type: string
    enum: [happy, calm, grumpy]

  Greeting:
    description: Someone says hello.
    type: object
    x-frozen: true
    properties:
      type:
        const: greeting
        description: Event type.
      name:
        type: string
        minLength: 1
        description: Who is greeted.
      mood:
        $ref: "#/$defs/Mood"
        description: How the greeting sounds, when known.
    required: [type, name]

  Farewell:
    description: Someone says goodbye.
    type: object
    properties:
      type:
        const: farewell
        description: Event type.
      name:
        type: string
        description: Who leaves.
      seeYouSoon:
        type: boolean
        default: true
        description: Whether they mean to come back.
    required: [type, name]
"""

EXAMPLE_FIXTURE = {"type": "greeting", "name": "Ada", "mood": "happy"}


def scaffold() -> dict[str, str]:
    """Every file `init` writes, by path relative to the project directory."""
    return {
        "pyproject.toml": PYPROJECT,
        "schema/example.yaml": EXAMPLE_SCHEMA,
        DIALECT_FILE: dialect_text(),
        "tests/fixtures/example/Greeting/basic.json": json_text(EXAMPLE_FIXTURE),
    }


def init(directory: Path) -> list[str]:
    """Write the scaffold into `directory`; the written paths. Raises if any file exists."""
    files = scaffold()
    if directory.exists() and not directory.is_dir():
        raise WorkflowError(f"{directory}: not a directory")
    existing = [name for name in files if (directory / name).exists()]
    if existing:
        raise WorkflowError(
            f"{directory}: refusing to overwrite {', '.join(existing)}; nothing was written"
        )
    for name, text in files.items():
        create_new(directory / name, text)
    return list(files)
