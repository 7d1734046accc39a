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

A message without an identity beside a final object (a model's response or a run's result
read whole, or a stream: ``Reading.whole``) is compared call by call, and only when the
input holds both (``beside``): a call of it that agrees with a call of the final object
(name, id, arguments) is that call again, a sighting of it; one of the same name and
arguments where either has no id cannot be told from another call (``UnsureError``).
"""

from __future__ import annotations

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    # key, start, end, part, replacing (see Reading.sighted)
    Sighting = tuple[object, int, int, int, bool]
    # start, end, where (see Reading.whole)
    Whole = tuple[int, int, str]

__all__ = ["INCOMPLETE_START", "UnsureError", "beside", "identify", "message_key"]

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
    groups: dict[object, list[_Seen]] = {}
    replaced: set[object] = set()  # the keys of a format that replaces a message by id
    pieces: dict[tuple[object, int], _Seen] = {}
    for key, start, end, part, replacing in sightings:
        group = groups.setdefault(key, [])
        if replacing:
            replaced.add(key)
        if not part or (key, part) not in pieces:
            seen = _Seen(start)
            group.append(seen)
            if part:
                pieces[key, part] = seen
        else:
            seen = pieces[key, part]
            seen.start = min(seen.start, start)
        seen.indices.extend(range(start, end))
    dropped: set[int] = set()
    inserted: dict[int, list[ToolCall]] = {}
    for key, seen_list in groups.items():
        if len(seen_list) < 2:
            continue
        seen_list.sort(key=lambda seen: seen.start)
        if key in replaced:
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


class UnsureError(ValueError):
    """A call beside a final object that agrees with one of its calls but for an id that
    one of them lacks, or that agrees with it as another call beside it does: one call
    seen twice, or two calls. ``position`` is the call's place in call order, for the
    caller who can name where it was read (``with_place``)."""

    def __init__(
        self, call: ToolCall, whole: str, position: int, twice: bool, place: str | None = None
    ) -> None:
        self.call, self.whole, self.position, self.twice = call, whole, position, twice
        seen = f"{call.name}({short_repr(call.args)})"
        if place is None:
            seen = f"the input holds the call {seen} in the final object at {whole} and beside it"
        else:
            seen = f"{place}: the call {seen} is also in the final object at {whole}"
        why = "so is another call beside it, of the same id" if twice else "one of them has no id"
        super().__init__(
            f"{seen}, and {why}: to_calls cannot tell one call seen twice (a final object, or "
            "its stream, and messages holding it) from two calls; pass the final object or "
            "the messages, not both"
        )

    def with_place(self, place: str | None) -> UnsureError:
        """This error naming where the call beside the final object was read."""
        return UnsureError(self.call, self.whole, self.position, self.twice, place)


# The key of the sightings ``beside`` adds: a call of a final object and its repeat.
_BESIDE = object()


def beside(
    calls: list[ToolCall], wholes: Sequence[Whole], sightings: Sequence[Sighting] | None
) -> list[Sighting]:
    """The sightings that tie each call read outside every final object and every message
    with an identity to the call of a final object it repeats (name, id, arguments).
    Nothing is compared when the final objects hold every call (the input held nothing
    beside them). ``UnsureError`` when a call agrees with one but for a missing id, or a
    second call beside them agrees with it too.

    >>> from toolmatch import ToolCall
    >>> calls = [ToolCall("a", {}, "1"), ToolCall("a", {}, "1"), ToolCall("b", {})]
    >>> [(start, end) for _, start, end, _, _ in beside(calls, [(0, 1, "input[0]")], None)]
    [(0, 1), (1, 2)]
    """
    count = len(calls)
    if len(wholes) == 1 and wholes[0][0] == 0 and wholes[0][1] == count:
        return []  # one final object, and nothing beside it
    inside = bytearray(count)
    for start, end, _ in wholes:
        inside[start:end] = b"\1" * (end - start)
    if inside.count(0) == 0:
        return []
    held = bytearray(inside)
    for _, start, end, _, _ in sightings or ():
        held[start:end] = b"\1" * (end - start)
    # the final objects' calls by name, then by id: a call looks at its own id's alone
    in_wholes: dict[str, dict[str | None, list[tuple[int, str]]]] = {}
    for start, end, where in wholes:
        for index in range(start, end):
            call = calls[index]
            in_wholes.setdefault(call.name, {}).setdefault(call.id, []).append((index, where))
    found: list[Sighting] = []
    repeated_ones: set[int] = set()
    for index, call in enumerate(calls):
        by_id = in_wholes.get(call.name)
        if by_id is None or held[index]:
            continue
        if call.id is None:
            candidates = [seen for same in by_id.values() for seen in same]
        else:
            candidates = [*by_id.get(call.id, ()), *by_id.get(None, ())]
        repeated = _repeated(calls, index, candidates)
        if repeated is not None:
            whole_index, where = repeated
            if whole_index in repeated_ones:
                raise UnsureError(call, where, index, twice=True)
            repeated_ones.add(whole_index)
            key = (_BESIDE, whole_index)
            found.append((key, whole_index, whole_index + 1, 0, False))
            found.append((key, index, index + 1, 0, False))
    return found


def _repeated(
    calls: list[ToolCall], index: int, candidates: list[tuple[int, str]]
) -> tuple[int, str] | None:
    """The first call of a final object (of ``candidates``: its place, and where its
    object was read) that ``calls[index]`` repeats; ``UnsureError`` when they agree but
    for an id one of them lacks."""
    call = calls[index]
    for whole_index, where in candidates:
        repeated = calls[whole_index]
        if call.id is not None and _agree(calls, [whole_index], [index]) is not None:
            return whole_index, where
        if (call.id is None or repeated.id is None) and call.args == repeated.args:
            raise UnsureError(call, where, index, twice=False)
    return None


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
