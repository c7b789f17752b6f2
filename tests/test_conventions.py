"""How people install and run polytype: chosen targets, their own templates, schema paths,
`--output-dir`, standard input, `python -m polytype`, completion, and quiet diffs."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from polytype import __version__
from polytype.cli import main

from .conftest import CHECKOUT_PATH, REPO, copy_project

NANO_SCHEMA = REPO / "schema" / "nano_agent.yaml"


def tree(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def polytype(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command as a user runs it, in a fresh process."""
    environment = {**os.environ, "POLYTYPE_NO_CACHE": "1", "PYTHONPATH": CHECKOUT_PATH}
    return subprocess.run(
        [sys.executable, "-m", "polytype", *args],
        cwd=cwd,
        input=stdin.decode("utf-8") if stdin is not None else None,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )


def small_project(root: Path, settings: str = "") -> Path:
    project = copy_project(root, modules=("nano_agent",))
    (project / "pyproject.toml").write_text(
        f'[tool.polytype]\nstrict = true\nschema-dir = "schema"\n{settings}', encoding="utf-8"
    )
    return project


# --- targets -----------------------------------------------------------------------------


def test_only_typeddicts_gives_no_elixir_project_and_no_pydantic(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p", 'targets = ["typeddicts"]\n')
    assert main(["--project", str(project), "generate"]) == 0
    written = sorted(path for path in tree(project / "generated") if path != "manifest.json")
    assert written == [
        "python/nano_agent/__init__.py",
        "python/nano_agent/_runtime.py",
        "python/nano_agent/typed_dicts.py",
        "tests/python/test_nano_agent_typeddicts.py",
        "typecheck/nano_agent_typeddicts_invalid.py",
        "typecheck/nano_agent_typeddicts_snippets.py",
    ]
    assert "pydantic" not in (project / "generated/python/nano_agent/typed_dicts.py").read_text()


def test_per_module_targets_override_the_project(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "p", modules=("nano_agent", "bedrock_swarm"))
    (project / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\ntargets = ["docs"]\n\n'
        '[tool.polytype.modules.bedrock_swarm]\ntargets = ["dataclasses", "elixir"]\n',
        encoding="utf-8",
    )
    assert main(["--project", str(project), "generate"]) == 0
    files = set(tree(project / "generated"))
    assert "docs/nano_agent.md" in files and "docs/index.md" in files
    assert "docs/bedrock_swarm.md" not in files
    assert "python/bedrock_swarm/dataclass_models.py" in files
    assert "tests/python/test_bedrock_swarm.py" in files
    assert "elixir/mix.exs" in files
    assert not any(
        path.startswith(("python/nano_agent", "elixir/lib/nano_agent")) for path in files
    )
    # the docs index lists only the modules that have docs
    index = (project / "generated/docs/index.md").read_text(encoding="utf-8")
    assert "nano_agent" in index and "bedrock_swarm" not in index


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('targets = ["rust"]\n', "unknown target(s): 'rust'"),
        ("targets = []\n", "names no target"),
        ('targets = "docs"\n', "must be a list of target names"),
        ('[tool.polytype.modules.x]\ntargets = ["java"]\n', "/tool/polytype/modules/x/targets"),
        ('templates = "missing"\n', "templates directory missing does not exist"),
    ],
)
def test_bad_settings_are_located_exit_2_and_write_nothing(
    tmp_path: Path, settings: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p", settings)
    assert main(["--project", str(project), "generate"]) == 2
    assert message in capsys.readouterr().err
    assert not (project / "generated").exists()


# --- a user's own templates --------------------------------------------------------------


def test_user_template_replaces_a_builtin_and_check_sees_template_edits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p", 'targets = ["docs"]\ntemplates = "my-templates"\n')
    mine = project / "my-templates" / "docs"
    mine.mkdir(parents=True)
    builtin = (REPO / "templates" / "docs" / "module.md.j2").read_text(encoding="utf-8")
    (mine / "module.md.j2").write_text("Reviewed by ACME.\n" + builtin, encoding="utf-8")
    assert main(["--project", str(project), "generate"]) == 0
    page = (project / "generated/docs/nano_agent.md").read_text(encoding="utf-8")
    assert page.startswith("Reviewed by ACME.\n<!-- Generated by polytype")
    # the index template was not replaced: the built-in one rendered it
    assert "ACME" not in (project / "generated/docs/index.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["--project", str(project), "check"]) == 0
    (mine / "module.md.j2").write_text("Reviewed by Initech.\n" + builtin, encoding="utf-8")
    assert main(["--project", str(project), "check"]) == 1
    assert "+Reviewed by Initech." in capsys.readouterr().out


def test_documented_example_template_adds_a_method_to_every_record(tmp_path: Path) -> None:
    """The worked example of docs/templates.md, run as written."""
    project = small_project(tmp_path / "p", 'targets = ["dataclasses"]\ntemplates = "templates"\n')
    example = REPO / "docs" / "examples" / "templates"
    for source in example.rglob("*.j2"):
        target = project / "templates" / source.relative_to(example)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = polytype("generate", cwd=project)
    assert result.returncode == 0, result.stderr
    models = project / "generated/python/nano_agent/dataclass_models.py"
    text = models.read_text(encoding="utf-8")
    assert text.startswith("# Copyright ACME Corp. Licensed under MIT.\n")
    probe = (
        "import sys; sys.path.insert(0, 'generated/python'); from nano_agent import dataclass_models as m; "
        "block = m.decode_text_content({'type': 'text', 'text': 'hi'}); print(block.json_keys())"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=project, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "['type', 'text']"


# --- schema paths, --output-dir, standard input --------------------------------------------


def test_schema_path_in_the_schema_dir_selects_its_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copy_project(tmp_path / "p")
    before = tree(project / "generated")
    (project / "generated/docs/bedrock_swarm.md").write_text("stale\n", encoding="utf-8")
    assert (
        main(["--project", str(project), "generate", str(project / "schema/nano_agent.yaml")]) == 0
    )
    out = capsys.readouterr().out
    assert "polytype: 5 module(s); 0 new," in out and "docs/bedrock_swarm.md" not in out
    # the other module's stale file was not touched: only nano_agent was generated
    assert (project / "generated/docs/bedrock_swarm.md").read_text(encoding="utf-8") == "stale\n"

    def others(files: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in files.items() if "bedrock" not in k and k != "manifest.json"}

    assert others(tree(project / "generated")) == others(before)


def test_schema_file_outside_the_project_renders_alone_into_output_dir(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_bytes(NANO_SCHEMA.read_bytes())
    out = tmp_path / "out"
    result = polytype("generate", str(elsewhere), "--output-dir", str(out), cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert (out / "python/nano_agent/dataclass_models.py").is_file()
    assert (out / "elixir/mix.exs").is_file()
    assert polytype("check", str(elsewhere), "--output-dir", str(out), cwd=REPO).returncode == 0
    # without --output-dir, a configured project refuses rather than mix it into generated/
    refused = polytype("generate", str(elsewhere), cwd=REPO)
    assert refused.returncode == 2
    assert "give --output-dir DIR" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_schema_from_stdin(tmp_path: Path) -> None:
    out = tmp_path / "out"
    schema = b"title: Point\ntype: object\nproperties:\n  x: {type: integer}\nrequired: [x]\n"
    result = polytype("generate", "-", "--output-dir", str(out), cwd=tmp_path, stdin=schema)
    assert result.returncode == 0, result.stderr
    models = out / "python/stdin/dataclass_models.py"
    assert models.is_file()
    manifest = (out / "manifest.json").read_text(encoding="utf-8")
    assert '"schema": "<stdin>"' in manifest
    assert str(tmp_path) not in manifest, "no temporary path leaks into the output"
    broken = polytype("generate", "-", "--output-dir", str(out), cwd=tmp_path, stdin=b"type: [")
    assert broken.returncode == 2
    assert broken.stderr.startswith("<stdin>:")


def test_missing_schema_path_is_exit_2(tmp_path: Path) -> None:
    result = polytype(
        "generate", "nope/missing.yaml", "--output-dir", str(tmp_path / "o"), cwd=tmp_path
    )
    assert result.returncode == 2
    assert "no such schema file: nope/missing.yaml" in result.stderr
    assert not (tmp_path / "o").exists()


def test_output_dir_overrides_the_configuration(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p", 'targets = ["docs"]\n')
    assert main(["--project", str(project), "generate", "--output-dir", str(tmp_path / "x")]) == 0
    assert (tmp_path / "x/docs/nano_agent.md").is_file()
    assert not (project / "generated").exists()
    assert main(["--project", str(project), "check", "--output-dir", str(tmp_path / "x")]) == 0


# --- the name people type -----------------------------------------------------------------


def test_python_dash_m_polytype_and_version(tmp_path: Path) -> None:
    result = polytype("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"polytype {__version__}"


def test_version_does_not_import_the_cli() -> None:
    probe = (
        "import sys; from polytype.entry import main; main(['--version']); "
        "assert 'polytype.cli' not in sys.modules and 'jinja2' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, cwd=REPO)


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script(shell: str, tmp_path: Path) -> None:
    result = polytype("--print-completion", shell, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "generate" in result.stdout and "--output-dir" in result.stdout
    if shell == "bash":
        checked = subprocess.run(
            ["bash", "-n"], input=result.stdout, text=True, capture_output=True
        )
        assert checked.returncode == 0, checked.stderr


# --- quiet diffs ---------------------------------------------------------------------------


def test_one_description_edit_touches_only_files_that_show_it(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "p")
    schema = project / "schema/bedrock_swarm.yaml"
    text = schema.read_text(encoding="utf-8")
    before = tree(project / "generated")
    marker = "description: "
    assert marker in text
    schema.write_text(text.replace(marker, marker + "Edited. ", 1), encoding="utf-8")
    assert main(["--project", str(project), "generate"]) == 0
    after = tree(project / "generated")
    changed = {path for path in after if after[path] != before.get(path)}
    for path in changed - {"manifest.json"}:
        assert "Edited." in (project / "generated" / path).read_text(encoding="utf-8"), path
    assert not any("nano_agent" in path for path in changed)


def test_renaming_a_schema_file_touches_only_what_names_it(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "p")
    (project / "schema/bedrock_swarm.yaml").rename(project / "schema/swarm.yaml")
    before = tree(project / "generated")
    assert main(["--project", str(project), "generate"]) == 0
    after = tree(project / "generated")
    changed = sorted(path for path in after if after[path] != before.get(path))
    # the module keeps its name (x-polytype: module); only the files that print the schema
    # path change: its mapping table, the docs index and the manifest
    assert changed == ["docs/bedrock_swarm.md", "docs/index.md", "manifest.json"]


# --- the template contract ------------------------------------------------------------------


def test_docs_templates_md_lists_what_each_template_receives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/templates.md's variable table is what the targets really pass: render the shipped
    schemas, record each template's context, and compare."""
    from polytype.project import pipeline, rendering
    from polytype.project.config import find_project
    from polytype.targets.base import render

    seen: dict[str, set[str]] = {}
    original = render.RenderEnv.render

    def recording(self: render.RenderEnv, template: str, **context: object) -> str:
        seen.setdefault(template, set()).update(context)
        return original(self, template, **context)

    monkeypatch.setattr(render.RenderEnv, "render", recording)
    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 10**9)  # render here, not in workers
    pipeline.build(find_project(REPO))
    observed = {template: sorted(keys | {"version"}) for template, keys in seen.items()}
    documented: dict[str, list[str]] = {}
    for line in (REPO / "docs/templates.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`") and cells[0].endswith(".j2`"):
            documented[cells[0].strip("`")] = [name.strip(" `") for name in cells[1].split(",")]
    assert documented == observed
