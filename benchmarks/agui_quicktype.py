"""quicktype-style hand-written from_dict/to_dict for AG-UI's RunAgentInput.

The shape quicktype emits for Python: plain dataclasses, `from_str`/`from_union`
helpers that assert types, `obj.get(key)` for every field. Unknown keys are
dropped and presence is not tracked (absent and null both read as None).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

T = TypeVar("T")


def from_str(x: Any) -> str:
    assert isinstance(x, str)
    return x


def from_none(x: Any) -> Any:
    assert x is None
    return x


def from_union(fs: list[Callable[[Any], Any]], x: Any) -> Any:
    for f in fs:
        try:
            return f(x)
        except Exception:  # noqa: BLE001, S112 - quicktype's own pattern
            pass
    raise AssertionError(x)


def from_list(f: Callable[[Any], T], x: Any) -> list[T]:
    assert isinstance(x, list)
    return [f(y) for y in x]


def from_dict(f: Callable[[Any], T], x: Any) -> dict[str, T]:
    assert isinstance(x, dict)
    return {k: f(v) for (k, v) in x.items()}


def from_any(x: Any) -> Any:
    return x


def to_class(c: type, x: Any) -> dict[str, Any]:
    assert isinstance(x, c)
    return cast(Any, x).to_dict()


@dataclass
class FunctionCall:
    name: str
    arguments: str

    @staticmethod
    def from_dict(obj: Any) -> FunctionCall:
        assert isinstance(obj, dict)
        name = from_str(obj.get("name"))
        arguments = from_str(obj.get("arguments"))
        return FunctionCall(name, arguments)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["name"] = from_str(self.name)
        result["arguments"] = from_str(self.arguments)
        return result


@dataclass
class ToolCall:
    id: str
    type: str
    function: FunctionCall

    @staticmethod
    def from_dict(obj: Any) -> ToolCall:
        assert isinstance(obj, dict)
        id = from_str(obj.get("id"))
        type = from_str(obj.get("type"))
        assert type == "function"
        function = FunctionCall.from_dict(obj.get("function"))
        return ToolCall(id, type, function)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["id"] = from_str(self.id)
        result["type"] = from_str(self.type)
        result["function"] = to_class(FunctionCall, self.function)
        return result


@dataclass
class Message:
    id: str
    role: str
    content: str | None = None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    error: str | None = None

    @staticmethod
    def from_dict(obj: Any) -> Message:
        assert isinstance(obj, dict)
        id = from_str(obj.get("id"))
        role = from_str(obj.get("role"))
        assert role in ("developer", "system", "assistant", "user", "tool")
        content = from_union([from_str, from_none], obj.get("content"))
        name = from_union([from_str, from_none], obj.get("name"))
        tool_calls = from_union(
            [lambda x: from_list(ToolCall.from_dict, x), from_none], obj.get("toolCalls")
        )
        tool_call_id = from_union([from_str, from_none], obj.get("toolCallId"))
        error = from_union([from_str, from_none], obj.get("error"))
        return Message(id, role, content, name, tool_calls, tool_call_id, error)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["id"] = from_str(self.id)
        result["role"] = from_str(self.role)
        if self.content is not None:
            result["content"] = from_union([from_str, from_none], self.content)
        if self.name is not None:
            result["name"] = from_union([from_str, from_none], self.name)
        if self.tool_calls is not None:
            result["toolCalls"] = from_union(
                [lambda x: from_list(lambda x: to_class(ToolCall, x), x), from_none],
                self.tool_calls,
            )
        if self.tool_call_id is not None:
            result["toolCallId"] = from_union([from_str, from_none], self.tool_call_id)
        if self.error is not None:
            result["error"] = from_union([from_str, from_none], self.error)
        return result


@dataclass
class Tool:
    name: str
    description: str
    parameters: dict[str, Any] | None = None

    @staticmethod
    def from_dict(obj: Any) -> Tool:
        assert isinstance(obj, dict)
        name = from_str(obj.get("name"))
        description = from_str(obj.get("description"))
        parameters = from_union(
            [lambda x: from_dict(from_any, x), from_none], obj.get("parameters")
        )
        return Tool(name, description, parameters)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["name"] = from_str(self.name)
        result["description"] = from_str(self.description)
        if self.parameters is not None:
            result["parameters"] = from_union(
                [lambda x: from_dict(from_any, x), from_none], self.parameters
            )
        return result


@dataclass
class Context:
    description: str
    value: str

    @staticmethod
    def from_dict(obj: Any) -> Context:
        assert isinstance(obj, dict)
        description = from_str(obj.get("description"))
        value = from_str(obj.get("value"))
        return Context(description, value)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["description"] = from_str(self.description)
        result["value"] = from_str(self.value)
        return result


@dataclass
class RunAgentInput:
    thread_id: str
    run_id: str
    messages: list[Message]
    tools: list[Tool]
    context: list[Context]
    forwarded_props: Any
    parent_run_id: str | None = None
    state: dict[str, Any] | None = None

    @staticmethod
    def from_dict(obj: Any) -> RunAgentInput:
        assert isinstance(obj, dict)
        thread_id = from_str(obj.get("threadId"))
        run_id = from_str(obj.get("runId"))
        messages = from_list(Message.from_dict, obj.get("messages"))
        tools = from_list(Tool.from_dict, obj.get("tools"))
        context = from_list(Context.from_dict, obj.get("context"))
        forwarded_props = obj.get("forwardedProps")
        parent_run_id = from_union([from_str, from_none], obj.get("parentRunId"))
        state = from_union([lambda x: from_dict(from_any, x), from_none], obj.get("state"))
        return RunAgentInput(
            thread_id, run_id, messages, tools, context, forwarded_props, parent_run_id, state
        )

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        result["threadId"] = from_str(self.thread_id)
        result["runId"] = from_str(self.run_id)
        result["messages"] = from_list(lambda x: to_class(Message, x), self.messages)
        result["tools"] = from_list(lambda x: to_class(Tool, x), self.tools)
        result["context"] = from_list(lambda x: to_class(Context, x), self.context)
        result["forwardedProps"] = self.forwarded_props
        if self.parent_run_id is not None:
            result["parentRunId"] = from_union([from_str, from_none], self.parent_run_id)
        if self.state is not None:
            result["state"] = from_union([lambda x: from_dict(from_any, x), from_none], self.state)
        return result
