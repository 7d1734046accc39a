"""Google ADK (google-adk): a session's ``Event``s, whole or dumped, and the ``Session``.

An event is one entry of a session: its ``author`` (``"user"``, or the name of the agent
that added it) and a Gemini ``Content`` whose parts are read as Gemini's are (the table's
part readers): ``function_call`` parts are calls, ``function_response`` parts their
results.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import gemini
from toolmatch._readers.identity import message_key
from toolmatch._readers.reading import Reading, as_data, cannot_read, list_at, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_adk_event", "read_adk_event_object", "read_adk_session", "read_adk_session_dict"]


def read_adk_event(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An event's dict: ``model_dump()``, or ``model_dump(mode="json", by_alias=True)``."""
    _read_event(
        data.get("id"), data.get("author"), data.get("partial"), data.get("content"), where, reading
    )


def read_adk_event_object(obj: Any, where: str, reading: Reading) -> None:
    """An ADK ``Event``; another package's class of that name is read as the data it dumps
    to."""
    if not _is_adk(obj):
        _read_as_data(obj, where, reading)
        return
    _read_event(obj.id, obj.author, obj.partial, obj.content, where, reading)


def read_adk_session(obj: Any, where: str, reading: Reading) -> None:
    """An ADK ``Session`` (``await service.get_session(...)``): its ``events``."""
    if not _is_adk(obj):
        _read_as_data(obj, where, reading)
        return
    reading.read_each(obj.events, f"{where}.events")


def read_adk_session_dict(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``Session``'s dict (``model_dump()``, ``model_dump(mode="json", by_alias=True)``,
    told by its ``app_name`` / ``appName``): its ``events``, which it must hold."""
    events = list_at(data, "events", where)
    if events is None:
        raise wrong_shape(f"{where}.events", "the session's events (a list)", None)
    reading.read_each(events, f"{where}.events")


def _is_adk(obj: object) -> bool:
    return (type(obj).__module__ or "").startswith("google.adk.")


def _read_as_data(obj: object, where: str, reading: Reading) -> None:
    data = as_data(obj)
    if data is obj:
        raise cannot_read(obj, where)
    reading.read(data, where)


def _read_event(
    event_id: object, author: object, partial: object, content: object, where: str, reading: Reading
) -> None:
    """Read an event once per ``id`` (a session's events and the ones ``run_async``
    yielded may both be given), its calls made by its ``author``. A ``partial`` event is a
    piece of a streamed answer that the final event after it holds whole: no call."""
    if partial is True or content is None:
        return
    start = reading.position()
    reading.read_by(author, content, f"{where}.content", _read_content)
    reading.sighted(message_key(event_id), start)


def _read_content(content: object, where: str, reading: Reading) -> None:
    """The event's ``Content``: each part, a function response's ``failed`` saying ADK's
    rule (a tool's error is the ``error`` key of what it returns, so any other answer is
    not a failure)."""
    data = as_data(content)
    if not isinstance(data, Mapping):
        raise wrong_shape(where, "a Content object", data)
    parts = list_at(data, "parts", where)
    if parts is None:
        return
    for index, part in enumerate(parts):
        place = f"{where}.parts[{index}]"
        value = as_data(part)
        if isinstance(value, Mapping) and (
            value.get("function_response") is not None or value.get("functionResponse") is not None
        ):
            gemini.read_function_response_part(value, place, reading, False)
        else:
            reading.read(value, place)
