"""OpenAI: Chat Completions (completions, tool-call entries) and Responses (responses, items).

Ollama's tool-call entries are Chat Completions' without ``type``, and litellm's responses
are Chat Completions': both are read here.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import inspect_ai
from toolmatch._readers.declared import CallShape
from toolmatch._readers.reading import Reading, as_data, list_at, read_one_option, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_TYPES",
    "read_completion",
    "read_custom_entry",
    "read_function_entry",
    "read_responses_call",
    "read_responses_custom_call",
    "read_responses_mcp_call",
    "read_responses_output",
    "read_response",
]

# Chat content parts and Responses items or parts that hold neither a call of the user's
# tools nor a result of one. Hosted tools (web search, file search, code interpreter,
# computer use, shell, ...) run on OpenAI's side: their items are not calls of your tools.
CALL_FREE_TYPES = frozenset(
    {
        # Chat Completions content parts
        "text",
        "image_url",
        "input_audio",
        "file",
        "refusal",
        # Responses message parts
        "output_text",
        "input_text",
        "input_image",
        "input_file",
        # Responses items
        "reasoning",
        "web_search_call",
        "file_search_call",
        "computer_call",
        "computer_call_output",
        "code_interpreter_call",
        "image_generation_call",
        "local_shell_call",
        "local_shell_call_output",
        "shell_call",
        "shell_call_output",
        "apply_patch_call",
        "apply_patch_call_output",
        "tool_search_call",
        "tool_search_output",
        "mcp_list_tools",
        "mcp_approval_request",
        "mcp_approval_response",
        "item_reference",
        "compaction",
    }
)


# A Chat Completions tool-call entry: its call is in ``function``.
FUNCTION_ENTRY = CallShape("name", ("arguments",), "id", inside="function")


def read_function_entry(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Chat Completions tool-call entry (``function``: name and JSON-text arguments);
    an entry whose ``function`` is the tool's name is another format's
    (``inspect_ai.read_named_function``).

    LangChain's ``FunctionMessage`` shares its ``type``: the answer to a legacy function
    call, which has no id to pair it by.
    """
    inner = f"{where}.function"
    function = data.get("function")
    if function is None and "content" in data:
        return
    if type(function) is not dict:
        if type(function) is str:  # the tool's name: not OpenAI's entry (B6 OpenAI: -1 call)
            inspect_ai.read_named_function(data, where, reading)
            return
        function = as_data(function)
        if not isinstance(function, Mapping):
            raise wrong_shape(inner, "an object", function)
    if "parameters" in function and "arguments" not in function:
        raise TypeError(f"{inner} is a tool definition (it has 'parameters'), not a tool call")
    shape = FUNCTION_ENTRY
    reading.call(function.get(shape.name), function.get(shape.args[0]), data.get(shape.id), inner)


def read_custom_entry(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Chat Completions custom tool call: free text, not JSON."""
    inner = f"{where}.custom"
    custom = as_data(data.get("custom"))
    if not isinstance(custom, Mapping):
        raise wrong_shape(inner, "an object", custom)
    _free_form(custom.get("name"), custom.get("input"), data.get("id"), inner, reading)


def read_responses_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Responses ``function_call`` item; its ``call_id`` is the id results answer. An
    item's identity is its item ``id`` (``fc_...``) with its ``call_id`` (docs/formats.md,
    "Counted once")."""
    call_id = _call_id(data)
    reading.call(data.get("name"), data.get("arguments"), call_id, where)
    item_id = data.get("id")
    if item_id is not None:
        reading.sighted_last((item_id, call_id))


def read_responses_custom_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Responses ``custom_tool_call`` item: free text, not JSON; once per identity."""
    _free_form(data.get("name"), data.get("input"), _call_id(data), where, reading)
    _sighted_item(data, reading)


def read_responses_mcp_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Responses ``mcp_call`` item: the call, with its ``output`` or ``error`` once run;
    once per identity."""
    error, output = data.get("error"), data.get("output")
    failed = True if error is not None else (False if output is not None else None)
    result = error if error is not None else output
    name, arguments = data.get("name"), data.get("arguments")
    reading.call(name, arguments, _call_id(data), where, result=result, failed=failed)
    _sighted_item(data, reading)


def read_responses_output(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Responses ``function_call_output`` / ``custom_tool_call_output`` item: a result."""
    reading.result(data.get("call_id"), data.get("output"), None)


def read_completion(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A chat completion: its one choice (several are alternative answers, not one turn);
    once per identity, its ``id`` (``chatcmpl-...``) and its calls, whole or streamed."""
    start = reading.position()
    read_one_option(data, "choices", "completion", where, reading)
    reading.final_object(data.get("id"), start, where)


def read_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A Responses response: its output items; once per identity, its ``id``
    (``resp_...``) and its calls, whole or streamed; a final object, which items without
    an id beside it may repeat."""
    output = list_at(data, "output", where)
    if output is not None:
        start = reading.position()
        reading.read_each(output, f"{where}.output")
        reading.final_object(data.get("id"), start, where)


def _sighted_item(data: Mapping[str, Any], reading: Reading) -> None:
    """The call just read is a sighting of its item: its item ``id`` with its ``call_id``,
    since an SDK may give all its items one placeholder id (openai-agents'
    ``"__fake_id__"``), each with its own call id."""
    item_id = data.get("id")
    if item_id is not None:
        reading.sighted_last((item_id, _call_id(data)))


def _call_id(data: Mapping[str, Any]) -> object:
    call_id = data.get("call_id")
    return data.get("id") if call_id is None else call_id


def _free_form(name: object, text: object, call_id: object, where: str, reading: Reading) -> None:
    """OpenAI custom tools take free text, not JSON: the text becomes ``args['input']``."""
    if not isinstance(text, str):
        found = f"{short_repr(text)} ({type_name(text)})"
        raise TypeError(f"{where}: a custom tool call's input must be a string, got {found}")
    reading.call(name, {"input": text}, call_id, where)
