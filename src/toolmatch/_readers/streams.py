"""Streams: chunks and events that bring a tool call in pieces, assembled per ``Reading``.

Each kind of stream has a state class, one object per run (``reading.state``). Its
handlers feed it the events in order; a call takes its place in call order when its first
piece arrives (``reading.reserve``), and is built at the run's end (``finish``) from the
provider's own non-streamed shape of it (a tool-call entry, a ``tool_use`` block, a
``function_call`` item), read apart through the table, so that a streamed call reads
exactly as the same call given whole.

A call the stream never finished, or one the provider stopped for length, whose
arguments do not parse, keeps the parse error ``INCOMPLETE`` (see docs/formats.md,
"Streams"): never a crash, never a dropped call. Several streams given one after the
other (an agent's turns) stay apart: each finish event closes its calls.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.identity import INCOMPLETE_START, message_key
from toolmatch._readers.reading import Reading, as_data, list_at, no_call, same_source, wrong_shape

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias

    Data: TypeAlias = Mapping[str, Any]
    Handler: TypeAlias = Callable[[Any, str, Reading], None]

__all__ = ["INCOMPLETE", "NO_CALL_TYPES", "OBJECT_ROWS", "TYPE_ROWS"]

INCOMPLETE = INCOMPLETE_START + " the stream stopped in the middle of this call (received {})"

# How far a call got: still open when the stream ended, ended by the stream, or ended
# because the provider stopped for length (its arguments may be cut short).
_OPEN, _ENDED, _CUT = 0, 1, 2


class _Pending:
    """A call whose pieces are still arriving: its shape, and the text to put in it."""

    __slots__ = ("agent", "free", "item", "path", "pieces", "slot", "status", "where")

    def __init__(
        self, reading: Reading, where: str, item: dict[str, Any], path: str, free: bool
    ) -> None:
        self.slot = reading.reserve()
        self.agent = reading.agent  # who made the call: the stream ends later, elsewhere
        self.where = where
        self.item = item
        self.path = path  # where the text goes in the item: 'input', or 'function.arguments'
        self.free = free  # free text, not JSON: no parse can tell that it is whole
        self.pieces: list[str] = []
        self.status = _OPEN

    def add(self, piece: object, where: str) -> None:
        if piece is None:
            return
        if not isinstance(piece, str):
            raise wrong_shape(where, "a string", piece)
        self.pieces.append(piece)

    def replace(self, text: object, where: str) -> None:
        """The whole text, as a done event or a finished item gives it."""
        self.pieces.clear()
        if text is not None:
            self.add(text, where)
        self.status = _ENDED

    def settle(self, reading: Reading) -> None:
        """Build the call from its shape and its text, and put it in its place."""
        text = "".join(self.pieces)
        item = dict(self.item)
        outer, _, inner = self.path.partition(".")
        if inner:
            item[outer] = {**item[outer], inner: text}
        elif self.pieces or outer not in item:  # no piece: an Anthropic block keeps its input
            item[outer] = text
        apart = reading.apart()
        apart.agent = self.agent
        apart.read(item, self.where)
        (call,) = apart.finish()
        if self.status != _ENDED and (
            self.free or call.parse_error is not None or (self.status == _OPEN and not text)
        ):
            error = INCOMPLETE.format(short_repr(text))
            call = same_source(
                ToolCall(
                    call.name, {}, call.id, error, call.result, call.failed, call.agent, call.status
                ),
                call,
            )
        reading.fill(self.slot, call)


class _Stream:
    """What every stream state does at the run's end: build its calls, in order."""

    __slots__ = ("copies", "identity", "open", "pending")

    def __init__(self) -> None:
        self.pending: list[_Pending] = []
        self.open: dict[object, _Pending] = {}  # the current turn's calls, by the stream's key
        # The identity of the message streamed now (its id): each call begun is a piece of it.
        self.identity: object = None
        # Per identity, which copy of it is streamed now: 1, then one more each time the
        # stream says the message ended (the same stream read again is another sighting).
        self.copies: dict[object, int] = {}

    def copy(self) -> int:
        """Which streamed copy of the message ``identity`` the pieces read now are of."""
        return self.copies.get(self.identity, 1)

    def ended(self) -> None:
        """The message streamed now is whole: pieces of its identity after this are of
        another copy of it."""
        if self.identity is not None:
            self.copies[self.identity] = self.copy() + 1

    def start(
        self,
        reading: Reading,
        key: object,
        where: str,
        item: dict[str, Any],
        path: str,
        *,
        free: bool = False,
    ) -> _Pending:
        call = _Pending(reading, where, item, path, free)
        reading.sighted(self.identity, call.slot, self.copy())
        reading.whole(call.slot, where, call.slot + 1)
        self.pending.append(call)
        if key is not None:
            self.open[key] = call
        return call

    def close(self, status: int) -> None:
        """The turn is over: its calls end, and a later key is a new call."""
        for call in self.open.values():
            if call.status == _OPEN or status == _CUT:
                call.status = status
        self.open.clear()

    def finish(self, reading: Reading) -> None:
        for call in self.pending:
            call.settle(reading)


