"""datamodel-code-generator, run on the same schemas, is an independent oracle for the Pydantic flavor.

For every module the schema, with its `x-` keys stripped, goes through
datamodel-code-generator in-process (Pydantic v2 BaseModel, annotated fields,
snake_case names, population by field name, strict nullability). Its models and
ours must accept and reject the same instances:

- every recorded fixture, valid and invalid;
- instances hypothesis-jsonschema draws from the stripped schema under a small
  bounded profile (closed objects, short arrays and strings, scalar-only free-form
  JSON, `oneOf` drawn as `anyOf` and then filtered by jsonschema against the real
  schema), `max_examples` 20 per module over that module's records.

Where the two disagree on a fixture for a known reason, the difference is listed
in EXPECTED_DIFFERENCES with that reason; a listed difference that no longer
happens fails the test too, so the table stays true.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import types
import warnings
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from polytype import ir
from polytype.lowering.lower import lower
from polytype.project.fixtures import discover
from polytype.reading.loader import load
from pydantic import TypeAdapter, ValidationError

from .conftest import REPO, SHIPPED_MODULES, load_generated, schema_data

FIXTURES = REPO / "tests" / "fixtures"

# --- why the oracle and polytype disagree, fixture by fixture ------------------

BOOLEAN_AS_INTEGER = (
    "`true` where the schema says integer: the oracle's lax `int` takes a bool as 1; a JSON "
    "Schema integer is never a boolean (polytype uses StrictInt, like the dataclass flavor)"
)
STRING_AS_INTEGER = (
    'a numeric string ("12") where the schema says integer: the oracle\'s lax `int` parses '
    "it; the schema's type is integer, not string, and polytype does not coerce"
)
STRING_AS_BOOLEAN = (
    'a string ("true", "false", "yes") where the schema says boolean: the oracle\'s lax '
    "`bool` parses it; polytype's StrictBool accepts only JSON true and false"
)
INTEGER_AS_BOOLEAN = (
    "1 where the schema says boolean: the oracle's lax `bool` takes 0 and 1; polytype's "
    "StrictBool accepts only JSON true and false"
)
POPULATE_BY_NAME = (
    "populate_by_name lets the oracle accept the Python field name (thread_id, input_schema, "
    "...) as a JSON key; on the wire only the schema's key or an x-alias names the field, "
    "so the schema's required key is missing (polytype's _Model reads JSON data by key only "
    "and still builds by name in code)"
)
NULL_FOR_OPTIONAL = (
    "the oracle types a non-nullable optional key as `X | None = None` and so accepts an "
    "explicit null; the schema's type excludes null (absence reads as None), which "
    "polytype's Omittable[X] enforces"
)
ALIAS = (
    "x-aliases, stripped for the oracle: the key arrives in its SDK spelling (sessionId, "
    "isError, ...), which polytype accepts and writes back; for the oracle the schema's "
    "required key is missing"
)
UNLISTED_TAG = (
    "x-unknown: keep, stripped for the oracle: the tag is a string the union does not list "
    "(yet), which polytype keeps whole in the union's Unknown<Union> member and writes back; "
    "for the oracle no member takes it"
)
UNLISTED_VALUE = (
    "x-unknown: keep on an enum, stripped for the oracle: the value is a string the enum "
    "does not list (yet), which polytype keeps as the enum's Unknown<Enum> value and writes "
    "back; for the oracle it is not one of the enum's values"
)

# fixture path (relative to tests/fixtures) -> (the side that accepts, why)
EXPECTED_DIFFERENCES: dict[str, tuple[str, str]] = {
    "ag_ui/Event/unlisted_lowercase_type.json": ("polytype", UNLISTED_TAG),
    "ag_ui/Event/unlisted_unknown_type.json": ("polytype", UNLISTED_TAG),
    "ag_ui/Message/unlisted_unknown_role.json": ("polytype", UNLISTED_TAG),
    "ag_ui/MessagesSnapshotEvent/unlisted_bad_role.json": ("polytype", UNLISTED_TAG),
    "claude_code/AssistantMessage/unlisted_unknown_block_type.json": ("polytype", UNLISTED_TAG),
    "claude_code/ContentBlock/unlisted_unknown_type.json": ("polytype", UNLISTED_TAG),
    "claude_code/Message/unlisted_unknown_system_subtype.json": ("polytype", UNLISTED_TAG),
    "claude_code/Message/unlisted_unknown_type.json": ("polytype", UNLISTED_TAG),
    "claude_code/SystemEvent/unlisted_unknown_subtype.json": ("polytype", UNLISTED_TAG),
    "claude_code/UserMessageBody/unlisted_unknown_block.json": ("polytype", UNLISTED_TAG),
    "nano_agent/ContentBlock/unlisted_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "nano_agent/Message/unlisted_block_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "nano_agent/NodeData/unlisted_checkpoint.json": ("polytype", UNLISTED_TAG),
    "nano_agent/Response/unlisted_block_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "search_agent/ContentBlock/unlisted_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "search_agent/ContentBlockDelta/unlisted_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "search_agent/ContentBlockDeltaEvent/unlisted_delta_unknown_tag.json": (
        "polytype",
        UNLISTED_TAG,
    ),
    "search_agent/ContentBlockStartEvent/unlisted_block_unknown_tag.json": (
        "polytype",
        UNLISTED_TAG,
    ),
    "search_agent/Message/unlisted_block_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "search_agent/MessageStreamEvent/unlisted_unknown_tag.json": ("polytype", UNLISTED_TAG),
    "ag_ui/AssistantMessage/invalid/null_content.json": ("oracle", NULL_FOR_OPTIONAL),
    "ag_ui/Event/invalid/snake_case_thread_id.json": ("oracle", POPULATE_BY_NAME),
    "ag_ui/RunAgentInput/invalid/snake_case_thread_id.json": ("oracle", POPULATE_BY_NAME),
    "ag_ui/RunStartedEvent/invalid/snake_case_run_id.json": ("oracle", POPULATE_BY_NAME),
    "ag_ui/StepStartedEvent/invalid/snake_case_step_name.json": ("oracle", POPULATE_BY_NAME),
    "ag_ui/TextMessageStartEvent/invalid/snake_case_message_id.json": ("oracle", POPULATE_BY_NAME),
    "ag_ui/ToolMessage/invalid/snake_case_tool_call_id.json": ("oracle", POPULATE_BY_NAME),
    "bedrock_swarm/ToolResult/invalid/success_string.json": ("oracle", STRING_AS_BOOLEAN),
    "claude_code/AssistantMessage/invalid/aborted_not_boolean.json": ("oracle", STRING_AS_BOOLEAN),
    "claude_code/AssistantMessageBody/invalid/usage_tokens_not_integer.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "claude_code/ModelUsage/invalid/snake_case_keys.json": ("oracle", POPULATE_BY_NAME),
    "claude_code/PartialAssistantMessage/invalid/index_not_integer.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "claude_code/RateLimitInfo/invalid/resets_at_string.json": ("oracle", STRING_AS_INTEGER),
    "claude_code/ResultMessage/invalid/is_error_not_boolean.json": ("oracle", STRING_AS_BOOLEAN),
    "claude_code/ResultMessage/invalid/num_turns_string.json": ("oracle", STRING_AS_INTEGER),
    "claude_code/ResultMessage/seed_example.json": ("polytype", ALIAS),
    "claude_code/SystemMessage/seed_example.json": ("polytype", ALIAS),
    "claude_code/ToolResultBlock/invalid/is_error_string.json": ("oracle", STRING_AS_BOOLEAN),
    "claude_code/Usage/invalid/boolean_tokens.json": ("oracle", BOOLEAN_AS_INTEGER),
    "claude_code/UserMessage/invalid/replay_flag_not_boolean.json": ("oracle", INTEGER_AS_BOOLEAN),
    "nano_agent/NodeData/invalid/stop_reason_usage_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/PendingEdit/invalid/match_count_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/PendingEdit/invalid/match_line_string.json": ("oracle", STRING_AS_INTEGER),
    "nano_agent/PythonScript/invalid/run_count_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/Response/invalid/usage_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/StopReason/invalid/usage_value_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/StopReason/invalid/usage_value_string.json": ("oracle", STRING_AS_INTEGER),
    "nano_agent/ToolResultContent/invalid/is_error_string.json": ("oracle", STRING_AS_BOOLEAN),
    "nano_agent/TruncatedOutput/invalid/original_chars_string.json": ("oracle", STRING_AS_INTEGER),
    "nano_agent/TruncationConfig/invalid/enabled_string.json": ("oracle", STRING_AS_BOOLEAN),
    "nano_agent/TruncationConfig/invalid/max_lines_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/Usage/invalid/input_tokens_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "nano_agent/Usage/invalid/output_tokens_string.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/CacheCreation/invalid/bool_tokens.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/ContentBlockStartEvent/invalid/index_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/ContentBlockStartEvent/invalid/index_string.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/MessageCreateParams/invalid/max_tokens_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/MessageDeltaUsage/invalid/input_tokens_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/MessageStreamEvent/invalid/member_error.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/ServerToolUsage/invalid/string_count.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/ThinkingConfig/invalid/member_budget_string.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/ToolChoiceAny/invalid/disable_parallel_string.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolChoiceAuto/invalid/disable_parallel_string.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolDefinition/invalid/anthropic_spelling.json": ("oracle", POPULATE_BY_NAME),
    "search_agent/ToolResultBlockParam/invalid/is_error_string.json": ("oracle", STRING_AS_BOOLEAN),
    "search_agent/ToolsListResult/invalid/next_cursor_null.json": ("oracle", NULL_FOR_OPTIONAL),
    "search_agent/Usage/invalid/cache_creation_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/_TrimState/invalid/count_bool.json": ("oracle", BOOLEAN_AS_INTEGER),
    "search_agent/_TrimState/invalid/max_count_string.json": ("oracle", STRING_AS_INTEGER),
    "ag_ui/ReasoningMessageChunkEvent/invalid/timestamp_wrong_type.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "ag_ui/StateSnapshotEvent/invalid/timestamp_wrong_type.json": ("oracle", STRING_AS_INTEGER),
    "ag_ui/ThinkingEndEvent/invalid/timestamp_wrong_type.json": ("oracle", STRING_AS_INTEGER),
    "ag_ui/ThinkingStartEvent/invalid/timestamp_wrong_type.json": ("oracle", STRING_AS_INTEGER),
    "ag_ui/ThinkingTextMessageEndEvent/invalid/timestamp_wrong_type.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "ag_ui/ThinkingTextMessageStartEvent/invalid/timestamp_wrong_type.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "ag_ui/TokenUsage/invalid/string_total_tokens.json": ("oracle", STRING_AS_INTEGER),
    "claude_code/ToolProgressMessage/invalid/elapsed_string.json": ("oracle", STRING_AS_INTEGER),
    "nano_agent/SubGraph/invalid/depth_string.json": ("oracle", STRING_AS_INTEGER),
    "search_agent/CitationsConfig/invalid/enabled_wrong_type.json": ("oracle", STRING_AS_BOOLEAN),
    "search_agent/CodeExecutionTool20250522/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/CodeExecutionTool20250825/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/CodeExecutionTool20260120/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/CodeExecutionTool20260521/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/MemoryTool20250818/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/TextEditorCodeExecutionStrReplaceResultBlock/invalid/new_lines_wrong_type.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "search_agent/ToolBash20250124/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolSearchBm25Tool/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolSearchBm25Tool20251119/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolSearchRegexTool/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolSearchRegexTool20251119/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolTextEditor20250124/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolTextEditor20250429/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/ToolTextEditor20250728/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebFetchTool20250910/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebFetchTool20260209/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebFetchTool20260309/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebFetchTool20260318/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebSearchTool20250305/invalid/max_uses_string.json": (
        "oracle",
        STRING_AS_INTEGER,
    ),
    "search_agent/WebSearchTool20260209/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
    "search_agent/WebSearchTool20260318/invalid/defer_loading_wrong_type.json": (
        "oracle",
        STRING_AS_BOOLEAN,
    ),
}
# values of open enums (x-unknown: keep) that the enum does not list
EXPECTED_DIFFERENCES.update(
    {
        path: ("polytype", UNLISTED_VALUE)
        for path in (
            "ag_ui/EventType/unlisted_lowercase.json",
            "ag_ui/EventType/unlisted_unknown.json",
            "ag_ui/ReasoningEncryptedValueEvent/unlisted_bad_subtype.json",
            "ag_ui/ReasoningEncryptedValueSubtype/unlisted_wrong_case.json",
            "ag_ui/ResumeStatus/unlisted_wrong_case.json",
            "ag_ui/TextMessageChunkEvent/unlisted_tool_role.json",
            "ag_ui/TextMessageRole/unlisted.json",
            "ag_ui/TextMessageRole/unlisted_tool.json",
            "ag_ui/TextMessageStartEvent/unlisted_tool_role.json",
            "bedrock_swarm/Event/unlisted_unknown_type.json",
            "bedrock_swarm/EventType/unlisted.json",
            "bedrock_swarm/EventType/unlisted_unknown_value.json",
            "bedrock_swarm/EventType/unlisted_wrong_case.json",
            "claude_code/ControlRequest/unlisted_seed_atom_mode.json",
            "claude_code/ControlSetPermissionModeRequest/unlisted_unknown_mode.json",
            "claude_code/ConversationResetTrigger/unlisted_wrong_case.json",
            "claude_code/HookOutcome/unlisted_unknown.json",
            "claude_code/HookResponseMessage/unlisted_unknown_outcome.json",
            "claude_code/InformationalLevel/unlisted_wrong_case.json",
            "claude_code/MessageType/unlisted_atom_spelling.json",
            "claude_code/NotificationPriority/unlisted_wrong_case.json",
            "claude_code/PermissionMode/unlisted.json",
            "claude_code/PermissionMode/unlisted_seed_atom_spelling.json",
            "claude_code/PermissionMode/unlisted_wrong_case.json",
            "claude_code/RateLimitEvent/unlisted_unknown_status.json",
            "claude_code/RateLimitStatus/unlisted_unknown.json",
            "claude_code/ResultMessage/unlisted_unknown_subtype.json",
            "claude_code/ResultSubtype/unlisted.json",
            "claude_code/ResultSubtype/unlisted_unknown.json",
            "claude_code/SessionState/unlisted_wrong_case.json",
            "claude_code/SessionStateChangedMessage/unlisted_unknown_state.json",
            "claude_code/SystemMessage/unlisted_seed_atom_permission_mode.json",
            "claude_code/TaskNotificationMessage/unlisted_killed_status.json",
            "claude_code/TaskNotificationStatus/unlisted_wrong_case.json",
            "nano_agent/TaskStatus/unlisted.json",
            "nano_agent/TaskStatus/unlisted_unknown_value.json",
            "nano_agent/TaskStatus/unlisted_wrong_case.json",
            "nano_agent/Todo/unlisted_unknown_status.json",
            "nano_agent/TodoItem/unlisted_unknown_status.json",
            "nano_agent/TodoStatus/unlisted_unknown_value.json",
            "nano_agent/TodoStatus/unlisted_wrong_case.json",
            "search_agent/AllowedCaller/unlisted_wrong_case.json",
            "search_agent/BashCodeExecutionToolResultErrorCode/unlisted_wrong_case.json",
            "search_agent/CodeExecutionToolResultErrorCode/unlisted_wrong_case.json",
            "search_agent/Message/unlisted_bad_stop_reason.json",
            "search_agent/MessageDelta/unlisted_bad_stop_reason.json",
            "search_agent/MessageDeltaEvent/unlisted_bad_stop_reason.json",
            "search_agent/RefusalCategory/unlisted_wrong_case.json",
            "search_agent/RefusalStopDetails/unlisted_unknown_category.json",
            "search_agent/ServerToolName/unlisted.json",
            "search_agent/ServerToolName/unlisted_wrong_case.json",
            "search_agent/ServerToolUseBlock/unlisted_name.json",
            "search_agent/ServerToolUseBlock/unlisted_unknown_name.json",
            "search_agent/ServiceTier/unlisted_unknown_value.json",
            "search_agent/StopReason/unlisted.json",
            "search_agent/StopReason/unlisted_unknown_value.json",
            "search_agent/TextEditorCodeExecutionToolResultBlock/unlisted_bad_file_type.json",
            "search_agent/TextEditorCodeExecutionToolResultErrorCode/unlisted_wrong_case.json",
            "search_agent/TextEditorFileType/unlisted_wrong_case.json",
            "search_agent/ToolSearchToolResultErrorCode/unlisted_wrong_case.json",
            "search_agent/Usage/unlisted_bad_service_tier.json",
            "search_agent/WebFetchToolResultErrorCode/unlisted_wrong_case.json",
            "search_agent/WebSearchToolResultBlock/unlisted_bad_error_code.json",
            "search_agent/WebSearchToolResultErrorCode/unlisted_wrong_case.json",
        )
    }
)


# --- the oracle ----------------------------------------------------------------


def _strip_x(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            key: _strip_x(value) for key, value in node.items() if not str(key).startswith("x-")
        }
    if isinstance(node, list):
        return [_strip_x(item) for item in node]
    return node


@functools.cache
def _module_ir(module: str) -> ir.Module:
    return lower(load(REPO / "schema" / f"{module}.yaml", f"schema/{module}.yaml"))


@pytest.fixture(scope="module")
def oracles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, types.ModuleType]:
    from datamodel_code_generator import DataModelType, InputFileType, generate

    directory = tmp_path_factory.mktemp("oracle")
    loaded = {}
    for module in SHIPPED_MODULES:
        schema_file = directory / f"{module}.json"
        schema_file.write_text(json.dumps(_strip_x(schema_data(module))), encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = generate(
                schema_file,
                input_file_type=InputFileType.JsonSchema,
                output_model_type=DataModelType.PydanticV2BaseModel,
                use_annotated=True,
                snake_case_field=True,
                allow_population_by_field_name=True,
                strict_nullable=True,
                disable_timestamp=True,
                formatters=[],
            )
        assert isinstance(code, str)
        name = f"polytype_oracle.{module}"
        oracle = types.ModuleType(name)
        sys.modules[name] = oracle
        exec(compile(code, f"<datamodel-codegen {module}>", "exec"), oracle.__dict__)
        loaded[module] = oracle
    return loaded


def _oracle_type(oracle: types.ModuleType, type_name: str) -> Any:
    """The oracle's class for a `$defs` name (a leading `_` comes out as `Field...`)."""
    for candidate in (type_name, "Field" + type_name.lstrip("_"), type_name.lstrip("_")):
        found = getattr(oracle, candidate, None)
        if isinstance(found, type):
            return found
    raise LookupError(f"the oracle has no class for {type_name}")


