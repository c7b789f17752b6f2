"""The workflow commands are documented and reachable: README, --help, pre-commit hooks."""

from __future__ import annotations

import re

import pytest
from polytype.cli import main
from ruamel.yaml import YAML

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
    lines = readme.splitlines()
    assert lines[0] == "# polytype"
    # the line above the commands says they assume an activated virtual environment
    assert "python3 -m venv .venv && . .venv/bin/activate" in lines[2]
    assert lines[4] == "```sh"
    install, test = (line.split("#")[0].strip() for line in lines[5:7])
    assert install == 'pip install -c constraints/dev.txt -e ".[dev]" && polytype generate'
    assert test == "nox"
    # CI makes a new venv, runs exactly the README's install command in it, then exactly
    # the README's test command
    ci = (REPO / ".ci/run").read_text(encoding="utf-8").splitlines()
    venv = next(i for i, line in enumerate(ci) if line.startswith("python3 -m venv "))
    activate = next(i for i, line in enumerate(ci) if line.startswith("source "))
    assert venv < activate < ci.index(install) < ci.index(test)
    assert ci[-1] == test
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
    assert set(by_id) == {"polytype-generate", "polytype-check", "polytype-vendor-check"}
    assert by_id["polytype-generate"]["entry"] == "polytype generate"
    # the regenerating hook runs when a schema, a fixture, a template or the config changes
    changed_inputs = re.compile(by_id["polytype-generate"]["files"])
    for path in (
        "schema/ag_ui.yaml",
        "tests/fixtures/ag_ui/Event/a.json",
        "t/x.py.j2",
        "pyproject.toml",
    ):
        assert changed_inputs.search(path), path
    assert not changed_inputs.search("src/app/main.py")
    assert by_id["polytype-check"]["entry"] == "polytype check"
    assert by_id["polytype-vendor-check"]["entry"] == "polytype vendor --check"
    for hook in hooks:
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
        assert hook["name"] and hook["description"]
