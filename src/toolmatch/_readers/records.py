"""What each format records of a call: ``RECORDS``, one row a format (who made the call,
its status, whether it failed, its result, its id), and the words of the error a check
on a field its input does not record raises (docs/formats.md, "What each format
records").

A reading tags each call with the outermost reader of what held it (``Reading.source``,
set by the dispatch table): a LangGraph state's calls are the state's, not the LangChain
messages'. Whether a call records a field is its value (``None``: the trace does not
say, as everywhere); this table says, for a call that does not, which format it came
from and what to pass to get the field. A new reader is one more reader in its format's
row (or a new row); ``tests/test_unrecorded_fields.py`` keeps every reader of the
dispatch table in exactly one row, and docs/formats.md's table equal to this one.
"""

from __future__ import annotations

from typing import NamedTuple

from toolmatch import _readers as readers
from toolmatch._core.type_checking import TYPE_CHECKING

# dispatch's import block is the one list of reader modules: importing it binds each on readers
from toolmatch._readers import dispatch

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from toolmatch._calls.call import ToolCall

__all__ = [
    "FIELDS",
    "RECORDS",
    "Records",
    "answer_unrecorded",
    "format_of",
    "records_table",
    "unrecorded_advice",
]

# The fields a format may record of a call, in the order the table and the checks name them.
FIELDS = ("agent", "status", "failed", "result", "ids", "answer")


class Records(NamedTuple):
    """One format: ``name``, how an error names it ("a LangGraph state"); ``label``, its
    row's first cell in docs/formats.md; ``readers``, the dispatch table's readers of its
    shapes; one cell per field of ``FIELDS`` saying where it records that field (``"no"``:
    nowhere); ``advice``, per field it may not record, what to pass to get it."""

    name: str
    label: str
    readers: tuple[Callable[..., None], ...]
    agent: str
    status: str
    failed: str
    result: str
    ids: str
    answer: str
    advice: Mapping[str, str]


_TYPES, _OBJECTS = readers.streams.TYPE_ROWS, readers.streams.OBJECT_ROWS
# Said of every format whose failure flag comes with its tool results.
_FLAGGED = (
    "pass results with a failure flag (Anthropic tool_result blocks with is_error, "
    "LangChain ToolMessages with status)"
)
_FROM_STATUS = "as `failed` says"
_UPDATES = 'pass the updates stream (graph.stream(..., stream_mode="updates"))'
_RUN_RESULT = "pass what Runner.run(...) returns, or its stream events"
_TOOL_STATUS = "pass ToolMessages with their status (a dump with its defaults)"
_MESSAGES = "pass the run's messages (the model's replies with its calls)"


def _failed_and_status(advice: str) -> dict[str, str]:
    """``advice`` for both fields a failure flag records."""
    return {"failed": advice, "status": advice}


