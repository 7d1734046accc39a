"""The table of accepted shapes: the one place that says which reader reads what.

``dispatch`` decides a value's shape once and hands it to that shape's reader (a
"handler", ``read_x(data, where, reading)``, in the provider's module of ``toolmatch._readers``):

1. by its concrete type (``BY_TYPE``), then by ``(module prefix, class name)`` over its
   MRO (``BY_CLASS``, for SDK classes that need their own reader); any other object is
   read as the data it dumps to (``as_data``);
2. a mapping by the value of its ``type`` (``TYPES``, then ``TYPE_PREFIXES``), ``object``
   (``OBJECTS``) or ``role`` (``ROLES``), then by the first of its keys in ``KEYS`` order
   whose value is set;
3. a mapping no row claims, by a test of its whole shape (``SHAPES``: LangGraph's
   ``{node: update}`` chunks, which have no key of their own);
4. a mapping whose ``type`` / ``object`` / ``role`` no table knows raises ``TypeError``
   naming the place, the value and, for a likely typo, the accepted one it is nearest; so
   does any other value of no listed shape (values users pass by mistake, such as an
   un-awaited coroutine or an HTTP response, say what to pass). Shapes known to hold no
   call are listed too, read by ``no_call``.

Adding a shape is adding a row here, and its line to the accepted shapes in
docs/formats.md (a test keeps the two equal): ``TYPES["my_block"] = provider.read_my_block``;
or an ``OBJECTS`` / ``ROLES`` entry; a ``BY_CLASS`` entry for an SDK class that its dump
cannot tell; a ``KEYS`` entry placed before the keys of other rows that the shape also
carries (``KEYS`` is ranked once, at the end of this module). A shape that holds no call is
a row whose handler is ``no_call``, listed in its provider's ``CALL_FREE_...`` allowlist.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator, Mapping
from types import AsyncGeneratorType, CoroutineType, FunctionType, GeneratorType

from toolmatch._calls.call import ToolCall, matcher_fields
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import (
    adk,
    agentdojo,
    anthropic,
    atif,
    bedrock,
    claude_agent,
    deepeval,
    gemini,
    inspect_ai,
    langchain,
    langfuse,
    langgraph,
    llama_index,
    mcp,
    messages,
    mlflow,
    mocks,
    openai,
    openai_agents,
    openinference,
    otel,
    pydantic_ai,
    smolagents,
    streams,
    vercel,
)
from toolmatch._readers.declared import CallShape
from toolmatch._readers.identity import UnsureError
from toolmatch._readers.reading import (
    INDICES,
    NoShapeError,
    Reading,
    as_data,
    cannot_read,
    no_call,
    not_a_run,
    refuse,
    unknown_value,
)
from toolmatch._readers.spans import Spans

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeAlias

    from toolmatch._readers.reading import ItemsReader

    Handler: TypeAlias = Callable[[Any, str, Reading], None]
    SpanHandler: TypeAlias = Callable[[Mapping[str, Any], Mapping[str, Any], str, Reading], None]

__all__ = [
    "BY_CLASS",
    "BY_TYPE",
    "DECLARED",
    "KEYS",
    "OBJECTS",
    "ROLES",
    "SHAPES",
    "SPANS",
    "TYPES",
    "TYPE_PREFIXES",
    "dispatch",
    "new_reading",
    "read_calls",
    "read_mapping",
    "read_object",
]


def read_sequence(items: Sequence[object], where: str, reading: Reading) -> None:
    """A list or tuple: each item in order."""
    reading.read_each(items, where)


def read_tuple(items: tuple[object, ...], where: str, reading: Reading) -> None:
    """A tuple: a LangGraph ``(mode, chunk)`` pair (``stream_mode=[...]``), else each item
    in order."""
    if not langgraph.read_langgraph_pair(items, where, reading):
        reading.read_each(items, where)


def read_frame(frame: Any, where: str, reading: Reading) -> None:
    """A pandas ``DataFrame`` (``mlflow.search_traces()`` returns one): each row in order,
    as the mapping of its columns ``frame.to_dict(orient="records")`` gives."""
    reading.read_each(frame.to_dict(orient="records"), where)


def read_custom_type(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """``type: "custom"``: a LangGraph stream part (``ns``, ``data``) or an OpenAI custom
    tool call."""
    if langgraph.is_stream_part(data):
        langgraph.read_langgraph_part(data, where, reading)
    else:
        openai.read_custom_entry(data, where, reading)


def read_span(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A span: read by the reader of the convention its attributes name (``SPANS``), else
    as an OpenTelemetry GenAI span."""
    attributes = otel.span_attributes(data, where)
    for key, handler in SPANS.items():
        if key in attributes:
            handler(data, attributes, where, reading)
            return
    otel.read_span(data, attributes, where, reading)