@functools.cache
def _oracle_adapter(module: str, type_name: str) -> TypeAdapter[Any]:
    return TypeAdapter(_oracle_type(sys.modules[f"polytype_oracle.{module}"], type_name))


def _oracle_accepts(module: str, type_name: str, data: Any) -> bool:
    try:
        _oracle_adapter(module, type_name).validate_python(data)
    except ValidationError:
        return False
    return True


def _ours_accepts(module: str, type_name: str, data: Any) -> bool:
    models = load_generated(module, "pydantic_models")
    named = _module_ir(module).get(type_name)
    try:
        if isinstance(named, ir.Record):
            getattr(models, type_name).model_validate(data)
        else:
            getattr(models, f"{type_name}Adapter").validate_python(data)
    except ValidationError:
        return False
    return True


def _side(ours: bool, oracle: bool) -> str:
    return "polytype" if ours else "oracle"


# --- fixtures ------------------------------------------------------------------


def test_oracle_agrees_on_fixtures(oracles: dict[str, types.ModuleType]) -> None:
    actual: dict[str, str] = {}
    for module in SHIPPED_MODULES:
        names = {named.name for named in _module_ir(module).types}
        for case in discover(FIXTURES, module):
            if case.type_name not in names:
                continue
            data = json.loads((FIXTURES / case.relative_path).read_text(encoding="utf-8"))
            ours = _ours_accepts(module, case.type_name, data)
            assert (
                ours == case.valid
            ), f"{case.relative_path}: polytype's Pydantic models disagree with the fixture"
            oracle = _oracle_accepts(module, case.type_name, data)
            if ours != oracle:
                actual[case.relative_path] = _side(ours, oracle)
    unexpected = {path: side for path, side in actual.items() if path not in EXPECTED_DIFFERENCES}
    wrong_side = {
        path: side
        for path, side in actual.items()
        if path in EXPECTED_DIFFERENCES and EXPECTED_DIFFERENCES[path][0] != side
    }
    stale = sorted(set(EXPECTED_DIFFERENCES) - set(actual))
    assert not unexpected, "new differences (side that accepts):\n" + json.dumps(
        unexpected, indent=2
    )
    assert not wrong_side, "differences on the other side than listed:\n" + json.dumps(
        wrong_side, indent=2
    )
    assert not stale, "EXPECTED_DIFFERENCES lists differences that no longer happen:\n" + "\n".join(
        stale
    )


