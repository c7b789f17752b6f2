"""The workflow commands are documented and reachable: README, --help, pre-commit hooks."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from generator.cli import main

from .conftest import REPO

COMMANDS = [
    ["fixtures", "import"],
    ["drift"],
    ["vendor"],
    ["init"],
    ["schema-dialect"],
    ["diff"],
]


def test_readme_keeps_its_first_two_commands_and_documents_the_workflow() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.startswith(
        "# polytype\n\n```sh\n"
        'pip install -e ".[dev]" && polytype generate      # install, then render every shipped '
        "schema into generated/\n"
        "nox                                               # run every check: generate, check, "
        "lint, typecheck, tests, elixir\n```\n"
    )
    section = readme[readme.index("## Workflow commands") :]
    for command in COMMANDS:
        assert f"polytype {' '.join(command)}" in section, command


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    assert f"usage: polytype {' '.join(command)}" in capsys.readouterr().out


def test_pre_commit_hooks() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    by_id = {hook["id"]: hook for hook in hooks}
    assert set(by_id) == {"polytype-check", "polytype-vendor-check"}
    assert by_id["polytype-check"]["entry"] == "polytype check"
    assert by_id["polytype-vendor-check"]["entry"] == "polytype vendor --check"
    for hook in hooks:
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
        assert hook["name"] and hook["description"]
