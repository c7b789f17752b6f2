"""One schema file to the IR: reading, the front end's passes, validation, lowering.

    load → normalise the draft → resolve and bundle references → drop annotations and
    warn about unenforced assertions → merge allOf, name unions → validate and lower
    (approximating what cannot be typed exactly) → IR (without defaults that would
    have to be records)

A strict project (`strict = true`, `--strict`) owns its schemas: its files go straight
to validation and lowering, and everything the passes would approximate is an error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError
from polytype.dialect.keywords import api_description
from polytype.dialect.validate import validate, written_for_polytype
from polytype.frontend import checks
from polytype.frontend.generous import clean
from polytype.frontend.shapes import reshape
from polytype.ir.formats import NO_FORMATS, FormatChoice
from polytype.lowering import NameCheck, check_definitions
from polytype.lowering.approximate import lower_approximating
from polytype.lowering.defaults import drop_record_defaults
from polytype.lowering.lower import lower
from polytype.reading.loader import Document, load


@dataclass(frozen=True)
class Read:
    """A schema file read: its IR, the document as written, and what was approximated."""

    module: ir.Module
    document: Document
    warnings: tuple[Diagnostic, ...] = ()
    # (path, sha256 of its text) of every other file the schema's references read
    references: tuple[tuple[Path, str], ...] = ()


def read_schema(
    path: Path,
    display_path: str,
    strict: bool = True,
    ref_map: Mapping[str, Path] | None = None,
    unknown_tags: ir.UnknownPolicy = "reject",
    chosen: FormatChoice = NO_FORMATS,
    *,
    unknown_enum_values: ir.UnknownPolicy = "reject",
    name_checks: Sequence[NameCheck] = (),
    scans: dict[Path, dict[str, Path]] | None = None,
) -> Read:
    """Load and lower one schema file; raise ``InputError`` with every problem.
    `unknown_tags` is the project's default for tagged unions without `x-unknown`,
    `unknown_enum_values` for string enums without it;
    `chosen` the formats the project asserts; `name_checks` the targets' namers' checks
    (`targets.name_checks()`), whose problems are reported with every other; `scans` the
    schema directories' `$id`s (frontend.bundle.IdScans), one dict shared by every schema of a
    build."""
    document = load(path, display_path)
    described = api_description(document.data)
    if described is not None:
        key, what, schemas = described
        raise InputError(
            [
                document.diagnostic(
                    f"/{key}",
                    f"this file is {what}, not a JSON Schema; polytype reads JSON Schema "
                    "files (point a schema file's $ref at the description's schemas, e.g. "
                    f"'{path.name}{schemas}Name', kept outside the schema directory)",
                )
            ]
        )
    if strict:
        owned = replace(document, data=checks.moved(document.data))
        validate(owned)
        module = lower(
            owned,
            unknown_tags,
            chosen=chosen,
            unknown_enum_values=unknown_enum_values,
            name_checks=name_checks,
        )
        return Read(
            replace(module, check_defs=check_definitions.definitions(owned.data, module)), document
        )
    if written_for_polytype(document):
        try:  # a schema in polytype's own dialect needs none of the passes
            validate(document, meets_dialect=True)
            lowered = lower(
                document,
                unknown_tags,
                chosen=chosen,
                unknown_enum_values=unknown_enum_values,
                name_checks=name_checks,
            )
            return Read(lowered, document)
        except InputError:
            pass
    from polytype.frontend.bundle import bundle  # (referencing: slow to import, only needed here)

    bundled = bundle(document, ref_map, scans)
    cleaned = clean(bundled.document)
    reshaped = reshape(replace(bundled.document, data=cleaned.data))
    module, approximated = lower_approximating(
        reshaped.document,
        unknown_tags,
        chosen,
        unknown_enum_values=unknown_enum_values,
        name_checks=name_checks,
    )
    module = drop_record_defaults(module)
    module = replace(
        module, check_defs=check_definitions.definitions(bundled.document.data, module)
    )
    warnings = sorted(set(bundled.warnings + cleaned.warnings + reshaped.warnings + approximated))
    references = tuple(
        (source.path, hashlib.sha256(source.text.encode("utf-8")).hexdigest())
        for source in bundled.sources
    )
    return Read(module, document, tuple(warnings), references)
