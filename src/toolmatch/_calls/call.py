"""``ToolCall``: one tool call, whatever provider format it arrived in."""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.values import ANY

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

__all__ = [
    "CallSlots",
    "FAILED_OF_STATUS",
    "OPTIONAL_FIELDS",
    "STATUSES",
    "ToolCall",
    "checked_call",
    "matcher_fields",
    "said_status",
    "shown_fields",
    "status_of",
]

_FIELDS: Final = ("name", "args", "id", "parse_error", "result", "failed", "agent", "status")
# The fields after args, each shown (repr, snapshot code) only when set.
OPTIONAL_FIELDS = _FIELDS[2:]

# How a call ended, and the failed flag each status means (docs/formats.md, "Call status"):
# the tool ran and answered, ran and reported an error, the request for it was an error
# (an MCP JSON-RPC error: the tool never ran), it was denied, it awaits approval.
FAILED_OF_STATUS: dict[str, bool | None] = {
    "succeeded": False,
    "failed": True,
    "error": True,
    "denied": None,
    "pending": None,
}
STATUSES = tuple(FAILED_OF_STATUS)


class CallSlots:
    """A ``ToolCall``'s storage without ``Record``'s guard against setting attributes: a
    reader builds each call it reads as one of these and then makes it a ``ToolCall``
    (``Reading.call``), since plain slot stores cost a quarter of ``object.__setattr__``'s.

    Its fields are ``ToolCall``'s (documented there). ``_source`` is no field: the reader
    that read the call, set where a reading made it (``toolmatch._readers.records`` names
    its format in errors); unset on a call built by hand, and left out of ``==``, the repr
    and pickles."""

    __slots__ = (*_FIELDS, "_source")

    name: str
    args: dict[str, Any]
    id: str | None
    parse_error: str | None
    result: Any
    failed: bool | None
    agent: str | None
    status: str | None
    _source: object


def checked_call(
    name: str,
    args: dict[str, Any],
    call_id: str | None,
    parse_error: str | None,
    result: object,
    failed: bool | None,
    status: str | None,
    agent: str | None,
    source: object,
) -> ToolCall:
    """A ``ToolCall`` of values a reader has checked, read by ``source``: built without
    ``ToolCall.__init__``'s checks, as a reading builds each call it reads.

    >>> checked_call("search", {"q": "x"}, "c1", None, None, False, "succeeded", None, None)
    ToolCall(name='search', args={'q': 'x'}, id='c1', failed=False)
    """
    call = CallSlots()
    call.name = name
    call.args = args
    call.id = call_id
    call.parse_error = parse_error
    call.result = result
    call.failed = failed
    call.status = status
    call.agent = agent
    call._source = source
    call.__class__ = ToolCall
    return call  # type: ignore[return-value]  # its class is ToolCall now


def status_of(failed: bool | None) -> str | None:
    """The status a bare failed flag says: a trace that records only the flag."""
    return None if failed is None else ("failed" if failed else "succeeded")


