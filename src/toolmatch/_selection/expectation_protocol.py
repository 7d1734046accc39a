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

        @property
        def name(self) -> str | Matcher: ...
        @property
        def args(self) -> Mapping[str, Any] | Matcher | None: ...
        @property
        def count(self) -> int: ...
        @property
        def max_count(self) -> int | None: ...
        @property
        def result(self) -> object: ...
        @property
        def failed(self) -> bool | None: ...
        @property
        def is_never(self) -> bool: ...
        @property
        def id(self) -> str | None: ...
        @property
        def _selects(self) -> Callable[[str], bool]: ...
        @property
        def _args_check(self) -> Callable[[object], bool] | None: ...
        @property
        def _call_check(self) -> Callable[[ToolCall], bool] | None: ...
        @property
        def _literal_key(self) -> tuple[tuple[str, ...], tuple[Hashable, ...]] | None: ...
        @property
        def _requirement(self) -> str: ...
        def _call_matches(self, call: ToolCall) -> bool: ...
        def _explain_call(self, call: ToolCall) -> tuple[Mismatch, ...]: ...
        def _credit(self, mismatches: Sequence[Mismatch]) -> tuple[int, int]: ...
        def _no_candidate_text(self, calls: Sequence[ToolCall]) -> str: ...


__all__ = ["NO_RESULT"]

NO_RESULT = "no recorded result"
"""The mismatch of a call with no result where one is asserted: its reason says only that."""
