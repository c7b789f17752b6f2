"""The `polytype` command line.

Exit codes: 0 ok, 1 `check` found differences, 2 invalid input (diagnostics
on stderr), 3 a polytype bug (reported without a traceback unless --debug).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from generator import __version__
from generator.config import Project, find_project
from generator.diagnostics import InputError
from generator.formatting import FormattingError
from generator.pipeline import build
from generator.writer import apply, locked, plan, unified_diff

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_INVALID = 2
EXIT_BUG = 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="polytype",
        description="Schema-first code generation: one schema, every output, proven to round-trip real data.",
    )
    parser.add_argument("--version", action="version", version=f"polytype {__version__}")
    parser.add_argument(
        "--project",
        type=Path,
        default=None,
        help="project directory (default: nearest pyproject.toml)",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    generate = commands.add_parser(
        "generate",
        help="validate schemas and write every output",
        description="Validate the schemas, render every target and write generated/ (only files whose bytes change).",
    )
    generate.add_argument(
        "modules", nargs="*", metavar="MODULE", help="modules to generate (default: all)"
    )
    generate.set_defaults(handler=_generate)

    check = commands.add_parser(
        "check",
        help="exit 1 with a diff when generated/ is stale",
        description="Regenerate in memory and compare with generated/: exit 1 and print a unified diff "
        "when a file is stale, missing, extra or hand-edited.",
    )
    check.set_defaults(handler=_check)
    return parser


def _generate(args: argparse.Namespace, project: Project) -> int:
    result = build(project, args.modules or None)
    with locked(project.output_dir):
        changes = plan(result, project.output_dir)
        apply(changes, project.output_dir)
    shown = project.relative(project.output_dir)
    counts = {"write": 0, "update": 0, "remove": 0}
    for change in changes.changes:
        counts[change.action] += 1
        verb = {"write": "wrote", "update": "updated", "remove": "removed"}[change.action]
        print(f"{verb} {shown}/{change.path}")
    unchanged = len(changes.expected) - counts["write"] - counts["update"]
    print(
        f"polytype: {len(result.modules)} module(s); {counts['write']} new, {counts['update']} updated, "
        f"{counts['remove']} removed, {unchanged} unchanged"
    )
    return EXIT_OK


def _check(args: argparse.Namespace, project: Project) -> int:
    result = build(project)
    changes = plan(result, project.output_dir)
    if not changes.changes:
        print(
            f"polytype: {project.relative(project.output_dir)}/ is up to date ({len(changes.expected)} files)"
        )
        return EXIT_OK
    sys.stdout.write(unified_diff(changes, project.output_dir))
    print(
        f"polytype: {len(changes.changes)} file(s) in {project.relative(project.output_dir)}/ differ from the schemas; "
        "run `polytype generate`",
        file=sys.stderr,
    )
    return EXIT_DIFFERENCES


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler: Callable[[argparse.Namespace, Project], int] = args.handler
    try:
        project = find_project(args.project)
        return handler(args, project)
    except InputError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic, file=sys.stderr)
        print(
            f"polytype: {len(error.diagnostics)} problem(s) found; nothing was written",
            file=sys.stderr,
        )
        return EXIT_INVALID
    except FormattingError as error:
        print(f"polytype: internal error: {error}", file=sys.stderr)
        return EXIT_BUG
    except KeyboardInterrupt:
        print("polytype: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
        if args.debug:
            raise
        print(
            f"polytype: internal error: {type(error).__name__}: {error} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