@public
class ToolCall(CallSlots, Record):
    """A tool call: the tool's ``name``, its ``args`` dict, the provider's call ``id``.

    ``parse_error`` is set when the provider's arguments could not be read as a JSON
    object; ``args`` is then ``{}`` and any assertion on the arguments fails with it.
    ``result`` is what the tool returned, as the trace records it (``None`` when it records
    none), and ``failed`` says whether the trace marks the call as failed (``None`` when it
    does not say). ``agent`` names who made the call where the trace records it (an
    openai-agents agent, a LangGraph node, tau2's ``"user"`` or ``"assistant"``;
    docs/formats.md, "Who made the call"), else ``None``. ``status`` says how the call
    ended: ``"succeeded"``, ``"failed"`` (the tool reported an error), ``"error"`` (the
    request was an error, the tool never ran), ``"denied"``, ``"pending"`` (awaiting
    approval), or ``None`` when the trace does not say. ``failed`` and ``status`` never
    disagree: ``failed`` is ``True`` for ``"failed"`` and ``"error"``, ``False`` for
    ``"succeeded"``, ``None`` otherwise; either one given alone sets the other (a bare
    ``failed=True`` is ``"failed"``), and two that disagree are refused. Immutable and
    compared by value; the repr shows the fields after ``args`` only when they are set, and
    is the code that builds the call.

    >>> ToolCall("search", {"q": "paris"})
    ToolCall(name='search', args={'q': 'paris'})
    >>> ToolCall("search", {}, id="call_1", result="ok", failed=False)
    ToolCall(name='search', args={}, id='call_1', result='ok', failed=False)
    >>> ToolCall("refund", {"order": 7}, agent="Billing")
    ToolCall(name='refund', args={'order': 7}, agent='Billing')
    >>> ToolCall("refund", {"order": 7}, status="denied")
    ToolCall(name='refund', args={'order': 7}, status='denied')
    >>> ToolCall("search", {}, failed=True).status
    'failed'
    >>> ToolCall("search", {"q": "paris"}) == ToolCall("search", {"q": "paris"})
    True

    The repr shows ``status`` only where ``failed`` does not already say it. Every field
    takes part in ``==``, ``status`` and ``agent`` too: an expected call written without one
    is not equal to a recorded call that has one (write ``agent=ANY``, docs/pytest.md).

    A toolmatch matcher may stand for any field (or inside ``args``): the call is then an
    expected one, for ``==`` against recorded calls (as in a loosened snapshot,
    docs/pytest.md); ``to_calls`` refuses it as a recorded call.

    >>> from toolmatch import ANY, Partial, StartsWith
    >>> expected = ToolCall("search", Partial({"q": "paris"}), id=StartsWith("call_"))
    >>> ToolCall("search", {"q": "paris", "limit": 5}, id="call_9") == expected
    True
    """

    __slots__ = ()
    _fields = __match_args__ = _FIELDS
    __hash__ = None  # type: ignore[assignment]  # args is a dict, so a call is unhashable

    def __init__(
        self,
        name: str | Matcher,
        args: dict[str, Any] | Matcher | None = None,
        id: str | Matcher | None = None,
        parse_error: str | Matcher | None = None,
        result: object = None,
        failed: bool | Matcher | None = None,
        agent: str | Matcher | None = None,
        status: str | Matcher | None = None,
    ) -> None:
        # The usual values (a str, a dict, None) pass each check at its first test.
        if type(name) is not str:
            _check_name(name)
        if type(args) is not dict:
            args = _checked_args(args)
        if (
            type(id) not in _OPTIONAL_TEXT
            or type(parse_error) not in _OPTIONAL_TEXT
            or type(agent) not in _OPTIONAL_TEXT
        ):
            _check_texts(id, parse_error, agent)
        if failed is not None or status is not None:
            failed, status = _failed_and_status(failed, status)
        self._assign(name, args, id, parse_error, result, failed, agent, status)

    def __repr__(self) -> str:
        return self._repr_with(repr)

    def _repr_with(self, write: Callable[[object], str]) -> str:
        """The repr, each value written by ``write`` (``short_repr``'s, in messages)."""
        shown = [f"name={write(self.name)}", f"args={write(self.args)}"]
        shown += [f"{field}={write(value)}" for field, value in shown_fields(self).items()]
        return f"ToolCall({', '.join(shown)})"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the call (``result`` as the trace holds it); ``agent`` only
        when it is set and ``status`` only where ``failed`` does not already say it, so a
        call of a format that records neither is written as before.

        >>> ToolCall("search", {"q": "paris"}, id="call_1", result="sunny").as_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'name': 'search', 'args': {'q': 'paris'}, 'id': 'call_1', 'parse_error': None,
         'result': 'sunny', 'failed': None}
        """
        data = dict(zip(self._fields, self._values(), strict=True))
        if data["agent"] is None:
            del data["agent"]
        if said_status(self) is None:
            del data["status"]
        return data


_OPTIONAL_TEXT = frozenset({str, type(None)})


def _check_name(name: object) -> None:
    if not isinstance(name, (str, Matcher)):
        raise TypeError(f"ToolCall name must be a str, got {short_repr(name)}")


def _checked_args(args: object) -> dict[str, Any] | Matcher:
    """``args`` other than a plain dict: ``None`` as ``{}``, a dict subclass or a matcher as
    it is; raises ``TypeError`` for anything else."""
    if args is None:
        return {}
    if not isinstance(args, (dict, Matcher)):
        raise TypeError(f"ToolCall args must be a dict, got {short_repr(args)} ({type_name(args)})")
    return args


def _check_texts(id: object, parse_error: object, agent: object) -> None:
    for field, value in (("id", id), ("parse_error", parse_error), ("agent", agent)):
        if value is not None and not isinstance(value, (str, Matcher)):
            raise TypeError(f"ToolCall {field} must be a str or None, got {short_repr(value)}")


def _failed_and_status(failed: object, status: object) -> tuple[Any, Any]:
    """``failed`` and ``status`` made to agree: each given one says the other (a matcher for
    either stands for any value of the other); raises for a flag that is not a bool, an
    unknown status, or two that contradict each other (:func:`_failed_for`)."""
    if (
        failed is not None
        and failed is not True
        and failed is not False
        and not isinstance(failed, Matcher)
    ):
        raise TypeError(f"ToolCall failed must be a bool or None, got {short_repr(failed)}")
    if status is None:
        # A matcher for failed stands for the status too: any status, as failed says.
        return failed, ANY if isinstance(failed, Matcher) else status_of(failed)
    if isinstance(status, Matcher):
        return ANY if failed is None else failed, status
    return _failed_for(status, failed), status


def _failed_for(status: object, failed: object) -> bool | None:
    """The failed flag of ``status``, refusing an unknown status or a flag it contradicts."""
    if type(status) is not str:
        raise TypeError(
            f"ToolCall status must be a str, a matcher or None, got {short_repr(status)} "
            f"({type_name(status)})"
        )
    if status not in FAILED_OF_STATUS:
        raise ValueError(
            f"ToolCall status must be one of {', '.join(map(repr, STATUSES))}, a matcher "
            f"or None, got {short_repr(status)}"
        )
    implied = FAILED_OF_STATUS[status]
    if failed is None or isinstance(failed, Matcher):
        return implied if failed is None else failed  # type: ignore[return-value]
    if failed is not implied:
        raise ValueError(
            f"ToolCall failed={failed!r} disagrees with status={status!r}: failed is True "
            "for 'failed' and 'error', False for 'succeeded', None for 'denied' and 'pending'"
        )
    return implied


def said_status(call: ToolCall) -> object:
    """``call.status`` where ``failed`` does not already say it (denied, pending, error, a
    matcher of its own), else ``None``: what the repr, reports and snapshots show."""
    status, failed = call.status, call.failed
    if status is None:
        return None
    if isinstance(failed, Matcher):
        return None if status is ANY else status
    return None if type(status) is str and status_of(failed) == status else status


def shown_fields(call: ToolCall) -> dict[str, object]:
    """The fields after ``args`` that the repr and snapshot code write: those set, with
    ``status`` where ``failed`` does not say it and ``failed`` where ``status`` does not."""
    status = said_status(call)
    shown = {}
    for field in OPTIONAL_FIELDS:
        value = status if field == "status" else getattr(call, field)
        if field == "failed" and value is ANY and status is not None:
            continue  # the ANY that a status matcher stands for
        if value is not None:
            shown[field] = value
    return shown


def matcher_fields(call: ToolCall) -> list[str]:
    """The fields of ``call`` that hold a matcher (not inside ``args``): an expected call's.

    >>> from toolmatch import ANY
    >>> matcher_fields(ToolCall("search", ANY, id=ANY)), matcher_fields(ToolCall("search"))
    (['args', 'id'], [])
    """
    fields = {"name": call.name, "args": call.args, **shown_fields(call)}
    return [field for field, value in fields.items() if isinstance(value, Matcher)]
