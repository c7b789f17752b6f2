"""Sessions: `nox` runs everything but `bench`; `nox -s NAME` runs one.

Sessions reuse the current environment (no virtualenv per session) so that a
fresh machine needs one `pip install -e .[dev]` and nothing is downloaded twice.
"""

from __future__ import annotations

import glob
import os
import shutil

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


@nox.session
def lint(session: nox.Session) -> None:
    """black and ruff on the generator; black on the generated Python."""
    sources = [path for path in PYTHON_SOURCES if os.path.exists(path)]
    session.run("black", "--check", "--quiet", *sources, "generated/python", "generated/tests")
    session.run("ruff", "check", *sources)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the generator, every generated Python module and the typed snippets."""
    session.run("mypy", "--strict", "generator")
    for module in sorted(os.listdir("generated/python")):
        session.run("mypy", "--strict", f"generated/python/{module}")
    # Every valid fixture as a typed TypedDict literal must type-check; the *_invalid.py
    # files must NOT (tests/test_typeddicts.py checks that mypy rejects them).
    snippets = sorted(glob.glob("generated/typecheck/*_snippets.py"))
    if snippets:
        session.run("mypy", "--strict", *snippets, env={"MYPYPATH": "generated/python"})


@nox.session
def elixir(session: nox.Session) -> None:
    """ExUnit round trips in generated/elixir (skipped without elixir, except under CI)."""
    if not os.path.isdir("generated/elixir"):
        session.skip("generated/elixir does not exist yet")
    if shutil.which("mix") is None:
        if os.environ.get("CI") == "true":
            session.error("elixir is not installed, and CI must run the Elixir tests")
        session.skip("elixir is not installed: apt-get install -y elixir erlang-jiffy")
    session.chdir("generated/elixir")
    session.run("mix", "test", external=True, env={"MIX_ENV": "test"})


@nox.session
def bench(session: nox.Session) -> None:
    """Generation and runtime benchmarks against peers (not part of the default run)."""
    session.run("python", "benchmarks/run.py", *session.posargs)
