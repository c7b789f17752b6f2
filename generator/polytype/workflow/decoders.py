"""The generated dataclass decoders of a module, rendered and loaded in memory.

`drift` asks them about every recorded value, so that "no drift" means what a user
of the generated code needs it to mean: every decoder accepts every value. The
walk in ``observe`` explains most rejections by category; whatever a decoder
rejects that the walk did not explain is still reported, in the decoder's words.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from polytype import ir
from polytype.targets import python_dataclasses
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import make_env
from polytype.targets.python import names as python_names

_counter = itertools.count()

# A decoder's verdict on one value: None when it accepts it, else its error message.
Verdict = Callable[[Any], str | None]


def load(module: ir.Module) -> ModuleType:
    """Render the module's dataclasses (unformatted: formatting changes no behaviour) and import them."""
    [output] = python_dataclasses.render(module, make_env())
    name = f"_polytype_drift_{module.name}_{next(_counter)}"
    loaded = ModuleType(name)
    sys.modules[name] = loaded  # dataclasses look their module up while building classes
    try:
        exec(
            compile(output.text, f"<generated {module.name} dataclasses>", "exec"), loaded.__dict__
        )
    finally:
        del sys.modules[name]
    return loaded


def verdict(loaded: ModuleType, type_name: str) -> Verdict:
    """The public decoder of `type_name` (as the module names it), as a function that
    reports instead of raising."""
    decode = getattr(loaded, f"decode_{function_suffix(python_names.type_name(type_name))}")
    decode_error: type[Exception] = loaded.DecodeError

    def judge(value: Any) -> str | None:
        try:
            decode(value)
        except decode_error as error:
            return str(error)
        return None

    return judge
