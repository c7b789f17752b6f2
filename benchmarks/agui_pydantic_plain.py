"""Hand-tuned Pydantic v2 models for `agui_plain.yaml`: the reference `plain.py` holds the plain
schema's generated code to (the same types as that schema, and no more; `agui_pydantic.py`
models the whole AG-UI schema for `runtime.py`).

Written the way an experienced Pydantic user would: strict scalars, camelCase
aliases, a discriminated union on `role`, unknown keys kept (`extra="allow"`),
free-form JSON as `Any`. Round trip: `model_dump(mode="json", by_alias=True,
exclude_unset=True)`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, TypeAdapter


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow")


class FunctionCall(_Model):
    name: StrictStr
    arguments: StrictStr


class ToolCall(_Model):
    id: StrictStr
    type: Literal["function"] = "function"
    function: FunctionCall


class DeveloperMessage(_Model):
    id: StrictStr
    role: Literal["developer"] = "developer"
    content: StrictStr
    name: StrictStr | None = None


class SystemMessage(_Model):
    id: StrictStr
    role: Literal["system"] = "system"
    content: StrictStr
    name: StrictStr | None = None


class AssistantMessage(_Model):
    id: StrictStr
    role: Literal["assistant"] = "assistant"
    content: StrictStr | None = None
    name: StrictStr | None = None
    tool_calls: list[ToolCall] | None = Field(default=None, alias="toolCalls")


class UserMessage(_Model):
    id: StrictStr
    role: Literal["user"] = "user"
    content: StrictStr
    name: StrictStr | None = None


class ToolMessage(_Model):
    id: StrictStr
    role: Literal["tool"] = "tool"
    content: StrictStr
    tool_call_id: StrictStr = Field(alias="toolCallId")
    error: StrictStr | None = None


Message = Annotated[
    DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage,
    Field(discriminator="role"),
]
MessageAdapter: TypeAdapter[Message] = TypeAdapter(Message)


class Tool(_Model):
    name: StrictStr
    description: StrictStr
    parameters: dict[str, Any] | None = None


class Context(_Model):
    description: StrictStr
    value: StrictStr


class RunAgentInput(_Model):
    thread_id: StrictStr = Field(alias="threadId")
    run_id: StrictStr = Field(alias="runId")
    parent_run_id: StrictStr | None = Field(default=None, alias="parentRunId")
    state: dict[str, Any] | None = None
    messages: list[Message]
    tools: list[Tool]
    context: list[Context]
    forwarded_props: Any = Field(alias="forwardedProps")
