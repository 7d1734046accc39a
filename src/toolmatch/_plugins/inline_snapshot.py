"""toolmatch inside inline-snapshot: calls are written as ``ToolCall(...)``, matchers are kept.

inline-snapshot (0.32 and later) loads this module through the ``inline_snapshot`` entry
point whenever it starts; pytest's toolmatch plugin calls :func:`keep_matchers` once the
session's snapshot state exists. See docs/pytest.md, "Snapshots with inline-snapshot".
"""

from __future__ import annotations

from inspect import signature

from inline_snapshot import declare_unmanaged
from inline_snapshot.plugin import Builder, Custom, InlineSnapshotPluginSpec, customize

from toolmatch._calls.call import OPTIONAL_FIELDS, ToolCall, said_status, shown_fields
from toolmatch._matchers.base import Matcher

__all__ = ["keep_matchers", "tool_call_code"]


def _call_code(value: object, builder: Builder, written: object) -> Custom | None:
    """A ``ToolCall`` as the call that builds it: ``ToolCall(name=..., args=...)``.

    A call node, not its repr as text, so that inline-snapshot imports ``ToolCall`` into the
    test module, writes the arguments with its own rules, and compares a recorded call field
    by field: a matcher the user put in a field or in ``args`` is left where it is.
    ``written`` is the call in the snapshot now, when inline-snapshot says which.
    """
    if not isinstance(value, ToolCall):
        return None
    fields: dict[str, object] = {}
    for field in OPTIONAL_FIELDS:  # each written only when set, as the repr
        # The status only where failed does not say it, as the repr.
        recorded = said_status(value) if field == "status" else getattr(value, field)
        if isinstance(written, ToolCall) and isinstance(shown_fields(written).get(field), Matcher):
            # Not marked as a default: inline-snapshot would drop `id=ANY` when the id is None.
            fields[field] = recorded
        else:
            fields[field] = builder.with_default(recorded, None)
    return builder.create_call(ToolCall, [], {"name": value.name, "args": value.args, **fields})


# inline-snapshot 0.36 passes the snapshot's current value; earlier versions refuse a hook
# that asks for it.
if "snapshot_value" in signature(InlineSnapshotPluginSpec.customize).parameters:

    @customize
    def tool_call_code(value: object, builder: Builder, snapshot_value: object) -> Custom | None:
        """See :func:`_call_code`."""
        return _call_code(value, builder, snapshot_value)

else:  # 0.32 to 0.35: there, `update` drops a matcher for a field whose recorded value is None

    @customize
    def tool_call_code(value: object, builder: Builder) -> Custom | None:
        """See :func:`_call_code`."""
        return _call_code(value, builder, None)


def keep_matchers() -> None:
    """Declare toolmatch's matchers unmanaged: inline-snapshot never rewrites one.

    Its ``fix`` and ``update`` then change the literal values around a matcher and leave
    the matcher as written, as they do for dirty-equals'.
    """
    declare_unmanaged(Matcher)  # type: ignore[no-untyped-call]  # inline-snapshot has no hints here
