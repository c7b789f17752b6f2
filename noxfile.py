"""Sessions: `nox` runs everything but `bench`; `nox -s NAME` runs one.

Sessions reuse the current environment (no virtualenv per session) so that a
fresh machine needs one `pip install -c constraints/dev.txt -e ".[dev]"` and nothing
is downloaded twice. `latest` is the exception: it builds its own virtualenv with the
newest release of every dependency, past the caps, to show a coming break on purpose.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import tomllib

import nox

nox.options.default_venv_backend = "none"
nox.options.sessions = ["generate", "check", "lint", "typecheck", "tests", "elixir"]
nox.options.error_on_missing_interpreters = True

PYTHON_SOURCES = ["generator", "tests", "noxfile.py", "benchmarks"]


@nox.session
def generate(session: nox.Session) -> None:
    """Regenerate every output from the schemas."""
    session.run("polytype", "generate")


@nox.session
def check(session: nox.Session) -> None:
    """Fail when generated/ is stale or hand-edited."""
    session.run("polytype", "check")


@nox.session
def tests(session: nox.Session) -> None:
    """The generator's own tests and the generated round-trip suites."""
    session.run("pytest", *session.posargs)


GENERATED_PYTHON = ["generated/python", "generated/tests", "generated/typecheck"]


@nox.session
def lint(session: nox.Session) -> None:
    """black and ruff on the generator and on the generated Python.

    polytype formats generated Python with ruff; black ([tool.black]) verifies it, and
    `ruff format --check` with the settings polytype passes (not the project's) shows
    that the committed files are what polytype writes.
    """
    from polytype.targets.base.formatting import RUFF_SETTINGS

    sources = [path for path in PYTHON_SOURCES if os.path.exists(path)]
    generated = [path for path in GENERATED_PYTHON if os.path.exists(path)]
    session.run("black", "--check", "--quiet", *sources, *generated)
    session.run("ruff", "check", *sources, *generated)
    session.run("ruff", "format", "--check", "--quiet", *RUFF_SETTINGS, *generated)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the generator, every generated Python module and the typed snippets."""
    session.run("mypy", "--strict", "generator")
    # a package per schema module, or the one `python-package` that holds them all
    for package in sorted(os.listdir("generated/python")):
        if os.path.isdir(f"generated/python/{package}"):
            session.run("mypy", "--strict", f"generated/python/{package}")
    # Every valid fixture as a typed TypedDict literal must type-check; the *_invalid.py
    # files must NOT (tests/test_typeddicts.py checks that mypy rejects them).
    snippets = sorted(glob.glob("generated/typecheck/*_snippets.py"))
    if snippets:
        session.run("mypy", "--strict", *snippets, env={"MYPYPATH": "generated/python"})


@nox.session
def elixir(session: nox.Session) -> None:
    """`mix format --check-formatted` and the ExUnit round trips in generated/elixir.

    Skipped without elixir, except under CI. polytype writes formatted Elixir without
    calling `mix format` (see generator/polytype/targets/elixir/layout.py); this checks it.
    """
    if not os.path.isdir("generated/elixir"):
        session.skip("generated/elixir does not exist yet")
    if shutil.which("mix") is None:
        if os.environ.get("CI") == "true":
            session.error("elixir is not installed, and CI must run the Elixir tests")
        session.skip("elixir is not installed: apt-get install -y elixir erlang-jiffy")
    session.chdir("generated/elixir")
    session.run("mix", "format", "--check-formatted", external=True)
    session.run("mix", "test", external=True, env={"MIX_ENV": "test"})


@nox.session
def fuzz(session: nox.Session) -> None:
    """The mutation fuzzer on demand: `nox -s fuzz -- --minutes 60` (default 2 minutes).

    A bounded run is part of `tests` (tests/test_fuzz.py); failing inputs are kept in
    tests/fuzz_regressions/ and replayed there.
    """
    session.run("python", "-m", "tests.fuzz", *session.posargs)


@nox.session
def corpus(session: nox.Session) -> None:
    """polytype on the 18 published schemas of ../shared/corpus, read in place: the table of
    what generates, type-checks, compiles and round-trips per flavor, and the ratchet
    against tests/corpus_expected.json (`nox -s corpus -- --update` raises it; `--only NAME`).

    tests/test_corpus.py runs the same measurement in `tests`, which CI runs, so this
    session is not among the defaults.
    """
    session.run("python", "-m", "tests.corpus", *session.posargs)


@nox.session
def schemastore(session: nox.Session) -> None:
    """polytype on every SchemaStore schema of ../shared/schemastore, read in place, as the
    modules of one project: the table of what generates, imports, type-checks, compiles,
    round-trips and rejects per flavor, and the ratchet against
    tests/schemastore_expected.json (`nox -s schemastore -- --update` raises it; `--only
    NAME,NAME`, `--sample K`, `--slice N/M`). The whole catalogue with mypy and the Mix
    compile takes hours on two cores, so it is measured slice by slice
    (`nox -s schemastore -- --slice 3/16 --update`, about 7 minutes each), every slice a
    ratchet of its own under "slices" in the ratchet file.

    tests/test_schemastore.py runs CI's fixed slice (`--sample 25`) in `tests`, so this
    session is not among the defaults.
    """
    session.run("python", "-m", "tests.schemastore", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Generation and runtime benchmarks against peers (not part of the default run).

    The optional accelerator of the generated code (the `fast` extra) is installed first,
    so that the runtime table shows the JSON parser users get with it; the table says
    which parser ran.
    """
    with open("pyproject.toml", "rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    session.run("python", "-m", "pip", "install", "-q", "-c", CONSTRAINTS, *extras["fast"])
    session.run("python", "benchmarks/run.py", *session.posargs)


CONSTRAINTS = "constraints/dev.txt"


@nox.session
def lock(session: nox.Session) -> None:
    """Refresh constraints/dev.txt: the exact versions `.ci/run` and the README install."""
    header = [
        "# Exact versions of everything the dev/test environment installs (Python 3.11, Linux x86_64).",
        '# Used as constraints: pip install -c constraints/dev.txt -e ".[dev]"',
        "# Refresh with `nox -s lock` (uv pip compile); `nox -s latest` runs the tests on the newest versions.",
    ]
    session.run(
        "uv", "pip", "compile", "pyproject.toml", "--extra", "dev", "--upgrade",
        "--python-version", "3.11", "--python-platform", "x86_64-unknown-linux-gnu",
        "--no-header", "--quiet", "-o", CONSTRAINTS,
    )  # fmt: skip
    with open(CONSTRAINTS, encoding="utf-8") as handle:
        body = handle.read()
    with open(CONSTRAINTS, "w", encoding="utf-8") as handle:
        handle.write("\n".join(header) + "\n" + body)


def _requirement_names(requirements: list[str]) -> list[str]:
    """Bare distribution names: `pydantic>=2.11,<2.14` -> `pydantic`."""
    return [re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0] for requirement in requirements]


@nox.session(venv_backend="venv")
def latest(session: nox.Session) -> None:
    """The tests against the newest release of every dependency, ignoring the lock and the caps."""
    with open("pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    names = _requirement_names(project["dependencies"] + project["optional-dependencies"]["dev"])
    session.install("-e", ".[dev]")
    # pip warns that the upgraded versions break the caps: that is the point of this session.
    session.install("--upgrade", *names)
    session.run("pip", "freeze", "--exclude-editable")
    session.run("polytype", "check")
    session.run("pytest", *session.posargs)