def _mapping(value: object, where: str) -> Data:
    data = as_data(value)
    if not isinstance(data, Mapping):
        raise wrong_shape(where, "an object", data)
    return data


def _key(data: Data, key: str, where: str) -> object:
    """An index or id that tells a stream's calls apart: an integer, a string or None."""
    value = data.get(key)
    if value is not None and not isinstance(value, (int, str)):
        raise wrong_shape(f"{where}.{key}", "an integer or a string", value)
    return value


# --- OpenAI Chat Completions (and litellm) chunks ------------------------------------------

# Finish reasons that end a turn normally; any other ('length', 'content_filter', ...) may
# have cut its last call short.
_NORMAL_FINISH = frozenset({"tool_calls", "stop", "function_call"})


class _ChatChunks(_Stream):
    __slots__ = ("choice",)

    def __init__(self) -> None:
        super().__init__()
        self.choice: object = None

    def read(self, choice: Data, where: str, reading: Reading) -> None:
        index = choice.get("index")
        if index is None:
            index = 0
        if self.choice is None:
            self.choice = index
        elif index != self.choice:
            raise ValueError(
                f"{where}: a chunk of choice {index} after chunks of choice {self.choice}: a "
                "stream of several choices (n > 1) holds alternative answers, not one turn; "
                "pass the chunks of the one to check"
            )
        delta = as_data(choice.get("delta"))
        if delta is not None:
            delta = _mapping(delta, f"{where}.delta")
            entries = list_at(delta, "tool_calls", f"{where}.delta") or ()
            for number, entry in enumerate(entries):
                self.entry(entry, f"{where}.delta.tool_calls[{number}]", reading)
            if delta.get("function_call") is not None:
                self.legacy(delta["function_call"], f"{where}.delta.function_call", reading)
        reason = choice.get("finish_reason")
        if reason is not None:
            self.close(_ENDED if reason in _NORMAL_FINISH else _CUT)
            self.ended()

    def entry(self, value: object, where: str, reading: Reading) -> None:
        entry = _mapping(value, where)
        function = _mapping(entry.get("function") or {}, f"{where}.function")
        index, call_id = _key(entry, "index", where), _key(entry, "id", where)
        name = function.get("name")
        key = index if index is not None else call_id
        call = self.open.get(key) if key is not None else None
        # A new id at a known index is a new call: some providers restart their indexes.
        if call is None or (call_id and call.item["id"] and call_id != call.item["id"]):
            shape: dict[str, Any] = {"id": None, "type": "function", "function": {"name": None}}
            call = self.start(reading, key, where, shape, "function.arguments")
        item = call.item
        # The id and the name come from the first delta that has them; later deltas repeat
        # them at most (some providers send both on every delta).
        if call_id and not item["id"]:
            item["id"] = call_id
        if name and not item["function"]["name"]:
            item["function"] = {"name": name}
        call.add(function.get("arguments"), f"{where}.function.arguments")

    def legacy(self, value: object, where: str, reading: Reading) -> None:
        """A delta of the deprecated single ``function_call``."""
        function = _mapping(value, where)
        call = self.open.get("function_call")
        if call is None:
            item = {"role": "assistant", "content": None, "function_call": {"name": None}}
            path = "function_call.arguments"
            call = self.start(reading, "function_call", where, item, path)
        name = function.get("name")
        if name and not call.item["function_call"]["name"]:
            call.item["function_call"] = {"name": name}
        call.add(function.get("arguments"), f"{where}.arguments")


