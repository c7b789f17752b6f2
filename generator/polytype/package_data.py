"""Where polytype's own files are: the one place that knows.

The templates ship inside the wheel as `polytype/templates` (package data); in a
checkout they are the repository's top-level `templates/`, two folders above this
package (`generator/polytype/`). The dialect meta-schema sits in the dialect package.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def template_root() -> Traversable:
    """The templates directory: inside the installed wheel, or the checkout's `templates/`."""
    packaged = resources.files("polytype").joinpath("templates")
    if packaged.is_dir():
        return packaged
    return resources.files("polytype").joinpath("..", "..", "templates")


def dialect_schema_text() -> str:
    """The dialect meta-schema (`polytype schema-dialect` prints it)."""
    return (
        resources.files("polytype.dialect")
        .joinpath("dialect.schema.json")
        .read_text(encoding="utf-8")
    )
