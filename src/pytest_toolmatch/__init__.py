"""toolmatch's pytest plugin: failing ``==`` assertions on matchers explain every mismatch.

Registered through the ``pytest11`` entry point, so it is active once toolmatch is
installed. It lives outside the ``toolmatch`` package so that pytest's start-up does not
pay for importing toolmatch; the hook imports it only when an assertion has failed.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    import pytest


def pytest_assertrepr_compare(
    config: pytest.Config, op: str, left: object, right: object
) -> list[str] | None:
    """Explain a failed ``left == right`` in which toolmatch takes part; else leave it to pytest."""
    if op != "==" or "toolmatch" not in sys.modules:
        return None  # without toolmatch imported, no matcher can be in the comparison
    from toolmatch._pytest_plugin import explain_comparison

    return explain_comparison(left, right)