def _chat_chunk(data: Data, where: str, reading: Reading) -> None:
    """A Chat Completions chunk; a usage-only chunk (no choice) holds no call. The calls it
    begins are pieces of the completion of its ``id``."""
    state = reading.state(_ChatChunks)
    state.identity = message_key(data.get("id"))
    for number, choice in enumerate(list_at(data, "choices", where) or ()):
        inner = f"{where}.choices[{number}]"
        state.read(_mapping(choice, inner), inner, reading)


def _chat_stream_event(data: Data, where: str, reading: Reading) -> None:
    """The OpenAI SDK's ``ChatCompletionStream`` event ``chunk``: the chunk it carries."""
    _chat_chunk(_mapping(data.get("chunk"), f"{where}.chunk"), f"{where}.chunk", reading)


# --- Anthropic raw stream events ------------------------------------------------------------

# Blocks whose input arrives as input_json_delta pieces.
_ANTHROPIC_STREAMED = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
_ANTHROPIC_CUT = frozenset({"max_tokens", "model_context_window_exceeded"})


class _AnthropicEvents(_Stream):
    __slots__ = ()


def _message_start(data: Data, where: str, reading: Reading) -> None:
    state = reading.state(_AnthropicEvents)
    state.close(_OPEN)  # a new message: the previous one's unfinished blocks stay unfinished
    message = as_data(data.get("message"))
    state.identity = None
    if not isinstance(message, Mapping):
        return
    # The message's identity: its calls are pieces of it, as the final Message is whole.
    state.identity = message_key(message.get("id"))
    if message.get("content"):
        start = reading.position()
        reading.read(message["content"], f"{where}.message.content")
        reading.sighted(state.identity, start, state.copy())


def _content_block_start(data: Data, where: str, reading: Reading) -> None:
    state = reading.state(_AnthropicEvents)
    inner = f"{where}.content_block"
    block = _mapping(data.get("content_block"), inner)
    if block.get("type") in _ANTHROPIC_STREAMED:
        state.start(reading, _key(data, "index", where), inner, dict(block), "input")
    else:
        reading.read(block, inner)  # text, thinking, a server tool's result: whole already


def _content_block_delta(data: Data, where: str, reading: Reading) -> None:
    inner = f"{where}.delta"
    delta = _mapping(data.get("delta"), inner)
    if delta.get("type") != "input_json_delta":
        reading.read(delta, inner)  # text, thinking, signature, citations: no call
        return
    state = reading.state(_AnthropicEvents)
    call = state.open.get(_key(data, "index", where))
    if call is None:
        raise ValueError(
            f"{where}: an input_json_delta for block {short_repr(data.get('index'))}, which "
            "no content_block_start of a tool_use began; pass the whole stream"
        )
    call.add(delta.get("partial_json"), f"{inner}.partial_json")


def _bare_input_json_delta(data: Data, where: str, reading: Reading) -> None:
    raise ValueError(
        f"{where}: an input_json_delta by itself belongs to no block; pass the whole stream"
    )


def _content_block_stop(data: Data, where: str, reading: Reading) -> None:
    call = reading.state(_AnthropicEvents).open.get(_key(data, "index", where))
    if call is not None:
        call.status = _ENDED


def _message_stop(data: Data, where: str, reading: Reading) -> None:
    """The message is whole: the same stream read again is another sighting of it."""
    reading.state(_AnthropicEvents).ended()


def _message_delta(data: Data, where: str, reading: Reading) -> None:
    delta = as_data(data.get("delta"))
    if isinstance(delta, Mapping) and delta.get("stop_reason") in _ANTHROPIC_CUT:
        reading.state(_AnthropicEvents).close(_CUT)


