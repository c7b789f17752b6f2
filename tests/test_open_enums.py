"""Open enums (`x-unknown: keep`): an unlisted string survives in every flavor; nothing else does.

A newer producer sends a stop reason, role, tool name or status this schema does not
list. In an open enum such a value decodes to `Unknown<Enum>` (the string in the
TypedDict flavor and in Elixir's string enums, `{:unknown, value}` in its atom enums) and
encodes back to exactly that string; a listed value still decodes to its member, and a
value that is not a string is still an error at its path.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from polytype import ir
from polytype.diagnostics import InputError
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.project.config import find_project
from polytype.project.export import wire_schema
from polytype.reading.loader import load
from polytype.workflow.schemas import project_schema
from pydantic import ValidationError

from . import suite_conformance as suite
from .conftest import REPO, import_file, load_generated, schema_data
from .workflow_support import run, small_project, write_lines

_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}
CASE = REPO / "tests" / "endtoend" / "open_enum"

UNLISTED = {
    "stop_reason": "stop_reason_from_a_later_release",
    "status": "paused",
    "mode": "fast",
    "kind": "c",
    "history": ["idle", "hibernating"],
    "previous": "end_turn",
    "color": "blue",
}
LISTED = {"stop_reason": "end_turn", "status": "idle", "kind": "a", "previous": None}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The end-to-end case's schema and fixtures, generated into every flavor."""
    root = tmp_path_factory.mktemp("open_enum") / "project"
    shutil.copytree(CASE, root, ignore=shutil.ignore_patterns("expected", "pyproject.toml"))
    (root / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "polytype", "generate"],
        cwd=root,
        env={**suite._environ(), "PYTHONPATH": str(REPO / "generator"), "POLYTYPE_NO_CACHE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return root


def _flavor(project: Path, flavor: str) -> Any:
    path = project / "generated" / "python" / "signals" / f"{flavor}.py"
    return import_file(path, f"polytype_open_enums.{flavor}")


def test_an_unlisted_value_round_trips_exactly_in_every_python_flavor(project: Path) -> None:
    dataclasses = _flavor(project, "dataclass_models")
    typeddicts = _flavor(project, "typed_dicts")
    pydantic = _flavor(project, "pydantic_models")
    reply = dataclasses.decode_reply(copy.deepcopy(UNLISTED))
    assert reply.stop_reason == dataclasses.UnknownStopReason("stop_reason_from_a_later_release")
    assert reply.history == [dataclasses.Status.IDLE, dataclasses.UnknownStatus("hibernating")]
    assert reply.kind == dataclasses.UnknownKind("c"), "a Literal enum keeps it the same way"
    assert reply.color == dataclasses.UnknownReplyColor("blue"), "an inline enum too"
    assert dataclasses.encode_reply(reply) == UNLISTED
    assert json.loads(reply.to_json()) == UNLISTED
    assert typeddicts.validate_reply(copy.deepcopy(UNLISTED)) == UNLISTED
    model = pydantic.Reply.model_validate(copy.deepcopy(UNLISTED))
    assert model.stop_reason == pydantic.UnknownStopReason("stop_reason_from_a_later_release")
    assert model.model_dump(**_DUMP) == UNLISTED
    from_text = pydantic.Reply.model_validate_json(json.dumps(UNLISTED))
    assert from_text.model_dump(**_DUMP) == UNLISTED


def test_a_listed_value_still_decodes_to_its_member(project: Path) -> None:
    dataclasses = _flavor(project, "dataclass_models")
    pydantic = _flavor(project, "pydantic_models")
    reply = dataclasses.decode_reply(copy.deepcopy(LISTED))
    assert reply.stop_reason is dataclasses.StopReason.END_TURN
    assert reply.status is dataclasses.Status.IDLE and reply.kind == "a"
    assert dataclasses.encode_reply(reply) == LISTED
    model = pydantic.Reply.model_validate(copy.deepcopy(LISTED))
    assert model.stop_reason is pydantic.StopReason.END_TURN
    assert model.model_dump(**_DUMP) == LISTED
    assert dataclasses.decode_stop_reason("max_tokens") is dataclasses.StopReason.MAX_TOKENS
    assert pydantic.StopReasonAdapter.validate_python("new") == pydantic.UnknownStopReason("new")
    # built in code: a member or an Unknown value, both encode to their string
    built = pydantic.Reply(stop_reason=pydantic.UnknownStopReason("x"), status="idle")
    assert built.model_dump(**_DUMP)["stop_reason"] == "x"


@pytest.mark.parametrize(
    ("change", "path", "loc"),
    [
        ({"stop_reason": 5}, "$.stop_reason", ("stop_reason",)),
        ({"history": ["idle", None]}, "$.history[1]", ("history", 1)),
        ({"color": ["blue"]}, "$.color", ("color",)),
        ({"mode": "medium"}, "$.mode", ("mode",)),  # a closed enum is as strict as before
    ],
)
def test_what_an_open_enum_still_rejects(
    project: Path, change: dict[str, Any], path: str, loc: tuple[Any, ...]
) -> None:
    data = {**LISTED, **change}
    for flavor, decode in (
        ("dataclass_models", "decode_reply"),
        ("typed_dicts", "validate_reply"),
    ):
        module = _flavor(project, flavor)
        with pytest.raises(module.DecodeError) as error:
            getattr(module, decode)(data)
        assert str(error.value).startswith(f"{path}: "), str(error.value)
    with pytest.raises(ValidationError) as invalid:
        _flavor(project, "pydantic_models").Reply.model_validate(data)
    assert invalid.value.errors()[0]["loc"] == loc


def test_an_open_enum_as_a_union_member(project: Path) -> None:
    dataclasses = _flavor(project, "dataclass_models")
    pydantic = _flavor(project, "pydantic_models")
    for value in ("end_turn", "stop_reason_from_a_later_release", LISTED):
        assert dataclasses.encode_signal(dataclasses.decode_signal(copy.deepcopy(value))) == value
        assert _flavor(project, "typed_dicts").validate_signal(copy.deepcopy(value)) == value
        model = pydantic.SignalAdapter.validate_python(copy.deepcopy(value))
        assert pydantic.SignalAdapter.dump_python(model, **_DUMP) == value
    kept = pydantic.SignalAdapter.validate_python("stop_reason_from_a_later_release")
    assert kept == pydantic.UnknownStopReason("stop_reason_from_a_later_release")


def test_the_generated_code_passes_mypy_strict(project: Path) -> None:
    generated = project / "generated"
    config = ["--config-file", str(REPO / "pyproject.toml")]
    for paths, env in (
        (["python/signals"], {}),  # as `nox -s typecheck` runs it
        (["typecheck/signals_typeddicts_snippets.py"], {"MYPYPATH": str(generated / "python")}),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", *config, *paths],
            cwd=generated,
            env={**suite._environ(), **env},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_match_and_mypy_handle_the_unknown_value(project: Path, tmp_path: Path) -> None:
    """`match` over an open enum: its members, then `Unknown<Enum>(value)`; mypy --strict
    sees every case covered (`assert_never`)."""
    consumer = tmp_path / "consumer.py"
    consumer.write_text(
        "from typing import assert_never\n\n"
        "from signals.dataclass_models import StopReason, UnknownStopReason, decode_stop_reason\n\n\n"
        "def describe(data: object) -> str:\n"
        "    reason = decode_stop_reason(data)\n"
        "    match reason:\n"
        "        case StopReason.END_TURN | StopReason.MAX_TOKENS:\n"
        "            return reason.value\n"
        "        case UnknownStopReason(value):\n"
        '            return "new: " + value\n'
        "        case _:\n"
        "            assert_never(reason)\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(consumer)],
        cwd=tmp_path,
        env={**suite._environ(), "MYPYPATH": str(project / "generated" / "python")},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("mix") is None, reason="needs Elixir")
def test_elixir_keeps_the_value_without_making_an_atom(project: Path) -> None:
    """The generated ExUnit suite: the fixtures round-trip and the atom-safety probes of
    the open enums see the atom table unchanged."""
    exunit = (project / "generated" / "elixir" / "test" / "signals_test.exs").read_text(
        encoding="utf-8"
    )
    assert "assert_value_kept_without_new_atoms(Signals.Status, true)" in exunit
    assert "assert_value_kept_without_new_atoms(Signals.StopReason, false)" in exunit
    assert 'assert_no_new_atoms(Signals.Mode, "\\"__POLYTYPE_UNKNOWN__\\"", "$")' in exunit
    done = subprocess.run(
        ["mix", "test"],
        cwd=project / "generated" / "elixir",
        env={**suite._environ(), "MIX_ENV": "test"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    status = (project / "generated" / "elixir" / "lib" / "signals" / "status.ex").read_text(
        encoding="utf-8"
    )
    assert "@type t :: :idle | :running | {:unknown, String.t()}" in status


# --- lowering, the dialect and the project default ----------------------------------

_SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
x-polytype: {{module: colors}}
$defs:
  Color:
{keyword}    type: string
    enum: [red, green]
{extra}"""


def _lowered(
    tmp_path: Path, keyword: str = "", extra: str = "", unknown_enum_values: Any = None
) -> Any:
    path = tmp_path / "colors.yaml"
    path.write_text(_SCHEMA.format(keyword=keyword, extra=extra), encoding="utf-8")
    document = load(path, "colors.yaml")
    validate(document)
    if unknown_enum_values is None:
        return lower(document)
    return lower(document, unknown_enum_values=unknown_enum_values)


def test_x_unknown_keep_names_the_unknown_value(tmp_path: Path) -> None:
    assert _lowered(tmp_path, "    x-unknown: keep\n").get("Color").unknown == "UnknownColor"
    assert _lowered(tmp_path).get("Color").unknown is None, "closed by default"


def test_project_default_and_the_override(tmp_path: Path) -> None:
    assert _lowered(tmp_path, unknown_enum_values="keep").get("Color").unknown == "UnknownColor"
    closed = _lowered(tmp_path, "    x-unknown: reject\n", unknown_enum_values="keep")
    assert closed.get("Color").unknown is None


def test_the_unknown_name_must_be_free(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        _lowered(tmp_path, "    x-unknown: keep\n", "  UnknownColor: {type: object}\n")
    assert "/$defs/Color/x-unknown" in str(error.value.diagnostics[0])
    assert "'UnknownColor'" in str(error.value.diagnostics[0])


def test_unknown_enum_values_setting(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p", "nano_agent", fixtures=False)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        '[tool.polytype]\nschema-dir = "schema"\nunknown-enum-values = "keep"\n', encoding="utf-8"
    )
    config = find_project(project)
    assert config.unknown_enum_values == "keep" and config.unknown_tags == "reject"
    role = project_schema(config, "nano_agent").module.get("Role")
    assert isinstance(role, ir.EnumType) and role.unknown == "UnknownRole", "every string enum"
    pyproject.write_text(
        '[tool.polytype]\nschema-dir = "schema"\nunknown-enum-values = "yes"\n', encoding="utf-8"
    )
    with pytest.raises(InputError) as error:
        find_project(project)
    assert "/tool/polytype/unknown-enum-values: must be one of 'reject', 'keep'" in str(
        error.value.diagnostics[0]
    )


def test_a_closed_enum_generates_the_same_code(tmp_path: Path) -> None:
    """No cost when unused: `x-unknown: reject` and no keyword at all render the same bytes."""
    outputs = []
    for keyword in ("", "    x-unknown: reject\n"):
        root = tmp_path / f"p{len(outputs)}"
        (root / "schema").mkdir(parents=True)
        (root / "schema" / "colors.yaml").write_text(
            _SCHEMA.format(keyword=keyword, extra=""), encoding="utf-8"
        )
        (root / "pyproject.toml").write_text(
            '[tool.polytype]\nstrict = true\ntargets = ["dataclasses", "typeddicts", "pydantic"]\n',
            encoding="utf-8",
        )
        assert run(root, "generate") == 0
        python = root / "generated" / "python" / "colors"
        outputs.append({path.name: path.read_bytes() for path in sorted(python.glob("*.py"))})
    assert outputs[0] == outputs[1]
    # the three flavors, the package's __init__ and its two shared runtimes
    assert len(outputs[0]) == 6
    assert b"UnknownColor" not in b"".join(outputs[0].values())
    assert b"_OpenEnum" not in b"".join(outputs[0].values())


# --- the shipped schemas --------------------------------------------------------------

OPEN = {
    "ag_ui": {"EventType", "TextMessageRole", "ReasoningEncryptedValueSubtype", "ResumeStatus"},
    "bedrock_swarm": {"EventType"},
    "claude_code": {
        "MessageType", "PermissionMode", "ResultSubtype", "HookOutcome", "RateLimitStatus",
        "TaskNotificationStatus", "SessionState", "InformationalLevel", "NotificationPriority",
        "ConversationResetTrigger",
    },
    "nano_agent": {"TaskStatus", "TodoStatus"},
    "search_agent": {
        "ServerToolName", "StopReason", "ServiceTier", "RefusalCategory", "AllowedCaller",
        "TextEditorFileType", "WebSearchToolResultErrorCode", "WebFetchToolResultErrorCode",
        "CodeExecutionToolResultErrorCode", "BashCodeExecutionToolResultErrorCode",
        "TextEditorCodeExecutionToolResultErrorCode", "ToolSearchToolResultErrorCode",
    },
}  # fmt: skip


def test_the_shipped_growing_enums_are_open_and_say_why() -> None:
    project = find_project(REPO)
    for module, names in OPEN.items():
        lowered = project_schema(project, module).module
        enums = [named for named in lowered.types if isinstance(named, ir.EnumType)]
        assert {enum.name for enum in enums if enum.unknown} == names, module
        for enum in enums:  # every enum says in x-notes why it is open or closed
            assert ("Open (x-unknown: keep)" in enum.notes) == (enum.name in names), enum.name
            assert enum.unknown or "Closed" in enum.notes, enum.name
        table = (REPO / "generated" / "docs" / f"{module}.md").read_text(encoding="utf-8")
        listed = next(line for line in table.splitlines() if line.startswith("| Open enums"))
        assert all(f"[`{name}`](#type-{name.lower()})" in listed for name in names)


def test_the_advisor_server_tool_decodes_in_every_flavor() -> None:
    """Real traffic: a server tool use named `advisor` (in the SDK 0.121.0 beta types) and a
    tool named `advisor` in a request; a later tool's name is kept."""
    dataclasses = load_generated("search_agent", "dataclass_models")
    typeddicts = load_generated("search_agent", "typed_dicts")
    pydantic = load_generated("search_agent", "pydantic_models")
    use = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "advisor", "input": {}}
    later = {**use, "name": "tool_from_a_later_release"}
    for data in (use, later):
        block = dataclasses.decode_server_tool_use_block(copy.deepcopy(data))
        assert block.to_dict() == data
        assert typeddicts.validate_server_tool_use_block(copy.deepcopy(data)) == data
        model = pydantic.ServerToolUseBlock.model_validate(copy.deepcopy(data))
        assert model.model_dump(**_DUMP) == data
    assert dataclasses.decode_server_tool_use_block(use).name is dataclasses.ServerToolName.ADVISOR
    assert dataclasses.decode_server_tool_use_block(later).name == (
        dataclasses.UnknownServerToolName("tool_from_a_later_release")
    )
    tool = {"type": "advisor_20260301", "name": "advisor", "model": "claude-opus-4-5"}
    assert type(dataclasses.decode_tool_union(tool)).__name__ == "AdvisorTool20260301"
    assert dataclasses.encode_tool_union(dataclasses.decode_tool_union(tool)) == tool
    assert dataclasses.decode_stop_reason("compaction") is dataclasses.StopReason.COMPACTION


def test_the_wire_schema_spells_out_the_open_enum() -> None:
    reasons = jsonschema.Draft202012Validator(
        wire_schema(schema_data("search_agent"), "StopReason")
    )
    assert reasons.is_valid("end_turn") and reasons.is_valid("stop_reason_from_a_later_release")
    assert not reasons.is_valid(5)
    roles = jsonschema.Draft202012Validator(wire_schema(schema_data("search_agent"), "Role"))
    assert not roles.is_valid("system"), "a closed enum stays closed"
    colors = {"$defs": {"Color": {"type": "string", "enum": ["red", "green"]}}}
    opened = jsonschema.Draft202012Validator(
        wire_schema(colors, "Color", unknown_enum_values="keep")
    )
    assert opened.is_valid("blue") and not opened.is_valid(None)


# --- drift ------------------------------------------------------------------------------


def test_drift_counts_a_kept_value_and_patch_proposes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p", "search_agent", fixtures=False)
    message = {"type": "message_delta", "delta": {"stop_reason": "budget_exhausted",
               "stop_sequence": None}, "usage": {"output_tokens": 3}}  # fmt: skip
    recording = write_lines(tmp_path / "stream.jsonl", [message])
    assert run(project, "drift", "search_agent", str(recording), "--patch") == 1
    out = capsys.readouterr().out
    assert (
        'StopReason: "budget_exhausted" (1x); unlisted enum value, kept as UnknownStopReason '
        "(x-unknown: keep)"
    ) in out
    assert "1 unlisted enum value(s)" in out
    assert "other rejections by the generated decoders: none" in out
    patch = out.split("# Suggested by")[1]
    assert "budget_exhausted" in patch and "StopReason:" in patch
