"""The generated pytest suites: one per module and Python flavor, over its fixtures.

Each suite lists the module's valid and invalid fixtures (with the error path an
invalid one must be rejected at) and checks them against one flavor; the flavor's
template decides how. The three suites differ only in template and file name.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from polytype import ir
from polytype.targets.base import OutputFile
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.names import type_name
from polytype.targets.python.packages import import_path


@dataclass(frozen=True)
class CaseView:
    """One fixture as a suite lists it."""

    path: str  # relative to the fixtures directory
    type_name: str
    suffix: str  # of the type's decode_/encode_/validate_ functions
    expected_path: str | None  # where an invalid fixture must be rejected


def render_suite(
    module: ir.Module,
    env: RenderEnv,
    *,
    target: str,
    template: str,
    test_path: str,
    **context: Any,
) -> list[OutputFile]:
    """Render `template` to `test_path` (under the output directory) with the module's
    fixtures. `module`: respelled with the Python names (`names.python_module`)."""
    names = {named.name for named in module.types}
    valid: list[CaseView] = []
    invalid: list[CaseView] = []
    for case in env.fixtures_for(module.name):
        python = type_name(case.type_name)  # the case names the type as the module does
        if python not in names:
            continue
        view = CaseView(
            case.relative_path, python, function_suffix(python), case.expected_error_path
        )
        (valid if case.valid else invalid).append(view)
    test_dir = posixpath.dirname(posixpath.join(env.output_dir, test_path))
    text = env.render(
        template,
        module=module,
        valid=valid,
        invalid=invalid,
        fixtures_from_test=posixpath.relpath(env.fixtures_dir, test_dir),
        python_from_test=posixpath.relpath(posixpath.join(env.output_dir, "python"), test_dir),
        package=import_path(module.name, env),
        **context,
    )
    return [OutputFile(test_path, text, target, module.name, "python")]