# --- OpenAI Responses streaming events ------------------------------------------------------

# Output items whose text arrives in delta events, and the key that text goes under (a
# custom tool's input is free text: only its done event or item says it is whole).
_RESPONSES_STREAMED = {
    "function_call": "arguments",
    "mcp_call": "arguments",
    "custom_tool_call": "input",
}
_UNFINISHED_ITEM = frozenset({"in_progress", "incomplete"})


class _ResponsesEvents(_Stream):
    __slots__ = ("by_index", "read_items", "response_id", "turn", "unread")

    def __init__(self) -> None:
        super().__init__()
        self.response_id: object = None  # the response begun last
        self.turn = 0  # responses begun: an item without an id is known by (turn, position)
        self.read_items: set[object] = set()  # keys of items read whole already
        self.unread: dict[object, tuple[Data, str]] = {}  # other items seen only begun
        self.by_index: dict[object, object] = {}  # the current response's keys by position

    def key(self, item_id: object, index: object) -> object:
        # an id an SDK gives every item ("__fake_id__") or an empty one tells no item apart
        if item_id is not None and (type(item_id) is not str or message_key(item_id)):
            return item_id
        return self.by_index.get(index, (self.turn, index))

    def next_turn(self) -> None:
        self.turn += 1
        self.by_index.clear()

    def begun(self, item: Data, index: object, where: str, reading: Reading) -> None:
        key = self.key(_key(item, "id", where), index)
        self.by_index[index] = key
        path = _RESPONSES_STREAMED.get(item.get("type"))  # type: ignore[arg-type]
        if path is None:
            self.unread.setdefault(key, (item, where))
        elif key not in self.open:
            call = self.start(reading, key, where, dict(item), path, free=path == "input")
            call.add(item.get(path) or None, f"{where}.{path}")

    def whole(self, item: Data, index: object, where: str, reading: Reading) -> None:
        """An item as finished: ``output_item.done``, or a final response's output."""
        key = self.key(_key(item, "id", where), index)
        self.by_index[index] = key
        path = _RESPONSES_STREAMED.get(item.get("type"))  # type: ignore[arg-type]
        if path is None:
            self.unread.pop(key, None)
            if key not in self.read_items:
                self.read_items.add(key)
                reading.read(item, where)
            return
        call = self.open.get(key)
        if call is None:
            call = self.start(reading, key, where, dict(item), path, free=path == "input")
        call.item, call.where = dict(item), where
        call.replace(item.get(path), f"{where}.{path}")
        if item.get("status") in _UNFINISHED_ITEM:
            call.status = _CUT

    def finish(self, reading: Reading) -> None:
        for item, where in self.unread.values():  # begun, never finished: read as they are
            reading.read(item, where)
        super().finish(reading)
        for call in self.pending:  # each a sighting of its item, as the item given whole
            item_id = call.item.get("id")
            if item_id is not None and (type(item_id) is not str or message_key(item_id)):
                call_id = call.item.get("call_id")
                key = (item_id, item_id if call_id is None else call_id)
                reading.sighted(key, call.slot, 0, call.slot + 1)


def _response_started(data: Data, where: str, reading: Reading) -> None:
    """``response.created`` / ``in_progress`` / ``queued``: a response begins (its output,
    empty as a rule, is begun items at most)."""
    state = reading.state(_ResponsesEvents)
    inner = f"{where}.response"
    response = _mapping(data.get("response"), inner)
    response_id = _key(response, "id", inner)
    if response_id is None or response_id != state.response_id:
        state.next_turn()
        state.response_id = response_id
    # The response's identity: its calls are pieces of it, as the final Response is whole.
    state.identity = message_key(response_id)
    for index, item in enumerate(list_at(response, "output", inner) or ()):
        item_where = f"{inner}.output[{index}]"
        state.begun(_mapping(item, item_where), index, item_where, reading)


