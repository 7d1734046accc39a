"""Spec data from tau2-bench tasks (``data/tau2/domains/<domain>/tasks.json``).

Each task's ``evaluation_criteria.actions`` are the tool calls it expects, each with
``name``, ``arguments`` and ``compare_args`` (the arguments compared; those the call
passes when ``null`` or missing, none when empty). The spec says what tau2-bench's
``ActionEvaluator`` decides: each action is looked for among all the calls on its own,
in any order, so one call may stand for two equal actions (a turn that is neither
``distinct`` nor ``ordered``). What each becomes is in docs/importers.md.
"""

from __future__ import annotations

from toolmatch._core.json_entries import read_json_entries
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.importing import case_name, escaped, exact_name, loadable, refused

if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike
    from typing import Any

__all__ = ["import_tau2"]


@public
def import_tau2(tasks: str | PathLike[str] | Sequence[object]) -> dict[str, Any]:
    """Spec data (what :func:`load_test_cases` reads) from tau2-bench tasks.

    ``tasks`` is a ``tasks.json`` file (a JSON list) or its tasks, parsed. One case per
    task, named by its ``id``, one turn of its actions in any order (one call may satisfy
    two equal actions, as in tau2-bench), each an exact tool name with only its
    ``compare_args`` asserted; see docs/importers.md.

    >>> task = {"id": "7", "evaluation_criteria": {"actions": [
    ...     {"action_id": "7_0", "name": "cancel", "arguments": {"id": "X1", "why": "late"},
    ...      "compare_args": ["id"]}]}}
    >>> import_tau2([task])["test_cases"][0]
    {'name': '7', 'expected_tools': [{'name': {'$literal': 'cancel'}, 'args': {'id': 'X1'}}]}
    """
    cases = []
    places = []
    first: dict[str, str] = {}
    for where, task in read_json_entries(tasks, "tasks"):
        task_id = task.get("id") if isinstance(task, dict) else None
        if isinstance(task_id, bool) or not isinstance(task_id, (str, int)):
            raise refused(f"{where}: a tau2-bench task must be an object with an id", task)
        # 7 and "7" are one case name: the second is a duplicate.
        name = case_name(str(task_id), where, first, "task")
        place = f"{where} ({name})"
        criteria = task.get("evaluation_criteria")
        actions = (
            None
            if criteria is None
            else _field(criteria, "actions", list, f"{place}.evaluation_criteria")
        )
        expected = [
            _action(action, f"{place}.evaluation_criteria.actions[{index}]")
            for index, action in enumerate(actions or [])
        ]
        # No `distinct`: tau2-bench looks for each action among all the calls on its own.
        cases.append({"name": name, "expected_tools": expected})
        places.append(place)
    return loadable(cases, places, tasks, "tasks")


def _field(mapping: object, key: str, kind: type, place: str) -> Any:
    if not isinstance(mapping, dict):
        raise refused(f"{place}: must be an object", mapping)
    value = mapping.get(key)
    if value is not None and not isinstance(value, kind):
        raise refused(f"{place}.{key}: must be a {kind.__name__} or null", value)
    return value


def _action(action: object, place: str) -> dict[str, Any]:
    name = _field(action, "name", str, place)
    if not name:
        raise ValueError(f"{place}.name: missing; an action needs the tool's name")
    arguments = _field(action, "arguments", dict, place) or {}
    compared = _field(action, "compare_args", list, place)
    tool: dict[str, Any] = {"name": exact_name(name)}
    if compared is None:
        # tau2-bench then compares the arguments the call passes: each may be left out,
        # none may be added, and those passed must equal the action's.
        tool["exact"] = True
        if arguments:
            tool["args"] = {key: {"$maybe": escaped(value)} for key, value in arguments.items()}
        return tool
    for index, key in enumerate(compared):
        if not isinstance(key, str):
            raise refused(
                f"{place}.compare_args[{index}]: must be an argument name (a string)", key
            )
    # A compared argument the action lacks: tau2-bench wants the call to lack it too.
    args = {
        key: escaped(arguments[key]) if key in arguments else {"$absent": True} for key in compared
    }
    if args:
        tool["args"] = args
    return tool
