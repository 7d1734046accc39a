"""The identity rule: which sightings of a message are one message (docs/formats.md,
"Counted once"), decided once, at the end of a reading, over the calls each sighting holds.

A reader records a sighting of each message (or item) that has an identity, its key, with
the calls read from it (``Reading.sighted``); a stream's pieces of one key are one
sighting, until the stream says that message ended (the same stream read again is a
second sighting). Sightings of one key are then:

- the same message when they hold the same calls (name, id, arguments; a call a stream
  cut short agrees with the whole one, which is kept): counted once, where first seen;
- two messages when their calls differ, unless the format replaces a message by id
  (LangGraph's ``add_messages``): then one message, where first seen, holding the version
  the run executed: the last one seen before a result answered one of its calls (with no
  such result, the last one), as its first sighting gives it.
"""

from __future__ import annotations

from toolmatch._calls.call import ToolCall
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    # key, start, end, part, replacing (see Reading.sighted)
    Sighting = tuple[object, int, int, int, bool]

__all__ = ["INCOMPLETE_START", "identify", "message_key"]

# How the parse error of a call a stream cut short starts (streams.INCOMPLETE).
INCOMPLETE_START = "arguments are incomplete:"

# Ids that SDKs give every item they make of a provider's output that has none: no identity.
# openai-agents writes "__fake_id__" (agents.models.fake_id) on the items and responses of
# Chat Completions, LiteLLM and any-llm models.
_PLACEHOLDER_IDS = frozenset({"__fake_id__"})


def message_key(message_id: object) -> str | None:
    """A message's id as its identity: ``None`` for no id, an empty one or a placeholder
    that an SDK gives every message of a run.

    >>> message_key("msg_1"), message_key("__fake_id__"), message_key(None)
    ('msg_1', None, None)
    """
    if type(message_id) is not str or not message_id or message_id in _PLACEHOLDER_IDS:
        return None
    return message_id


class _Seen:
    """The sightings of one key merged: each whole one, and its pieces as one."""

    __slots__ = ("indices", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.indices: list[int] = []


def identify(
    calls: list[ToolCall], sightings: Sequence[Sighting], answered_at: dict[str, int]
) -> tuple[list[ToolCall], list[int]] | None:
    """The calls with each message counted once, and where each old position (a count of
    calls, as results and notes keep it) now falls; ``None`` when nothing repeats.
    ``answered_at``: per call id, the position of its first result.

    >>> from toolmatch import ToolCall
    >>> calls = [ToolCall("a", {}), ToolCall("a", {}), ToolCall("b", {})]
    >>> kept, positions = identify(calls, [("m", 0, 1, 0, False), ("m", 1, 2, 0, False),
    ...                                    ("m", 2, 3, 0, False)], {})
    >>> [call.name for call in kept], positions
    (['a', 'b'], [0, 1, 1, 2])
    """
    groups: dict[object, tuple[list[_Seen], list[bool]]] = {}
    pieces: dict[tuple[object, int], _Seen] = {}
    for key, start, end, part, replacing in sightings:
        group = groups.get(key)
        if group is None:
            group = groups[key] = ([], [False])
        if replacing:
            group[1][0] = True
        if not part or (key, part) not in pieces:
            seen = _Seen(start)
            group[0].append(seen)
            if part:
                pieces[key, part] = seen
        else:
            seen = pieces[key, part]
            seen.start = min(seen.start, start)
        seen.indices.extend(range(start, end))
    dropped: set[int] = set()
    inserted: dict[int, list[ToolCall]] = {}
    for seen_list, (replacing,) in groups.values():
        if len(seen_list) < 2:
            continue
        seen_list.sort(key=lambda seen: seen.start)
        if replacing:
            _replace(calls, seen_list, answered_at, dropped, inserted)
        else:
            _keep_distinct(calls, seen_list, dropped)
    if not dropped and not inserted:
        return None
    kept: list[ToolCall] = []
    positions: list[int] = []
    for index, call in enumerate(calls):
        positions.append(len(kept))
        kept.extend(inserted.get(index, ()))
        if index not in dropped:
            kept.append(call)
    positions.append(len(kept))
    kept.extend(inserted.get(len(calls), ()))
    return kept, positions


def _keep_distinct(calls: list[ToolCall], seen_list: list[_Seen], dropped: set[int]) -> None:
    """Sightings of a format that keeps every message: one that agrees with an earlier
    kept one is that message again; one that differs is another message."""
    kept: list[_Seen] = []
    for seen in seen_list:
        for earlier in kept:
            chosen = _agree(calls, earlier.indices, seen.indices)
            if chosen is not None:
                for index, call in zip(earlier.indices, chosen, strict=True):
                    calls[index] = call
                dropped.update(seen.indices)
                break
        else:
            kept.append(seen)


def _replace(
    calls: list[ToolCall],
    seen_list: list[_Seen],
    answered_at: dict[str, int],
    dropped: set[int],
    inserted: dict[int, list[ToolCall]],
) -> None:
    """Sightings of a format that replaces a message by id: one message, where first seen,
    holding the version the run executed."""
    first = seen_list[0]
    versions = [[calls[index] for index in seen.indices] for seen in seen_list]
    if all(_agree(calls, first.indices, seen.indices) is not None for seen in seen_list[1:]):
        for seen in seen_list[1:]:
            dropped.update(seen.indices)
        return
    ids = {call.id for version in versions for call in version if call.id is not None}
    answered = min(
        (answered_at[call_id] for call_id in ids if call_id in answered_at), default=None
    )
    chosen = len(seen_list) - 1
    if answered is not None:
        before = [number for number, seen in enumerate(seen_list) if seen.start < answered]
        if before:
            chosen = before[-1]
    executed = seen_list[chosen].indices
    # its first sighting gives it (and so its agent), as for any message read again
    chosen = next(
        number
        for number, seen in enumerate(seen_list)
        if _agree(calls, seen.indices, executed) is not None
    )
    for seen in seen_list:
        dropped.update(seen.indices)
    inserted.setdefault(first.start, []).extend(versions[chosen])


def _agree(calls: list[ToolCall], left: list[int], right: list[int]) -> list[ToolCall] | None:
    """The calls of two sightings that hold the same calls, the more complete of each pair
    (a call a stream cut short agrees with the whole one); ``None`` if they differ."""
    if len(left) != len(right):
        return None
    chosen = []
    for one, other in zip(left, right, strict=True):
        first, second = calls[one], calls[other]
        if first.name != second.name or first.id != second.id:
            return None
        if first.args == second.args and first.parse_error == second.parse_error:
            chosen.append(first)
        elif _cut(first) and not _cut(second):
            chosen.append(second)
        elif _cut(second):
            chosen.append(first)
        else:
            return None
    return chosen


def _cut(call: ToolCall) -> bool:
    error = call.parse_error
    return error is not None and error.startswith(INCOMPLETE_START)
