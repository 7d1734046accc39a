"""``ToolCall``: one tool call, whatever provider format it arrived in."""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.record import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["OPTIONAL_FIELDS", "ToolCall", "matcher_fields"]

# The fields after args, each shown (repr, snapshot code) only when set.
OPTIONAL_FIELDS = ("id", "parse_error", "result", "failed", "agent")


class _Slots:
    """A ``ToolCall``'s storage without ``Record``'s guard against setting attributes: a
    reader builds each call it reads as one of these and then makes it a ``ToolCall``
    (``Reading.call``), since plain slot stores cost a quarter of ``object.__setattr__``'s."""

    __slots__ = ("name", "args", "id", "parse_error", "result", "failed", "agent")

    name: str
    args: dict[str, Any]
    id: str | None
    parse_error: str | None
    result: Any
    failed: bool | None
    agent: str | None


@public
class ToolCall(_Slots, Record):
    """A tool call: the tool's ``name``, its ``args`` dict, the provider's call ``id``.

    ``parse_error`` is set when the provider's arguments could not be read as a JSON
    object; ``args`` is then ``{}`` and any assertion on the arguments fails with it.
    ``result`` is what the tool returned, as the trace records it (``None`` when it records
    none), and ``failed`` says whether the trace marks the call as failed (``None`` when it
    does not say). ``agent`` names who made the call where the trace records it (an
    openai-agents agent, a LangGraph node, tau2's ``"user"`` or ``"assistant"``;
    docs/formats.md, "Who made the call"), else ``None``. Immutable and compared by value;
    the repr shows the fields after ``args`` only when they are set, and is the code that
    builds the call.

    >>> ToolCall("search", {"q": "paris"})
    ToolCall(name='search', args={'q': 'paris'})
    >>> ToolCall("search", {}, id="call_1", result="ok", failed=False)
    ToolCall(name='search', args={}, id='call_1', result='ok', failed=False)
    >>> ToolCall("refund", {"order": 7}, agent="Billing")
    ToolCall(name='refund', args={'order': 7}, agent='Billing')
    >>> ToolCall("search", {"q": "paris"}) == ToolCall("search", {"q": "paris"})
    True

    Every field takes part in ``==``, ``agent`` too: an expected call written without one
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
    _fields = _Slots.__slots__
    __match_args__ = ("name", "args", "id", "parse_error", "result", "failed", "agent")
    __hash__ = None  # type: ignore[assignment]  # args is a dict, so a call is unhashable

    name: str
    args: dict[str, Any]
    id: str | None
    parse_error: str | None
    result: Any
    failed: bool | None
    agent: str | None

    def __init__(
        self,
        name: str | Matcher,
        args: dict[str, Any] | Matcher | None = None,
        id: str | Matcher | None = None,
        parse_error: str | Matcher | None = None,
        result: object = None,
        failed: bool | Matcher | None = None,
        agent: str | Matcher | None = None,
    ) -> None:
        # Exact-type checks first: the common arguments pass them at once.
        if type(name) is not str and not isinstance(name, (str, Matcher)):
            raise TypeError(f"ToolCall name must be a str, got {short_repr(name)}")
        if type(args) is not dict:
            if args is None:
                args = {}
            elif not isinstance(args, (dict, Matcher)):
                raise TypeError(
                    f"ToolCall args must be a dict, got {short_repr(args)} ({type_name(args)})"
                )
        if (
            (id is not None and type(id) is not str)
            or (parse_error is not None and type(parse_error) is not str)
            or (agent is not None and type(agent) is not str)
        ):
            for field, value in (("id", id), ("parse_error", parse_error), ("agent", agent)):
                if value is not None and not isinstance(value, (str, Matcher)):
                    raise TypeError(
                        f"ToolCall {field} must be a str or None, got {short_repr(value)}"
                    )
        if (
            failed is not None
            and failed is not True
            and failed is not False
            and not isinstance(failed, Matcher)
        ):
            raise TypeError(f"ToolCall failed must be a bool or None, got {short_repr(failed)}")
        self._assign(name, args, id, parse_error, result, failed, agent)

    def __repr__(self) -> str:
        return self._repr_with(repr)

    def _repr_with(self, write: Callable[[object], str]) -> str:
        """The repr, each value written by ``write`` (``short_repr``'s, in messages)."""
        shown = [f"name={write(self.name)}", f"args={write(self.args)}"]
        for field in OPTIONAL_FIELDS:
            value = getattr(self, field)
            if value is not None:
                shown.append(f"{field}={write(value)}")
        return f"ToolCall({', '.join(shown)})"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the call (``result`` as the trace holds it); ``agent`` only
        when it is set, so a call of a format that records none is written as before.

        >>> ToolCall("search", {"q": "paris"}, id="call_1", result="sunny").as_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'name': 'search', 'args': {'q': 'paris'}, 'id': 'call_1', 'parse_error': None,
         'result': 'sunny', 'failed': None}
        """
        data = dict(zip(self._fields, self._values(), strict=True))
        if data["agent"] is None:
            del data["agent"]
        return data


def matcher_fields(call: ToolCall) -> list[str]:
    """The fields of ``call`` that hold a matcher (not inside ``args``): an expected call's.

    >>> from toolmatch import ANY
    >>> matcher_fields(ToolCall("search", ANY, id=ANY)), matcher_fields(ToolCall("search"))
    (['args', 'id'], [])
    """
    return [field for field in call._fields if isinstance(getattr(call, field), Matcher)]