def _response_ended(data: Data, where: str, reading: Reading) -> None:
    """``response.completed`` / ``incomplete`` / ``failed``: its output, each item once."""
    state = reading.state(_ResponsesEvents)
    inner = f"{where}.response"
    response = _mapping(data.get("response"), inner)
    response_id = _key(response, "id", inner)
    if response_id is None or response_id != state.response_id:  # no response.created
        state.next_turn()
        state.identity = message_key(response_id)
    for index, item in enumerate(list_at(response, "output", inner) or ()):
        item_where = f"{inner}.output[{index}]"
        state.whole(_mapping(item, item_where), index, item_where, reading)
    state.next_turn()
    state.response_id = None
    state.identity = None


def _item_added(data: Data, where: str, reading: Reading) -> None:
    inner = f"{where}.item"
    item = _mapping(data.get("item"), inner)
    reading.state(_ResponsesEvents).begun(item, _key(data, "output_index", where), inner, reading)


def _item_done(data: Data, where: str, reading: Reading) -> None:
    inner = f"{where}.item"
    item = _mapping(data.get("item"), inner)
    reading.state(_ResponsesEvents).whole(item, _key(data, "output_index", where), inner, reading)


def _pending_item(data: Data, where: str, reading: Reading) -> _Pending:
    state = reading.state(_ResponsesEvents)
    key = state.key(_key(data, "item_id", where), _key(data, "output_index", where))
    call = state.open.get(key)
    if call is None:
        raise ValueError(
            f"{where}: a {data.get('type')} event for item {short_repr(data.get('item_id'))}, "
            "which no response.output_item.added began; pass the whole stream"
        )
    return call


def _arguments_delta(data: Data, where: str, reading: Reading) -> None:
    _pending_item(data, where, reading).add(data.get("delta"), f"{where}.delta")


def _arguments_done(data: Data, where: str, reading: Reading) -> None:
    key = "input" if "input" in data else "arguments"
    _pending_item(data, where, reading).replace(data.get(key), f"{where}.{key}")


# --- LangChain message chunks ---------------------------------------------------------------


class _LangChainChunks(_Stream):
    """``tool_call_chunks`` merged the way LangChain's ``+`` merges them: by index (an
    entry without one is a call by itself), a different id at an index being a new call,
    name and args concatenated."""

    __slots__ = ()

    def read(self, value: object, where: str, reading: Reading) -> None:
        entry = _mapping(value, where)
        index, call_id = _key(entry, "index", where), _key(entry, "id", where)
        call = self.open.get(index) if index is not None else None
        if call is None or (call_id and call.item["id"] and call_id != call.item["id"]):
            shape: dict[str, Any] = {"name": None, "id": None, "type": "tool_call"}
            call = self.start(reading, index, where, shape, "args")
        item = call.item
        if call_id and not item["id"]:
            item["id"] = call_id
        name = entry.get("name")
        if name is not None:
            if not isinstance(name, str):
                raise wrong_shape(f"{where}.name", "a string", name)
            item["name"] = name if item["name"] is None else item["name"] + name
        call.add(entry.get("args"), f"{where}.args")


def _tool_call_chunk(data: Data, where: str, reading: Reading) -> None:
    reading.state(_LangChainChunks).read(data, where, reading)


def _ai_message_chunk(data: Data, where: str, reading: Reading) -> None:
    """An ``AIMessageChunk``: its ``tool_call_chunks`` (its ``tool_calls`` and content are
    derived from them, or are the provider's raw blocks)."""
    if "data" in data and len(data) == 2:  # LangChain's messages_to_dict()
        where = f"{where}.data"
        data = _mapping(data["data"], where)
    state = reading.state(_LangChainChunks)
    state.identity = message_key(data.get("id"))  # its calls are pieces of that message
    entries = list_at(data, "tool_call_chunks", where) or ()
    for number, entry in enumerate(entries):
        state.read(entry, f"{where}.tool_call_chunks[{number}]", reading)
    if not entries:  # as LangChain does, a chunk without chunks is its calls, whole
        start = reading.position()
        for key in ("tool_calls", "invalid_tool_calls"):
            reading.read_each(list_at(data, key, where) or (), f"{where}.{key}")
        reading.sighted(state.identity, start, state.copy())
    if data.get("chunk_position") == "last":
        state.close(_ENDED)
        state.ended()


