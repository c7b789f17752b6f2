"""`polytype schema-dialect`: the dialect meta-schema as JSON text (for editors and CI)."""

from __future__ import annotations

import json

from polytype.dialect.keywords import dialect_schema


def dialect_text() -> str:
    """The meta-schema that checks polytype schema files, two-space indented."""
    return json.dumps(dialect_schema(), indent=2, ensure_ascii=False) + "\n"
