"""The static checks of the TypedDict flavor: every valid fixture as a typed literal
mypy must accept, and mutations of them mypy must reject, with the errors expected."""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass, replace

from polytype import ir
from polytype.ir.fixtures import FixtureCase
from polytype.targets.base import OutputFile
from polytype.targets.base.formatting import LINE_LENGTH
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.common import isort_names
from polytype.targets.python.names import python_module, type_name
from polytype.targets.python.packages import import_path
from polytype.targets.python_typeddicts.fixture_literals import (
    NotRepresentable,
    python_literal,
    unknown_keys,
)

TYPECHECK_TARGET = "python-typeddicts-typecheck"


def typecheck_paths(module: ir.Module) -> tuple[str, str]:
    """(snippets mypy must accept, snippets mypy must reject), under the output directory."""
    return (
        f"typecheck/{module.name}_typeddicts_snippets.py",
        f"typecheck/{module.name}_typeddicts_invalid.py",
    )


@dataclass(frozen=True)
class SnippetView:
    variable: str
    type_name: str
    fixture: str
    literal: str
    # an open enum (`x-unknown: keep`) also takes its `Unknown<Enum>` (any string)
    unknown: str | None = None

    @property
    def annotation(self) -> str:
        """The variable's type: the named type, or an open enum's `T | UnknownT`."""
        return self.type_name if self.unknown is None else f"{self.type_name} | {self.unknown}"

    @property
    def imported(self) -> tuple[str, ...]:
        return (self.type_name,) if self.unknown is None else (self.type_name, self.unknown)

    @property
    def declared_apart(self) -> bool:
        """`x: T` and `x = {...}` as two statements when `x: T = {` would not fit a line:
        black then wraps the annotation in parentheses and ruff does not, so the generated
        file would satisfy only one of them."""
        opening = self.literal[0] if self.literal[:1] in ("{", "[") else self.literal
        return len(f"{self.variable}: {self.annotation} = {opening}") > LINE_LENGTH


@dataclass(frozen=True)
class SkippedView:
    fixture: str
    reason: str


@dataclass(frozen=True)
class InvalidView:
    variable: str
    type_name: str
    what: str
    literal: str
    expected: str  # a line mypy must print for this snippet


def _variable(case: FixtureCase, taken: set[str]) -> str:
    stem = case.relative_path.rsplit("/", 1)[-1].removesuffix(".json")
    base = re.sub(r"\W", "_", f"{function_suffix(case.type_name)}__{stem}".lower(), flags=re.ASCII)
    name, number = base, 2
    while name in taken or keyword.iskeyword(name):
        name, number = f"{base}_{number}", number + 1
    taken.add(name)
    return name


def _load_fixture(case: FixtureCase) -> object:
    with open(case.source, encoding="utf-8") as handle:
        return json.load(handle)


def _snippets(
    module: ir.Module, env: RenderEnv
) -> tuple[list[SnippetView], list[SkippedView], list[tuple[FixtureCase, object]]]:
    names = {named.name for named in module.types}
    snippets: list[SnippetView] = []
    skipped: list[SkippedView] = []
    usable: list[tuple[FixtureCase, object]] = []
    taken: set[str] = set()
    for case in env.fixtures_for(module.name):
        case = replace(case, type_name=type_name(case.type_name))  # as the module names it
        if not case.valid or case.type_name not in names:
            continue
        try:
            data = _load_fixture(case)
            extra = unknown_keys(module, ir.Ref(case.type_name), data)
            literal = python_literal(data)
        except (OSError, ValueError, NotRepresentable) as error:
            skipped.append(SkippedView(case.relative_path, f"not representable: {error}"))
            continue
        if extra:
            listed = ", ".join(extra[:3]) + (
                f" and {len(extra) - 3} more" if len(extra) > 3 else ""
            )
            skipped.append(
                SkippedView(
                    case.relative_path, f"unknown key(s) a TypedDict cannot declare: {listed}"
                )
            )
            continue
        named = module.get(case.type_name)
        unknown = named.unknown if isinstance(named, ir.EnumType) else None
        snippets.append(
            SnippetView(
                _variable(case, taken), case.type_name, case.relative_path, literal, unknown
            )
        )
        usable.append((case, data))
    return snippets, skipped, usable


