"""Names of generated helpers that every flavor spells the same way (`decode_<suffix>`,
`_check_<bound>_<n>`, `lits_1_2_3`), so the Python and Elixir outputs and the docs agree."""

from __future__ import annotations

import hashlib
import re

from polytype import ir, naming
from polytype.ir import literals

# The type references that get a private decoder of their own in every flavor (lists,
# tuples, maps, nullable values, consts, schema checks, inline unions): plain scalars use
# the runtime's, a reference its named type's. A function over them matches exhaustively.
HelperKind = (
    ir.ListOf
    | ir.TupleOf
    | ir.MapOf
    | ir.LiteralValue
    | ir.JsonLiterals
    | ir.Nullable
    | ir.InlineUnion
    | ir.Checked
)

# Short names of the constraint bounds in helper names (`_d_str_minlen1_maxlen5`).
BOUND_KEYS = {
    "min_length": "minlen",
    "max_length": "maxlen",
    "minimum": "min",
    "maximum": "max",
    "exclusive_minimum": "xmin",
    "exclusive_maximum": "xmax",
    "min_items": "minitems",
    "max_items": "maxitems",
    "min_properties": "minprops",
    "max_properties": "maxprops",
}


def literal_key(node: ir.JsonLiterals) -> str:
    """A helper-name fragment for a `JsonLiterals` (`lits_1_2_3`; a digest when long)."""
    if not node.values:
        return "lits_none"
    text = literals.listed(node).replace("-", "m").replace(".", "p")
    text = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_")
    if len(text) > 40:
        digest = hashlib.sha256(repr(node.values).encode("utf-8")).hexdigest()[:10]
        text = text[:30] + "_" + digest
    return "lits_" + text


def function_suffix(type_name: str) -> str:
    """`ContentBlock` → `content_block`; `_TrimState` → `trim_state`."""
    return naming.snake_case(type_name).lstrip("_")
