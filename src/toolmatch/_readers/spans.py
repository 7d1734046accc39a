"""Calls in a trace's spans, whatever convention wrote them (OpenTelemetry GenAI,
OpenInference, MLflow, Langfuse): the calls model spans asked for, merged with the tool
spans that ran them; each call's agent, read up the spans' parents; and the rule that spans
recording neither a tool's run nor a model's answer are an error, never ``[]``.

Each convention's reader hands every span it reads to the run's ``Spans`` (a ``Reading``
state): ``saw`` for each span, ``asked`` for the calls a model span records, ``ran`` for
a tool span's call. At the end of the reading (``finish``) the calls take the places their
spans were first read at, in the order the run made them: by their spans' start times where
every span that gives a call records one (``order``), else in the order given.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls.call import ToolCall
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.dates import parse_datetime
from toolmatch._readers.reading import FORMATS_DOC, same_source

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = ["Spans", "json_attribute", "span_calls", "span_failed", "span_ids", "span_start"]

_ERROR = frozenset({2, "STATUS_CODE_ERROR", "ERROR"})
_OK = frozenset({1, "STATUS_CODE_OK", "OK"})

_ID_TYPES = (str, int, bytes)
# How many kinds of spans the error names before it says how many more there are.
_NAMED = 5


class _Side:
    """One span's account of a call: the call as that span records it, the span, and
    where the account was read among the run's others (``seq``)."""

    __slots__ = ("call", "seq", "span")

    def __init__(self, call: ToolCall, span: object, seq: int) -> None:
        self.call = call
        self.span = span
        self.seq = seq


class _Entry:
    """One call of the run: its place in call order, the model span that asked for it and
    the tool span that ran it (either may be missing)."""

    __slots__ = ("asked", "ran", "slot")

    def __init__(self, slot: int, asked: _Side | None, ran: _Side | None) -> None:
        self.slot = slot
        self.asked = asked
        self.ran = ran


class _Pairing:
    """The calls of a run's spans, each side paired with the other as its span is read:
    a side takes the first call of the other side not yet paired that is the same call."""

    __slots__ = ("entries", "unasked", "unran")

    def __init__(self) -> None:
        self.entries: list[_Entry] = []
        # The calls one side gave that the other has not yet: asked, not run; run, not asked.
        self.unran: list[_Entry] = []
        self.unasked: list[_Entry] = []

    def add(self, side: _Side, asking: bool) -> _Entry | None:
        """Pair ``side``; a side that pairs with none is a new call: its entry."""
        # Only the unpaired calls are looked at, so a run of tool spans alone costs no search.
        waiting = self.unasked if asking else self.unran
        for index, entry in enumerate(waiting):
            other = entry.ran if entry.ran is not None else entry.asked
            if _same_call(side.call, other.call):  # type: ignore[union-attr]
                del waiting[index]
                if asking:
                    entry.asked = side
                else:
                    entry.ran = side
                return None
        entry = _Entry(-1, side, None) if asking else _Entry(-1, None, side)
        self.entries.append(entry)
        (self.unran if asking else self.unasked).append(entry)
        return entry