def _required_plain_keys(module: ir.Module, case: FixtureCase, data: object) -> list[ir.Field]:
    """Required keys of a record fixture that are neither tags nor aliased, present in `data`."""
    named = module.get(case.type_name)
    if not isinstance(named, ir.Record) or not isinstance(data, dict):
        return []
    return [
        f
        for f in named.fields
        if f.required and not f.is_tag and not f.aliases and f.json_key in data
    ]


def _invalid_snippets(
    module: ir.Module, usable: list[tuple[FixtureCase, object]]
) -> list[InvalidView]:
    """Mutations of valid record fixtures that mypy must reject, each with the error mypy reports.

    A required key left out and an undeclared key added (first record fixture with a
    plain required key), and a required primitive given a value of the wrong type
    (first record fixture with a required `str`, `int`, `float` or `bool` key).
    """
    views: list[InvalidView] = []
    for case, data in usable:
        plain = _required_plain_keys(module, case, data)
        if not plain:
            continue
        assert isinstance(data, dict)
        missing = plain[0]
        views.append(
            InvalidView(
                "missing_required_key",
                case.type_name,
                f"required key {missing.json_key!r} left out of {case.relative_path}",
                python_literal(
                    {key: value for key, value in data.items() if key != missing.json_key}
                ),
                f'Missing key "{missing.json_key}" for TypedDict "{case.type_name}"',
            )
        )
        views.append(
            InvalidView(
                "unknown_key",
                case.type_name,
                f"a key the schema does not declare added to {case.relative_path}",
                python_literal({**data, "__not_in_the_schema__": 1}),
                f'Extra key "__not_in_the_schema__" for TypedDict "{case.type_name}"',
            )
        )
        break
    for case, data in usable:
        prims = [f for f in _required_plain_keys(module, case, data) if isinstance(f.type, ir.Prim)]
        if not prims:
            continue
        assert isinstance(data, dict)
        wrong = prims[0]
        assert isinstance(wrong.type, ir.Prim)
        bad_value: object = 12345 if wrong.type.kind == "str" else "not a number"
        bad_type = "int" if wrong.type.kind == "str" else "str"
        views.append(
            InvalidView(
                "wrong_value_type",
                case.type_name,
                f"{wrong.json_key!r} given a value of type {bad_type} in {case.relative_path}",
                python_literal({**data, wrong.json_key: bad_value}),
                f'Incompatible types (expression has type "{bad_type}", TypedDict item "{wrong.json_key}"'
                f' has type "{wrong.type.kind}")',
            )
        )
        break
    return views


def typecheck_files(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    module = python_module(module)
    snippets, skipped, usable = _snippets(module, env)
    invalid = _invalid_snippets(module, usable)
    valid_path, invalid_path = typecheck_paths(module)
    common = {"module": module, "import_from": f"{import_path(module.name, env)}.typed_dicts"}
    valid_doc = (
        f"Static check of {module.name}/typed_dicts.py: every valid fixture, written as a typed literal.\n\n"
        "`nox -s typecheck` runs `mypy --strict` on this file (with MYPYPATH set to the generated\n"
        "`python/` directory): each assignment must type-check as it is.\n\n"
    )
    if skipped:
        valid_doc += (
            f"Fixtures left out ({len(skipped)}), because a TypedDict literal cannot hold them:\n"
        )
        valid_doc += "".join(f"- {skip.fixture}: {skip.reason}\n" for skip in skipped)
    else:
        valid_doc += "No fixture is left out.\n"
    invalid_doc = (
        f"Static check of {module.name}/typed_dicts.py: literals that mypy must REJECT.\n\n"
        "Each assignment breaks its TypedDict in one way; EXPECTED_ERRORS lists the error mypy\n"
        "reports for each, in order. tests/test_typeddicts.py runs mypy on this file and fails\n"
        "unless mypy rejects it with exactly these errors.\n"
    )
    return [
        OutputFile(
            valid_path,
            env.render(
                "python_typeddicts/snippets.py.j2",
                doc=valid_doc,
                snippets=snippets,
                imported=isort_names(name for snippet in snippets for name in snippet.imported),
                **common,
            ),
            TYPECHECK_TARGET,
            module.name,
            "python",
        ),
        OutputFile(
            invalid_path,
            env.render(
                "python_typeddicts/invalid.py.j2",
                doc=invalid_doc,
                snippets=invalid,
                imported=isort_names(snippet.type_name for snippet in invalid),
                **common,
            ),
            TYPECHECK_TARGET,
            module.name,
            "python",
        ),
    ]
