"""What differs between the stdlib flavors' validation code (see `codecs`): the
dataclass flavor decodes into new values, the TypedDict flavor checks values in place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Flavor:
    """What differs between the flavors in generated validation code."""

    checker_prefix: str  # per named type: `_decode_text_content` / `_validate_text_content`
    helper_prefix: str  # per anonymous type: `_d_list_str` / `_v_list_str`
    list_function: str  # runtime helper for arrays
    map_function: str  # runtime helper for maps
    tuples: bool  # honour `x-python: {sequence: tuple}` (decode arrays into tuples)
    # what an open union (`x-unknown: keep`) returns for an unlisted string `tag` of object `obj`
    keep_unknown: str  # `{name}`: the Unknown<Union> member


DATACLASSES = Flavor(
    "_decode_", "_d_", "_list", "_map", tuples=True, keep_unknown="{name}(tag, _json_object(obj))"
)
TYPEDDICTS = Flavor(
    "_validate_", "_v_", "_check_list", "_check_map", tuples=False, keep_unknown="_json_object(obj)"
)