class Spans:
    """The spans of one ``to_calls`` run (a ``Reading`` state, made on first use).

    >>> from toolmatch._readers.dispatch import new_reading
    >>> reading = new_reading()
    >>> spans = reading.state(Spans)
    >>> model = spans.saw("input[0]", None, "s1", None, "triage")
    >>> spans.asked(reading, [ToolCall("search", {"q": "x"}, "call_1")], model)
    >>> tool = spans.saw("input[1]", None, "s2", "s1", None)
    >>> spans.ran(reading, ToolCall("search", {"q": "x"}, result="3 hits"), tool)
    >>> reading.finish()
    [ToolCall(name='search', args={'q': 'x'}, id='call_1', result='3 hits', agent='triage')]
    """

    __slots__ = (
        "_agents",
        "_count",
        "_first",
        "_found",
        "_nodes",
        "_pairing",
        "_parents",
        "_sides",
        "_starts",
        "_told",
    )

    def __init__(self) -> None:
        self._pairing = _Pairing()
        self._sides: list[tuple[_Side, bool]] = []  # each side read, and whether it asked
        self._first: str | None = None  # where the first span (or span list) was read
        self._count = 0
        self._told = 0  # spans that record a tool's run or a model's answer
        self._found: dict[str, int] = {}  # what the other spans are, for the error
        self._parents: dict[object, object] = {}
        self._agents: dict[object, str] = {}
        self._nodes: dict[object, str] = {}
        self._starts: dict[object, object] = {}  # each span that gives calls: its start time

    def envelope(self, where: str) -> None:
        """A list of spans (an OTLP envelope) is read at ``where``, even if it holds none."""
        if self._first is None:
            self._first = where

    def saw(
        self,
        where: str,
        kind: str | None,
        span_id: object,
        parent_id: object,
        agent: object,
        node: object = None,
        start: object = None,
    ) -> object:
        """A span read at ``where``: ``kind`` says what it is when it records neither a
        tool's run nor a model's answer (``None`` when it does); ``agent`` is the agent it
        names (itself or the agent it runs in), ``node`` its graph node, ``start`` its start
        time as recorded (``span_start``). Returns the key that stands for the span in
        ``asked`` and ``ran``: its id, or a key of its own."""
        if self._first is None:
            self._first = where
        self._count += 1
        if kind is None:
            self._told += 1
        else:
            self._found[kind] = self._found.get(kind, 0) + 1
        # Ids are text or numbers (bytes in an SDK's objects); any other value names no span.
        if not isinstance(span_id, _ID_TYPES) or not span_id:
            span_id = object()
        self._link(span_id, parent_id, agent, node)
        if kind is None:
            self._starts[span_id] = start
        return span_id

    def _link(self, span_id: object, parent_id: object, agent: object, node: object) -> None:
        """Keep the span's parent, agent and graph node, those it names."""
        if isinstance(parent_id, _ID_TYPES) and parent_id:
            self._parents[span_id] = parent_id
        if type(agent) is str and agent:
            self._agents[span_id] = agent
        if type(node) is str and node:
            self._nodes[span_id] = node

    def answer(
        self,
        reading: Reading,
        where: str,
        place: str,
        output: object,
        found: str,
        span_id: object,
        parent_id: object,
        agent: object,
        start: object = None,
    ) -> None:
        """A model span read at ``where`` and its recorded ``output`` (at ``place``; ``None``:
        not recorded): the calls it holds, read as ``to_calls`` reads them; text holds none.
        An output of no accepted shape counts as no answer recorded (the run's tool spans may
        still tell its calls). ``found`` names the span, as ``'name' (KIND``; ``start`` is
        its start time."""
        if output is None:
            self.saw(where, f"{found}, without its output)", span_id, parent_id, agent)
            return
        if isinstance(output, str):  # text: an answer without calls
            self.saw(where, None, span_id, parent_id, agent, start=start)
            return
        try:
            calls = span_calls(reading, output, place)
        except TypeError:
            unread = f"{found}, its output of no accepted shape)"
            self.saw(where, unread, span_id, parent_id, agent)
            return
        self.asked(reading, calls, self.saw(where, None, span_id, parent_id, agent, start=start))

    def asked(self, reading: Reading, calls: list[ToolCall], span: object) -> None:
        """The calls a model span (``span``, its id) records its model asking for."""
        for call in calls:
            self._add(reading, _Side(call, span, len(self._sides)), asking=True)

    def ran(self, reading: Reading, call: ToolCall, span: object) -> None:
        """The call a tool span (``span``, its id) ran, with its result."""
        self._add(reading, _Side(call, span, len(self._sides)), asking=False)

    def _add(self, reading: Reading, side: _Side, asking: bool) -> None:
        """Pair ``side`` as read; a new call takes a place in call order."""
        self._sides.append((side, asking))
        entry = self._pairing.add(side, asking)
        if entry is not None:
            entry.slot = reading.reserve()

    def finish(self, reading: Reading) -> None:
        """The calls in the places their spans were first read at, in the order the run
        made them (``order``); spans that recorded no call and no answer raise."""
        if not self._told:
            raise _nothing_told(self._first or "input", self._count, self._found)
        # Entries are made in the order their places were reserved: the places, ascending.
        for entry, ordered in zip(self._pairing.entries, self.order(), strict=True):
            reading.fill(entry.slot, self._merged(ordered.asked, ordered.ran))

    def order(self) -> list[_Entry]:
        """The calls in the order the run made them. Where every span that gives a call
        records a start time, all of one form: the sides paired again in the order their
        spans started (as the run made them: a tool span pairs with the call asked for
        before it), and the calls by the start of the span that ran the call (else of the
        one that asked for it), then by the start of the span that asked for it; calls that
        start together keep the order given, except those one model span asked for, which
        keep the order it asked for them. Else the order given: spans that cannot all be
        placed in time keep the order of the input rather than guess."""
        entries = self._pairing.entries
        if len(entries) < 2:  # one call: nothing to order, and its sides pair in any order
            return entries
        times = _start_times([side.span for side, _ in self._sides], self._starts)
        if times is None:
            return entries
        # Tool spans alone pair with nothing: paired again, each is its own call as read.
        if any(entry.asked is not None for entry in entries):
            pairing = _Pairing()
            for side, asking in sorted(
                self._sides, key=lambda read: (times[read[0].span], read[0].seq)
            ):
                pairing.add(side, asking)
            # A place was reserved for each call as read: a pairing in time order that makes
            # another number of calls (possible where ids are recorded on one side only)
            # cannot fill those places, and the pairing as read stays.
            if len(pairing.entries) == len(entries):
                entries = pairing.entries
        keys: list[tuple[Any, Any]] = []
        for entry in entries:
            asked = None if entry.asked is None else times[entry.asked.span]
            first = asked if entry.ran is None else times[entry.ran.span]
            keys.append((first, first if asked is None else asked))
        ranked = sorted(range(len(entries)), key=keys.__getitem__)  # stable: ties as given
        ordered: list[_Entry] = []
        begin = 0
        while begin < len(ranked):
            end = begin + 1
            while end < len(ranked) and keys[ranked[end]] == keys[ranked[begin]]:
                end += 1
            ordered += _as_asked([entries[index] for index in ranked[begin:end]])
            begin = end
        return ordered

    def _merged(self, asked: _Side | None, ran: _Side | None) -> ToolCall:
        """One call from what its model span asked and its tool span ran: the arguments
        the tool ran with where its span records them, its result and status, and the
        agent of the span that asked for it (else of the one that ran it)."""
        agent = None
        for side in (asked, ran):
            if side is not None:
                agent = side.call.agent or self._agent_of(side.span)
                if agent is not None:
                    break
        if asked is None or ran is None:
            call = (asked or ran).call  # type: ignore[union-attr]
            if agent == call.agent:
                return call
            return same_source(
                ToolCall(
                    call.name, call.args, call.id, call.parse_error, call.result, call.failed,
                    agent, call.status,
                ),
                call,
            )  # fmt: skip
        said = ran.call if ran.call.args and ran.call.parse_error is None else asked.call
        merged = ToolCall(
            asked.call.name,
            said.args,
            asked.call.id or ran.call.id,
            said.parse_error,
            ran.call.result,
            ran.call.failed,
            agent,
            ran.call.status,
        )
        return same_source(merged, ran.call)

    def _agent_of(self, span: object) -> str | None:
        """The agent the nearest span up from ``span`` names; where none does, the nearest
        graph node."""
        seen: set[object] = set()
        node: str | None = None
        while span is not None and span not in seen:
            seen.add(span)
            agent = self._agents.get(span)
            if agent is not None:
                return agent
            if node is None:
                node = self._nodes.get(span)
            span = self._parents.get(span)
        return node


