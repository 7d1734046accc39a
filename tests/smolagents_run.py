"""A smolagents run, offline: a ``ToolCallingAgent`` whose model answers each step from a
script, checking the weather twice (once failing), then answering."""

from __future__ import annotations

from typing import Any

from smolagents import ToolCallingAgent, tool
from smolagents.models import ChatMessage as SmolMessage
from smolagents.models import ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole
from smolagents.models import Model as SmolModel

from toolmatch import ToolCall


@tool
def smol_weather(city: str) -> str:
    """The weather in a city.

    Args:
        city: the city's name
    """
    if city == "Atlantis":
        raise ValueError("no such city")
    return f"Sunny in {city}"


class ScriptedSmolModel(SmolModel):
    """Answers each step with the next turn's tool calls: ((id, name, arguments), ...)."""

    def __init__(self, *turns: tuple[tuple[str, str, Any], ...]) -> None:
        super().__init__(model_id="scripted")
        self.turns = list(turns)

    def generate(self, messages: Any, *args: Any, **kwargs: Any) -> SmolMessage:
        return SmolMessage(
            role=MessageRole.ASSISTANT,
            content="",
            tool_calls=[
                ChatMessageToolCall(
                    id=call_id,
                    type="function",
                    function=ChatMessageToolCallFunction(name=name, arguments=arguments),
                )
                for call_id, name, arguments in self.turns.pop(0)
            ],
        )


def smol_agent(*turns: tuple[tuple[str, str, Any], ...]) -> ToolCallingAgent:
    return ToolCallingAgent(
        tools=[smol_weather], model=ScriptedSmolModel(*turns), verbosity_level=-1, max_steps=5
    )


ATLANTIS_ERROR = (
    "Error executing tool 'smol_weather' with arguments {'city': 'Atlantis'}: ValueError: "
    "no such city\nPlease try again or use another tool"
)
SMOL_CALLS = [
    ToolCall("smol_weather", {"city": "Paris"}, id="c1", result="Sunny in Paris", failed=False),
    ToolCall("smol_weather", {"city": "Atlantis"}, id="c2", result=ATLANTIS_ERROR, failed=True),
    ToolCall("final_answer", {"answer": "Sunny"}, id="c3", result="Sunny", failed=False),
]


WEATHER_SCRIPT = (
    (("c1", "smol_weather", {"city": "Paris"}),),
    (("c2", "smol_weather", {"city": "Atlantis"}),),
    (("c3", "final_answer", {"answer": "Sunny"}),),
)
