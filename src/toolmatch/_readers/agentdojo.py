"""AgentDojo: the run files its benchmark writes (one JSON file per task and attack), their
``messages``, and the pipeline's own ``FunctionCall``s and tool messages.

An assistant message's ``tool_calls`` are ``FunctionCall``s (``function``: the tool's name,
``args``); a ``tool`` message answers the call of its ``tool_call_id``, or, where the model
gave its calls no id (prompted models), the first unanswered call of its ``tool_call``'s
name, in order. Its ``error`` says how the call ended: AgentDojo refuses an empty or
unknown tool name and arguments that do not validate before running the tool
(``"error"``); any other error is the tool's own (``"failed"``).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls.call import ToolCall
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, list_at, same_source, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_agentdojo_call", "read_agentdojo_run", "read_agentdojo_tool_message", "status_of"]

# How AgentDojo's errors start when the tool never ran: ToolsExecutor's refusals of an
# empty or unknown name, FunctionsRuntime's of an unknown tool and of arguments that do not
# validate.
_NOT_RUN = (
    "Empty function name provided",
    "Invalid tool ",
    "ToolNotFoundError:",
    "ValidationError:",
)


def status_of(error: object) -> str:
    """The status a tool message's ``error`` gives its call.

    >>> status_of(None), status_of("ValidationError: 1 validation error"), status_of("KeyError: 7")
    ('succeeded', 'error', 'failed')
    """
    if error is None:
        return "succeeded"
    if isinstance(error, str) and error.startswith(_NOT_RUN):
        return "error"
    return "failed"


def read_agentdojo_run(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A run file (``suite_name``, ``user_task_id``, ..., ``messages``): its messages."""
    messages = list_at(data, "messages", where)
    if messages is None:
        raise wrong_shape(f"{where}.messages", "a list of messages", None)
    reading.read_each(messages, f"{where}.messages")


class _Unnamed(list[tuple[int, ToolCall]]):
    """Calls without an id, waiting for their tool message in order: (place, call)."""

    def finish(self, reading: Reading) -> None:
        for slot, call in self:  # never answered: the call as the model made it
            reading.fill(slot, call)
        self.clear()


def read_agentdojo_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``FunctionCall``: ``function`` (the name), ``args``, and its ``id`` if any. A call
    without an id keeps its place until its tool message answers it."""
    call_id = data.get("id")
    if call_id is not None:
        reading.call(data.get("function"), data.get("args"), call_id, where)
        return
    apart = reading.apart()
    apart.call(data.get("function"), data.get("args"), None, where)
    [call] = apart.finish()
    reading.state(_Unnamed).append((reading.reserve(), call))


def read_agentdojo_tool_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool`` message: the answer to its ``tool_call_id`` (or its ``tool_call``'s id),
    else to the first unanswered call without an id of its ``tool_call``'s name."""
    executed = as_data(data.get("tool_call"))
    if not isinstance(executed, Mapping):
        raise wrong_shape(f"{where}.tool_call", "a FunctionCall", executed)
    status = status_of(data.get("error"))
    content = data.get("content")
    call_id = data.get("tool_call_id") or executed.get("id")
    if call_id is not None:
        reading.result(call_id, content, None, status)
        return
    waiting = reading.state(_Unnamed)
    name = executed.get("function")
    for index, (slot, call) in enumerate(waiting):
        if call.name == name:
            del waiting[index]
            answered = ToolCall(
                call.name, call.args, None, call.parse_error, content, status=status,
                agent=call.agent,
            )  # fmt: skip
            reading.fill(slot, same_source(answered, call))
            return
