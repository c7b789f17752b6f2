"""A recorded fixture as the targets that write test suites see it (`polytype.project.fixtures`
finds them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FixtureCase:
    module: str
    type_name: str
    relative_path: str  # relative to the fixtures directory, forward slashes
    valid: bool
    expected_error_path: str | None = None
    # the file itself, for targets that read the fixture (never written into output)
    source: str = field(default="", compare=False, repr=False)
