"""The reading-equivalence matrix (issue 34, deliverable 5): for each family, one real run
built offline with the SDK's own classes and run loop, read every way a user could hand it
over, gives the same calls with the same fields where that way records them, or the
documented error. Each (family, way) is its own test; a family whose SDK is not installed
skips, naming it."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from sdk_clients import (
    CHAT_STREAM,
    RESPONSES_STREAM,
    anthropic_client,
    anthropic_events,
    openai_client,
    sse,
)
from toolmatch import ExpectedTool, ToolCall, to_calls
from toolmatch._readers.reading import FORMATS_DOC

EXHAUSTED = (
    "it is exhausted: its items were read before; keep them in a list (items = "
    "list(stream)) and pass that"
)


class Raises(NamedTuple):
    """The documented error a way gives: its type and why the input cannot be read (what
    the message says after naming the input)."""

    error: type[Exception]
    reason: str


class Run(NamedTuple):
    """One run of a family: its calls with every field some way records, and each way of
    handing it over: the input, and the fields that way does not record (or its error)."""

    calls: list[ToolCall]
    ways: dict[str, tuple[Callable[[], object], tuple[str, ...] | Raises]]


def without(calls: list[ToolCall], fields: tuple[str, ...]) -> list[ToolCall]:
    """``calls`` as a way that does not record ``fields`` reads them."""
    return [ToolCall(**{**call.as_dict(), **dict.fromkeys(fields)}) for call in calls]


def dumps(obj: Any) -> dict[str, Callable[[], object]]:
    """The ways of handing over a pydantic object as data: its dumps and its JSON text."""
    return {
        "model_dump": obj.model_dump,
        "model_dump(by_alias=True)": lambda: obj.model_dump(by_alias=True),
        "model_dump(mode=json)": lambda: obj.model_dump(mode="json"),
        "JSON text": obj.model_dump_json,
    }


CONSUMED = Raises(TypeError, EXHAUSTED)

# --- OpenAI Chat Completions --------------------------------------------------------------


def openai_chat() -> Run:
    """The model streams search(q="paris"); the app runs it and keeps the history."""
    client = openai_client(sse(CHAT_STREAM))
    chunks = list(client.chat.completions.create(model="gpt-4.1", messages=[], stream=True))
    with client.chat.completions.stream(model="gpt-4.1", messages=[]) as stream:
        events = list(stream)
        final = stream.get_final_completion()
    consumed = client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
    list(consumed)
    message = final.choices[0].message
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ]
    answer = history[2:]
    ran = ToolCall("search", {"q": "paris"}, "call_1", result="sunny")
    asked = ("result",)

    def fresh() -> object:
        return client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)

    return Run(
        [ran],
        {
            "final object": (lambda: final, asked),
            "message": (lambda: message, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "chunks": (lambda: chunks, asked),
            "chunk dumps": (lambda: [chunk.model_dump() for chunk in chunks], asked),
            "stream, not read": (fresh, asked),
            "stream helper events": (lambda: events, asked),
            "chunks + final": (lambda: [*chunks, final], asked),
            "final + chunks": (lambda: [final, *chunks], asked),
            "helper events + final": (lambda: [*events, final], asked),
            "consumed stream": (lambda: consumed, CONSUMED),
            "history": (lambda: history, ()),
            "history as JSON text": (lambda: json.dumps(history), ()),
            "final + its answer": (lambda: [final, *answer], ()),
        },
    )


# --- Anthropic --------------------------------------------------------------------------


def anthropic() -> Run:
    """The model streams search(q="paris"); the app runs it, it fails, and it says so."""
    client = anthropic_client(sse(anthropic_events(), named=True))

    def fresh() -> Any:
        return client.messages.create(model="claude-test", max_tokens=9, messages=[], stream=True)

    raw = list(fresh())
    with client.messages.stream(model="claude-test", max_tokens=9, messages=[]) as stream:
        events = list(stream)
        final = stream.get_final_message()
    consumed = fresh()
    list(consumed)
    answer = {"type": "tool_result", "tool_use_id": "call_1", "content": "down", "is_error": True}
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [block.model_dump() for block in final.content]},
        {"role": "user", "content": [answer]},
    ]
    ran = ToolCall("search", {"q": "paris"}, "call_1", result="down", failed=True)
    asked = ("result", "failed")
    return Run(
        [ran],
        {
            "final object": (lambda: final, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "raw events": (lambda: raw, asked),
            "stream, not read": (fresh, asked),
            "stream helper events": (lambda: events, asked),
            "helper events + final": (lambda: [*events, final], asked),
            "final + raw events": (lambda: [final, *raw], asked),
            "consumed stream": (lambda: consumed, CONSUMED),
            "history": (lambda: history, ()),
            "history as JSON text": (lambda: json.dumps(history), ()),
            "final + its answer": (lambda: [final, *history[2:]], ()),
        },
    )


# --- the matrix ---------------------------------------------------------------------------

# family: (the module its SDK brings, its run, its ways)
FAMILIES: dict[str, tuple[str, Callable[[], Run], tuple[str, ...]]] = {}


def family(module: str, *ways: str) -> Callable[[Callable[[], Run]], Callable[[], Run]]:
    def register(build: Callable[[], Run]) -> Callable[[], Run]:
        FAMILIES[build.__name__.replace("_", " ")] = (module, functools.cache(build), ways)
        return build

    return register


DUMP_WAYS = ("model_dump", "model_dump(by_alias=True)", "model_dump(mode=json)", "JSON text")
family(
    "openai",
    "final object",
    "message",
    *DUMP_WAYS,
    "chunks",
    "chunk dumps",
    "stream, not read",
    "stream helper events",
    "chunks + final",
    "final + chunks",
    "helper events + final",
    "consumed stream",
    "history",
    "history as JSON text",
    "final + its answer",
)(openai_chat)
family(
    "anthropic",
    "final object",
    *DUMP_WAYS,
    "raw events",
    "stream, not read",
    "stream helper events",
    "helper events + final",
    "final + raw events",
    "consumed stream",
    "history",
    "history as JSON text",
    "final + its answer",
)(anthropic)

CASES = [
    pytest.param(name, way, id=f"{name}: {way}")
    for name, (_, _, ways) in FAMILIES.items()
    for way in ways
]


@pytest.mark.parametrize(("name", "way"), CASES)
def test_one_run_read_every_way_reads_the_same(name: str, way: str) -> None:
    module, build, ways = FAMILIES[name]
    pytest.importorskip(module, reason=f"{name}: {module} is not installed")
    run = build()
    assert tuple(run.ways) == ways  # the table of ways is the run's
    handed, expected = run.ways[way]
    if isinstance(expected, Raises):
        with pytest.raises(expected.error) as error:
            to_calls(handed())
        message = str(error.value)
        assert message.startswith("to_calls cannot read tool calls from input: ")
        assert message.endswith(f"; accepted shapes: {FORMATS_DOC}")
        assert message.split("; ", 1)[1] == f"{expected.reason}; accepted shapes: {FORMATS_DOC}"
        assert ExpectedTool.never(run.calls[0].name) != handed()  # never a silent pass
        return
    assert to_calls(handed()) == without(run.calls, expected)