# --- the table's rows -------------------------------------------------------------------------

# Stream events known to carry no call, by their 'type': each is tested.
NO_CALL_TYPES = (
    # either provider's stream: a keep-alive, an error report
    "ping",
    "error",
    # Anthropic: deltas besides input_json_delta, and the SDK's MessageStream helper events
    "text_delta",
    "thinking_delta",
    "signature_delta",
    "citations_delta",
    "input_json",
    "citation",
    "signature",
    # the OpenAI SDK's ChatCompletionStream helper events (their chunk events carry it all)
    "content.delta",
    "content.done",
    "refusal.delta",
    "refusal.done",
    "tool_calls.function.arguments.delta",
    "tool_calls.function.arguments.done",
    "logprobs.content.delta",
    "logprobs.content.done",
    "logprobs.refusal.delta",
    "logprobs.refusal.done",
    # OpenAI Responses: text, refusals, reasoning, audio and built-in tools' progress (their
    # items come whole in output_item.done and response.completed)
    "response.content_part.added",
    "response.content_part.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.output_text.annotation.added",
    "response.refusal.delta",
    "response.refusal.done",
    "response.reasoning_text.delta",
    "response.reasoning_text.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.audio.delta",
    "response.audio.done",
    "response.audio.transcript.delta",
    "response.audio.transcript.done",
    "response.web_search_call.in_progress",
    "response.web_search_call.searching",
    "response.web_search_call.completed",
    "response.file_search_call.in_progress",
    "response.file_search_call.searching",
    "response.file_search_call.completed",
    "response.code_interpreter_call.in_progress",
    "response.code_interpreter_call.interpreting",
    "response.code_interpreter_call.completed",
    "response.code_interpreter_call_code.delta",
    "response.code_interpreter_call_code.done",
    "response.image_generation_call.in_progress",
    "response.image_generation_call.generating",
    "response.image_generation_call.partial_image",
    "response.image_generation_call.completed",
    "response.mcp_call.in_progress",
    "response.mcp_call.completed",
    "response.mcp_call.failed",
    "response.mcp_list_tools.in_progress",
    "response.mcp_list_tools.completed",
    "response.mcp_list_tools.failed",
    "response.shell_call_command.added",
    "response.shell_call_command.delta",
    "response.shell_call_command.done",
    "response.shell_call_output_content.delta",
    "response.shell_call_output_content.done",
    "response.compaction.compacting",
)

TYPE_ROWS: dict[str, Handler] = {
    "message_start": _message_start,
    "content_block_start": _content_block_start,
    "content_block_delta": _content_block_delta,
    "input_json_delta": _bare_input_json_delta,
    "content_block_stop": _content_block_stop,
    "message_delta": _message_delta,
    "message_stop": _message_stop,
    "response.created": _response_started,
    "response.in_progress": _response_started,
    "response.queued": _response_started,
    "response.output_item.added": _item_added,
    "response.output_item.done": _item_done,
    "response.function_call_arguments.delta": _arguments_delta,
    "response.custom_tool_call_input.delta": _arguments_delta,
    "response.mcp_call_arguments.delta": _arguments_delta,
    "response.function_call_arguments.done": _arguments_done,
    "response.custom_tool_call_input.done": _arguments_done,
    "response.mcp_call_arguments.done": _arguments_done,
    "response.completed": _response_ended,
    "response.incomplete": _response_ended,
    "response.failed": _response_ended,
    "chunk": _chat_stream_event,
    "AIMessageChunk": _ai_message_chunk,
    "tool_call_chunk": _tool_call_chunk,
    **dict.fromkeys(NO_CALL_TYPES, no_call),
}
OBJECT_ROWS: dict[str, Handler] = {
    "chat.completion.chunk": _chat_chunk,
    # Azure OpenAI's content-filter chunks (the first one, with prompt_filter_results, and
    # annotations of the output) have an empty 'object'.
    "": _chat_chunk,
}