RECORDS: tuple[Records, ...] = (
    Records(
        "a plain call",
        "Plain calls: a `ToolCall`, its `as_dict()`, `{name, args}` dicts, `tool_call` entries",
        (readers.messages.read_plain_call, dispatch.read_tool_call),
        "its `agent` (or tau2's `requestor`)",
        "its `status`",
        "its `failed`",
        "its `result`",
        "its `id`",
        "no",
        {
            "answer": _MESSAGES,
            "agent": 'pass calls that hold their agent (ToolCall(agent=...), an "agent" key)',
            "status": 'pass calls that hold their status (ToolCall(status=...), a "status" key)',
            "failed": 'pass calls that hold it (ToolCall(failed=...), a "failed" key)',
            "result": 'pass calls that hold their result (ToolCall(result=...), a "result" key)',
        },
    ),
    Records(
        "a chat message",
        "Chat messages by `role` or `parts` (OpenAI Chat Completions histories, Ollama, "
        "tau2-bench, Anthropic, Bedrock or Gemini message dicts)",
        (readers.messages.read_message, dispatch.read_tool_message, dispatch.read_parts),
        "tau2-bench's `requestor`; else no",
        _FROM_STATUS,
        "its answers' flag where they have one (Anthropic `is_error`, Bedrock `status`, "
        "tau2-bench `error`, a LangChain dump's `status`); an OpenAI `tool` message: no",
        "the answers in the history",
        "yes",
        "the model's last message (role `assistant` or `model`); pydantic-ai's messages: no",
        {
            "answer": "pass the history with the model's messages (role assistant or model)",
            "failed": f"an OpenAI tool message has no failure flag; {_FLAGGED}",
            "status": f"an OpenAI tool message says nothing of how a call ended; {_FLAGGED}",
        },
    ),
    Records(
        "an OpenAI chat completion",
        "OpenAI Chat Completions: a completion, a choice, tool-call entries (Ollama's too), chunks",
        (
            readers.openai.read_completion,
            readers.messages.read_wrapped,
            readers.openai.read_function_entry,
            dispatch.read_custom_type,
            _OBJECTS["chat.completion.chunk"],
            _TYPES["chunk"],
        ),
        "no",
        "no",
        "no",
        "no: a completion holds no answers",
        "yes (Ollama: no)",
        "a completion's message; chunks: no",
        {
            "answer": "pass the final completion (the stream's get_final_completion()) or the "
            "chat history",
            "result": "pass the chat history with its tool messages",
            **_failed_and_status(f"a completion holds no answers; {_FLAGGED}"),
        },
    ),
    Records(
        "an OpenAI Responses output",
        "OpenAI Responses: a response, its items, its stream events",
        (
            readers.openai.read_response,
            readers.openai.read_responses_call,
            readers.openai.read_responses_custom_call,
            readers.openai.read_responses_mcp_call,
            readers.openai.read_responses_output,
            readers.messages.read_output,
            *(
                _TYPES[kind]
                for kind in (
                    "response.created",
                    "response.output_item.added",
                    "response.output_item.done",
                    "response.function_call_arguments.delta",
                    "response.function_call_arguments.done",
                    "response.completed",
                )
            ),
        ),
        "no",
        "an `mcp_call`'s `error`",
        "an `mcp_call`'s `error`; a `function_call_output`: no",
        "`function_call_output` items",
        "yes (`call_id`)",
        "`message` output items (an output of calls alone: no)",
        {
            "answer": "pass the response, or its output with the model's message items",
            "agent": f"from openai-agents, {_RUN_RESULT}",
            "failed": f"a function_call_output has no failure flag; {_FLAGGED}",
            "status": f"a function_call_output says nothing of how a call ended; {_FLAGGED}",
        },
    ),
    Records(
        "an Anthropic message",
        "Anthropic: a message, its blocks, its stream events",
        (
            readers.messages.read_message_once,
            readers.anthropic.read_tool_use,
            readers.anthropic.read_tool_result,
            readers.anthropic.read_server_tool_result,
            *(
                _TYPES[kind]
                for kind in (
                    "message_start",
                    "content_block_start",
                    "content_block_delta",
                    "input_json_delta",
                    "content_block_stop",
                    "message_delta",
                    "message_stop",
                )
            ),
        ),
        "no",
        _FROM_STATUS,
        "`tool_result`'s `is_error`",
        "`tool_result` blocks",
        "yes",
        "a message's text blocks; stream events: no",
        {"answer": "pass the final message (the stream's get_final_message()) or the history"},
    ),
    Records(
        "a Gemini response",
        "Google Gemini: a response, a candidate, its parts",
        (
            readers.gemini.read_response,
            readers.gemini.read_response_object,
            readers.gemini.read_candidate_without_content,
            readers.gemini.read_function_call_part,
            readers.gemini.read_function_response_part,
        ),
        "no",
        _FROM_STATUS,
        "a `function_response` with `error` or `output`",
        "`function_response` parts",
        "where set",
        "a candidate's content",
        {
            "answer": "pass the response with its candidates' content, or the history",
            **_failed_and_status(
                "a function response says so only with an error or output key; "
                "pass responses that have one"
            ),
        },
    ),
    Records(
        "a Bedrock Converse message",
        "AWS Bedrock Converse: `toolUse` and `toolResult` content",
        (readers.bedrock.read_tool_use, readers.bedrock.read_tool_result),
        "no",
        _FROM_STATUS,
        "a `toolResult`'s `status`",
        "`toolResult` content",
        "yes",
        "no (the `output.message` around it, with its role: yes)",
        {
            "answer": "pass the response's output message or the history",
            **_failed_and_status(
                "a toolResult without a status says nothing; pass results with one"
            ),
        },
    ),
    Records(
        "a LangChain message",
        "LangChain: messages, `ToolMessage`s, `dumpd`, chunks",
        (
            readers.langchain.read_message,
            readers.langchain.read_tool_message,
            readers.langchain.read_serialized,
            readers.langchain.read_invalid_tool_call,
            _TYPES["AIMessageChunk"],
            _TYPES["tool_call_chunk"],
        ),
        "an `AIMessage`'s `name`",
        _FROM_STATUS,
        "a `ToolMessage`'s `status`",
        "`ToolMessage`s",
        "yes",
        "an `AIMessage`'s content; chunks: no",
        {
            "answer": "pass the messages (AIMessage), not their chunks",
            "agent": "an AIMessage names its agent only in its name; from LangGraph, " + _UPDATES,
            **_failed_and_status(_TOOL_STATUS),
        },
    ),
    Records(
        "a LangGraph state",
        "LangGraph: a state (`invoke`, v2's `GraphOutput`), `get_state`, the `values` and "
        "`checkpoints` streams",
        (
            readers.langgraph.read_message_state,
            readers.langgraph.read_langgraph_snapshot,
            readers.langgraph.read_langgraph_checkpoint,
            readers.langgraph.read_langgraph_output,
        ),
        "an `AIMessage`'s `name` only",
        "`pending` at an interrupt; else as `failed` says",
        "a `ToolMessage`'s `status`",
        "`ToolMessage`s",
        "yes",
        "its last `AIMessage`",
        {"answer": _MESSAGES, "agent": _UPDATES, **_failed_and_status(_TOOL_STATUS)},
    ),
    Records(
        "a LangGraph stream",
        "LangGraph: the `updates`, `messages`, `tasks` and `debug` streams, v2 parts",
        (
            readers.langgraph.read_langgraph_update,
            readers.langgraph.read_interrupt_update,
            readers.langgraph.read_task,
            readers.langgraph.read_debug_event,
            readers.langgraph.read_langgraph_part,
        ),
        "the node (or an `AIMessage`'s `name`)",
        "`pending` at an interrupt; else as `failed` says",
        "a `ToolMessage`'s `status`",
        "`ToolMessage`s",
        "yes",
        "an `AIMessage` in an update or a message",
        {
            "answer": "pass the final state or the updates stream",
            "agent": 'stream with stream_mode="updates" (values and checkpoints name no node)',
            **_failed_and_status(_TOOL_STATUS),
        },
    ),
    Records(
        "an MCP transcript",
        "MCP JSON-RPC",
        (readers.mcp.read_json_rpc, readers.mcp.read_call_tool_result),
        "no",
        "yes (`error` for a JSON-RPC error)",
        "`isError`, or a JSON-RPC error",
        "the response of the request's `id`",
        "yes (the request's `id`)",
        "no",
        {},
    ),
    Records(
        "a span",
        "Spans: OpenTelemetry GenAI (OTLP JSON too), OpenInference (Phoenix's spans "
        "dataframe too), MLflow traces, the Langfuse SDK's spans; GenAI message parts",
        (
            dispatch.read_envelope,
            dispatch.read_span,
            readers.otel.read_span_object,
            readers.otel.read_tool_call_response,
            readers.otel.read_server_tool_call,
            readers.otel.read_server_tool_call_response,
            readers.mlflow.read_trace,
            readers.openinference.read_phoenix_row,
        ),
        "the nearest `gen_ai.agent.name`, OpenInference `agent.name` or `graph.node`, "
        "MLflow `AGENT` span, Langfuse `agent` span",
        _FROM_STATUS,
        "the span status (unset: no); the Langfuse SDK's: level `ERROR` (another: no)",
        "`gen_ai.tool.call.result`, `output.value`, `mlflow.spanOutputs`, "
        "`langfuse.observation.output`",
        "where set",
        "no",
        _failed_and_status(
            "a span with an unset status says nothing; pass spans whose status is set"
        ),
    ),
    Records(
        "a pydantic-ai run",
        "pydantic-ai: run results, messages, parts, deferred tool requests, stream events",
        (
            readers.pydantic_ai.read_all_messages,
            readers.pydantic_ai.read_part,
            readers.pydantic_ai.read_deferred_requests,
            readers.pydantic_ai.read_stream_event,
        ),
        "no",
        "`denied`, `pending` (deferred); else as `failed` says",
        "a `ToolReturnPart`'s `outcome`, a `RetryPromptPart`",
        "`ToolReturnPart`s",
        "yes",
        "no",
        {},
    ),
    Records(
        "a Vercel AI SDK message",
        "Vercel AI SDK: model and UI message parts",
        (
            readers.vercel.read_tool_part,
            readers.vercel.read_tool_result,
            readers.vercel.read_approval_request,
            readers.vercel.read_approval_response,
        ),
        "no",
        "approvals (`pending`, `denied`); else as `failed` says",
        "typed outputs (`error-text`, `error-json`), `output-error`",
        "`tool-result` parts, UI parts with an output",
        "yes",
        "no (messages with their `role`: as chat messages)",
        {"answer": "pass the messages with their role, not their parts"},
    ),
    Records(
        "an openai-agents run",
        "OpenAI Agents SDK: run results, items, stream events",
        (
            readers.openai_agents.read_agents_result,
            readers.openai_agents.read_agents_call_item,
            readers.openai_agents.read_agents_approval_item,
            readers.openai_agents.read_agents_output_item,
            readers.openai_agents.read_agents_item,
            readers.openai_agents.read_agents_item_event,
            readers.openai_agents.read_agents_raw_event,
            readers.openai_agents.read_agents_agent_event,
        ),
        "the item's agent (raw events: after an `AgentUpdatedStreamEvent`)",
        "approvals (`pending`, `denied`)",
        "no",
        "`ToolCallOutputItem`s",
        "yes",
        "the last message output item",
        {
            "answer": "pass the run result",
            "agent": "pass the run result, or stream events with their AgentUpdatedStreamEvent",
            "failed": "the SDK answers a failed tool with its error text and no flag",
            "status": "the SDK records only approvals",
        },
    ),
    Records(
        "a LlamaIndex run",
        "LlamaIndex: chat responses, messages, tool selections, agent workflow events",
        (
            readers.llama_index.read_llama_response,
            readers.llama_index.read_llama_message,
            readers.llama_index.read_llama_message_data,
            readers.llama_index.read_llama_event_data,
            readers.llama_index.read_llama_tool_data,
            readers.llama_index.read_llama_block,
            readers.llama_index.read_llama_selection,
            readers.llama_index.read_llama_agent_output,
            readers.llama_index.read_llama_tool_result_event,
            readers.llama_index.read_llama_agent_event,
            readers.llama_index.read_workflow_stop,
        ),
        "agent workflows: the agent event's `current_agent_name`",
        _FROM_STATUS,
        "a workflow's tool output `is_error`; a `tool` message: no",
        "`tool` messages, `ToolCallResult`s",
        "yes",
        "no",
        _failed_and_status("pass the agent workflow's result or events (ToolCallResult)"),
    ),
    Records(
        "a smolagents memory",
        "smolagents: memories, steps, run results, stream items, an agent with managed agents",
        (
            readers.smolagents.read_smol_agent,
            readers.smolagents.read_smol_memory,
            readers.smolagents.read_smol_message,
            readers.smolagents.read_smol_run_result,
            readers.smolagents.read_smol_step,
            readers.smolagents.read_smol_stream_item,
        ),
        "a manager agent passed itself: each agent's `name`",
        _FROM_STATUS,
        "a step of one call: its `error`",
        "a step of one call: its `observations`",
        "yes",
        "no",
        {
            "agent": "pass the manager agent itself (a ToolCallingAgent with managed_agents)",
            **_failed_and_status(
                "a step of several calls records one error for all; pass steps of one call"
            ),
            "result": "a step of several calls records one observation for all",
        },
    ),
    Records(
        "a Google ADK session",
        "Google ADK: events, sessions",
        (
            readers.adk.read_adk_event,
            readers.adk.read_adk_event_object,
            readers.adk.read_adk_session,
            readers.adk.read_adk_session_dict,
        ),
        "the event's `author`",
        _FROM_STATUS,
        "yes (an `error` key)",
        "`function_response` parts",
        "yes",
        "no",
        {},
    ),
    Records(
        "an ATIF trajectory",
        "ATIF trajectories",
        (
            readers.atif.read_atif_trajectory,
            readers.atif.read_atif_step,
            readers.atif.read_atif_tool_call,
            readers.atif.read_atif_result,
        ),
        "the trajectory's `agent.name`",
        "no",
        "no",
        "`observation.results`",
        "yes",
        "no",
        {"agent": "pass the whole trajectory, which names its agent"},
    ),
    Records(
        "a Langfuse observation",
        "Langfuse observations",
        (readers.langfuse.read_observation, readers.langfuse.read_page),
        "the nearest `AGENT` observation's name",
        _FROM_STATUS,
        "level `ERROR` (another level: no)",
        "a `TOOL` observation's `output`",
        "yes",
        "no",
        _failed_and_status(
            "an observation says so only at level ERROR; pass observations with their level"
        ),
    ),
    Records(
        "a Claude Agent SDK message",
        "Claude Agent SDK messages (the objects, their `dataclasses.asdict`, the CLI's "
        "stream-json lines)",
        (
            readers.claude_agent.read_claude_message,
            readers.claude_agent.read_claude_result,
            readers.claude_agent.read_claude_server_result,
            readers.claude_agent.read_claude_session_message,
            readers.claude_agent.read_claude_tool_result,
            readers.claude_agent.read_claude_tool_use,
            readers.claude_agent.read_claude_line,
            readers.claude_agent.read_claude_result_fields,
            readers.claude_agent.read_claude_untyped,
            readers.claude_agent.read_claude_result_block,
        ),
        "no",
        "`denied`, `pending` (the `ResultMessage`); else as `failed` says",
        "`ToolResultBlock`'s `is_error`",
        "`ToolResultBlock`s",
        "yes",
        "`get_session_messages()` entries, the CLI's `assistant` lines; the SDK's message "
        "objects: no",
        {
            "answer": "pass the session's messages (get_session_messages()), or the CLI's "
            "stream-json lines"
        },
    ),
    Records(
        "an inspect_ai sample",
        "inspect_ai: samples, task states, transcripts, messages, tool events",
        (
            dispatch.read_event_entry,
            readers.inspect_ai.read_inspect_event_object,
            readers.inspect_ai.read_inspect_sample,
            readers.inspect_ai.read_inspect_sample_object,
            readers.inspect_ai.read_inspect_task_state,
            readers.inspect_ai.read_inspect_transcript,
        ),
        "no",
        "yes (from the `ToolCallError`)",
        "yes (an `error`)",
        "`ChatMessageTool`s, a `ToolEvent`'s `result`",
        "yes",
        "`assistant` messages, a `model` event's output",
        {"answer": _MESSAGES},
    ),
    Records(
        "a deepeval test case",
        "deepeval: test cases, `ToolCall`s",
        (
            readers.deepeval.read_deepeval_call,
            readers.deepeval.read_deepeval_test_case,
            readers.deepeval.read_deepeval_test_case_object,
        ),
        "no",
        "no",
        "no",
        "a `ToolCall`'s `output`",
        "no",
        "no",
        {"failed": "deepeval records no failure", "status": "deepeval records no status"},
    ),
    Records(
        "an AgentDojo run",
        "AgentDojo run files",
        (readers.agentdojo.read_agentdojo_run,),
        "no",
        "yes (from the tool message's `error`)",
        "yes (an `error`)",
        "`tool` messages",
        "yes",
        "the last `assistant` message",
        {"answer": _MESSAGES},
    ),
    Records(
        "a test double",
        "`unittest.mock` doubles",
        (
            readers.mocks.read_mock,
            readers.mocks.read_function,
            readers.mocks.read_mock_call_list,
            readers.mocks.read_mock_call,
        ),
        "no",
        "no",
        "no",
        "no",
        "no",
        "no",
        {},
    ),
)
"""Every format, one row each, in the order docs/formats.md's table lists them."""