def read_envelope(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An OTLP JSON envelope: its items in order, noted as read even if it holds no span
    (none is an error: see ``Spans``)."""
    reading.state(Spans).envelope(where)
    _read_envelope_items(data, where, reading)


def _read_envelope_items(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An envelope's items. An OTLP export nests each span in three envelopes (resource
    spans, scope spans, spans): an item whose key set's reader is known (``read_mapping``'s
    memo) is handed to it here, an envelope's items read by this loop, not by a dispatch
    of each item (valgrind, B4's agent mix: an OTLP run of ten exports takes 330k
    instructions more to read than its ten spans alone, 242k with this loop)."""
    items, place = otel.envelope_items(data, where)
    for index, item in enumerate(items):
        try:  # the place read_each gives it
            at = place + INDICES[index]
        except IndexError:
            at = f"{place}[{index}]"
        if type(item) is dict and item.get("type") is None:
            # read_mapping's memo path: the source is set, by the envelope around it
            known = _readers_by_keys.get(tuple(item))
            if known is not None and item[known[0]] is not None:
                handler = known[1]
                if handler is read_envelope:  # noted as read by the outermost one
                    _read_envelope_items(item, at, reading)
                else:
                    handler(item, at, reading)
                continue
        dispatch(item, at, reading)


def read_tool_call(call: ToolCall, where: str, reading: Reading) -> None:
    """A ``ToolCall``: itself, unless a matcher stands for one of its fields."""
    held = matcher_fields(call)
    if held:
        raise TypeError(
            f"{where} is an expected call, not a recorded one: its {', '.join(held)} "
            f"{'is a matcher' if len(held) == 1 else 'are matchers'}: {short_repr(call)}"
        )
    reading.add(call)


def read_tool_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``role: "tool"`` message: AgentDojo's (it names the ``tool_call`` it answers),
    inspect_ai's ``ChatMessageTool`` (a ``function`` and an ``error``), or any other
    provider's chat message."""
    if "tool_call" in data:
        agentdojo.read_agentdojo_tool_message(data, where, reading)
    elif "error" in data and "function" in data:
        inspect_ai.read_inspect_tool_message(data, where, reading)
    else:
        messages.read_message(data, where, reading)


def read_parts(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A message of ``parts``: a Gemini content or candidate, an OTel message, or a
    pydantic-ai message, whose request may mark where its run paused."""
    messages.read_message(data, where, reading)
    if data.get("kind") == "request":
        pydantic_ai.read_paused_request(data, where, reading)


# --- 1. by type and class ------------------------------------------------------------------

BY_TYPE: dict[type, Handler] = {list: read_sequence, tuple: read_tuple, ToolCall: read_tool_call}
BY_CLASS: dict[tuple[str, str], Handler] = {}

# --- 2. mappings: discriminator values, then keys ------------------------------------------

TYPES: dict[str, Handler] = {
    # OpenAI Chat Completions
    "function": openai.read_function_entry,
    "custom": openai.read_custom_entry,
    # OpenAI Responses
    "function_call": openai.read_responses_call,
    "custom_tool_call": openai.read_responses_custom_call,
    "mcp_call": openai.read_responses_mcp_call,
    "function_call_output": openai.read_responses_output,
    "custom_tool_call_output": openai.read_responses_output,
    # Anthropic (a message; Responses' message items read the same), once per id
    "message": messages.read_message_once,
    "tool_use": anthropic.read_tool_use,
    "server_tool_use": anthropic.read_tool_use,
    "mcp_tool_use": anthropic.read_tool_use,
    "tool_result": anthropic.read_tool_result,
    "mcp_tool_result": anthropic.read_tool_result,
    **dict.fromkeys(anthropic.SERVER_RESULT_TYPES, anthropic.read_server_tool_result),
    # LangChain (and OTel's 'tool_call' part, the same plain shape)
    **dict.fromkeys(langchain.MESSAGE_TYPES, langchain.read_message),
    "tool": langchain.read_tool_message,
    "constructor": langchain.read_serialized,
    "tool_call": messages.read_plain_call,
    "invalid_tool_call": langchain.read_invalid_tool_call,
    # the Claude Agent SDK's CLI, its stream-json lines (what query() parses)
    "assistant": claude_agent.read_claude_line,
    "user": claude_agent.read_claude_line,
    "result": claude_agent.read_claude_result_fields,
    # deepeval's ToolCall in JSON (in Python its type is an Enum: told by its keys)
    "FUNCTION": deepeval.read_deepeval_call,
    "MCP": deepeval.read_deepeval_call,
    # OpenTelemetry GenAI message parts
    "tool_call_response": otel.read_tool_call_response,
    "server_tool_call": otel.read_server_tool_call,
    "server_tool_call_response": otel.read_server_tool_call_response,
    # Langfuse observations, by their type
    **dict.fromkeys(langfuse.OBSERVATION_TYPES, langfuse.read_observation),
    # Vercel AI SDK
    "tool-call": vercel.read_tool_part,
    "dynamic-tool": vercel.read_tool_part,
    "tool-result": vercel.read_tool_result,
    "tool-approval-request": vercel.read_approval_request,
    "tool-approval-response": vercel.read_approval_response,
    # Streams: chunks and events whose calls arrive in pieces (LangChain's AIMessageChunk too)
    **streams.TYPE_ROWS,
}
# Spans, by the attribute that names their convention (any other span: OpenTelemetry GenAI).
SPANS: dict[str, SpanHandler] = {
    openinference.KIND: openinference.read_span,
    "openinference": openinference.read_span,  # its attributes written nested
    mlflow.KIND: mlflow.read_span,
    langfuse.KIND: langfuse.read_span,
}
# Types known to hold no call and no result, per provider.
for _call_free in (
    openai.CALL_FREE_TYPES,
    anthropic.CALL_FREE_TYPES,
    otel.CALL_FREE_TYPES,
    vercel.CALL_FREE_TYPES,
    claude_agent.CALL_FREE_LINE_TYPES,
):
    for _kind in _call_free:
        TYPES.setdefault(_kind, no_call)
# A type none of TYPES names, told by how it starts: Vercel's UI part 'tool-<name>'.
TYPE_PREFIXES: list[tuple[str, Handler]] = [("tool-", vercel.read_tool_part)]
OBJECTS: dict[str, Handler] = {
    "chat.completion": openai.read_completion,
    "response": openai.read_response,
    **streams.OBJECT_ROWS,  # Chat Completions chunks
}
ROLES: dict[str, Handler] = dict.fromkeys(messages.ROLES, messages.read_message)
ROLES["tool"] = read_tool_message
ROLES.update(dict.fromkeys(smolagents.MEMORY_ROLES, smolagents.read_smol_message))
KEYS: list[tuple[str, Handler]] = [
    ("jsonrpc", mcp.read_json_rpc),
    ("method", mcp.read_json_rpc),
    ("part_kind", pydantic_ai.read_part),
    # deepeval: a test case (before 'name', which it has too) and its calls (before 'output')
    ("tools_called", deepeval.read_deepeval_test_case),
    ("toolsCalled", deepeval.read_deepeval_test_case),
    ("input_parameters", deepeval.read_deepeval_call),
    ("inputParameters", deepeval.read_deepeval_call),
    *((key, read_envelope) for key in otel.ENVELOPES),
    ("attributes", read_span),
    ("span_kind", openinference.read_phoenix_row),  # Phoenix's span JSON has attributes
    # the Claude Agent SDK's messages and result blocks as dataclasses.asdict writes them
    ("subtype", claude_agent.read_claude_untyped),
    ("tool_use_id", claude_agent.read_claude_result_block),
    # MCP's CallToolResult outside its JSON-RPC response (before 'content'): refused
    ("isError", mcp.read_call_tool_result),
    ("is_error", mcp.read_call_tool_result),
    ("toolUse", bedrock.read_tool_use),
    ("toolResult", bedrock.read_tool_result),
    ("functionCall", gemini.read_function_call_part),
    ("function_call", gemini.read_function_call_part),
    ("functionResponse", gemini.read_function_response_part),
    ("function_response", gemini.read_function_response_part),
    ("function", openai.read_function_entry),  # Ollama's and AgentDojo's have no type
    # llama-index's agent workflow events as model_dump() writes them (before 'tool_calls')
    ("current_agent_name", llama_index.read_llama_event_data),
    ("tool_id", llama_index.read_llama_tool_data),
    ("choices", openai.read_completion),
    ("candidates", gemini.read_response),
    ("tool_calls", messages.read_message),
    ("invalid_tool_calls", messages.read_message),
    ("message", messages.read_wrapped),
    ("output", messages.read_output),
    ("content", messages.read_message),
    ("parts", read_parts),
    ("blocks", llama_index.read_llama_message_data),  # its role an Enum: model_dump()
    ("name", messages.read_plain_call),
    # A Gemini stream's chunk without candidates (usage only, prompt feedback): no call.
    ("usage_metadata", gemini.read_response),
    ("usageMetadata", gemini.read_response),
    ("prompt_feedback", gemini.read_response),
    ("promptFeedback", gemini.read_response),
    # A Gemini candidate with no content: its answer was blocked, or empty.
    ("finish_reason", gemini.read_candidate_without_content),
    ("finishReason", gemini.read_candidate_without_content),
    # Keys of parts and content items known to hold no call and no result.
    *((key, no_call) for key in gemini.CALL_FREE_KEYS),
    *((key, no_call) for key in bedrock.CALL_FREE_KEYS),
    *((key, no_call) for key in claude_agent.CALL_FREE_KEYS),
]

_HTTP_RESPONSE = "it is an HTTP response: pass its .json()"
_ADK_NOT_A_RUN = not_a_run("pass the events of runner.run_async(...), or the session's events")
_RAW_RESPONSE = "it is a raw response (with_raw_response): call .parse() and pass its result"

# Agent frameworks (openai_agents, langgraph, pydantic_ai, llama_index, smolagents), test
# doubles (mocks) and ATIF trajectories (atif).
BY_TYPE[FunctionType] = mocks.read_function  # a function create_autospec made
BY_CLASS.update(
    {
        ("agents", "RunResultBase"): openai_agents.read_agents_result,
        ("agents", "ToolCallItem"): openai_agents.read_agents_call_item,
        ("agents", "HandoffCallItem"): openai_agents.read_agents_call_item,
        ("agents", "ToolApprovalItem"): openai_agents.read_agents_approval_item,
        ("agents", "ToolCallOutputItem"): openai_agents.read_agents_output_item,
        ("agents", "RunItemBase"): openai_agents.read_agents_item,
        ("agents", "RunItemStreamEvent"): openai_agents.read_agents_item_event,
        ("agents", "RawResponsesStreamEvent"): openai_agents.read_agents_raw_event,
        ("agents", "AgentUpdatedStreamEvent"): openai_agents.read_agents_agent_event,
        ("agents", "Agent"): not_a_run("pass what Runner.run(agent, ...) returns"),
        ("langgraph", "StateSnapshot"): langgraph.read_langgraph_snapshot,
        ("langgraph", "GraphOutput"): langgraph.read_langgraph_output,
        ("langgraph", "Pregel"): not_a_run(
            "pass the state graph.invoke(...) returns, or graph.get_state(config)"
        ),
        ("pydantic_ai", "AgentRunResult"): pydantic_ai.read_all_messages,
        ("pydantic_ai", "StreamedRunResult"): pydantic_ai.read_all_messages,
        ("pydantic_ai", "StreamedRunResultSync"): pydantic_ai.read_all_messages,
        ("pydantic_ai", "AgentRun"): pydantic_ai.read_all_messages,
        ("pydantic_ai", "DeferredToolRequests"): pydantic_ai.read_deferred_requests,
        ("pydantic_ai", "AbstractAgent"): not_a_run(
            "pass what agent.run_sync(...) returns, or its all_messages()"
        ),
        ("llama_index", "ChatResponse"): llama_index.read_llama_response,
        ("llama_index", "ChatMessage"): llama_index.read_llama_message,
        ("llama_index", "ToolCallBlock"): llama_index.read_llama_block,
        ("llama_index", "ToolSelection"): llama_index.read_llama_selection,
        ("llama_index", "AgentOutput"): llama_index.read_llama_agent_output,
        ("llama_index", "ToolCall"): llama_index.read_llama_selection,
        ("llama_index", "ToolCallResult"): llama_index.read_llama_tool_result_event,
        # the model's input, and its partial calls (the AgentOutput after it has them
        # whole): no call, but their agent makes the tool events after them
        ("llama_index", "AgentInput"): llama_index.read_llama_agent_event,
        ("llama_index", "AgentStream"): llama_index.read_llama_agent_event,
        ("workflows", "StopEvent"): llama_index.read_workflow_stop,
        ("workflows", "WorkflowHandler"): not_a_run(
            "pass what awaiting it returns, or the events of its stream_events()"
        ),
        ("smolagents", "ActionStep"): smolagents.read_smol_step,
        # the items of agent.run(..., stream=True) that its ActionStep holds whole
        **dict.fromkeys(
            (("smolagents", kind) for kind in smolagents.STREAM_ITEM_CLASSES),
            smolagents.read_smol_stream_item,
        ),
        ("smolagents", "MemoryStep"): no_call,  # a task, a plan, a system prompt, an answer
        ("smolagents", "AgentMemory"): smolagents.read_smol_memory,
        ("smolagents", "RunResult"): smolagents.read_smol_run_result,
        ("smolagents", "ChatMessage"): smolagents.read_smol_message,
        ("smolagents", "MultiStepAgent"): smolagents.read_smol_agent,
        # Google's response class: a response even with nothing set (its dump, {}, is not)
        ("google", "GenerateContentResponse"): gemini.read_response_object,
        # Google ADK: a session's events, once each by id, made by their author
        ("google", "Event"): adk.read_adk_event_object,
        ("google", "Session"): adk.read_adk_session,
        ("google", "BaseAgent"): _ADK_NOT_A_RUN,
        ("google", "Runner"): _ADK_NOT_A_RUN,
        # HTTP responses of a provider's REST API: their JSON is what to_calls reads
        ("httpx", "Response"): refuse(_HTTP_RESPONSE),
        ("requests", "Response"): refuse(_HTTP_RESPONSE),
        # with_raw_response's objects (sync, async, legacy): the parsed response is read
        ("openai", "BaseAPIResponse"): refuse(_RAW_RESPONSE),
        ("openai", "LegacyAPIResponse"): refuse(_RAW_RESPONSE),
        ("anthropic", "BaseAPIResponse"): refuse(_RAW_RESPONSE),
        # the clients themselves, which hold no response
        ("openai", "BaseClient"): not_a_run(
            "pass what client.chat.completions.create(...) or client.responses.create(...) returns"
        ),
        ("anthropic", "BaseClient"): not_a_run("pass what client.messages.create(...) returns"),
        # agents and graphs not yet run, beside those of each framework above
        ("langgraph", "StateGraph"): not_a_run(
            "compile it, then pass the state graph.invoke(...) returns"
        ),
        ("langchain_core", "BaseLanguageModel"): not_a_run(
            "pass what model.invoke(...) returns (an AIMessage)"
        ),
        ("workflows", "Workflow"): not_a_run(
            "pass what awaiting agent.run(...) returns, or the events of its handler's "
            "stream_events()"
        ),
        # an OpenTelemetry SDK span: its JSON, with its own and its parent's ids
        ("opentelemetry", "ReadableSpan"): otel.read_span_object,
        # a table of runs' records (mlflow.search_traces()): its rows, not its columns
        ("pandas", "DataFrame"): read_frame,
        # the Claude Agent SDK's messages and content blocks (dataclasses)
        ("claude_agent_sdk", "AssistantMessage"): claude_agent.read_claude_message,
        ("claude_agent_sdk", "UserMessage"): claude_agent.read_claude_message,
        ("claude_agent_sdk", "ToolUseBlock"): claude_agent.read_claude_tool_use,
        ("claude_agent_sdk", "ServerToolUseBlock"): claude_agent.read_claude_tool_use,
        ("claude_agent_sdk", "ToolResultBlock"): claude_agent.read_claude_tool_result,
        ("claude_agent_sdk", "ServerToolResultBlock"): claude_agent.read_claude_server_result,
        ("claude_agent_sdk", "ResultMessage"): claude_agent.read_claude_result,
        ("claude_agent_sdk", "SessionMessage"): claude_agent.read_claude_session_message,
        ("mcp_types", "CallToolResult"): mcp.read_call_tool_result,
        **dict.fromkeys(
            (("claude_agent_sdk", kind) for kind in claude_agent.CALL_FREE_CLASSES),
            no_call,
        ),
        # inspect_ai: what a scorer holds (the task state, the transcript) and an eval log's
        # samples
        ("inspect_ai", "TaskState"): inspect_ai.read_inspect_task_state,
        ("inspect_ai", "Transcript"): inspect_ai.read_inspect_transcript,
        ("inspect_ai", "EvalSample"): inspect_ai.read_inspect_sample_object,
        ("inspect_ai", "BaseEvent"): inspect_ai.read_inspect_event_object,
        ("inspect_ai", "EvalLog"): refuse(
            "it holds many samples, each a run: pass one of its samples (log.samples[i])"
        ),
        ("deepeval", "LLMTestCase"): deepeval.read_deepeval_test_case_object,
        ("unittest", "NonCallableMock"): mocks.read_mock,
        ("unittest", "_CallList"): mocks.read_mock_call_list,
        ("unittest", "_Call"): mocks.read_mock_call,
    }
)
# LangGraph's stream parts (version="v2"), one type a mode, and its debug events
TYPES.update(dict.fromkeys(langgraph.PART_TYPES, langgraph.read_langgraph_part))
TYPES["custom"] = read_custom_type  # also OpenAI's custom tool calls
TYPES.update(dict.fromkeys(langgraph.DEBUG_TYPES, langgraph.read_debug_event))


def read_event_entry(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A mapping with an ``event``: inspect_ai's transcript event (``event`` its kind, a
    string), or a Claude Agent SDK ``StreamEvent`` as ``dataclasses.asdict`` writes it
    (``event`` the API's stream event)."""
    if type(data.get("event")) is str:
        inspect_ai.read_inspect_event(data, where, reading)
    else:
        claude_agent.read_claude_stream_event_fields(data, where, reading)


KEYS[:0] = [  # first: ATIF's steps also hold 'tool_calls' and 'message'
    ("schema_version", atif.read_atif_trajectory),
    ("step_id", atif.read_atif_step),
    ("function_name", atif.read_atif_tool_call),
    ("source_call_id", atif.read_atif_result),
    # an AgentDojo run file and an inspect_ai sample hold 'messages' too
    ("user_task_id", agentdojo.read_agentdojo_run),
    ("epoch", inspect_ai.read_inspect_sample),
    ("event", read_event_entry),  # an inspect_ai transcript event
    ("messages", langgraph.read_message_state),  # a LangGraph state, or a node's update
    ("triggers", langgraph.read_task),  # before 'name': a task's start has 'input' too
    ("interrupts", langgraph.read_task),
    ("langgraph_step", no_call),  # the metadata of a stream_mode="messages" chunk
    ("__interrupt__", langgraph.read_interrupt_update),  # LangGraph's update for an interrupt
    ("step_number", smolagents.read_smol_step),  # a smolagents ActionStep's dict
    ("event_kind", pydantic_ai.read_stream_event),  # a pydantic-ai stream event
    # an ADK Event's dict: before 'output' (a workflow node's) and 'content'
    ("invocation_id", adk.read_adk_event),
    ("invocationId", adk.read_adk_event),
    ("app_name", adk.read_adk_session_dict),  # an ADK Session's dict
    ("appName", adk.read_adk_session_dict),
]
# Rows whose call is in keys their provider declares: a list's items of a key set of theirs
# are read by the reader their declaration makes for it (declared.py).
DECLARED: dict[Handler, CallShape] = {
    anthropic.read_tool_use: anthropic.TOOL_USE,
    messages.read_plain_call: messages.PLAIN_CALL,
    openai.read_function_entry: openai.FUNCTION_ENTRY,
}
# 3. Whole shapes, for mappings no row claims.
SHAPES: list[tuple[Callable[[Mapping[str, Any]], bool], Handler]] = [
    (langgraph.is_langgraph_update, langgraph.read_langgraph_update),
    (langgraph.is_langgraph_checkpoint, langgraph.read_langgraph_checkpoint),
    (mlflow.is_trace, mlflow.read_trace),
    (langfuse.is_page, langfuse.read_page),
    (llama_index.is_workflow_stop_data, llama_index.read_workflow_stop),
]

# --- dispatch ------------------------------------------------------------------------------


def new_reading() -> Reading:
    """A ``Reading`` that dispatches through this table."""
    return Reading(dispatch, read_mapping)


def read_calls(obj: object, where: str, copy_args: bool = True) -> list[ToolCall]:
    """The calls in ``obj``, with their results, read at ``where``; without ``copy_args``
    a call's ``args`` may be the dict ``obj`` holds (for calls that never outlive it)."""
    reading = Reading(dispatch, read_mapping, copy_args)
    dispatch(obj, where, reading)
    try:
        return reading.finish()
    except UnsureError as error:
        raise error.with_place(_place_of(obj, where, error.position)) from None


class _Placing(Reading):
    """A reading that keeps where each call was read: run again, only for an error's
    words, so that no reading pays for it."""

    __slots__ = ("places",)

    def __init__(self) -> None:
        super().__init__(dispatch, read_mapping)
        self.places: dict[int, str] = {}

    @property
    def next_items(self) -> None:
        """Never a reader of a run of items: each call is read by ``call``, at its place."""
        return None

    @next_items.setter
    def next_items(self, reader: object) -> None:
        pass

    def call(self, *arguments: Any, **options: Any) -> None:
        """``Reading.call``, keeping its ``where``."""
        where = arguments[3] if len(arguments) > 3 else options["where"]
        self.places[self.position()] = where
        super().call(*arguments, **options)


def _place_of(obj: object, where: str, position: int) -> str | None:
    """Where the call at ``position`` of ``obj``'s reading was read: ``None`` when a second
    reading cannot tell (``obj`` is a stream, now consumed)."""
    placing = _Placing()
    try:
        dispatch(obj, where, placing)
    except Exception:
        return None
    return placing.places.get(position)


def read_answer(obj: object, where: str) -> tuple[bool, str | None, list[ToolCall]]:
    """Whether ``obj`` records the model's messages, its final answer
    (``Reading.final_answer``), read at ``where``, and its calls (their format says why
    where it records none)."""
    reading = Reading(dispatch, read_mapping, False, answering=True)
    dispatch(obj, where, reading)
    calls = reading.finish()
    return (*reading.final_answer(messages.message_text), calls)


def dispatch(obj: object, where: str, reading: Reading) -> None:
    """Hand ``obj`` to the reader of its shape; an unknown shape raises ``TypeError``."""
    if type(obj) is dict:
        read_mapping(obj, where, reading)
        return
    handler = BY_TYPE.get(type(obj))
    if handler is None:
        handler = _by_class(obj)
    # _read_with, written out: a turn is a list, read here once per turn (callgrind, B4's
    # book_flight run of two list turns: 113.2k -> 112.4k instructions)
    if reading.source is not None or handler in _CONTAINERS:
        handler(obj, where, reading)
    else:
        reading.source = handler
        handler(obj, where, reading)
        reading.source = None


def _read_with(handler: Handler, obj: Any, where: str, reading: Reading) -> None:
    """``handler(obj, ...)``; the outermost reader of a shape (not a container of shapes)
    is the source of the calls read inside it: their format (``_readers/records.py``).
    An error ends the reading, so the source is not put back then."""
    if reading.source is not None or handler in _CONTAINERS:
        handler(obj, where, reading)
        return
    reading.source = handler
    handler(obj, where, reading)
    reading.source = None


def _by_class(obj: object) -> Handler:
    if BY_CLASS:
        for kind in type(obj).__mro__:
            module = getattr(kind, "__module__", None) or ""
            handler = BY_CLASS.get((module.partition(".")[0], kind.__name__))
            if handler is not None:
                return handler
    if isinstance(obj, Mapping):
        return read_mapping
    return read_object


def read_mapping(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A mapping: by its ``type``, ``object`` or ``role`` value, then by its keys."""
    kind = data.get("type")
    if kind is not None:  # most mappings of a run without one: no lookup of None
        try:
            handler = TYPES.get(kind)
        except TypeError:  # an unhashable 'type' value, which no row names
            handler = None
        if handler is not None:
            if kind in _DECLARED_TYPES:
                reading.next_items = _typed_items_reader(data, kind, handler)
            # _read_with, written out (B6: a call of it costs each item of a list 8%)
            if reading.source is None:
                reading.source = handler
                handler(data, where, reading)
                reading.source = None
            else:
                handler(data, where, reading)
            return
        if type(kind) is str:
            handler = _by_prefix(kind)
            if handler is None:
                raise unknown_value(where, "type", kind, TYPES)
            _read_with(handler, data, where, reading)
            return
    # The first of 'object', 'role' and the KEYS rows that data has set. Mappings of a
    # run mostly repeat a few key sets: the deciding key of a key set and its reader are
    # kept, and hold for a mapping of the same keys whose deciding value is set too.
    keys = tuple(data)
    known = _readers_by_keys.get(keys)
    if known is not None and data[known[0]] is not None:
        # _read_with, written out; the memo holds no container but the readers by value,
        # which hand the source on to the reader they choose (_by_value)
        handler = known[1]
        if known[2] is not None:
            reading.next_items = known[2]
        if reading.source is None:
            reading.source = handler
            handler(data, where, reading)
            reading.source = None
        else:
            handler(data, where, reading)
        return
    _read_with(_decide(data, keys), data, where, reading)


def _decide(data: Mapping[str, Any], keys: tuple[str, ...]) -> Handler:
    """The reader of ``data``'s deciding key, the best-ranked key whose value is set (a
    string, for ``object`` and ``role``: a ``str`` enum's member too). It is remembered
    with that key for its key set when no better-ranked key was passed over for its
    value: then it decides every mapping of these keys whose deciding value is set. A key
    set of no row is not remembered: its mappings are told apart by their whole shape,
    values and all."""
    ranks = _ranks
    best = passed_over = _NO_RANK
    deciding = ""
    for key, value in data.items():
        rank = ranks.get(key, _NO_RANK)
        if rank < best:
            if value is None or (rank <= _ROLE and not isinstance(value, str)):
                passed_over = min(passed_over, rank)
            else:
                best, deciding = rank, key
    if best > _ROLE:
        handler = _read_shape if best == _NO_RANK else KEYS[best - _ROLE - 1][1]
    else:
        handler = _read_object_value if best == _OBJECT else _read_role
    if passed_over > best and len(_readers_by_keys) < _MEMO_SIZE:  # never for no row
        shape = DECLARED.get(handler)
        items = None if shape is None else shape.items_reader(keys, None, handler)
        _readers_by_keys[keys] = (deciding, handler, items)
    return handler


def _typed_items_reader(data: Mapping[str, Any], kind: str, handler: Handler) -> ItemsReader | None:
    """The reader of a list's items of the key set of ``data``, a mapping of ``type``
    ``kind`` read by ``handler`` (a ``DECLARED`` row), made once per key set and type."""
    keys = (*data, kind)
    try:
        return _items_readers[keys]
    except KeyError:
        made = DECLARED[handler].items_reader(keys[:-1], kind, handler)
        if len(_items_readers) < _MEMO_SIZE:
            _items_readers[keys] = made
        return made


def _by_value(key: str, table: dict[str, Handler]) -> Handler:
    """The reader of a mapping by its ``key`` value (``object`` or ``role``) in ``table``.
    A value that is no string, which the memo of its key set cannot know, leaves the
    choice to the other keys; a ``str`` enum's member (smolagents' ``MessageRole`` in a
    message's ``.dict()``) is the string it stands for."""

    def read(data: Mapping[str, Any], where: str, reading: Reading) -> None:
        value = data[key]
        if type(value) is not str:
            if not isinstance(value, str):  # another key decides, and is the source
                if reading.source is read:
                    reading.source = None
                _read_with(_decide(data, tuple(data)), data, where, reading)
                return
            value = str.__str__(value)  # a str enum's member: its string
        handler = table.get(value)
        if handler is None:
            raise unknown_value(where, key, value, table)
        source = reading.source
        if source is read:  # set by read_mapping's memo: the source is the table's
            reading.source = handler
            handler(data, where, reading)  # read_mapping puts the source back
        elif source is None:  # no table's reader is a container: it is the source
            _read_with(handler, data, where, reading)
        else:  # _read_with, written out: a message inside a response (one frame a message)
            handler(data, where, reading)

    return read


def _read_shape(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A mapping no row claims: by a test of its whole shape."""
    for test, handler in SHAPES:
        if test(data):
            _read_with(handler, data, where, reading)
            return
    raise cannot_read(data, where)


# The place of 'object', 'role' and each KEYS key in the order mappings are told apart in.
_OBJECT, _ROLE = 0, 1
_NO_RANK = 1 << 30
_ranks: dict[str, int] = {}
# Key sets seen, with their deciding key, its reader and, for a DECLARED row, the reader of
# a list's items of the set (a bounded memo: input may be of any keys).
_readers_by_keys: dict[tuple[str, ...], tuple[str, Handler, ItemsReader | None]] = {}
# Key sets of DECLARED rows' mappings told by their type, the type last: the reader of a
# list's items of the set, if their declaration makes one.
_items_readers: dict[tuple[str, ...], ItemsReader | None] = {}
_MEMO_SIZE = 4096


def _rank_keys() -> None:
    """Rank KEYS (once the table is complete, below; call again after adding rows)."""
    _ranks.clear()
    _ranks.update((key, rank + _ROLE + 1) for rank, (key, _) in reversed(list(enumerate(KEYS))))
    _ranks.update(object=_OBJECT, role=_ROLE)
    _readers_by_keys.clear()
    _items_readers.clear()


def _by_prefix(kind: str) -> Handler | None:
    for prefix, handler in TYPE_PREFIXES:
        if kind.startswith(prefix):
            return handler
    return None


def read_object(obj: object, where: str, reading: Reading) -> None:
    """An object of no listed class: read as the data it dumps to; if that is of no
    accepted shape, the error names the object (and its obvious accessor, if any)."""
    if obj is None or isinstance(obj, (str, int, float)):
        raise cannot_read(obj, where)
    if isinstance(obj, (bytes, bytearray)):  # to_calls parses bytes it is given, not inner ones
        raise cannot_read(obj, where, "decode it first: json.loads(data)")
    is_iterator = isinstance(obj, Iterator)
    if is_iterator or hasattr(obj, "__aiter__"):
        # read before: what is left would read as less than the run, or as nothing, and
        # pass every `never` check
        consumed = _consumed(obj)
        if consumed is not None:
            raise cannot_read(obj, where, consumed + _final_hint(obj))
    if isinstance(obj, Iterator):  # a generator, an SDK's stream: consumed once, in order
        reading.read_each(obj, where)
        return
    if hasattr(obj, "__aiter__"):  # an async stream: to_calls cannot await it
        raise cannot_read(obj, where, "collect an async stream first: [e async for e in stream]")
    if hasattr(obj, "__await__"):  # agent.run(...) not awaited, a task
        raise cannot_read(obj, where, _await_hint(obj))
    data = as_data(obj)
    try:
        if isinstance(data, Mapping):
            read_mapping(data, where, reading)
        elif isinstance(data, (list, tuple)):
            read_sequence(data, where, reading)
        elif data is obj and isinstance(obj, Iterable):  # a deque, a user's iterable class
            reading.read_each(obj, where)
        else:
            raise cannot_read(data, where)
    except NoShapeError as error:
        if error.value is not data:
            raise  # something inside it, named where it is
        raise cannot_read(obj, where, _accessor_hint(obj)) from None


_EXHAUSTED = (
    "it is exhausted: its items were read before; keep them in a list (items = list(stream)) "
    "and pass that"
)
_READ_IN_PART = (
    "it was read in part before: the items read are no longer in it; keep them all in a list "
    "(items = list(stream)) and pass that"
)


def _consumed(stream: object) -> str | None:
    """Why ``stream`` cannot be read whole, if it cannot: a generator, or an SDK's stream
    object (OpenAI's and Anthropic's keep the generator they read from as ``_iterator``),
    that was read to its end or in part."""
    iterator = stream
    if not isinstance(stream, (GeneratorType, AsyncGeneratorType)):
        # vars(), not getattr: Anthropic makes its generator on first use, as a property
        iterator = getattr(stream, "__dict__", {}).get("_iterator")
    if isinstance(iterator, GeneratorType):
        state = inspect.getgeneratorstate(iterator)
        if state == inspect.GEN_CLOSED:
            return _EXHAUSTED
        if state == inspect.GEN_SUSPENDED:
            return _READ_IN_PART
    elif isinstance(iterator, AsyncGeneratorType) and iterator.ag_frame is None:
        return _EXHAUSTED
    return None


# The SDK streams' own accessors of what they assembled: (method, what it returns).
_FINAL_ACCESSORS = ("get_final_completion", "get_final_message", "get_final_response")


def _final_hint(stream: object) -> str:
    """One line naming the final object a helper stream (``.stream()``) assembled."""
    for name in _FINAL_ACCESSORS:
        if callable(getattr(stream, name, None)):
            return f", or pass stream.{name}()"
    return ""


def _await_hint(awaitable: object) -> str:
    """What to write instead: a coroutine names the function it runs."""
    if isinstance(awaitable, CoroutineType):
        return f"await it first: to_calls(await {awaitable.__qualname__}(...))"
    return "await it first"


# Accessors of common result objects that hold what to_calls reads: (attribute, is a method).
_ACCESSORS = (("all_messages", True), ("new_items", False), ("messages", False))


def _accessor_hint(obj: object) -> str:
    """One line naming the obvious supported accessor of ``obj``, if it has one (an
    object's ``choices`` are read as a completion's: several name ``choices[0]``)."""
    for name, is_method in _ACCESSORS:
        try:
            value = getattr(obj, name)
        except Exception:  # a missing attribute, or a property that fails: not this one
            continue
        if callable(value) == is_method:
            return f"pass its .{name}{'()' if is_method else ''}"
    return ""


_read_object_value = _by_value("object", OBJECTS)
_read_role = _by_value("role", ROLES)
# Readers of what holds other shapes, each with its own reader: never a call's source.
_CONTAINERS = frozenset(
    {
        read_sequence,
        read_frame,
        read_tuple,
        read_mapping,
        read_object,
        _read_object_value,
        _read_role,
        _read_shape,
    }
)
BY_TYPE[dict] = read_mapping
BY_TYPE[type(None)] = read_object
BY_TYPE[str] = read_object
_rank_keys()
# The 'type' values of DECLARED rows, once TYPES is complete.
_DECLARED_TYPES = frozenset(kind for kind, handler in TYPES.items() if handler in DECLARED)
