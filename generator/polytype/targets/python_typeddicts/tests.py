"""Target: the generated pytest suite of a module's TypedDict flavor.

`generated/tests/python/test_<module>_typeddicts.py`: every valid fixture
validates and comes back as the very same object, unchanged; every invalid
fixture is rejected with `DecodeError` at its recorded path, with the message
the dataclass flavor gives for it.
"""

from __future__ import annotations

from polytype import ir
from polytype.targets.base import OutputFile
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.fixture_suites import render_suite
from polytype.targets.python.names import python_module

TARGET = "python-typeddict-tests"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    return render_suite(
        python_module(module),
        env,
        target=TARGET,
        template="python_typeddicts/test_module.py.j2",
        test_path=f"tests/python/test_{module.name}_typeddicts.py",
    )
