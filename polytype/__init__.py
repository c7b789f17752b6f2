"""The name people type: `import polytype`, `python -m polytype`.

The implementation lives in the `generator` package; this module only re-exports
what a caller of polytype as a library needs.
"""

from generator import __version__
from generator.entry import main

__all__ = ["__version__", "main"]
