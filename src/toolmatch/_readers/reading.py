"""``Reading``: the state of one ``to_calls`` run, and the helpers every shape reader uses.

A shape reader ("handler") is ``read_x(data, where, reading) -> None``: it records what it
finds through ``reading.call`` / ``reading.result`` and hands inner values back to
``reading.read``, which dispatches them through the table of ``toolmatch._readers.dispatch``.
This module sits below the table, so it takes the dispatch function as an argument instead
of importing it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping

from toolmatch._calls.call import FAILED_OF_STATUS, CallSlots, ToolCall, checked_call, status_of
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.identity import beside, identify, message_key

if TYPE_CHECKING:
    from typing import Any, TypeVar

    S = TypeVar("S")
    # A result: the call id it answers, its content, failed, its status, and the number of
    # calls recorded before it.
    _Result = tuple[str, object, bool | None, str | None, int]
    # A sighting of a message: its key, the calls it holds (start, end), 0 if it is whole
    # (else which streamed copy of the message it is a piece of), whether its format
    # replaces a message by id.
    _Sighting = tuple[object, int, int, int, bool]
    # The calls of a final object: start, end, where it was read.
    _Whole = tuple[int, int, str]
    Dispatch = Callable[[object, str, "Reading"], None]
    Handler = Callable[[Any, str, "Reading"], None]
    ReadDict = Callable[[Mapping[str, Any], str, "Reading"], None]
    # A reader of a run of a list's items of one shape, from an index on: it returns the
    # index of the first item it did not read (``declared.CallShape.items_reader``).
    ItemsReader = Callable[[list[Any], int, "Reading"], int]

__all__ = [
    "FORMATS_DOC",
    "ROOT",
    "NoShapeError",
    "Pieces",
    "Reading",
    "list_at",
    "read_one_option",
    "scan_object",
    "as_data",
    "cannot_read",
    "no_call",
    "not_a_run",
    "likely_typo_of",
    "refuse",
    "unknown_value",
    "parse_arguments",
    "same_source",
    "wrong_shape",
]

# Where to_calls names the value it was given: the places inside it start with it.
ROOT = "input"

# Where the accepted shapes are listed for users (errors link here instead of listing them).
FORMATS_DOC = "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"

# Attributes looked up on objects that offer neither model_dump(), to_dict() nor dataclass
# fields (an OpenTelemetry ReadableSpan, a SimpleNamespace, a user's own class).
_PROBED_ATTRIBUTES = (
    "name",
    "args",
    "arguments",
    "input",
    "id",
    "call_id",
    "type",
    "role",
    "content",
    "parts",
    "tool_calls",
    "invalid_tool_calls",
    "function_call",
    "function",
    "choices",
    "candidates",
    "message",
    "output",
    "attributes",
    "method",
    "params",
    "tool_name",
    "tool_call_id",
    "part_kind",
    "kind",
    "text",
    "status",
)
_PLAIN_TYPES = (dict, str, list, int, float, tuple, bytes, bytearray, Mapping)


class Reading:
    """One ``to_calls`` run: calls in order of first appearance, results to pair by id.

    >>> from toolmatch._readers.dispatch import new_reading
    >>> reading = new_reading()
    >>> reading.call("search", '{"q": "paris"}', "call_1", "input")
    >>> reading.result("call_1", "sunny", failed=False)
    >>> reading.finish()
    [ToolCall(name='search', args={'q': 'paris'}, id='call_1', result='sunny', failed=False)]
    """

    __slots__ = (
        "agent",
        "answering",
        "source",
        "_calls",
        "copy_args",
        "_said",
        "_dispatch",
        "_answers",
        "_named_results",
        "_notes",
        "_open_slots",
        "_read_dict",
        "replacing",
        "_results",
        "next_items",
        "_sightings",
        "_states",
        "_wholes",
    )

    def __init__(
        self,
        dispatch: Dispatch,
        read_dict: ReadDict | None = None,
        copy_args: bool = True,
        answering: bool = False,
    ) -> None:
        # read_dict: the dispatcher's own reader of a dict, called directly for dict items
        # (most items are), which saves a call per item.
        self._dispatch = dispatch
        # Set by the table when it has read a mapping of a declared shape: the reader of a
        # run of items of its key set, for the items after it in a list (``read_each``).
        self.next_items: ItemsReader | None = None
        # Whether the model's messages are kept for the final answer (``said``): a reading
        # of calls alone, as every run a check judges is read, skips them (two Python calls a
        # message: position() and said()).
        self.answering = answering
        self._read_dict: ReadDict = read_dict or dispatch
        # Whether a call keeps a copy of an args dict: the caller may change theirs later,
        # unless the calls never outlive the reading (a verdict, a report line).
        self.copy_args = copy_args
        self._calls: list[ToolCall | None] = []
        self._open_slots = 0
        # Made on first use: most runs have no results and no states.
        self._results: list[_Result] | None = None
        # (call id, status) of calls whose status is known apart from any result (approvals,
        # None: approved), or (number of calls, status) for every call before that place
        # that no result answers (a run stopped at an interrupt).
        self._notes: list[tuple[str | int, str | None]] | None = None
        self._states: dict[type, object] | None = None
        # (key, start, end, part, replacing): the calls of each sighting of a message or
        # item with an identity (``sighted``), told apart at finish (``identify``).
        self._sightings: list[_Sighting] | None = None
        # The calls of each final object read (``whole``), which messages beside it may
        # repeat without an identity (``beside``).
        self._wholes: list[_Whole] | None = None
        # Results without a call id, by the tool's name (``result_by_name``).
        self._named_results: list[_Result] | None = None
        # Tool messages' answers by message id (``first_answer``).
        self._answers: dict[object, list[tuple[object, ...]]] | None = None
        # Whether the format read now replaces a message by id (LangGraph's add_messages):
        # set by its readers around the messages they hand back.
        self.replacing = False
        # Who makes the calls read now, where the format says (``read_by``); stored on each.
        self.agent: str | None = None
        # The outermost reader of what is read now, set by the dispatch table; stored on each
        # call, it names the call's format (``toolmatch._readers.records``).
        self.source: object = None
        # The model's last message read: its text and how many calls came before it
        # (``said``); None while the input records no message of the model.
        self._said: tuple[object, int] | None = None

    def read(self, obj: object, where: str) -> None:
        """Read any value at ``where``; an unknown shape raises ``TypeError``."""
        self._dispatch(obj, where, self)

    # Positional parameters with defaults, not keyword-only ones: Python 3.11 specializes
    # calls only to functions without keyword-only parameters, and these run per item.
    def read_each(self, items: Iterable[object], where: str, text: bool = False) -> None:
        """Read each item in order at ``where[i]`` (an iterator is consumed once); with
        ``text``, a string item is text (a message's content) and holds nothing. After a
        dict of a declared shape, the items of its key set that follow it in a list are
        read by the reader the table gives for them (``next_items``), as many as it takes."""
        dispatch = self._dispatch
        read_dict = self._read_dict
        indices = INDICES
        after = 0  # items before it were read by a reader of a run of items
        for index, item in enumerate(items):
            if index < after:
                continue
            try:  # free in 3.11 while nothing is raised
                place = where + indices[index]
            except IndexError:
                place = f"{where}[{index}]"
            if type(item) is dict:
                read_dict(item, place, self)
                reader = self.next_items
                if reader is not None:
                    self.next_items = None
                    if type(items) is list:
                        after = reader(items, index + 1, self)
                        if after == len(items):
                            return
            elif not text or not isinstance(item, str):
                dispatch(item, place, self)

    def read_by(self, agent: object, obj: Any, where: str, handler: Handler | None = None) -> None:
        """Read ``obj`` (with ``handler``, as it reads it) as made by ``agent``: the calls in
        it get that ``agent`` unless something inside names another. No name (``None``,
        ``""``): the caller known so far stays."""
        outer = self.agent
        if type(agent) is str and agent:
            self.agent = agent
        try:
            if handler is None:
                self._dispatch(obj, where, self)
            else:
                handler(obj, where, self)
        finally:
            self.agent = outer

    def call(
        self,
        name: object,
        raw_args: object,
        call_id: object,
        where: str,
        parse_error: str | None = None,
        result: object = None,
        failed: bool | None = None,
        agent: str | None = None,
        status: str | None = None,
    ) -> None:
        """Record a call; ``raw_args`` is a dict, JSON text, ``None`` or an SDK object.

        With ``parse_error`` the call keeps that error and its ``args`` are ``{}`` (or the
        dict given: a call ``ToolCall.as_dict()`` wrote, read back); a shape
        that holds its own result (a tool span, an ``mcp_call`` item) passes it here, and a
        call that names its caller its ``agent`` (else the caller is ``read_by``'s). A
        ``status`` sets ``failed`` (and ``failed`` alone sets the status it means).
        """
        if type(name) is not str and not isinstance(name, str):
            found = f"{short_repr(name)} ({type_name(name)})"
            raise TypeError(f"{where}: a tool call's name must be a string, got {found}")
        if type(raw_args) is dict:  # with a parse_error too: toolmatch's own dict
            args: dict[str, Any] = raw_args.copy() if self.copy_args else raw_args
        elif parse_error is not None:
            args = {}
        elif type(raw_args) is str:  # JSON text: skip parse_arguments' checks for others
            parsed = scan_object(raw_args)
            if parsed is None:
                args, parse_error = _loads_arguments(raw_args)
            else:
                args = parsed
        else:
            args, parse_error = parse_arguments(as_data(raw_args))
        if call_id is not None and type(call_id) is not str:
            call_id = str(call_id)
        if status is None:  # status_of(failed), written out: this runs once per call read
            status = None if failed is None else ("failed" if failed else "succeeded")
        else:
            failed = FAILED_OF_STATUS[status]
        agent = self.agent if agent is None else agent
        call = checked_call(
            name, args, call_id, parse_error, result, failed, status, agent, self.source
        )
        self._calls.append(call)

    def add(self, call: ToolCall) -> None:
        """Record a ``ToolCall`` given as it is (its own ``agent`` too)."""
        self._calls.append(call)

    def extend(self, calls: list[ToolCall]) -> None:
        """Record calls a reader made itself (``checked_call``), in their order."""
        self._calls.extend(calls)

    def apart(self) -> Reading:
        """A new, empty run with this one's table: a state reads an assembled value there
        and ``fill``s a reserved place with the call it gives."""
        return Reading(self._dispatch, None, self.copy_args)

    def reserve(self) -> int:
        """A place in call order for a call known only later (see ``fill``)."""
        self._calls.append(None)
        self._open_slots += 1
        return len(self._calls) - 1

    def fill(self, slot: int, call: ToolCall) -> None:
        """Put ``call`` at the place ``reserve`` gave."""
        if self._calls[slot] is None:
            self._open_slots -= 1
        self._calls[slot] = call

    def result(
        self, call_id: object, content: object, failed: bool | None, status: str | None = None
    ) -> None:
        """A tool's answer to the call of ``call_id``; no such call in the trace: ignored.
        A ``status`` sets ``failed``, as in :meth:`call`."""
        if call_id is not None:
            if self._results is None:
                self._results = []
            # Where it stands among the calls: the pairing looks at calls before it first.
            self._results.append((str(call_id), content, failed, status, len(self._calls)))

    def result_by_name(self, name: object, content: object, failed: bool | None) -> None:
        """A tool's answer that names its tool but no call id (Gemini's ``FunctionResponse``
        without ``id``): it answers the first unanswered call of that name and no id made
        before it (docs/formats.md, "Tool results")."""
        if type(name) is str:
            if self._named_results is None:
                self._named_results = []
            self._named_results.append((name, content, failed, None, len(self._calls)))

    def note_status(self, call_id: object, status: str | None) -> None:
        """The call of ``call_id`` awaits approval (``"pending"``), was ``"denied"``, or
        was approved (``None``: no status yet), as an approval request or answer apart from
        the call says; given at finish (``_note``), the last note of an id winning."""
        if call_id is not None:
            if self._notes is None:
                self._notes = []
            self._notes.append((str(call_id), status))

    def note_unanswered(self, status: str) -> None:
        """Every call read so far that no result answers has ``status`` (at finish): the
        run stopped here, at an interrupt, before running them."""
        if self._notes is None:
            self._notes = []
        self._notes.append((len(self._calls), status))

    def said(self, content: object, start: int) -> None:
        """The model wrote a message with this ``content``, its calls, if any, recorded from
        ``start`` on: the last such message is the final answer (:meth:`final_answer`). The
        content's text is read only when asked for: most readings never are (B6). Readers
        call it only for an ``answering`` reading."""
        self._said = (content, start)

    def final_answer(self, text_of: Callable[[object], str | None]) -> tuple[bool, str | None]:
        """Whether the input records the model's messages, and the final answer: the text
        (``text_of`` its content) of the model's last message, ``None`` when it has none or
        a call comes with it or after it (the run did not end on an answer).

        >>> from toolmatch._readers.dispatch import dispatch, read_mapping
        >>> reading = Reading(dispatch, read_mapping, answering=True)
        >>> reading.read({"role": "assistant", "content": "Sunny."}, "input")
        >>> reading.final_answer(str)
        (True, 'Sunny.')
        >>> Reading(dispatch, read_mapping).final_answer(str)
        Traceback (most recent call last):
        ...
        RuntimeError: this reading keeps no final answer: make it with answering=True
        """
        if not self.answering:
            raise RuntimeError("this reading keeps no final answer: make it with answering=True")
        said = self._said
        if said is None:
            return False, None
        content, start = said
        return True, text_of(content) if len(self._calls) == start else None

    def position(self) -> int:
        """How many calls are recorded so far: where the next one goes."""
        return len(self._calls)

    def sighted(self, key: object, start: int, part: int = 0, end: int | None = None) -> None:
        """The calls recorded from ``start`` (to ``end``, if given) are one sighting of
        the message (or item) ``key``: whole (``part`` 0), or a piece of the ``part``-th
        copy a stream gave of it (its chunks; all pieces of one copy are one sighting).
        ``identify`` decides at finish which sightings of a key are the same message
        (docs/formats.md, "Counted once"). ``None``: no identity."""
        if key is not None:
            sightings = self._sightings
            if sightings is None:
                sightings = self._sightings = []
            stop = len(self._calls) if end is None else end
            sightings.append((key, start, stop, part, self.replacing))

    def whole(self, start: int, where: str, end: int | None = None) -> None:
        """The calls recorded from ``start`` (to ``end``, if given) are those of a final
        object read at ``where``: a model's response or a run's result read whole, or a
        stream's call. Messages without an identity beside it in the input may repeat
        them: ``beside`` decides at finish (docs/formats.md, "Counted once"). One that
        holds no call, or that is the whole input (``ROOT``), is not kept: nothing beside
        it can repeat it."""
        if end is None:
            end = len(self._calls)
        if end > start and where != ROOT:
            wholes = self._wholes
            if wholes is None:
                wholes = self._wholes = []
            wholes.append((start, end, where))

    def final_object(self, message_id: object, start: int, where: str) -> None:
        """The calls recorded from ``start`` are those of a final object (a response, a
        typed message) read at ``where`` whose id is ``message_id``: ``sighted`` under its
        identity (``message_key``) and ``whole``."""
        self.sighted(message_key(message_id), start)
        self.whole(start, where)

    def sighted_last(self, key: object) -> None:
        """The call recorded last is a whole sighting of the item ``key`` (``sighted``,
        for an item of one call: this runs once per item read)."""
        end = len(self._calls)
        sightings = self._sightings
        if sightings is None:
            sightings = self._sightings = []
        sightings.append((key, end - 1, end, 0, self.replacing))

    def first_answer(self, key: object, answer: tuple[object, ...]) -> bool:
        """Whether to read ``answer`` (a tool message's call id, content and status), the
        message of ``key``: not when a message of that key gave the same answer before (a
        snapshot repeating it); a different answer under a reused key is read."""
        if key is None:
            return True
        answers = self._answers
        if answers is None:
            answers = self._answers = {}
        given = answers.setdefault(key, [])
        if answer in given:
            return False
        given.append(answer)
        return True

    def state(self, kind: type[S]) -> S:
        """This run's one ``kind()`` object; its ``finish(reading)``, if any, runs at finish."""
        if self._states is None:
            self._states = {}
        state = self._states.get(kind)
        if state is None:
            state = self._states[kind] = kind()
        return state  # type: ignore[return-value]

    def finish(self) -> list[ToolCall]:
        """Finish the states, pair results with their calls by id, and return the calls."""
        if self._states is not None:
            self._finish_states(self._states)
        calls = self._calls
        if self._open_slots:
            raise RuntimeError("a reader reserved a place for a call and never filled it")
        if self._wholes is not None:
            repeats = beside(calls, self._wholes, self._sightings)  # type: ignore[arg-type]
            if repeats:
                self._sightings = [*(self._sightings or ()), *repeats]
        sightings = self._sightings
        if sightings is not None and len(sightings) > 1:  # a message seen once: nothing to do
            self._identify(calls, sightings)  # type: ignore[arg-type]
            calls = self._calls
        if self._results is not None:
            _pair(calls, self._results)  # type: ignore[arg-type]
        if self._named_results is not None:
            _pair_by_name(calls, self._named_results)  # type: ignore[arg-type]
        if self._notes is not None:
            _note(calls, self._notes)  # type: ignore[arg-type]
        return calls  # type: ignore[return-value]

    def _identify(self, calls: list[ToolCall], sightings: list[_Sighting]) -> None:
        """Count each message once (``identify``), moving results and notes with the
        calls they stand after."""
        if len({sighting[0] for sighting in sightings}) == len(sightings):
            return  # no key seen twice: the common case, decided without grouping
        results = self._results
        answered_at: dict[str, int] = {}
        if results is not None:
            for call_id, _, _, _, position in results:
                answered_at.setdefault(call_id, position)
        identified = identify(calls, sightings, answered_at)
        if identified is None:
            return
        self._calls[:], positions = identified
        if results is not None:
            self._results = [
                (call_id, content, failed, status, positions[position])
                for call_id, content, failed, status, position in results
            ]
        if self._named_results is not None:
            self._named_results = [
                (name, content, failed, status, positions[position])
                for name, content, failed, status, position in self._named_results
            ]
        if self._notes is not None:
            self._notes = [
                (positions[key] if type(key) is int else key, status) for key, status in self._notes
            ]

    def _finish_states(self, states: dict[type, object]) -> None:
        done: set[type] = set()
        while len(done) < len(states):  # a finishing state may start another
            for kind, state in list(states.items()):
                if kind not in done:
                    done.add(kind)
                    finish = getattr(state, "finish", None)
                    if finish is not None:
                        finish(self)


# '[0]', '[1]', ...: an item's place is one concatenation, not a format.
_INDEXED = 256
INDICES = tuple(f"[{index}]" for index in range(_INDEXED))


def _pair(calls: list[ToolCall], results: list[_Result]) -> None:
    """Give each result to a call of its id, the one rule of docs/formats.md#tool-results.

    A result answers the first unanswered call of its id among those made since that id's
    previous result (calls of one id take its results in order; a call made after one of
    them was answered starts afresh, as runs that reuse ids do). A result before every
    call of its id then answers the first of them still unanswered.
    """
    waiting: dict[str, list[int]] = {}  # per id: its unanswered calls since its last result
    answered: set[str] = set()  # ids with a result since their last call
    early: list[_Result] = []
    done = 0  # calls[:done] are placed
    for result in results:
        call_id, content, failed, status, position = result
        while done < position:
            _place(calls, done, waiting, answered)
            done += 1
        indices = waiting.get(call_id)
        if indices is None:
            early.append(result)
            continue
        answered.add(call_id)
        if indices:
            _answer(calls, indices.pop(0), content, failed, status)
    if not early:
        return
    # Every call is placed and has waited: an early result takes the first unanswered call
    # of its id, wherever it is (all of them come after it).
    pending: dict[str, list[int]] = {}
    for index, call in enumerate(calls):
        if call.id is not None and _waits(call):
            pending.setdefault(call.id, []).append(index)
    for call_id, content, failed, status, _ in early:
        indices = pending.get(call_id)
        if indices:
            _answer(calls, indices.pop(0), content, failed, status)


def _pair_by_name(calls: list[ToolCall], results: list[_Result]) -> None:
    """Give each result without a call id to the first call made before it of its tool's
    name and no id that no result answers yet: calls of one name take its answers in
    order."""
    for name, content, failed, status, position in results:
        for index in range(min(position, len(calls))):
            call = calls[index]
            if call.id is None and call.name == name and _waits(call):
                _answer(calls, index, content, failed, status)
                break


def _place(
    calls: list[ToolCall], index: int, waiting: dict[str, list[int]], answered: set[str]
) -> None:
    """Let ``calls[index]`` wait for its result (a call that brought its own does not)."""
    call = calls[index]
    call_id = call.id
    if call_id is None:
        return
    indices = waiting.get(call_id)
    if indices is None or call_id in answered:
        indices = waiting[call_id] = []
        answered.discard(call_id)
    if _waits(call):
        indices.append(index)


def _waits(call: ToolCall) -> bool:
    """Whether ``call`` awaits a result: it brought none and did not end (pending at most)."""
    return call.result is None and (call.status is None or call.status == "pending")


def _answer(
    calls: list[ToolCall],
    index: int,
    content: object,
    failed: bool | None,
    status: str | None,
) -> None:
    call = calls[index]
    if status is not None or (failed is not None and failed is not True and failed is not False):
        calls[index] = same_source(
            ToolCall(
                call.name, call.args, call.id, call.parse_error, content, failed, call.agent,
                status,
            ),
            call,
        )  # fmt: skip
        return
    # A bare flag (most results): the call with its answer built as Reading.call builds a
    # call, its other fields a ToolCall's already (0.33 µs, against 1.02 µs through
    # ToolCall's checks; B4's openai-agents run of ten answered calls: 30.5 -> 24.5 µs).
    answered = CallSlots()
    answered.name = call.name
    answered.args = call.args
    answered.id = call.id
    answered.parse_error = call.parse_error
    answered.result = content
    answered.failed = failed
    answered.status = status_of(failed)
    answered.agent = call.agent
    answered._source = getattr(call, "_source", None)
    answered.__class__ = ToolCall
    calls[index] = answered  # type: ignore[call-overload]


def _note(calls: list[ToolCall], notes: list[tuple[str | int, str | None]]) -> None:
    """Give each noted status to the calls of its id, or before its place, whose answer
    says no status of its own: ``"pending"`` to a call no result answers, ``"denied"`` to
    one at most answered by an unmarked or failed output (the message its SDK sends the
    model instead: the Claude Agent SDK marks it an error), ``None`` (approved) to a call
    still marked pending."""
    by_id = {key: status for key, status in notes if type(key) is str}  # the last one wins
    places = [(key, status) for key, status in notes if type(key) is int]
    for index, call in enumerate(calls):
        if call.id in by_id:
            status = by_id[call.id]
        else:
            status = next((noted for place, noted in places if index < place), call.status)
        if status == call.status:
            continue
        if status == "pending":
            applies = _waits(call)
        elif status == "denied":
            applies = call.status is None or call.status in ("pending", "failed")
        else:
            applies = call.status == "pending"
        if applies:
            calls[index] = same_source(
                ToolCall(
                    call.name, call.args, call.id, call.parse_error, call.result, None,
                    call.agent, status,
                ),
                call,
            )  # fmt: skip


_SOURCE = CallSlots.__dict__["_source"]  # the slot, set past Record's guard


def same_source(call: ToolCall, read: ToolCall) -> ToolCall:
    """``call``, a changed copy of ``read``, tagged with ``read``'s reader (its format)."""
    _SOURCE.__set__(call, getattr(read, "_source", None))
    return call


class Pieces:
    """A reading's state for pieces of a stream whose calls a later item holds whole
    (a framework's events before its step or result): read there, the pieces give none.
    Pieces that no such item ends raise at finish, ``ENDS`` saying what was got and what
    to pass; a subclass per stream sets it.

    >>> class Steps(Pieces):
    ...     ENDS = "items without their step; pass every item"
    >>> from toolmatch._readers.dispatch import new_reading
    >>> reading = new_reading()
    >>> reading.state(Steps).piece("input[0]")
    >>> reading.finish()
    Traceback (most recent call last):
    ...
    ValueError: input[0]: items without their step; pass every item
    """

    __slots__ = ("waiting",)
    ENDS = ""

    def __init__(self) -> None:
        self.waiting: str | None = None  # where the first piece no item has ended was read

    def piece(self, where: str) -> None:
        """A piece read at ``where``, which a later item will hold whole."""
        if self.waiting is None:
            self.waiting = where

    def end(self) -> None:
        """The item that holds the pieces before it whole was read."""
        self.waiting = None

    def finish(self, reading: Reading) -> None:
        if self.waiting is not None:
            raise ValueError(f"{self.waiting}: {self.ENDS}")


def no_call(data: object, where: str, reading: Reading) -> None:
    """The handler of a shape known to hold no call and no result (a text block, ...)."""


def refuse(hint: str) -> Callable[[object, str, Reading], None]:
    """A reader for an object users pass by mistake: ``cannot_read`` with ``hint``, which
    says what to pass instead."""

    def read(obj: object, where: str, reading: Reading) -> None:
        raise cannot_read(obj, where, hint)

    return read


def not_a_run(advice: str) -> Callable[[object, str, Reading], None]:
    """A reader for an object that holds no run, such as the agent itself: it says what to
    pass instead."""
    return refuse(f"it holds no run: {advice}")


class NoShapeError(TypeError):
    """``cannot_read``'s error; ``value`` is the value of no accepted shape."""

    def __init__(self, message: str, value: object) -> None:
        super().__init__(message)
        self.value = value


# Said of text that looks like JSON inside the input (a list of span.to_json() texts, say).
_INNER_JSON_TEXT = (
    "JSON text is parsed only when it is the whole input: parse each text first "
    "([json.loads(text) for text in texts])"
)


def cannot_read(obj: object, where: str, hint: str = "") -> NoShapeError:
    """The error for a value of no accepted shape: what it is, where, and where to look.

    >>> print(cannot_read({"q": 1}, "input[0]"))  # doctest: +ELLIPSIS
    to_calls cannot read tool calls from input[0]: {'q': 1} (dict); accepted shapes: https://...
    """
    if obj is None:
        # Usually an SDK's empty field, such as a text-only OpenAI message's tool_calls.
        return NoShapeError(
            f"to_calls got None at {where}; pass the message or response itself "
            "(a message without tool calls gives [])",
            obj,
        )
    found = f"{short_repr(obj)} ({type_name(obj)})"
    if not hint and isinstance(obj, str) and obj.lstrip()[:1] in ("{", "["):
        hint = _INNER_JSON_TEXT
    hint = f"; {hint}" if hint else ""
    return NoShapeError(
        f"to_calls cannot read tool calls from {where}: {found}{hint}; "
        f"accepted shapes: {FORMATS_DOC}",
        obj,
    )


def unknown_value(where: str, key: str, value: str, accepted: Iterable[str]) -> TypeError:
    """The error for a discriminator (``type``, ``role``, ...) no reader knows; it names
    the accepted value only when ``value`` is a likely typo of it (``likely_typo_of``).

    >>> error = unknown_value("input[0]", "type", "tool_usee", ["text", "tool_use"])
    >>> print(str(error).split("; ")[0].split(": ", 1)[1])
    its type 'tool_usee' is not one to_calls knows (nearest accepted: 'tool_use')
    """
    nearest = likely_typo_of(value, accepted)
    near = f" (nearest accepted: {nearest!r})" if nearest is not None else ""
    return TypeError(
        f"to_calls cannot read tool calls from {where}: its {key} {short_repr(value)} is not "
        f"one to_calls knows{near}; accepted shapes: {FORMATS_DOC}"
    )


# How alike a value and an accepted one must be for the value to be a likely typo of it:
# difflib's ratio, ignoring case (docs/formats.md, "Unknown shapes").
TYPO_RATIO = 0.8


def likely_typo_of(value: str, accepted: Iterable[str]) -> str | None:
    """The accepted value ``value`` is most likely a typo of, if any: the most alike one
    whose ratio to it is ``TYPO_RATIO`` or more, ignoring case.

    >>> likely_typo_of("Tool_Usee", ["text", "tool_use"]), likely_typo_of("banana", ["text"])
    ('tool_use', None)
    """
    import difflib  # here, not at the top: `import toolmatch` stays fast

    by_folded: dict[str, str] = {}
    for name in accepted:
        by_folded.setdefault(name.casefold(), name)
    nearest = difflib.get_close_matches(value.casefold(), by_folded, n=1, cutoff=TYPO_RATIO)
    return by_folded[nearest[0]] if nearest else None


def list_at(data: Mapping[str, Any], key: str, where: str) -> list[Any] | tuple[Any, ...] | None:
    """The list ``data[key]`` holds (``None`` when it holds nothing); anything else is a
    ``wrong_shape`` error at ``where.key``."""
    items = data.get(key)
    if type(items) is not list and items is not None:  # JSON: a list, or no key
        items = as_data(items)
        if items is not None and not isinstance(items, (list, tuple)):
            raise wrong_shape(f"{where}.{key}", "a list", items)
    return items


def read_one_option(
    data: Mapping[str, Any], key: str, noun: str, where: str, reading: Reading
) -> None:
    """Read the one option a response holds at ``key`` (``choices``, ``candidates``):
    several are alternative answers, not one turn, and raise ``ValueError``."""
    options = list_at(data, key, where)
    if options is None:
        return
    if len(options) > 1:
        count = len(options)
        raise ValueError(
            f"to_calls cannot read tool calls from {where}: a {noun} with {count} {key} holds "
            f"{count} alternative answers, not one turn; pass the one to check, e.g. "
            f"{noun}.{key}[0]"
        )
    reading.read_each(options, f"{where}.{key}")


def wrong_shape(where: str, expected: str, found: object) -> TypeError:
    """The error for a value of the wrong kind at a known place.

    >>> wrong_shape("input.tool_calls", "a list", 3)
    TypeError('input.tool_calls must be a list, got 3 (int)')
    """
    return TypeError(f"{where} must be {expected}, got {short_repr(found)} ({type_name(found)})")


def parse_arguments(raw: object) -> tuple[dict[str, Any], str | None]:
    """Arguments as a dict, and what was wrong with them (``None`` when nothing was).

    A JSON string is parsed; an empty string or ``None`` means no arguments.

    >>> parse_arguments('{"q": "paris"}')
    ({'q': 'paris'}, None)
    >>> parse_arguments('{"q": ')
    ({}, 'arguments are not valid JSON: Expecting value (line 1, column 7)')
    >>> parse_arguments('{"q": "pa')
    ({}, 'arguments are not valid JSON: Unterminated string starting (line 1, column 7)')
    """
    if raw is None:
        return {}, None
    if isinstance(raw, (dict, Mapping)):  # dict first: a dict skips the slower ABC check
        return dict(raw), None
    if isinstance(raw, (bytes, bytearray)):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str):
        return _json_arguments(raw)
    return (
        {},
        f"arguments are neither a JSON string nor an object: {short_repr(raw)} ({type_name(raw)})",
    )


def _json_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    """``parse_arguments`` for a string."""
    parsed = scan_object(text)
    if parsed is not None:
        return parsed, None
    return _loads_arguments(text)


def scan_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, as ``json.loads`` reads it; ``None`` when the text
    is anything else, for the caller to give ``json.loads`` (and so its errors).

    The common case, one JSON object (and perhaps JSON whitespace after it), goes straight
    through json's C scanner: ``json.loads`` adds a Python layer of whitespace regexes that
    costs as much as a small parse. Leading whitespace, a BOM, bad JSON, another value or
    extra data after it give ``None``.

    >>> scan_object('{"q": "paris"}  '), scan_object(' {"q": 1}'), scan_object('{"q": 1} 2')
    ({'q': 'paris'}, None, None)
    """
    if text and text[0] == "{":
        scan = _scan_once or _json_scanner()
        try:
            parsed, end = scan(text, 0)
        except (StopIteration, ValueError, RecursionError):
            return None
        if end == len(text) or not text[end:].strip(_JSON_WHITESPACE):
            return parsed  # type: ignore[no-any-return]  # text starts with '{': a dict
    return None


def _loads_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    if not text.strip():
        return {}, None
    import json  # here, not at the top: `import toolmatch` stays fast

    try:
        parsed = json.loads(text)
    except ValueError as error:
        where = ""
        if isinstance(error, json.JSONDecodeError):  # its own str() repeats "at" words
            error_text = error.msg.removesuffix(" at")
            where = f" (line {error.lineno}, column {error.colno})"
        else:
            error_text = str(error)
        return {}, f"arguments are not valid JSON: {error_text}{where}"
    if not isinstance(parsed, dict):
        return {}, f"arguments are JSON but not an object: {short_repr(parsed)}"
    return parsed, None


_scan_once: Callable[[str, int], tuple[Any, int]] | None = None
_JSON_WHITESPACE = " \t\n\r"  # what json.loads skips around a value


def _json_scanner() -> Callable[[str, int], tuple[Any, int]]:
    """The scanner ``json.loads`` parses with, made on first use (``json`` loads lazily):
    a decoder with the default options, like the one ``json.loads`` keeps."""
    global _scan_once
    import json

    scan: Callable[[str, int], tuple[Any, int]] = vars(json.JSONDecoder())["scan_once"]
    _scan_once = scan
    return scan


def as_data(obj: object) -> object:
    """``obj`` as plain data: SDK objects become dicts, one level at a time.

    >>> from types import SimpleNamespace
    >>> as_data(SimpleNamespace(name="search", args={"q": "x"}))
    {'name': 'search', 'args': {'q': 'x'}}
    """
    # Concrete types first (isinstance tries them in order): JSON data skips the ABC check.
    if obj is None or isinstance(obj, _PLAIN_TYPES):
        return obj
    model_dump = getattr(obj, "model_dump", None)
    if callable(model_dump):
        return model_dump()
    to_dict = getattr(obj, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    # A dataclass instance can only exist once its module is loaded: no need to import it.
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None and dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {field.name: getattr(obj, field.name) for field in dataclasses.fields(obj)}
    probed: dict[str, object] = {}
    for attribute in _PROBED_ATTRIBUTES:
        try:
            value = getattr(obj, attribute)
        except Exception:  # a missing attribute, or a property that fails: not this shape
            continue
        if not callable(value):
            probed[attribute] = value
    return probed or obj
