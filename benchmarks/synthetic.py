"""Synthetic schemas for the generation benchmark: N object types, plain JSON Schema 2020-12.

Every type has a string, an integer, a number, a boolean, a string array, an
enum, a nullable string, a ``$ref`` to an earlier type and an array of such
refs (the first type, having no earlier one, refers to nothing). No ``x-`` keys,
so every generator reads the same file. The output is deterministic.

    python benchmarks/synthetic.py 1000 > synthetic_1000.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

STATUSES = ["active", "inactive", "pending", "archived"]


def type_name(index: int) -> str:
    return f"Item{index:05d}"


def _earlier(index: int, salt: int) -> int:
    """A pseudo-random earlier type, so references form a DAG rather than a chain."""
    return (index * 7919 + salt * 104729) % index


def schema(count: int) -> dict[str, Any]:
    """A schema with `count` object types under `$defs` and a root object that reaches every one."""
    definitions: dict[str, Any] = {}
    for index in range(count):
        properties: dict[str, Any] = {
            "name": {"type": "string", "description": "A human-readable name."},
            "itemCount": {"type": "integer"},
            "ratio": {"type": "number"},
            "enabled": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "status": {"type": "string", "enum": STATUSES},
            "note": {"type": ["string", "null"]},
        }
        if index > 0:
            properties["parent"] = {"$ref": f"#/$defs/{type_name(_earlier(index, 1))}"}
            properties["children"] = {
                "type": "array",
                "items": {"$ref": f"#/$defs/{type_name(_earlier(index, 2))}"},
            }
        definitions[type_name(index)] = {
            "description": f"Synthetic object type number {index}.",
            "type": "object",
            "properties": properties,
            "required": ["name", "itemCount", "status"],
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://example.com/synthetic_{count}.json",
        "title": f"Synthetic{count}",
        "description": f"{count} synthetic object types.",
        "type": "object",
        "properties": {
            f"item{index:05d}": {"$ref": f"#/$defs/{type_name(index)}"} for index in range(count)
        },
        "$defs": definitions,
    }


def write(count: int, directory: Path) -> Path:
    """Write `synthetic_<count>.json` into `directory` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"synthetic_{count}.json"
    path.write_text(json.dumps(schema(count), indent=2) + "\n", encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="number of object types")
    parser.add_argument("--out", type=Path, help="directory to write synthetic_<count>.json into")
    args = parser.parse_args()
    if args.out:
        print(write(args.count, args.out))
    else:
        json.dump(schema(args.count), sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
