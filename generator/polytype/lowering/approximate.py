"""Whatever lowering cannot type exactly becomes free-form JSON, with a located warning.

A consumed schema may hold shapes no target can express as a precise type (a `const`
object, keywords beside a union, ...). (Members of a union that nothing tells apart
are not among them: lowering makes such a union try each member, as JSON Schema says,
and its warning is passed on here.)
Refusing the whole schema for one of them helps nobody: the schema that holds such a
shape is typed as free-form JSON instead (values decode and encode back exactly; what
the schema would reject there is not checked), and the warning says where and why.

Problems in polytype's own instructions (`x-` keys, the module name, the root) are
never approximated: they stay errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from polytype import ir
from polytype.diagnostics import Diagnostic, InputError
from polytype.dialect.keywords import CHECKS_KEY, walk_schemas
from polytype.dialect.validate import validate
from polytype.ir.formats import NO_FORMATS, FormatChoice
from polytype.lowering import NameCheck
from polytype.lowering.lower import lower_generously
from polytype.reading.loader import Document

# Rounds of lower-and-replace before giving up (each round replaces at least one schema).
MAX_ROUNDS = 50
# (a schema typed as free-form keeps its schema checks: they hold on the JSON value as is)
_KEPT = ("description", "title", CHECKS_KEY)
# Annotations dropped alone when they are the problem.
_DROPPABLE = ("default", "examples")


def lower_approximating(
    document: Document,
    unknown_tags: ir.UnknownPolicy = "reject",
    chosen: FormatChoice = NO_FORMATS,
    *,
    unknown_enum_values: ir.UnknownPolicy = "reject",
    name_checks: Sequence[NameCheck] = (),
) -> tuple[ir.Module, tuple[Diagnostic, ...]]:
    """Validate and lower `document`, replacing each schema they refuse with free-form
    JSON; raise ``InputError`` only for problems no replacement can fix. `name_checks`:
    the targets' namers' checks, whose problems are approximated as lowering's are."""
    data = document.data
    warnings: list[Diagnostic] = []
    summarised: dict[str, list[str]] = {}  # quiet drops by kind: the pointers dropped
    replaced: set[str] = set()  # the schemas typed as free-form so far
    for _ in range(MAX_ROUNDS):
        # diagnostics name pointers into `data`: the place to replace; the warnings are
        # worded through the document's origins (and so are the IR's source references)
        attempt = replace(document, data=data, data_pointers=True)
        try:
            validate(attempt)
            module, notes = lower_generously(
                attempt,
                unknown_tags,
                frozenset(replaced),
                chosen=chosen,
                unknown_enum_values=unknown_enum_values,
                name_checks=name_checks,
            )
        except InputError as error:
            data, fixed = _replace(data, error.diagnostics, replaced)
            if not fixed:  # what is left is not approximable: report it (all of it)
                raise InputError(
                    [document.diagnostic(d.pointer, d.message) for d in error.diagnostics]
                ) from None
            for problem, how in fixed:
                if how in _SUMMARIES:
                    summarised.setdefault(how, []).append(document.locate(problem.pointer)[2])
                else:
                    warnings.append(document.warning(problem.pointer, f"{how}: {problem.message}"))
            continue
        warnings.extend(document.warning(pointer, message) for pointer, message in notes)
        warnings.extend(
            document.warning("", _summary(how, pointers))
            for how, pointers in sorted(summarised.items())
        )
        return module, tuple(warnings)
    raise InputError([document.diagnostic("", "the schema could not be approximated")])


_FREE_FORM = "typed as free-form JSON (kept exactly, not checked)"
# Dropped annotations that change no decoding or encoding get one summary line per
# module: a `default: null` where null does not fit (an absent key stays absent either
# way), and `examples` that are malformed or do not fit (they are documentation only).
_NULL_DEFAULT = "null default ignored"
_EXAMPLES = "examples ignored"
_SUMMARIES = {
    _NULL_DEFAULT: "`default: null` ignored where null does not fit the schema "
    "(an absent key decodes and encodes the same without it)",
    _EXAMPLES: "`examples` ignored that are not a list of values the schema accepts "
    "(examples are documentation; decoding and encoding are the same without them)",
}
_SHOWN = 3


def _summary(how: str, pointers: list[str]) -> str:
    shown = ", ".join(sorted(pointers)[:_SHOWN])
    more = len(pointers) - _SHOWN
    return f"{len(pointers)} {_SUMMARIES[how]}: {shown}" + (f" and {more} more" if more > 0 else "")


def _replace(
    data: Any, problems: list[Diagnostic], replaced: set[str]
) -> tuple[Any, list[tuple[Diagnostic, str]]]:
    """`data` with the schema around each problem replaced by free-form JSON, and the
    problems that were handled so; the pointers replaced are added to `replaced`."""
    schemas = {pointer: node for pointer, node in walk_schemas(data)}
    fixed: list[tuple[Diagnostic, str]] = []
    for problem in problems:
        # an annotation that does not fit its schema (a wrong `default`) costs only itself
        parent, _, keyword = problem.pointer.rpartition("/")
        if keyword in _DROPPABLE and parent in schemas and keyword in schemas[parent]:
            null_default = keyword == "default" and schemas[parent][keyword] is None
            data = _set(data, parent, {k: v for k, v in schemas[parent].items() if k != keyword})
            fixed.append((problem, _NULL_DEFAULT if null_default else f"{keyword} ignored"))
    if fixed:
        return data, fixed
    chosen: dict[str, Diagnostic] = {}
    for problem in problems:
        target = _enclosing(problem.pointer, schemas)
        if target is not None and not _is_free(schemas[target]):
            chosen.setdefault(target, problem)
    for problem in problems:
        target = _enclosing(problem.pointer, schemas)
        if target is not None and target in chosen:
            fixed.append((problem, _FREE_FORM))
    outers: list[str] = []
    for pointer in sorted(chosen, key=len):  # outermost first: inner replacements are moot
        if any(pointer.startswith(outer + "/") for outer in outers):
            continue
        outers.append(pointer)
        replaced.add(pointer)
        data = _set(data, pointer, {k: v for k, v in schemas[pointer].items() if k in _KEPT})
    return data, fixed


def _enclosing(pointer: str, schemas: dict[str, Any]) -> str | None:
    """The innermost schema around `pointer` that may be replaced, or None when the
    problem lies in polytype's own vocabulary or the document itself."""
    tokens = pointer.split("/")
    if any(token.startswith("x-") for token in tokens):
        return None
    while pointer:
        if pointer in schemas and pointer.count("/") >= 2:
            return pointer
        pointer = pointer.rsplit("/", 1)[0]
    return None


def _is_free(node: dict[str, Any]) -> bool:
    return all(key in _KEPT for key in node)


def _set(data: Any, pointer: str, value: Any) -> Any:
    """A copy of `data` with `value` at `pointer` (copying only the path to it)."""
    if not pointer:
        return value
    head, _, rest = pointer[1:].partition("/")
    token = head.replace("~1", "/").replace("~0", "~")
    if isinstance(data, list):
        index = int(token)
        copy_list = list(data)
        copy_list[index] = _set(data[index], "/" + rest if rest else "", value)
        return copy_list
    copy_dict = dict(data)
    copy_dict[token] = _set(data[token], "/" + rest if rest else "", value)
    return copy_dict
