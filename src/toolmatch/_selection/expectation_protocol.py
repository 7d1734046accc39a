"""What the judge and the results read of an expected tool: :class:`Expected`.

:class:`ExpectedTool` is the one kind there is, but it judges its own calls through the
turn engine; typed against this protocol instead, the engine, its reasons and the results
sit below it and import nothing of it. The protocol is for type checkers only: defining it
would import :mod:`typing`, which ``import toolmatch`` does not pay for.
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Mapping, Sequence
    from typing import Any, Protocol

    from toolmatch._calls.call import ToolCall
    from toolmatch._matchers.base import Matcher, Mismatch

    class Expected(Protocol):
        """An expected tool call, as :class:`ExpectedTool` makes it (see there)."""

        name: str | Matcher
        args: Mapping[str, Any] | Matcher | None
        count: int
        max_count: int | None
        result: object
        failed: bool | None
        id: str | None
        before: tuple[str, ...]
        after: tuple[str, ...]
        optional: bool
        first: bool
        last: bool
        _selects: Callable[[str], bool]
        _args_check: Callable[[object], bool] | None
        _call_check: Callable[[ToolCall], bool] | None
        _literal_key: tuple[tuple[str, ...], tuple[Hashable, ...]] | None
        _requirement: str
        _asserted: tuple[Any, ...]

        @property
        def is_never(self) -> bool: ...
        def _unrecorded(self, call: ToolCall) -> str | None: ...
        def _call_matches(self, call: ToolCall) -> bool: ...
        def _explain_call(self, call: ToolCall) -> tuple[Mismatch, ...]: ...
        def _credit(self, mismatches: Sequence[Mismatch]) -> tuple[int, int]: ...
        def _no_candidate_text(self, calls: Sequence[ToolCall], left_out: str = "") -> str: ...
        def _json_head(self) -> dict[str, Any]: ...


__all__ = ["NO_RESULT"]

NO_RESULT = "no recorded result"
"""The mismatch of a call with no result where one is asserted: its reason says only that."""
