"""Where a project's generated Python goes, and where its runtime lives.

Without `python-package` every schema module is a top-level package,
`python/<module>/`; with it, a subpackage of that one package,
`python/<package>/<module>/`. The *output package* holds the runtime the modules'
flavor files import: each module's own package, or the one parent package.
"""

from __future__ import annotations

import posixpath

from polytype.targets.base.render import RenderEnv

# The runtime modules of an output package: the stdlib flavors' and Pydantic's.
RUNTIME = "_runtime"
PYDANTIC_RUNTIME = "_pydantic_runtime"
# A module's check constants, when more than one of its flavors needs them (beside them).
CHECKS = "_checks"


def module_dir(module: str, env: RenderEnv) -> str:
    """The package directory of `module`'s flavor files, under the output directory."""
    if env.python_package:
        return f"python/{env.python_package}/{module}"
    return f"python/{module}"


def import_path(module: str, env: RenderEnv) -> str:
    """The dotted name `module`'s package is imported by (`generated/python` on the path)."""
    return module_dir(module, env).removeprefix("python/").replace("/", ".")


def runtime_dir(module: str, env: RenderEnv) -> str:
    """The output package `module`'s runtime lives in."""
    return (
        posixpath.dirname(module_dir(module, env))
        if env.python_package
        else module_dir(module, env)
    )


def runtime_import(env: RenderEnv, runtime: str) -> str:
    """The relative import of the runtime module `runtime` from a flavor file."""
    return (".." if env.python_package else ".") + runtime
