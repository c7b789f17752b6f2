"""Target: the generated pytest suite of a module's Pydantic models.

`generated/tests/python/test_<module>_pydantic.py`: every valid fixture
round-trips through `pydantic_models.py` (from Python data and from JSON text),
every invalid fixture raises `ValidationError` at its recorded path.
"""

from __future__ import annotations

from polytype import ir
from polytype.targets.base import OutputFile
from polytype.targets.base.render import RenderEnv
from polytype.targets.python.fixture_suites import render_suite
from polytype.targets.python.names import python_module

TARGET = "python-pydantic-tests"


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    module = python_module(module)
    return render_suite(
        module,
        env,
        target=TARGET,
        template="python_pydantic/test_module.py.j2",
        test_path=f"tests/python/test_{module.name}_pydantic.py",
        records=sorted(named.name for named in module.types if isinstance(named, ir.Record)),
    )
