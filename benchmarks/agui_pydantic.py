"""Hand-tuned Pydantic v2 models for AG-UI's RunAgentInput: the reference the generated code is held to.

Written the way an experienced Pydantic user would: strict scalars, camelCase
aliases, discriminated unions on `role` and `type`, unknown keys kept
(`extra="allow"`), free-form JSON as `Any`. Round trip: `model_dump(mode="json",
by_alias=True, exclude_unset=True)`.

It models every type and field `schema/ag_ui.yaml` gives RunAgentInput (resume
entries, encrypted values, metadata, activity and reasoning messages, multimodal
user content), so that the generated models are timed against the same schema
written by hand. What it does not do, and the generated models do: keep a message
of an unknown role, keep an unknown resume status as such, and refuse NaN,
infinity, integers Python's json cannot write and excessive nesting in free-form
values.
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
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class InputContentDataSource(_Model):
    type: Literal["data"] = "data"
    value: StrictStr
    mime_type: StrictStr = Field(alias="mimeType")


class InputContentUrlSource(_Model):
    type: Literal["url"] = "url"
    value: StrictStr
    mime_type: StrictStr | None = Field(default=None, alias="mimeType")


InputContentSource = Annotated[
    InputContentDataSource | InputContentUrlSource, Field(discriminator="type")
]


class TextInputContent(_Model):
    type: Literal["text"] = "text"
    text: StrictStr


class ImageInputContent(_Model):
    type: Literal["image"] = "image"
    source: InputContentSource
    metadata: Any = None


class AudioInputContent(_Model):
    type: Literal["audio"] = "audio"
    source: InputContentSource
    metadata: Any = None


class VideoInputContent(_Model):
    type: Literal["video"] = "video"
    source: InputContentSource
    metadata: Any = None


class DocumentInputContent(_Model):
    type: Literal["document"] = "document"
    source: InputContentSource
    metadata: Any = None


class BinaryInputContent(_Model):
    type: Literal["binary"] = "binary"
    mime_type: StrictStr = Field(alias="mimeType")
    id: StrictStr | None = None
    url: StrictStr | None = None
    data: StrictStr | None = None
    filename: StrictStr | None = None


InputContent = Annotated[
    TextInputContent
    | ImageInputContent
    | AudioInputContent
    | VideoInputContent
    | DocumentInputContent
    | BinaryInputContent,
    Field(discriminator="type"),
]


class DeveloperMessage(_Model):
    id: StrictStr
    role: Literal["developer"] = "developer"
    content: StrictStr
    name: StrictStr | None = None
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class SystemMessage(_Model):
    id: StrictStr
    role: Literal["system"] = "system"
    content: StrictStr
    name: StrictStr | None = None
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class AssistantMessage(_Model):
    id: StrictStr
    role: Literal["assistant"] = "assistant"
    content: StrictStr | None = None
    name: StrictStr | None = None
    tool_calls: list[ToolCall] | None = Field(default=None, alias="toolCalls")
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class UserMessage(_Model):
    id: StrictStr
    role: Literal["user"] = "user"
    content: StrictStr | list[InputContent]
    name: StrictStr | None = None
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class ToolMessage(_Model):
    id: StrictStr
    role: Literal["tool"] = "tool"
    content: StrictStr
    tool_call_id: StrictStr = Field(alias="toolCallId")
    error: StrictStr | None = None
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


class ActivityMessage(_Model):
    id: StrictStr
    role: Literal["activity"] = "activity"
    activity_type: StrictStr = Field(alias="activityType")
    content: dict[str, Any]
    metadata: dict[str, Any] | None = None


class ReasoningMessage(_Model):
    id: StrictStr
    role: Literal["reasoning"] = "reasoning"
    content: StrictStr
    encrypted_value: StrictStr | None = Field(default=None, alias="encryptedValue")
    metadata: dict[str, Any] | None = None


Message = Annotated[
    DeveloperMessage
    | SystemMessage
    | AssistantMessage
    | UserMessage
    | ToolMessage
    | ActivityMessage
    | ReasoningMessage,
    Field(discriminator="role"),
]
MessageAdapter: TypeAdapter[Message] = TypeAdapter(Message)


class Tool(_Model):
    name: StrictStr
    description: StrictStr
    parameters: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class Context(_Model):
    description: StrictStr
    value: StrictStr


class ResumeEntry(_Model):
    interrupt_id: StrictStr = Field(alias="interruptId")
    status: StrictStr  # open: "resolved", "cancelled" or a newer value
    payload: Any = None
    metadata: dict[str, Any] | None = None


class RunAgentInput(_Model):
    thread_id: StrictStr = Field(alias="threadId")
    run_id: StrictStr = Field(alias="runId")
    parent_run_id: StrictStr | None = Field(default=None, alias="parentRunId")
    state: dict[str, Any] | None = None
    messages: list[Message]
    tools: list[Tool]
    context: list[Context]
    forwarded_props: Any = Field(default=None, alias="forwardedProps")
    resume: list[ResumeEntry] | None = None