_BY_READER: dict[object, Records] = {
    reader: records for records in RECORDS for reader in records.readers
}
_PLAIN = RECORDS[0]  # a call no reader tagged: a ToolCall given, Python call syntax


def format_of(call: ToolCall) -> Records:
    """The format ``call`` was read from: its outermost reader's row.

    >>> from toolmatch import to_calls
    >>> format_of(to_calls({"messages": [{"role": "assistant", "tool_calls": [
    ...     {"name": "refund", "args": {}, "id": "c1", "type": "tool_call"}]}]})[0]).name
    'a LangGraph state'
    """
    return _BY_READER.get(getattr(call, "_source", None), _PLAIN)


# Where a call read from a run records no answer, what it lacks is the answer itself.
_NO_ANSWER = "the input holds no answer to the call; pass the run with its tools' results"


def unrecorded_advice(call: ToolCall, field: str) -> tuple[str, str]:
    """The format ``call`` came from, as an error names it, and what to pass to get
    ``field`` (``""``: nothing will record it).

    >>> from toolmatch import to_calls
    >>> unrecorded_advice(to_calls([{"name": "refund"}])[0], "agent")[0]
    'a plain call'
    """
    records = format_of(call)
    if field != "agent" and records is not _PLAIN and call.result is None and call.status is None:
        return records.name, _NO_ANSWER  # a plain call would hold its answer itself
    return records.name, records.advice.get(field, "")


