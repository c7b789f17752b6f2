"""Schemas without `type` whose keywords belong to one JSON type.

`{properties: {...}}` or `{items: {...}}` constrains only objects (arrays): JSON Schema
validates every value of another JSON type against it, so a string where such a schema
stands is valid. Typing the schema as that one JSON type would refuse documents every
validator accepts. In a consumed schema it is typed as exactly what it accepts: the implied
type or any value of another JSON type (kept as it is and written back unchanged), with one
summary warning per module naming the places. A project's own schema (strict) is refused
there instead, so its author adds the `type` they almost certainly meant.
"""

from __future__ import annotations

from collections.abc import Sequence

from polytype.dialect.keywords import implied_type

# Every JSON type but `null` (which lowering adds as nullable), `integer` within `number`.
__all__ = ["JSON_TYPES", "implied_type", "open_types", "refusal", "summary"]

JSON_TYPES = ("object", "array", "string", "number", "boolean")
_SHOWN = 3


def open_types(implied: str) -> list[str]:
    """The implied type first, then every other (null apart)."""
    return [implied, *(kind for kind in JSON_TYPES if kind != implied)]


def refusal(implied: str) -> str:
    """A strict project's error where a schema without `type` implies `implied`."""
    return (
        f"this schema has no `type`, and its keywords constrain only {implied}s: every value "
        f"that is not an {implied} is valid here; add `type: {implied}` (or list the other "
        "types it takes)"
    )


def summary(places: Sequence[str]) -> str:
    """The one warning of a module whose untyped schemas were typed as what they accept;
    `places`: where they are written."""
    ordered = sorted(set(places))
    shown = ", ".join(place or "the root" for place in ordered[:_SHOWN])
    more = len(ordered) - _SHOWN
    count = len(ordered)
    return (
        f"{count} schema{'' if count == 1 else 's'} without `type` constrain"
        f"{'s' if count == 1 else ''} only objects or arrays, so every value of another JSON "
        "type is valid there: typed as the object or array or any other JSON value (kept "
        f"as it is); add `type` to restrict them: {shown}"
        + (f" and {more} more" if more > 0 else "")
    )
