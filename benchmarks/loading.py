"""Importing one flavor of a generated package from wherever it was generated."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def import_flavor(package_dir: Path, flavor: str, package_name: str) -> ModuleType:
    """`flavor` (`dataclass_models`, ...) of the generated package in `package_dir`, as a
    submodule of that package imported under `package_name`: the flavors import their
    package's runtime relatively, and two generated copies can sit side by side."""
    if package_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            package_name,
            package_dir / "__init__.py",
            submodule_search_locations=[str(package_dir)],
        )
        assert spec is not None and spec.loader is not None
        package = importlib.util.module_from_spec(spec)
        sys.modules[package_name] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{package_name}.{flavor}")