def answer_unrecorded(calls: Sequence[ToolCall]) -> str:
    """Why a run read as ``calls`` that records no message of the model has no final
    answer: its format (its first call's; ``the input`` without calls), and what to pass.

    >>> from toolmatch import to_calls
    >>> answer_unrecorded(to_calls([{"name": "refund"}]))  # doctest: +NORMALIZE_WHITESPACE
    "a plain call records no message of the model, so no final answer: pass the run's
    messages (the model's replies with its calls), or leave answer out"
    """
    if calls:
        records = format_of(calls[0])
        name, advice = records.name, records.advice.get("answer", "")
    else:
        name, advice = "the input", _MESSAGES
    how = f"{advice}, or leave answer out" if advice else "leave answer out"
    return f"{name} records no message of the model, so no final answer: {how}"


def _cells(records: Records) -> list[str]:
    return [records.label, *(getattr(records, field) for field in FIELDS)]


def records_table() -> str:
    """``RECORDS`` as docs/formats.md's markdown table.

    >>> records_table().splitlines()[0]
    '| format | agent | status | failed | result | ids | answer |'
    """
    rows = ["| format | " + " | ".join(FIELDS) + " |", "|---" * (len(FIELDS) + 1) + "|"]
    rows += ["| " + " | ".join(_cells(records)) + " |" for records in RECORDS]
    return "\n".join(rows)
