"""The `polytype` command's entry point: answers a no-op `generate`/`check` before importing much.

Importing the generator (Jinja, jsonschema, the YAML loader, every target) takes
longer than a no-op run should. When the command is a plain `generate` or
`check` and the stamp of generator/polytype/project/stamp.py shows that no input and no output
changed since the last full run, this module prints what the full run would
print and exits; otherwise it hands over to polytype.cli, and afterwards
records a new stamp when the run covered every module and succeeded.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path


def _plain_command(argv: list[str]) -> tuple[str, Path | None, bool] | None:
    """(command, --project, every module?) for `generate [MODULE…]`/`check`; None for anything else."""
    project: Path | None = None
    rest: list[str] = []
    index = 0
    while index < len(argv):
        argument = argv[index]
        if argument == "--project" and index + 1 < len(argv):
            project = Path(argv[index + 1])
            index += 2
            continue
        if argument.startswith("--project="):
            project = Path(argument.split("=", 1)[1])
        elif argument == "--debug":
            pass
        elif argument.startswith("-"):
            return None
        elif rest and _names_a_file(argument):
            return None  # schema files named on the command line are not in the stamp
        else:
            rest.append(argument)
        index += 1
    if not rest or rest[0] not in ("generate", "check"):
        return None
    if rest[0] == "check" and len(rest) > 1:
        return None
    return rest[0], project, len(rest) == 1


def _names_a_file(argument: str) -> bool:
    return argument.endswith((".yaml", ".yml", ".json")) or "/" in argument or "\\" in argument


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:
        from polytype import __version__

        print(f"polytype {__version__}")
        return 0
    command = _plain_command(arguments)
    if command is None:
        from polytype.cli import main as cli_main

        return cli_main(arguments)
    name, project_dir, every_module = command
    from polytype.diagnostics import InputError
    from polytype.project import stamp
    from polytype.project.config import ProjectError, find_project

    try:
        project = find_project(project_dir)
    except (InputError, ProjectError):
        project = None
    if project is not None:
        found = stamp.unchanged(project)
        if found is not None:
            if name == "generate":
                print(
                    f"polytype: {found.modules} module(s); 0 new, 0 updated, 0 removed, "
                    f"{found.files} unchanged"
                )
            else:
                shown = project.relative(project.output_dir)
                print(f"polytype: {shown}/ is up to date ({found.files} files)")
            return 0
        before = stamp.base_signature(project) if stamp.enabled() else ""
    from polytype.cli import main as cli_main

    code = cli_main(arguments)
    if code == 0 and project is not None and every_module:
        stamp.write(project, before)
    return code
