"""Google Gemini (google-genai and the REST JSON): responses, candidates and parts.

Parts carry no ``type``: a part is told by which of its keys is set (the SDK dumps every
key, unset ones as ``None``). Both the JSON spelling (``functionCall``) and the Python one
(``function_call``) are read.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import (
    Reading,
    as_data,
    cannot_read,
    list_at,
    read_one_option,
    wrong_shape,
)

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_KEYS",
    "read_candidate_without_content",
    "read_response_object",
    "read_function_call_part",
    "read_function_response_part",
    "read_response",
]


def _both_spellings(*keys: str) -> tuple[str, ...]:
    """Each of ``keys`` in the JSON spelling, then in the Python one where it differs."""
    return tuple(spelling for key in keys for spelling in dict.fromkeys((key, _snake(key))))


def _snake(key: str) -> str:
    """The Python spelling of a JSON key: ``functionCall`` is ``function_call``."""
    return "".join(f"_{letter.lower()}" if letter.isupper() else letter for letter in key)


# Keys of parts that hold no call and no result of yours: content, a thought signature,
# and server-side tool calls and their responses (run by Google, like OpenAI's hosted
# tools: not calls of your tools).
CALL_FREE_KEYS = _both_spellings(
    "text",
    "thought",
    "inlineData",
    "fileData",
    "executableCode",
    "codeExecutionResult",
    "thoughtSignature",
    "toolCall",
    "toolResponse",
)


class _Unnamed:
    """Where the calls without an id were read, by name and arguments: in responses (a
    stream's chunks, automatic function calling's history) or in contents (a chat's
    history). The Gemini API gives calls no id, so one call in both cannot be told from
    two calls: ``finish`` raises, naming both places and what to pass."""

    __slots__ = ("depth", "in_contents", "in_responses")

    def __init__(self) -> None:
        self.depth = 0  # how many responses the calls read now are inside
        self.in_responses: dict[str, str] = {}
        self.in_contents: dict[str, str] = {}

    def seen(self, name: object, args: object, where: str) -> None:
        key = f"{name}({short_repr(as_data(args))})"
        (self.in_responses if self.depth else self.in_contents).setdefault(key, where)

    def finish(self, reading: Reading) -> None:
        for key, first in self.in_responses.items():
            other = self.in_contents.get(key)
            if other is not None:
                raise ValueError(
                    f"{other}: the call {key} has no id, and neither has the one at {first}: "
                    "to_calls cannot tell one call seen twice (a response, or its chunks, "
                    "and a chat history holding it) from two calls; pass the responses or "
                    "the history, not both"
                )


def read_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A response: the calls automatic function calling ran (its
    ``automatic_function_calling_history``: the contents sent, the calls and their
    responses), then its one candidate (several are alternative answers, not one turn)."""
    unnamed = reading.state(_Unnamed)
    unnamed.depth += 1
    try:
        for key in _HISTORY_KEYS:
            history = list_at(data, key, where)
            if history:
                reading.read_each(history, f"{where}.{key}")
                break
        read_one_option(data, "candidates", "response", where, reading)
    finally:
        unnamed.depth -= 1


_HISTORY_KEYS = ("automatic_function_calling_history", "automaticFunctionCallingHistory")


def read_response_object(obj: object, where: str, reading: Reading) -> None:
    """A ``GenerateContentResponse``: a response whatever it holds, even nothing."""
    data = as_data(obj)
    if isinstance(data, Mapping):
        read_response(data, where, reading)


# A candidate's keys besides its content (both spellings): the answer's metadata.
_CANDIDATE_KEYS = frozenset(
    _both_spellings(
        "content",
        "index",
        "finishReason",
        "finishMessage",
        "safetyRatings",
        "citationMetadata",
        "tokenCount",
        "avgLogprobs",
        "logprobsResult",
        "groundingMetadata",
        "urlContextMetadata",
    )
)


def read_candidate_without_content(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A candidate with a finish reason and no content (an answer blocked for safety, say):
    no call. A mapping with keys of no candidate is of no known shape."""
    for key, value in data.items():
        if value is not None and key not in _CANDIDATE_KEYS:
            raise cannot_read(data, where)


def read_function_call_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A part with a ``functionCall``."""
    key, value = _set_key(data, "functionCall", "function_call")
    inner = f"{where}.{key}"
    if not isinstance(value, Mapping):
        raise wrong_shape(inner, "an object", value)
    call_id = value.get("id")
    if call_id is None:
        reading.state(_Unnamed).seen(value.get("name"), value.get("args"), inner)
    reading.call(value.get("name"), value.get("args"), call_id, inner)


def read_function_response_part(
    data: Mapping[str, Any], where: str, reading: Reading, otherwise: bool | None = None
) -> None:
    """A part with a ``functionResponse``: the result of the call of its id. Gemini asks
    for the output under ``output`` and a failure under ``error``; neither says
    ``otherwise`` (nothing, for Gemini; ADK's answers without ``error`` did not fail)."""
    key, value = _set_key(data, "functionResponse", "function_response")
    if not isinstance(value, Mapping):
        raise wrong_shape(f"{where}.{key}", "an object", value)
    response = value.get("response")
    inner = as_data(response)
    failed = otherwise
    if isinstance(inner, Mapping):
        if "error" in inner:
            failed = True
        elif "output" in inner:
            failed = False
    call_id = value.get("id")
    if call_id is None:  # the Gemini API gives no ids: by its tool's name, in order
        reading.result_by_name(value.get("name"), response, failed)
    else:
        reading.result(call_id, response, failed)


def _set_key(data: Mapping[str, Any], json_key: str, python_key: str) -> tuple[str, object]:
    value = data.get(json_key)
    if value is not None:
        return json_key, as_data(value)
    return python_key, as_data(data.get(python_key))
