"""`drift` shares the decoders' judgement: "no drift" means every generated decoder accepts
every value, and constraint violations are reported by keyword with an example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from polytype.project.config import find_project
from polytype.workflow.drift import compare
from polytype.workflow.patch import suggest
from polytype.workflow.recordings import read, recording_files
from polytype.workflow.schemas import project_schema

from .conftest import RECORDED, REPO, load_generated
from .workflow_support import run, write_lines

SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: Limits
x-polytype: {module: limits, root: Call}
$defs:
  Call:
    type: object
    properties:
      name: {type: string, minLength: 1, maxLength: 8, pattern: "^[a-z_]+$"}
      retries: {type: integer, minimum: 0, maximum: 3}
      ratio: {type: number, exclusiveMinimum: 0}
      tags:
        type: array
        items: {type: string}
        minItems: 1
        maxItems: 2
    required: [name]
"""


@pytest.fixture
def limits(tmp_path: Path) -> Path:
    project = tmp_path / "limits"
    (project / "schema").mkdir(parents=True)
    (project / "schema/limits.yaml").write_text(SCHEMA, encoding="utf-8")
    (project / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    return project


def test_constraint_violations_are_drift_with_keyword_example_and_patch_note(
    limits: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = write_lines(
        limits / "calls.jsonl",
        [
            {"name": "ok", "retries": 1, "ratio": 0.5, "tags": ["a"]},
            {"name": "", "retries": 4, "ratio": 0, "tags": []},
            {"name": "NotSnake", "tags": ["a", "b", "c"]},
            {"name": "ten_chars_"},
            {"name": "much_too_long", "retries": -1},
        ],
    )
    assert run(limits, "drift", "limits", str(stream), "--patch") == 1
    out = capsys.readouterr().out
    section = out[out.index("constraint violations") : out.index("other rejections")]
    for expected in (
        'Call.name: breaks minLength: 1 (1x)\n    e.g. "" at',
        "Call.name: breaks maxLength: 8 (2x)",
        'Call.name: breaks pattern: "^[a-z_]+$" (2x)',
        "Call.retries: breaks maximum: 3 (1x)\n    e.g. 4 at",
        "Call.retries: breaks minimum: 0 (1x)",
        "Call.ratio: breaks exclusiveMinimum: 0 (1x)",
        "Call.tags: breaks minItems: 1 (1x)",
        'Call.tags: breaks maxItems: 2 (1x)\n    e.g. ["a", "b", "c"] at',
    ):
        assert expected in section, expected
    assert f"{stream.as_posix()}:2 $.name" in section
    assert "other rejections by the generated decoders: none" in out
    assert "6 constraint violation(s)" not in out and "8 constraint violation(s)" in out
    for decision in (
        "Call.name: 1 value(s) break minLength: 1; relax it to minLength: 0 (the shortest seen), "
        "or drop minLength, if the data is right",
        "Call.name: 2 value(s) break maxLength: 8; relax it to maxLength: 13 (the longest seen)",
        "Call.retries: 1 value(s) break maximum: 3; relax it to maximum: 4 (the greatest seen)",
        "Call.ratio: 1 value(s) break exclusiveMinimum: 0; relax it to minimum: 0 (the least "
        "seen) instead of exclusiveMinimum, or drop exclusiveMinimum,",
        "Call.tags: 1 value(s) break maxItems: 2; relax it to maxItems: 3 (the most items seen)",
        'Call.name: 2 value(s) break pattern: "^[a-z_]+$"; drop pattern if the data is right',
    ):
        assert f"# needs a decision: {decision}" in out, decision


def test_a_value_only_the_decoder_rejects_is_still_drift(
    limits: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The walk may miss a rule the decoders enforce; the decoders' word decides the exit code."""
    from polytype.workflow import observe

    monkeypatch.setattr(observe, "_broken", lambda constraints, value: [])  # a blind walk
    stream = write_lines(limits / "calls.jsonl", [{"name": ""}])
    assert run(limits, "drift", "limits", str(stream)) == 1
    out = capsys.readouterr().out
    assert "other rejections by the generated decoders: 1" in out
    assert "$.name: must have at least 1 character(s) (1x)" in out
    assert "1 other decoder rejection(s)" in out


def _recorded_files() -> list[tuple[str, str, str]]:
    """(module, type, file relative to ../shared/recorded) of every recorded file this repo types."""
    found = []
    for listing in sorted((REPO / "tests" / "recorded_samples").glob("*.json")):
        spec = json.loads(listing.read_text(encoding="utf-8"))
        for relative, type_name in sorted(spec["samples"].items()):
            found.append((listing.stem, type_name, relative))
    return found


@pytest.mark.skipif(not RECORDED.is_dir(), reason="../shared/recorded is beside the repository")
@pytest.mark.parametrize(("module", "type_name", "relative"), _recorded_files())
def test_no_drift_means_every_generated_decoder_accepts(
    module: str, type_name: str, relative: str
) -> None:
    """On every real recording: drift reports something whenever the committed generated
    dataclasses reject a value, and its own categories explain each such rejection."""
    path = RECORDED / relative
    schema = project_schema(find_project(REPO), module)
    report = compare(schema, read(recording_files(str(path))), type_name, 1)
    models = load_generated(module)
    decode = getattr(models, f"decode_{_snake(type_name)}")
    rejected: list[str] = []
    for reading in read(recording_files(str(path))):
        value: Any = getattr(reading, "value", None)
        try:
            decode(value)
        except models.DecodeError as error:
            rejected.append(str(error))
    if rejected:
        assert report.found, f"drift says no drift, but the decoder rejects: {rejected[0]}"
    assert not report.seen.rejections, "every rejection falls in a drift category"


def _snake(name: str) -> str:
    from polytype.targets.base.helper_names import function_suffix

    return function_suffix(name)


def test_patch_lists_constraint_decisions_without_editing_the_schema(limits: Path) -> None:
    stream = write_lines(limits / "calls.jsonl", [{"name": ""}])
    schema = project_schema(find_project(limits), "limits")
    report = compare(schema, read(recording_files(str(stream))), "Call", 1)
    text = suggest(schema, report)
    assert "minLength" in text and text.startswith("# Suggested by `polytype drift limits`")