def _as_asked(together: list[_Entry]) -> list[_Entry]:
    """Calls that start together: those one model span asked for in the order it asked
    (in the places they hold among the others), the others as they are."""
    if len(together) < 2:
        return together
    places: dict[object, list[int]] = {}
    for index, entry in enumerate(together):
        if entry.asked is not None:
            places.setdefault(entry.asked.span, []).append(index)
    ordered = list(together)
    for held in places.values():
        asked = sorted((together[index] for index in held), key=lambda e: e.asked.seq)  # type: ignore[union-attr]
        for index, entry in zip(held, asked, strict=True):
            ordered[index] = entry
    return ordered


def _start_times(
    spans: list[object], recorded: Mapping[object, object]
) -> dict[object, Any] | None:
    """Each span's start time as ``recorded``, parsed once; ``None`` (no order in time) as
    soon as a span records none, or records one of another form than the others: times
    that do not compare (nanoseconds beside a datetime, a datetime without a zone beside
    one with a zone)."""
    from datetime import datetime  # here, not at the top: `import toolmatch` stays fast

    times: dict[object, Any] = {}
    first: str | None = None
    for span in spans:
        if span in times:
            continue
        time = _start_time(recorded.get(span), datetime)
        if time is None:
            return None
        # datetimes with a zone and without do not compare: two forms
        form = "ns" if isinstance(time, int) else "naive" if time.utcoffset() is None else "zoned"
        if first is None:
            first = form
        elif form != first:
            return None
        times[span] = time
    return times


