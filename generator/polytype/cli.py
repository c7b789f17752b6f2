"""The `polytype` command line.

Exit codes: 0 ok, 1 `check`/`drift`/`vendor --check`/`diff` found differences
(or `fixtures import` could not place a line), 2 invalid input (diagnostics on
stderr), 3 a polytype bug (reported without a traceback unless --debug), 4 the
operating system refused a read or write (read-only directory, full disk, ...).

`generate` and `check` live here; the workflow commands (`fixtures import`,
`drift`, `vendor`, `init`, `schema-dialect`, `diff`) are thin handlers over
the modules of ``polytype.workflow``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from polytype import __version__
from polytype.diagnostics import UNKNOWN_POSITION, Diagnostic, InputError, printable
from polytype.project.config import Project, ProjectError, find_project
from polytype.project.pipeline import build
from polytype.project.sources import schema_sources, scoped, split_modules_and_paths
from polytype.targets.base.formatting import FormattingError

# The other workflow commands are imported when they run: `generate` and `check` need
# none of them (several import jsonschema, slow to import).
from polytype.workflow import vendor
from polytype.workflow.errors import WorkflowError
from polytype.writing.writer import (
    OutputError,
    WriteRefused,
    apply,
    check_location,
    locked,
    plan,
    unified_diff,
)

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_INVALID = 2
EXIT_BUG = 3
EXIT_ENVIRONMENT = 4


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
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse what polytype would approximate in a schema (as `strict = true` does)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    # `--project` is also accepted after the command (`polytype check --project DIR`), so that
    # pre-commit hooks can append it to their entry.
    project_option = argparse.ArgumentParser(add_help=False)
    project_option.add_argument(
        "--project", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    project_option.add_argument(
        "--strict", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )

    generate = commands.add_parser(
        "generate",
        parents=[project_option],
        help="validate schemas and write every output",
        description="Validate the schemas, render every target and write generated/ (only files whose bytes change).",
    )
    generate.add_argument(
        "modules",
        nargs="*",
        metavar="MODULE|PATH",
        help="modules to generate, or schema files (PATH.yaml, PATH.json, or - for stdin); "
        "default: every schema in the schema directory",
    )
    _output_dir_option(generate)
    generate.add_argument(
        "--force",
        action="store_true",
        help="also remove stale outputs that were hand-edited, and overwrite files "
        "polytype did not write where an output goes",
    )
    generate.set_defaults(handler=_generate)

    check = commands.add_parser(
        "check",
        parents=[project_option],
        help="exit 1 with a diff when generated/ is stale",
        description="Regenerate in memory and compare with generated/: exit 1 and print a unified diff "
        "when a file is stale, missing, extra or hand-edited.",
    )
    check.add_argument(
        "schemas",
        nargs="*",
        metavar="PATH",
        help="schema files to check the output of (default: every schema in the schema directory)",
    )
    _output_dir_option(check)
    check.set_defaults(handler=_check)
    _workflow_commands(commands, project_option)
    import shtab

    shtab.add_argument_to(
        parser, ["--print-completion"], help="print a bash, zsh or tcsh completion script"
    )
    return parser


def _output_dir_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--output-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="write (or compare) here instead of the configured output-dir",
    )


def _workflow_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    project_option: argparse.ArgumentParser,
) -> None:
    fixtures = commands.add_parser(
        "fixtures", help="work with recorded fixtures", description="Work with recorded fixtures."
    )
    fixture_commands = fixtures.add_subparsers(
        dest="fixtures_command", metavar="ACTION", required=True
    )
    importing = fixture_commands.add_parser(
        "import",
        parents=[project_option],
        help="split a recorded stream into per-type fixtures",
        description="Split a recorded stream (one JSON value a line) into "
        "<fixtures>/<module>/<Type>/imported_<shape>.json: typed by the module's root union or "
        "--type, one fixture per shape, each checked against the schema. Lines that cannot be "
        "placed are reported with their line number (exit 1); re-running writes nothing new.",
    )
    importing.add_argument("module", metavar="MODULE")
    importing.add_argument(
        "recording", metavar="FILE", help=".jsonl, .json, a directory, or - for stdin"
    )
    importing.add_argument(
        "--type", dest="type_name", metavar="T", help="read every value as type T"
    )
    importing.set_defaults(handler=_fixtures_import)

    drifting = commands.add_parser(
        "drift",
        parents=[project_option],
        help="compare recorded JSON with the schema",
        description="Compare recorded JSON with the schema without stopping at the first "
        "problem: unknown keys, missing required keys, type mismatches, unlisted enum values "
        "and tags, fields never seen. Exit 1 when there is drift (or an unreadable line).",
    )
    drifting.add_argument("module", metavar="MODULE")
    drifting.add_argument("recording", metavar="FILE|DIR", help=".jsonl, .json, a directory, or -")
    drifting.add_argument(
        "--type", dest="type_name", metavar="T", help="read every value as type T"
    )
    drifting.add_argument(
        "--patch", action="store_true", help="also print a suggested YAML fragment for the schema"
    )
    drifting.set_defaults(handler=_drift)

    vendoring = commands.add_parser(
        "vendor",
        parents=[project_option],
        help="copy one generated Python file into another repository",
        description="Render one generated Python file from the current schema and write it to "
        "--dest with a provenance header; with --check, exit 1 when the copy at --dest is stale.",
    )
    vendoring.add_argument("module", metavar="MODULE")
    vendoring.add_argument("--flavor", required=True, choices=sorted(vendor.FLAVORS))
    vendoring.add_argument(
        "--dest",
        required=True,
        metavar="PATH",
        help="the file to write, or a directory (the file is then <MODULE>_<generated name>.py)",
    )
    vendoring.add_argument("--check", action="store_true", help="only compare; exit 1 when stale")
    vendoring.add_argument(
        "--force",
        action="store_true",
        help="overwrite --dest even when it is not a copy vendored by polytype",
    )
    vendoring.set_defaults(handler=_vendor)

    initialising = commands.add_parser(
        "init",
        help="scaffold a new polytype project",
        description="Write pyproject.toml ([tool.polytype]), schema/example.yaml, the dialect "
        "meta-schema for editors and one fixture into DIR (default: the current directory). "
        "Refuses to overwrite any file.",
    )
    initialising.add_argument("directory", nargs="?", default=".", type=Path, metavar="DIR")
    initialising.set_defaults(standalone=_init)

    dialect = commands.add_parser(
        "schema-dialect",
        help="print the dialect meta-schema",
        description="Print the JSON Schema that polytype schema files are checked against.",
    )
    dialect.set_defaults(standalone=_schema_dialect)

    differ = commands.add_parser(
        "diff",
        parents=[project_option],
        help="list breaking changes between two versions of a schema",
        description="Compare two versions of a schema (files, or git revisions REV:path) and list "
        "every change with its rule id; exit 1 when a change breaks consumers.",
    )
    differ.add_argument("old", metavar="OLD")
    differ.add_argument("new", metavar="NEW")
    differ.set_defaults(handler=_diff)


def _protected(project: Project) -> dict[str, Path]:
    """What the output directory must never be or contain."""
    return {
        "project root": project.root,
        "schema directory": project.schema_dir,
        "fixtures directory": project.fixtures_dir,
    }


def _generate(args: argparse.Namespace, project: Project) -> int:
    modules, paths = split_modules_and_paths(args.modules)
    with schema_sources(paths) as schemas:
        project, selected = scoped(project, args.output_dir, schemas, modules)
        result = build(project, selected or None)
    try:
        _print_warnings(result.warnings)
        check_location(project.output_dir, _protected(project))
        with locked(project.output_dir):
            changes = plan(result, project.output_dir, force=args.force)
            apply(changes, project.output_dir)
    finally:
        result.close()
    shown = project.relative(project.output_dir)
    for note in changes.notes:
        print(f"polytype: {shown}/{printable(note)}", file=sys.stderr)
    counts = {"write": 0, "update": 0, "remove": 0}
    for change in changes.changes:
        counts[change.action] += 1
        verb = {"write": "wrote", "update": "updated", "remove": "removed"}[change.action]
        print(f"{verb} {shown}/{printable(change.path)}")
    unchanged = len(changes.expected) - counts["write"] - counts["update"]
    print(
        f"polytype: {len(result.schema_paths)} module(s); {counts['write']} new, {counts['update']} updated, "
        f"{counts['remove']} removed, {unchanged} unchanged"
    )
    return EXIT_OK


def _print_warnings(warnings: Sequence[Diagnostic]) -> None:
    """What the front end approximated, one located line each (stderr; the exit stays 0)."""
    for warning in warnings:
        print(warning, file=sys.stderr)
    if warnings:
        print(
            f"polytype: {len(warnings)} warning(s): approximated where the schema says more "
            "than the generated code checks (strict = true makes them errors)",
            file=sys.stderr,
        )


def _check(args: argparse.Namespace, project: Project) -> int:
    with schema_sources(list(args.schemas)) as schemas:
        project, selected = scoped(project, args.output_dir, schemas, [])
        if selected:
            raise InputError(
                [
                    Diagnostic(
                        "polytype",
                        UNKNOWN_POSITION,
                        "",
                        "check compares the whole output directory: name schema files outside "
                        "the schema directory (with --output-dir), or none",
                    )
                ]
            )
        result = build(project)
    try:
        _print_warnings(result.warnings)
        check_location(project.output_dir, _protected(project))
        changes = plan(result, project.output_dir)
        diff = unified_diff(changes, project.output_dir) if changes.changes else ""
    finally:
        result.close()
    for note in changes.notes:
        print(
            f"polytype: {project.relative(project.output_dir)}/{printable(note)}", file=sys.stderr
        )
    if not changes.changes:
        print(
            f"polytype: {project.relative(project.output_dir)}/ is up to date ({len(changes.expected)} files)"
        )
        return EXIT_OK
    sys.stdout.write(diff)
    print(
        f"polytype: {len(changes.changes)} file(s) in {project.relative(project.output_dir)}/ differ from the schemas; "
        "run `polytype generate`",
        file=sys.stderr,
    )
    return EXIT_DIFFERENCES


def _fixtures_import(args: argparse.Namespace, project: Project) -> int:
    from polytype.workflow import importer, recordings
    from polytype.workflow.progress import Progress
    from polytype.workflow.schemas import project_schema, record_type

    schema = project_schema(project, args.module)
    type_name = record_type(schema.module, args.type_name)
    files = recordings.recording_files(args.recording)
    with Progress("importing", recordings.count_units(files)) as progress:
        report = importer.import_values(
            project, schema, recordings.read(files, progress), type_name
        )
    for written in report.written:
        print(f"wrote {written.path} ({written.where})")
    for missed in report.not_placed:
        print(f"{missed.where}: {missed.message}", file=sys.stderr)
    print(
        f"polytype: {report.values} value(s): {len(report.written)} new fixture(s), "
        f"{len(report.duplicates)} already covered by a fixture of the same shape, "
        f"{len(report.not_placed)} not placed"
    )
    return EXIT_DIFFERENCES if report.not_placed else EXIT_OK


def _drift(args: argparse.Namespace, project: Project) -> int:
    from polytype.workflow import drift, patch, recordings
    from polytype.workflow.progress import Progress
    from polytype.workflow.schemas import project_schema, record_type

    schema = project_schema(project, args.module)
    type_name = record_type(schema.module, args.type_name)
    files = recordings.recording_files(args.recording)
    with Progress("comparing", recordings.count_units(files)) as progress:
        report = drift.compare(schema, recordings.read(files, progress), type_name, len(files))
    sys.stdout.write(drift.render(report))
    if args.patch:
        sys.stdout.write("\n" + patch.suggest(schema, report))
    return EXIT_DIFFERENCES if report.found else EXIT_OK


def _vendor(args: argparse.Namespace, project: Project) -> int:
    vendored = vendor.render(project, args.module, args.flavor, args.dest)
    shown = vendored.target.as_posix()
    if args.check:
        difference = vendor.stale_diff(vendored)
        if difference is None:
            print(f"polytype: {shown} is up to date ({args.module}, {args.flavor})")
            return EXIT_OK
        sys.stdout.write(difference)
        state = "differs from the schema" if difference else "is missing"
        print(
            f"polytype: {shown} {state}; run `polytype vendor {args.module} "
            f"--flavor {args.flavor} --dest {shown}`",
            file=sys.stderr,
        )
        return EXIT_DIFFERENCES
    written = vendor.write(vendored, force=args.force)
    print(f"{'wrote' if written else 'unchanged'} {shown} ({args.module}, {args.flavor})")
    return EXIT_OK


def _init(args: argparse.Namespace) -> int:
    from polytype.workflow.init import init

    directory: Path = args.directory
    for name in init(directory):
        print(f"created {(directory / name).as_posix()}")
    print(f"polytype: new project in {directory.as_posix()}; run `polytype generate` there")
    return EXIT_OK


def _schema_dialect(args: argparse.Namespace) -> int:
    from polytype.workflow.dialect import dialect_text

    sys.stdout.write(dialect_text())
    return EXIT_OK


def _diff(args: argparse.Namespace, project: Project) -> int:
    from polytype.workflow import breaking
    from polytype.workflow.revisions import load_version

    old = load_version(args.old, project.root, project)
    new = load_version(args.new, project.root, project)
    findings = breaking.diff(old, new)
    sys.stdout.write(breaking.render(findings, args.old, args.new))
    return EXIT_DIFFERENCES if any(finding.rule.breaking for finding in findings) else EXIT_OK


def _shown(path: Path) -> str:
    """`path` relative to the working directory when it is under it."""
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except (ValueError, OSError):
        return path.as_posix()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    standalone: Callable[[argparse.Namespace], int] | None = getattr(args, "standalone", None)
    try:
        if standalone is not None:
            return standalone(args)
        handler: Callable[[argparse.Namespace, Project], int] = args.handler
        project = find_project(args.project)
        if args.strict:
            project = replace(project, strict=True)
        return handler(args, project)
    except (WorkflowError, WriteRefused, ProjectError) as error:
        print(f"polytype: {error}", file=sys.stderr)
        return EXIT_INVALID
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
    except OutputError as error:
        print(
            f"polytype: cannot write {_shown(error.path)}: {error.cause.strerror or error.cause} "
            "(every generated file is whole: old or new, never partial)",
            file=sys.stderr,
        )
        return EXIT_ENVIRONMENT
    except OSError as error:
        where = f"{_shown(Path(error.filename))}: " if error.filename else ""
        print(f"polytype: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_ENVIRONMENT
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
