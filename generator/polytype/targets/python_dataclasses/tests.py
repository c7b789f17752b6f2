"""Target: the generated pytest round-trip suite of a module's dataclasses."""

from __future__ import annotations

from polytype import ir
from polytype.targets.base import OutputFile
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.fixture_suites import render_suite
from polytype.targets.python.names import python_module

TARGET = "python-tests"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    return render_suite(
        python_module(module),
        env,
        target=TARGET,
        template="tests/test_module.py.j2",
        test_path=f"tests/python/test_{module.name}.py",
    )
