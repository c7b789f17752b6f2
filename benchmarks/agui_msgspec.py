"""msgspec Structs for AG-UI's RunAgentInput: the physical-limit reference (C decoder, no extras kept)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class FunctionCall(msgspec.Struct, omit_defaults=True):
    name: str
    arguments: str


class ToolCall(msgspec.Struct, omit_defaults=True):
    id: str
    function: FunctionCall
    type: Literal["function"] = "function"


class DeveloperMessage(msgspec.Struct, tag_field="role", tag="developer", omit_defaults=True):
    id: str
    content: str
    name: str | None = None


class SystemMessage(msgspec.Struct, tag_field="role", tag="system", omit_defaults=True):
    id: str
    content: str
    name: str | None = None


class AssistantMessage(msgspec.Struct, tag_field="role", tag="assistant", omit_defaults=True):
    id: str
    content: str | None = None
    name: str | None = None
    toolCalls: list[ToolCall] | None = None  # noqa: N815 - the JSON key


class UserMessage(msgspec.Struct, tag_field="role", tag="user", omit_defaults=True):
    id: str
    content: str
    name: str | None = None


class ToolMessage(msgspec.Struct, tag_field="role", tag="tool", omit_defaults=True):
    id: str
    content: str
    toolCallId: str  # noqa: N815 - the JSON key
    error: str | None = None


Message = DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage


class Tool(msgspec.Struct, omit_defaults=True):
    name: str
    description: str
    parameters: dict[str, Any] | None = None


class Context(msgspec.Struct):
    description: str
    value: str


class RunAgentInput(msgspec.Struct, omit_defaults=True, rename="camel"):
    thread_id: str
    run_id: str
    messages: list[Message]
    tools: list[Tool]
    context: list[Context]
    forwarded_props: Any
    parent_run_id: str | None = None
    state: dict[str, Any] | None = None
