"""The ExUnit file of a schema module: fixture round trips, rejections and atom safety."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import assert_never

from polytype import ir
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.render import RenderEnv, ex_str
from polytype.targets.elixir import layout
from polytype.targets.elixir.names import (
    APP_MODULE,
    ROOT,
    TARGET,
    namespace,
    path_segment,
    type_label,
    type_module,
    unknown_module,
)


@dataclass(frozen=True)
class CallView:
    """A test's one call, its arguments terms that never break: on one line when it fits
    at column `indent`, else one argument a line (the template writes either shape)."""

    function: str
    arguments: tuple[str, ...]
    indent: int

    @property
    def fits(self) -> bool:
        return layout.fits(f"{self.function}({', '.join(self.arguments)})", self.indent)


@dataclass(frozen=True)
class CaseView:
    name: str  # test name
    module: str  # Elixir module under test
    path: str  # fixture path relative to the fixtures directory
    expected_path: str  # "" when the `.path` file is missing

    @property
    def round_trip(self) -> CallView:
        return CallView("assert_round_trip", (self.module, ex_str(self.path)), 6)

    def pair(self, ending: str) -> str:
        """`{Module, "path"}` and its `ending` (`,` or none, the last) in the list of
        fixtures (column 6), laid out."""
        pair = layout.Items("{", (self.module, ex_str(self.path)))
        return layout.laid(pair, 6, tail=len(ending)) + ending

    @property
    def rejected(self) -> CallView:
        if not self.expected_path:
            flunk = f"record the expected error path in {self.path[:-5]}.path"
            return CallView("flunk", (ex_str(flunk),), 6)
        arguments = (self.module, ex_str(self.path), ex_str(self.expected_path))
        return CallView("assert_rejected", arguments, 6)


@dataclass(frozen=True)
class AtomCaseView:
    name: str
    module: str
    json_template: str  # JSON text with __POLYTYPE_UNKNOWN__ where the unknown string goes
    expected_path: str
    kept_by: str = ""  # an open union: the Unknown<Union> module that keeps the tag (no error)
    # an open enum keeps the value: "true" as `{:unknown, value}` (atom enums), "false" as is
    kept_value: str = ""

    @property
    def assertion(self) -> CallView:
        if self.kept_value:
            arguments: tuple[str, ...] = (self.module, self.kept_value)
            return CallView("assert_value_kept_without_new_atoms", arguments, 4)
        if self.kept_by:
            arguments = (self.module, ex_str(self.json_template), self.kept_by)
            return CallView("assert_kept_without_new_atoms", arguments, 4)
        arguments = (self.module, ex_str(self.json_template), ex_str(self.expected_path))
        return CallView("assert_no_new_atoms", arguments, 4)


def _unknown_probe(module: ir.Module) -> list[AtomCaseView]:
    """Inputs with a string nobody declared: decoding must fail without creating an atom."""
    cases: list[AtomCaseView] = []
    for named in module.types:
        match named:
            case ir.EnumType():
                cases.append(
                    AtomCaseView(
                        f"unknown {type_label(named.name)} value",
                        type_module(module, named),
                        '"__POLYTYPE_UNKNOWN__"',
                        "$",
                        kept_value=("true" if named.atoms else "false") if named.unknown else "",
                    )
                )
            case ir.UnionType() if named.tag is not None:
                template = json.dumps({named.tag: "__POLYTYPE_UNKNOWN__"}, ensure_ascii=False)
                cases.append(
                    AtomCaseView(
                        f"unknown {type_label(named.name)} tag",
                        type_module(module, named),
                        template,
                        "$" + path_segment(named.tag),
                        unknown_module(module, named) if named.unknown else "",
                    )
                )
            case ir.UnionType() if named.open_tag is not None:
                template = json.dumps({named.open_tag: "__POLYTYPE_UNKNOWN__"}, ensure_ascii=False)
                cases.append(
                    AtomCaseView(
                        f"unknown {type_label(named.name)} tag",
                        type_module(module, named),
                        template,
                        "",
                        unknown_module(module, named),
                    )
                )
            case ir.Record() | ir.UnionType() | ir.Alias():
                pass
            case _ as unreachable:
                assert_never(unreachable)
    return cases


def test_path(module: ir.Module) -> str:
    return f"{ROOT}/test/{module.name}_test.exs"


def render_tests(module: ir.Module, env: RenderEnv) -> OutputFile:
    by_name = {named.name: named for named in module.types}
    valid: list[CaseView] = []
    invalid: list[CaseView] = []
    for case in env.fixtures_for(module.name):
        named = by_name.get(case.type_name)
        if named is None:
            continue
        name = case.relative_path.removeprefix(f"{module.name}/")
        view = CaseView(
            name, type_module(module, named), case.relative_path, case.expected_error_path or ""
        )
        (valid if case.valid else invalid).append(view)
    text = env.render(
        "elixir/test_module.exs.j2",
        module=module,
        test_module=f"{namespace(module)}.PolytypeRoundTripTest",
        atom_module=f"{namespace(module)}.PolytypeAtomSafetyTest",
        support=f"{APP_MODULE}.TestSupport",
        valid=valid,
        unseen_pairs=[
            case.pair("," if index < len(valid) - 1 else "") for index, case in enumerate(valid)
        ],
        invalid=invalid,
        atom_cases=_unknown_probe(module),
        **depth.template_values(module),
    )
    return OutputFile(test_path(module), text, TARGET, module.name, "elixir")
