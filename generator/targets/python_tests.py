"""Target: the generated pytest round-trip suite of a module."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from generator import ir
from generator.render import RenderEnv
from generator.targets import OutputFile
from generator.targets.python_common import function_suffix

TARGET = "python-tests"


@dataclass(frozen=True)
class CaseView:
    path: str
    suffix: str
    expected_path: str | None


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    names = {named.name for named in module.types}
    valid: list[CaseView] = []
    invalid: list[CaseView] = []
    for case in env.fixtures_for(module.name):
        if case.type_name not in names:
            continue
        view = CaseView(
            case.relative_path, function_suffix(case.type_name), case.expected_error_path
        )
        (valid if case.valid else invalid).append(view)
    test_path = f"tests/python/test_{module.name}.py"
    test_dir = posixpath.dirname(posixpath.join(env.output_dir, test_path))
    text = env.render(
        "tests/test_module.py.j2",
        module=module,
        valid=valid,
        invalid=invalid,
        fixtures_from_test=posixpath.relpath(env.fixtures_dir, test_dir),
        models_from_test=posixpath.relpath(
            posixpath.join(env.output_dir, "python", module.name), test_dir
        ),
    )
    return [OutputFile(test_path, text, TARGET, module.name, "python")]
