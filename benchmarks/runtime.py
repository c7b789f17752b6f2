"""Runtime benchmark: the generated AG-UI codecs against Pydantic, msgspec and quicktype-style code.

    python benchmarks/runtime.py           # 11 interleaved rounds of ~0.1 s per measurement
    python benchmarks/runtime.py --quick   # 5 rounds

Payloads: `RunAgentInput` with 50 mixed messages, 5 tools and 3 contexts, and a
single small message. Operations: decode (JSON data → objects, validating),
encode (objects → JSON data), from JSON text (bytes → objects) and to JSON text.
Every implementation first proves it round-trips the payload. Times are CPU time
per call (process time, so that other processes on a shared machine do not count)
in the fastest of several rounds that interleave every implementation and
operation: neighbours on a virtual machine still slow the vCPU itself, never speed
it up. Ratios are against the hand-tuned Pydantic v2 models (agui_pydantic.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "generated" / "python"))


def run_agent_input(messages: int = 50) -> dict[str, Any]:
    """A realistic RunAgentInput: mixed messages, tool calls and results, tools, context."""
    conversation: list[dict[str, Any]] = [
        {"id": "sys-0", "role": "system", "content": "You are a helpful travel assistant."},
        {"id": "dev-0", "role": "developer", "content": "Prefer metric units.", "name": "ops"},
    ]
    index = 0
    while len(conversation) < messages:
        index += 1
        conversation.append(
            {"id": f"u-{index}", "role": "user", "content": f"What is the weather in city {index}?"}
        )
        if index % 3 == 0:
            conversation.append(
                {
                    "id": f"a-{index}",
                    "role": "assistant",
                    "content": f"It is sunny in city {index}.",
                }
            )
            continue
        call = f"call-{index}"
        conversation.append(
            {
                "id": f"a-{index}",
                "role": "assistant",
                "toolCalls": [
                    {
                        "id": call,
                        "type": "function",
                        "function": {
                            "name": "get_weather",
                            "arguments": json.dumps({"city": f"city {index}", "unit": "c"}),
                        },
                    }
                ],
            }
        )
        conversation.append(
            {
                "id": f"t-{index}",
                "role": "tool",
                "toolCallId": call,
                "content": json.dumps({"temperature": 20 + index % 10, "sky": "clear"}),
            }
        )
    conversation = conversation[:messages]
    tools = [
        {
            "name": name,
            "description": f"Tool number {number}: {name.replace('_', ' ')}.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "unit": {"type": "string", "enum": ["c", "f"]},
                    "days": {"type": "integer", "minimum": 1, "maximum": 14},
                },
                "required": ["city"],
            },
        }
        for number, name in enumerate(
            ["get_weather", "get_forecast", "search_flights", "book_hotel", "convert_currency"]
        )
    ]
    return {
        "threadId": "thread-42",
        "runId": "run-7",
        "state": {"step": 3, "preferences": {"units": "metric", "language": "en"}},
        "messages": conversation,
        "tools": tools,
        "context": [
            {"description": "user location", "value": "Lisbon"},
            {"description": "local time", "value": "2025-06-01T10:00:00Z"},
            {"description": "plan", "value": "pro"},
        ],
        "forwardedProps": {"source": "web", "experiment": None, "flags": [1, 2, 3]},
    }


SMALL_MESSAGE: dict[str, Any] = {"id": "u-1", "role": "user", "content": "Hello there!"}


@dataclass
class Codec:
    """One implementation: four operations on the big payload, and decode/encode of one message."""

    name: str
    decode: Callable[[Any], Any]
    encode: Callable[[Any], Any]
    from_json: Callable[[bytes], Any]
    to_json: Callable[[Any], Any]
    decode_message: Callable[[Any], Any]
    encode_message: Callable[[Any], Any]
    exact: bool = True  # round trip reproduces the input exactly


def codecs() -> list[Codec]:
    found: list[Codec] = []
    import agui_pydantic as hand

    dump = {"mode": "json", "by_alias": True, "exclude_unset": True}
    found.append(
        Codec(
            "Pydantic v2, hand-tuned (reference)",
            hand.RunAgentInput.model_validate,
            lambda value: value.model_dump(**dump),
            hand.RunAgentInput.model_validate_json,
            lambda value: value.model_dump_json(by_alias=True, exclude_unset=True),
            hand.MessageAdapter.validate_python,
            lambda value: value.model_dump(**dump),
        )
    )
    dataclasses = _optional_module("ag_ui.dataclass_models")
    if dataclasses is not None:
        found.append(
            Codec(
                "polytype dataclasses",
                dataclasses.decode_run_agent_input,
                lambda value: value.to_dict(),
                dataclasses.RunAgentInput.from_json,
                lambda value: value.to_json(),
                dataclasses.decode_message,
                dataclasses.encode_message,
            )
        )
    typed = _optional_module("ag_ui.typed_dicts")
    if typed is not None:
        loads, dumps = json.loads, json.dumps
        found.append(
            Codec(
                "polytype TypedDict validators",
                typed.validate_run_agent_input,
                lambda value: value,
                lambda text: typed.validate_run_agent_input(loads(text)),
                lambda value: dumps(value, ensure_ascii=False, separators=(",", ":")),
                typed.validate_message,
                lambda value: value,
            )
        )
    generated = _optional_module("ag_ui.pydantic_models")
    if generated is not None:
        found.append(
            Codec(
                "polytype Pydantic models",
                generated.RunAgentInput.model_validate,
                lambda value: value.model_dump(**dump),
                generated.RunAgentInput.model_validate_json,
                lambda value: value.model_dump_json(by_alias=True, exclude_unset=True),
                generated.MessageAdapter.validate_python,
                lambda value: value.model_dump(**dump),
            )
        )
    import agui_msgspec as structs
    import msgspec

    message_decoder = msgspec.json.Decoder(structs.RunAgentInput)
    encoder = msgspec.json.Encoder()
    found.append(
        Codec(
            "msgspec Structs (limit)",
            lambda data: msgspec.convert(data, structs.RunAgentInput),
            msgspec.to_builtins,
            message_decoder.decode,
            encoder.encode,
            lambda data: msgspec.convert(data, structs.Message),
            msgspec.to_builtins,
            exact=False,
        )
    )
    import agui_quicktype as quick

    found.append(
        Codec(
            "quicktype-style from_dict/to_dict",
            quick.RunAgentInput.from_dict,
            lambda value: value.to_dict(),
            lambda text: quick.RunAgentInput.from_dict(json.loads(text)),
            lambda value: json.dumps(value.to_dict()),
            quick.Message.from_dict,
            lambda value: value.to_dict(),
            exact=False,
        )
    )
    return found


def _optional_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def calibrate(function: Callable[[], Any], budget: float) -> int:
    """How many calls take about `budget` seconds."""
    number = 1
    while True:
        started = time.perf_counter()
        for _ in range(number):
            function()
        elapsed = time.perf_counter() - started
        if elapsed >= budget / 4:
            return max(1, int(number * budget / max(elapsed, 1e-9)))
        number *= 4


def timed(function: Callable[[], Any], number: int) -> float:
    """CPU seconds per call: time this process spent running, not waiting for a core."""
    started = time.process_time()
    for _ in range(number):
        function()
    return (time.process_time() - started) / number


def check(codec: Codec, payload: dict[str, Any], text: bytes) -> None:
    decoded = codec.decode(payload)
    encoded = codec.encode(decoded)
    if codec.exact and encoded != payload:
        raise AssertionError(f"{codec.name}: the round trip changed the payload")
    reparsed = json.loads(codec.to_json(codec.from_json(text)))
    if codec.exact and reparsed != payload:
        raise AssertionError(f"{codec.name}: the JSON round trip changed the payload")
    if codec.exact and codec.encode_message(codec.decode_message(SMALL_MESSAGE)) != SMALL_MESSAGE:
        raise AssertionError(f"{codec.name}: the message round trip changed it")


OPERATIONS = ("decode", "encode", "from JSON", "to JSON", "decode 1 msg", "encode 1 msg")


def bench(
    found: list[Codec], payload: dict[str, Any], text: bytes, repeats: int, budget: float = 0.1
) -> dict[str, dict[str, float]]:
    """Seconds per call of every operation of every codec, in its fastest round.

    The batches are interleaved (every codec and operation once per round), so that
    load from other processes on a shared machine falls on all of them alike.
    """
    jobs: dict[tuple[str, str], Callable[[], Any]] = {}
    for codec in found:
        decoded = codec.decode(payload)
        message = codec.decode_message(SMALL_MESSAGE)
        operations: dict[str, Callable[[], Any]] = {
            "decode": lambda c=codec: c.decode(payload),
            "encode": lambda c=codec, v=decoded: c.encode(v),
            "from JSON": lambda c=codec: c.from_json(text),
            "to JSON": lambda c=codec, v=decoded: c.to_json(v),
            "decode 1 msg": lambda c=codec: c.decode_message(SMALL_MESSAGE),
            "encode 1 msg": lambda c=codec, m=message: c.encode_message(m),
        }
        for operation, function in operations.items():
            jobs[(codec.name, operation)] = function
    numbers = {key: calibrate(function, budget) for key, function in jobs.items()}
    samples: dict[tuple[str, str], list[float]] = {key: [] for key in jobs}
    for _ in range(repeats):
        for key, function in jobs.items():
            samples[key].append(timed(function, numbers[key]))
    results: dict[str, dict[str, float]] = {codec.name: {} for codec in found}
    for (name, operation), values in samples.items():
        # the least disturbed round: on a shared virtual machine other tenants slow the
        # vCPU itself (caches, clock), which CPU time does not exclude; they never speed it up
        results[name][operation] = min(values)
    return results


def _time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 11")
    parser.add_argument("--messages", type=int, default=50)
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 11
    payload = run_agent_input(args.messages)
    text = json.dumps(payload).encode()
    found = codecs()
    for codec in found:
        check(codec, payload, text)
    results = bench(found, payload, text, repeats)
    reference = results[found[0].name]
    print(
        f"## Runtime: AG-UI RunAgentInput ({args.messages} messages, 5 tools, 3 contexts; "
        f"{len(text):,} bytes of JSON) and one small message\n"
    )
    print("CPU time per call in the fastest round (× hand-tuned Pydantic v2).\n")
    print("| implementation | " + " | ".join(OPERATIONS) + " |")
    print("|---|" + "---:|" * len(OPERATIONS))
    for name, timings in results.items():
        cells = [f"{_time(timings[op])} ({timings[op] / reference[op]:.2f}×)" for op in OPERATIONS]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(
        '\nPydantic: `model_validate`, `model_dump(mode="json", by_alias=True, exclude_unset=True)`, '
        "`model_validate_json`, `model_dump_json`. msgspec and quicktype-style code keep no unknown "
        "keys and track no presence, so their round trips are not exact. The hand-tuned models "
        "cover the whole schema of RunAgentInput (agui_pydantic.py)."
    )
    print(f"\nJSON text parser of the polytype dataclasses: {json_parser()}.")
    return 0


def json_parser() -> str:
    """Which parser the generated dataclasses' `from_json` used in this run."""
    runtime = _optional_module("ag_ui._runtime")
    if runtime is None:
        return "none (not generated)"
    if getattr(runtime, "_FAST_LOADS", None) is None:
        return "json (the standard library; msgspec, the optional accelerator, is not installed)"
    import msgspec

    return f"msgspec {msgspec.__version__} (the optional accelerator; json where it refuses)"


if __name__ == "__main__":
    sys.exit(main())
