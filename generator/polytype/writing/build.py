"""What one run of the pipeline hands the writer: the files and the hashes of what they came
from (`polytype.project.pipeline` builds it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from polytype import ir
from polytype.diagnostics import Diagnostic
from polytype.writing.spool import Spool, SpooledFile


@dataclass(frozen=True)
class Build:
    """Everything one run produced: the files and the hashes of what they came from.

    The files' bytes wait in `spool` (see `polytype.writing.spool`) until the build is
    closed: `close` once written or compared."""

    # the modules' IR: only when asked for (`build(keep_modules=True)`, `polytype vendor`)
    modules: tuple[ir.Module, ...]
    outputs: tuple[SpooledFile, ...]
    spool: Spool
    inputs: dict[str, str]
    selected: frozenset[str]
    # what the front end approximated in consumed schemas (none in a strict project)
    warnings: tuple[Diagnostic, ...] = ()
    # path -> sha256 of every other file a schema's `$ref`s read (see ir.Module.references)
    references: dict[str, str] = field(default_factory=dict)
    # module name -> its schema file, for every module of the project
    schema_paths: dict[str, str] = field(default_factory=dict)

    def text(self, output: SpooledFile) -> str:
        """One file's text, read back from the spool."""
        return output.source.read_bytes().decode("utf-8")

    def close(self) -> None:
        """Let go of the spooled files."""
        self.spool.close()