def test_expected_differences_name_real_fixtures() -> None:
    for path, (side, reason) in EXPECTED_DIFFERENCES.items():
        assert (FIXTURES / path).is_file(), path
        assert side in ("polytype", "oracle") and reason, path


# --- hypothesis-jsonschema instances ----------------------------------------------

_SCALAR = {"type": ["string", "integer", "boolean", "null"], "maxLength": 4}


def _bounded(node: Any) -> Any:
    """A sub-schema of `node` that hypothesis-jsonschema draws from quickly.

    Every instance of it is an instance of `node` (objects closed, short arrays and
    strings, free-form JSON reduced to scalars), except that `oneOf` becomes `anyOf`;
    drawn instances are filtered against the real schema for that.
    """
    if node is True or node == {}:
        return dict(_SCALAR)
    if isinstance(node, list):
        return [_bounded(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions", "patternProperties"):
            out[key] = {name: _bounded(child) for name, child in value.items()}
        elif key in ("const", "enum", "default", "examples"):
            out[key] = value
        elif key == "oneOf":
            out["anyOf"] = _bounded(value)
        else:
            out[key] = _bounded(value)
    kinds = out["type"] if isinstance(out.get("type"), list) else [out.get("type")]
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if "object" in kinds and "properties" not in out:
        out["maxProperties"] = min(out.get("maxProperties", 2), 2)
        if out.get("additionalProperties", True) in (True, {}):
            out["additionalProperties"] = dict(_SCALAR)
    if "array" in kinds:
        out["maxItems"] = max(min(out.get("maxItems", 2), 2), out.get("minItems", 0))
    if "string" in kinds and "maxLength" not in out and "enum" not in out and "const" not in out:
        out["maxLength"] = max(8, out.get("minLength", 0))
    return out


def _reachable(definitions: dict[str, Any], name: str) -> set[str]:
    seen: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(re.findall(r'"#/\$defs/([^"]+)"', json.dumps(definitions[current])))
    return seen


def _instances(module: str) -> st.SearchStrategy[tuple[str, Any]]:
    """(type name, instance) for the records of `module`, one record drawn per example."""
    plain = _strip_x(schema_data(module))
    bounded = _bounded(plain)
    definitions = bounded.get("$defs", {})
    records = [name for name, schema in definitions.items() if "properties" in schema]

    @functools.cache
    def strategy(name: str) -> st.SearchStrategy[tuple[str, Any]]:
        schema = {
            "$defs": {key: definitions[key] for key in _reachable(definitions, name)},
            "$ref": f"#/$defs/{name}",
        }
        check = jsonschema.Draft202012Validator(
            {"$defs": plain["$defs"], "$ref": f"#/$defs/{name}"}
        )
        return from_schema(schema).filter(check.is_valid).map(lambda instance: (name, instance))

    return st.sampled_from(records).flatmap(strategy)


@pytest.mark.parametrize("module", SHIPPED_MODULES)
def test_oracle_agrees_on_generated_instances(
    module: str, oracles: dict[str, types.ModuleType]
) -> None:
    @settings(
        max_examples=20,
        database=None,
        deadline=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(_instances(module))
    def agree(case: tuple[str, Any]) -> None:
        type_name, instance = case
        ours = _ours_accepts(module, type_name, instance)
        oracle = _oracle_accepts(module, type_name, instance)
        assert (
            ours and oracle
        ), f"{type_name}: polytype accepts={ours}, oracle accepts={oracle}: {instance!r}"

    agree()
