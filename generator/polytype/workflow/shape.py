"""The shape of a JSON value: its keys and JSON types, without the data.

Two values have the same shape when their objects have the same keys with
values of the same shapes, and their arrays hold items of the same set of
shapes (so one item or three of the same kind count as one shape).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from polytype.diagnostics import json_type_name

ShapeData = str | list[Any] | dict[str, Any]


def shape(value: Any) -> ShapeData:
    """A JSON-serialisable description of `value`'s keys and types."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        shapes = [shape(item) for item in value]
        items = {_canonical(item_shape): item_shape for item_shape in shapes}
        return ["array", *(items[key] for key in sorted(items))]
    return json_type_name(value)


def shape_id(value: Any, length: int = 10) -> str:
    """A stable hex digest of `value`'s shape, `length` characters long."""
    return hashlib.sha256(_canonical(shape(value)).encode("utf-8")).hexdigest()[:length]


def _canonical(data: ShapeData) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
