"""openai-agents runs, offline: a ``Model`` that answers each turn from a script, and
streams each answer the way the Responses API does; agents that check the weather and
hand off."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from agents import Agent, ModelResponse, RunConfig, Usage, function_tool
from agents.models.interface import Model
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseStreamEvent,
    ResponseTextDeltaEvent,
)

NO_TRACING = RunConfig(tracing_disabled=True)
# What the model is told when the tool raises: the tool's own message, since the SDK's
# default one changes between its releases.
TOOL_ERROR = "The tool failed."
FAKE_ID = "__fake_id__"  # agents.models.fake_id


def tool_error(context: Any, error: Exception) -> str:
    return TOOL_ERROR


@function_tool(failure_error_function=tool_error)
def get_weather(city: str) -> str:
    """The weather in a city."""
    if city == "Atlantis":
        raise ValueError("no such city")
    return f"Sunny in {city}"


@function_tool(needs_approval=True)
def delete_file(path: str) -> str:
    """Delete a file."""
    return "deleted"


def function_call(call_id: str, name: str, arguments: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call",
        id=f"fc_{call_id}",
        call_id=call_id,
        name=name,
        arguments=arguments,
        status="completed",
    )


def text_message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message",
        id="msg_1",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


WEATHER_TURNS = (
    (
        ("call_1", "get_weather", '{"city": "Paris"}'),
        ("call_2", "get_weather", '{"city": "Atlantis"}'),
    ),
    "Paris is sunny.",
)


class FakeModel(Model):
    """Answers each turn from a script: calls ((call_id, name, arguments), ...) or a text.

    ``stream_response`` streams each answer the way the Responses API does: items added,
    arguments in two deltas, items done, the response completed. With ``fake_ids``, every
    item and response has the id openai-agents gives those of a Chat Completions or
    LiteLLM model, ``"__fake_id__"``.
    """

    def __init__(
        self, *turns: tuple[tuple[str, str, str], ...] | str, fake_ids: bool = False
    ) -> None:
        self.turns = list(turns)
        self.fake_ids = fake_ids

    def _output(self) -> list[Any]:
        turn = self.turns.pop(0)
        items = (
            [text_message(turn)]
            if isinstance(turn, str)
            else [function_call(*call) for call in turn]
        )
        if self.fake_ids:
            return [item.model_copy(update={"id": FAKE_ID}) for item in items]
        return items

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return ModelResponse(output=self._output(), usage=Usage(), response_id=None)

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        response_id = FAKE_ID if self.fake_ids else f"resp_{len(self.turns)}"
        for event in response_events(self._output(), response_id):
            yield event


def response_events(output: list[Any], response_id: str) -> list[ResponseStreamEvent]:
    def response(items: list[Any], status: str) -> Response:
        return Response(
            id=response_id,
            object="response",
            created_at=0,
            model="fake",
            output=items,
            status=status,  # type: ignore[arg-type]
            tool_choice="auto",
            tools=[],
            parallel_tool_calls=True,
        )

    number = iter(range(1000))
    events: list[ResponseStreamEvent] = [
        ResponseCreatedEvent(
            type="response.created",
            response=response([], "in_progress"),
            sequence_number=next(number),
        )
    ]
    for index, item in enumerate(output):
        if isinstance(item, ResponseFunctionToolCall):
            started = item.model_copy(update={"arguments": "", "status": "in_progress"})
            events.append(
                ResponseOutputItemAddedEvent(
                    type="response.output_item.added",
                    item=started,
                    output_index=index,
                    sequence_number=next(number),
                )
            )
            half = len(item.arguments) // 2
            for delta in (item.arguments[:half], item.arguments[half:]):
                events.append(
                    ResponseFunctionCallArgumentsDeltaEvent(
                        type="response.function_call_arguments.delta",
                        item_id=item.id or "",
                        output_index=index,
                        delta=delta,
                        sequence_number=next(number),
                    )
                )
            events.append(
                ResponseFunctionCallArgumentsDoneEvent(
                    type="response.function_call_arguments.done",
                    item_id=item.id or "",
                    name=item.name,
                    output_index=index,
                    arguments=item.arguments,
                    sequence_number=next(number),
                )
            )
        else:
            started = item.model_copy(update={"content": [], "status": "in_progress"})
            events.append(
                ResponseOutputItemAddedEvent(
                    type="response.output_item.added",
                    item=started,
                    output_index=index,
                    sequence_number=next(number),
                )
            )
            events.append(
                ResponseTextDeltaEvent(
                    type="response.output_text.delta",
                    item_id=item.id,
                    output_index=index,
                    content_index=0,
                    delta=item.content[0].text,
                    logprobs=[],
                    sequence_number=next(number),
                )
            )
        events.append(
            ResponseOutputItemDoneEvent(
                type="response.output_item.done",
                item=item,
                output_index=index,
                sequence_number=next(number),
            )
        )
    events.append(
        ResponseCompletedEvent(
            type="response.completed",
            response=response(output, "completed"),
            sequence_number=next(number),
        )
    )
    return events


def handoff_agents(fake_ids: bool = False) -> Agent[Any]:
    """triage checks the weather, then hands off to billing, which looks up an invoice
    (``fake_ids``: as ``FakeModel``'s)."""
    billing = Agent(
        name="billing",
        model=FakeModel(
            (("call_b", "get_weather", '{"city": "Rome"}'),), "Invoice sent.", fake_ids=fake_ids
        ),
        tools=[get_weather],
    )
    return Agent(
        name="triage",
        model=FakeModel(
            (("call_t", "get_weather", '{"city": "Paris"}'),),
            (("call_h", "transfer_to_billing", "{}"),),
            fake_ids=fake_ids,
        ),
        tools=[get_weather],
        handoffs=[billing],
    )