def _start_time(value: object, datetime: type[datetime]) -> int | datetime | None:
    """A recorded start time as one that compares with others of its form: nanoseconds
    (an int, or OTLP JSON's digits text) or a ``datetime`` (ISO text, a ``Z`` read as
    UTC); ``None`` for any other value (pandas' ``NaT`` too: it equals no time)."""
    if type(value) is int or (isinstance(value, datetime) and value == value):
        return value
    if not isinstance(value, str):
        return None
    if value.isdigit():
        return int(value)
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def _same_call(one: ToolCall, other: ToolCall) -> bool:
    """Whether a model span's call and a tool span's are one call: the same id where both
    have one, else the same name and arguments (the name alone where either's arguments
    cannot be read: an instrumentation may record them as text of its own)."""
    if one.id is not None and other.id is not None:
        return one.id == other.id
    if one.name != other.name:
        return False
    return one.parse_error is not None or other.parse_error is not None or one.args == other.args


def _nothing_told(where: str, count: int, found: dict[str, int]) -> TypeError:
    """The error for spans that record no tool's run and no model's answer."""
    if found:
        kinds = [f"{kind} x{times}" if times > 1 else kind for kind, times in found.items()]
        more = len(kinds) - _NAMED
        named = ", ".join(kinds[:_NAMED]) + (f" and {more} more" if more > 0 else "")
    else:
        named = "no span"
    spans = "1 span" if count == 1 else f"{count} spans"
    return TypeError(
        f"to_calls cannot read tool calls from the spans at {where} ({spans}): none is a "
        f"tool span or a model span that records its answer (found {named}); pass the "
        "run's spans with its tool spans, or with its model spans' output recorded; "
        f"accepted shapes: {FORMATS_DOC}"
    )


def span_calls(reading: Reading, value: object, where: str) -> list[ToolCall]:
    """The calls ``value`` (a model span's recorded answer) holds, read apart from the run,
    with their results if it holds any."""
    apart = reading.apart()
    apart.read(value, where)
    return apart.finish()


# Where a span's own id and its parent's are kept: OTLP JSON, MLflow, and (under
# ``context``) the OpenTelemetry SDK's and Phoenix's JSON.
_ID_KEYS = (("spanId", "parentSpanId"), ("span_id", "parent_span_id"))


def span_ids(data: Mapping[str, Any]) -> tuple[object, object]:
    """A span's own id and its parent's (``None`` where it records none).

    >>> span_ids({"context": {"span_id": "0x1"}, "parent_id": "0x0"})
    ('0x1', '0x0')
    """
    for own, parent in _ID_KEYS:
        if own in data:
            return data[own] or None, data.get(parent) or None
    context = data.get("context")
    if isinstance(context, dict):
        return context.get("span_id") or None, data.get("parent_id") or None
    return None, None


# Where a span records its start time: OTLP JSON (its JSON name; protobuf's field name, as
# MLflow's span dicts write it too), and the OpenTelemetry SDK's JSON, Phoenix's, MLflow's
# traces of schema 2 (nanoseconds) and Langfuse's observations (either spelling).
_START_KEYS = ("startTimeUnixNano", "start_time_unix_nano", "start_time", "startTime")


def span_start(data: Mapping[str, Any]) -> object:
    """A span's start time as it records it (``None`` where it records none).

    >>> span_start({"startTimeUnixNano": "1796000000001000000"}), span_start({"name": "x"})
    ('1796000000001000000', None)
    """
    for key in _START_KEYS:
        if key in data:
            return data[key]
    return None


def span_failed(span: Mapping[str, Any]) -> bool | None:
    """A span's status as a failure: ``ERROR`` is one, ``OK`` is none, unset says nothing.
    The status is its ``status`` (an SDK ``Status``, its JSON, OTLP's ``{"code": 2}``) or
    its ``status_code`` (Phoenix's span JSON, MLflow's traces of schema 2).

    >>> span_failed({"status": {"code": "STATUS_CODE_ERROR"}}), span_failed({"status_code": "OK"})
    (True, False)
    """
    status = span.get("status", span.get("status_code"))
    if status is None:
        return None
    if isinstance(status, (str, int)):
        code: object = status
    elif isinstance(status, Mapping):
        code = status.get("code", status.get("status_code"))
    else:
        code = getattr(status, "status_code", None)
    code = getattr(code, "name", code)  # an SDK StatusCode enum
    if not isinstance(code, (int, str)):
        return None
    if code in _ERROR:
        return True
    if code in _OK:
        return False
    return None


def json_attribute(value: object) -> object:
    """An attribute that a trace store writes as JSON text (MLflow's, the Langfuse SDK's):
    the text parsed; text that is not JSON stays text, as the store reads it.

    >>> json_attribute('{"city": "Paris"}'), json_attribute("sunny"), json_attribute(None)
    ({'city': 'Paris'}, 'sunny', None)
    """
    if not isinstance(value, str):
        return value
    import json  # here, not at the top: `import toolmatch` stays fast

    try:
        return json.loads(value)
    except ValueError:
        return value
