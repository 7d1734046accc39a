"""toolmatch's pytest plugin: failing ``==`` assertions on matchers explain every mismatch.

Registered through the ``pytest11`` entry point, so it is active once toolmatch is
installed. It lives outside the ``toolmatch`` package so that pytest's start-up does not
pay for importing toolmatch; the hook imports it only when an assertion has failed.
"""

from __future__ import annotations

import sys

import pytest  # already loaded: pytest is what imports this plugin


def pytest_assertrepr_compare(
    config: pytest.Config, op: str, left: object, right: object
) -> list[str] | None:
    """Explain a failed ``left == right`` in which toolmatch takes part; else leave it to pytest."""
    if op != "==" or "toolmatch" not in sys.modules:
        return None  # without toolmatch imported, no matcher can be in the comparison
    from toolmatch._plugins.pytest_plugin import explain_comparison

    return explain_comparison(left, right)


@pytest.hookimpl(trylast=True)  # after inline-snapshot's own, which makes the session's state
def pytest_configure(config: pytest.Config) -> None:
    """With inline-snapshot active, let its fixes keep the matchers written in snapshots."""
    if not config.pluginmanager.has_plugin("inline_snapshot"):
        return
    try:
        from toolmatch._plugins.inline_snapshot import keep_matchers
    except ImportError as error:  # before 0.32, inline-snapshot had no plugin hooks
        message = (
            f"toolmatch needs inline-snapshot 0.32 or later ({error}): until then, "
            "--inline-snapshot=fix rewrites the toolmatch matchers in snapshots"
        )
        config.issue_config_time_warning(pytest.PytestConfigWarning(message), stacklevel=2)
        return
    keep_matchers()
