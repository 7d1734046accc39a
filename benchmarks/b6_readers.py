"""B6 readers: ``to_calls`` per call on four common shapes, against ``json.loads`` of each.

Each shape holds ten calls with small JSON arguments, as plain data (what a trace file
gives once parsed): an OpenAI chat completion (arguments as JSON text, as the API sends
them), an Anthropic message (a text block, then ``tool_use`` blocks), a Responses output
list (a reasoning item, then ``function_call`` items) and a plain list of
``{"name", "args"}`` dicts. The reference is ``json.loads`` of the same object's JSON
text: the C-speed parse a reader of that JSON pays anyway. Figures are per call.
"""

from __future__ import annotations

import json

from benchmarks._report import Config, Section, timed_figure
from benchmarks._timing import Contender, compare

TITLE = "readers: to_calls per call on four shapes vs json.loads of their JSON"

CALLS = 10


def _arguments(step: int) -> dict[str, object]:
    return {"city": f"city {step}", "days": step, "units": "metric"}


def _openai() -> dict[str, object]:
    tool_calls = [
        {
            "id": f"call_{step}",
            "type": "function",
            "function": {"name": f"tool_{step}", "arguments": json.dumps(_arguments(step))},
        }
        for step in range(CALLS)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
    }


def _anthropic() -> dict[str, object]:
    content: list[dict[str, object]] = [{"type": "text", "text": "Let me check."}]
    content += [
        {
            "type": "tool_use",
            "id": f"toolu_{step}",
            "name": f"tool_{step}",
            "input": _arguments(step),
        }
        for step in range(CALLS)
    ]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def _responses() -> list[dict[str, object]]:
    items: list[dict[str, object]] = [{"type": "reasoning", "id": "rs_1", "summary": []}]
    items += [
        {
            "type": "function_call",
            "id": f"fc_{step}",
            "call_id": f"call_{step}",
            "name": f"tool_{step}",
            "arguments": json.dumps(_arguments(step)),
            "status": "completed",
        }
        for step in range(CALLS)
    ]
    return items


def _plain() -> list[dict[str, object]]:
    return [{"name": f"tool_{step}", "args": _arguments(step)} for step in range(CALLS)]


SHAPES = {
    "an OpenAI chat completion": _openai,
    "an Anthropic message": _anthropic,
    "a Responses output list": _responses,
    "a plain list": _plain,
}


def run(config: Config) -> Section:
    from toolmatch import to_calls

    section = Section("B6", TITLE)
    for label, build in SHAPES.items():
        obj = build()
        text = json.dumps(obj)
        calls = to_calls(obj)
        names = [call.name for call in calls]
        if names != [f"tool_{step}" for step in range(CALLS)]:
            section.errors.append(f"{label}: to_calls read {names}")
            continue
        timings = compare(
            {
                "to_calls": Contender("to_calls(obj)", {"to_calls": to_calls, "obj": obj}),
                "json.loads": Contender("loads(text)", {"loads": json.loads, "text": text}),
            },
            rounds=config.rounds,
            sample_seconds=config.sample_seconds,
        )
        section.figures.append(
            timed_figure(
                f"{label}, {CALLS} calls, per call",
                "to_calls",
                timings["to_calls"],
                "json.loads of its JSON",
                timings["json.loads"],
                per=CALLS,
            )
        )
    section.notes.append(
        "shown for information (the issue sets no budget): a ratio near 1x means reading a "
        "call costs about what parsing its JSON does"
    )
    return section
