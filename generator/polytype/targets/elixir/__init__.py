"""Target: an Elixir mix project of struct modules with exact, validating JSON codecs.

Output lives under ``generated/elixir/``: one file per named type in ``lib/``
(path from its module name), a `<Namespace>.PolytypeChecks` module of check rules for a
schema module with schema checks, one ExUnit file per schema module in ``test/``, and
(project target) the one runtime module every namespace uses
(``lib/polytype_generated/runtime.ex``, `PolytypeGenerated.Runtime`), ``mix.exs``,
``.formatter.exs``, ``.gitignore`` and ``test/test_helper.exs``.

Everything is decided in this package and handed to ``templates/elixir/`` as view
objects holding finished snippets; the templates only loop and print. Every string
that comes from a schema reaches Elixir source through ``ex_str``/``ex_atom``/``ex_doc``.

The contract mirrors the Python dataclasses: ``from_json/1`` takes decoded JSON
(maps with string keys, as ``:jiffy`` or ``Jason`` return them) and gives
``{:ok, struct}`` or ``{:error, {path, reason}}`` with the same ``$.a[0].b``
paths as the Python ``DecodeError``; ``to_json/1`` gives the map back exactly,
optional keys present in the input written back even when default or ``nil``.
Enum strings become atoms through generated function clauses only.

A module per job: `names` (paths, module names, keys, atoms), `layout` (the line
layout of `mix format`), `terms` (JSON values as Elixir terms), `clauses` (clauses
and `with` steps at their column); `snippets`, `decoders`, `encoders` and `filegen`
(one file's helpers, decoders, encoders and defaults); the view of each kind of type
(`records`, `enums`, `unions`, `aliases`); `exunit` (the ExUnit files),
`schema_checks` (each namespace's check rules, the checks' docs) and `collisions`
(names the target takes for itself). This module renders the files from them
(`render`, `render_project`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from polytype import ir
from polytype.targets.base import FileKind, OutputFile, ProjectTarget, depth
from polytype.targets.base.render import RenderEnv
from polytype.targets.elixir.aliases import alias_view
from polytype.targets.elixir.collisions import check_collisions
from polytype.targets.elixir.enums import enum_view
from polytype.targets.elixir.exunit import render_tests
from polytype.targets.elixir.names import (
    APP_MODULE,
    APP_NAME,
    PROJECT_TARGET,
    ROOT,
    RUNTIME_ALIAS,
    RUNTIME_MODULE,
    TARGET,
    checks_module,
    literal_atom,
    module_file,
    namespace,
    type_module,
    unknown_module,
)
from polytype.targets.elixir.records import record_view
from polytype.targets.elixir.schema_checks import check_rule_attributes
from polytype.targets.elixir.unions import union_view, unknown_view

# what targets/docs asks of the Elixir target, by name
__all__ = ["literal_atom", "module_file", "render", "render_project", "unknown_module"]

_SEMVER = re.compile(r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?\Z")


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    """A file per named type (and `Unknown<Union>` module), the namespace's check rules
    when it has schema checks, and the ExUnit file. The runtime is the project's."""
    check_collisions(module)
    common = {"module": module, "runtime": RUNTIME_MODULE, "alias": RUNTIME_ALIAS}
    outputs: list[OutputFile] = []
    checks = ir.runtime_checks(module)
    if "schema_checks" in checks:
        rules = checks_module(module)
        outputs.append(
            OutputFile(
                f"{ROOT}/{module_file(rules)}",
                env.render(
                    "elixir/checks.ex.j2",
                    checks_module=rules,
                    namespace=namespace(module),
                    **check_rule_attributes(module, checks),
                    **common,
                ),
                TARGET,
                module.name,
                "elixir",
            )
        )
    for named in module.types:
        match named:
            case ir.Record():
                text = env.render(
                    "elixir/record.ex.j2", record=record_view(named, module), **common
                )
            case ir.EnumType():
                text = env.render("elixir/enum.ex.j2", enum=enum_view(named, module), **common)
            case ir.UnionType():
                text = env.render("elixir/union.ex.j2", union=union_view(named, module), **common)
                if named.unknown is not None:
                    kept = unknown_view(named, module)
                    outputs.append(
                        OutputFile(
                            f"{ROOT}/{module_file(kept.module)}",
                            env.render("elixir/unknown.ex.j2", unknown=kept, **common),
                            TARGET,
                            module.name,
                            "elixir",
                        )
                    )
            case ir.Alias():
                text = env.render(
                    "elixir/alias.ex.j2", alias_view=alias_view(named, module), **common
                )
            case _ as unreachable:
                assert_never(unreachable)
        outputs.append(
            OutputFile(
                f"{ROOT}/{module_file(type_module(module, named))}",
                text,
                TARGET,
                module.name,
                "elixir",
            )
        )
    outputs.append(render_tests(module, env))
    return outputs


@dataclass(frozen=True)
class ProjectNeeds:
    """What the mix project needs of one module: its runtime parts, and whether it has an
    open enum (the ExUnit helper that probes them)."""

    checks: frozenset[str]
    open_enums: bool


def project_needs(module: ir.Module, env: RenderEnv) -> ProjectNeeds:
    return ProjectNeeds(
        ir.runtime_checks(module),
        any(isinstance(named, ir.EnumType) and named.unknown for named in module.types),
    )


def render_mix_project(needs: Sequence[ProjectNeeds], env: RenderEnv) -> list[OutputFile]:
    """The runtime every namespace uses, mix.exs, .formatter.exs, .gitignore and
    test/test_helper.exs for the whole mix project.

    `needs` is every module's of the project with Elixir output, also when a run renders
    only some of them: the runtime carries the optional parts (`ir.runtime_checks`) that
    any of them needs, so it never depends on which modules a run selects or on their
    order."""
    test_dir = posixpath.join(env.output_dir, ROOT, "test")
    version = env.version if _SEMVER.match(env.version) else "0.0.0"
    context = {
        "app": APP_NAME,
        "app_module": APP_MODULE,
        "project_version": version,
        "fixtures_from_test": posixpath.relpath(env.fixtures_dir, test_dir),
        "support": f"{APP_MODULE}.TestSupport",
        # the ExUnit helper that probes open enums, only where there is one
        "open_enums": any(need.open_enums for need in needs),
    }
    files: list[tuple[str, str, FileKind]] = [
        ("mix.exs", "elixir/mix.exs.j2", "elixir"),
        (".formatter.exs", "elixir/formatter.exs.j2", "elixir"),
        (".gitignore", "elixir/gitignore.j2", "text"),
        ("test/test_helper.exs", "elixir/test_helper.exs.j2", "elixir"),
    ]
    checks = frozenset[str]().union(*(need.checks for need in needs))
    return [render_runtime(checks, env)] + [
        OutputFile(f"{ROOT}/{path}", env.render(template, **context), PROJECT_TARGET, "", kind)
        for path, template, kind in files
    ]


# The mix project of every module with Elixir output.
render_project = ProjectTarget(project_needs, render_mix_project)


def render_runtime(checks: frozenset[str], env: RenderEnv) -> OutputFile:
    """`PolytypeGenerated.Runtime`, with the optional parts named in `checks` (entries of
    `ir.runtime_checks`)."""
    text = env.render(
        "elixir/runtime.ex.j2",
        runtime=RUNTIME_MODULE,
        checks=sorted(checks),
        depth_limit=depth.MAX_DEPTH,
        depth_message=depth.DEPTH_MESSAGE,
    )
    return OutputFile(f"{ROOT}/{module_file(RUNTIME_MODULE)}", text, PROJECT_TARGET, "", "elixir")
