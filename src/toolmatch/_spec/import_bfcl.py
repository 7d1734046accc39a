"""Spec data from the Berkeley Function Calling Leaderboard's ground truth (``bfcl-eval``).

A possible-answer file is JSON Lines, one entry a line: ``{"id", "ground_truth"}``. A
single-turn entry's ground truth is a list of calls, each ``{"function": {"param":
[acceptable values]}}``; a multi-turn entry's is a list of turns, each a list of calls
written as Python (``cd(folder='docs')``). What each becomes is in docs/importers.md.
"""

from __future__ import annotations

from toolmatch._calls.definitions import function_docs
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.json_entries import read_json_entries
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.importing import case_name, escaped, exact_name, loadable, refused

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from os import PathLike
    from typing import Any

    from toolmatch._calls.definitions import ToolDefinition

__all__ = ["import_bfcl"]

# BFCL's mark for "this parameter may be left out".
_OMITTED = ""


@public
def import_bfcl(
    possible_answers: str | PathLike[str] | Sequence[object],
    functions: str | PathLike[str] | Sequence[object] | None = None,
) -> dict[str, Any]:
    """Spec data (what :func:`load_test_cases` reads) from BFCL's possible answers.

    ``possible_answers`` is a possible-answer file (JSON Lines) or its entries, parsed;
    ``functions``, the function docs that name positional arguments in multi-turn ground
    truth: a file of them (JSON Lines, or one JSON list), a list of such files, or the
    docs, parsed. One case per entry, named by its ``id``; see docs/importers.md for
    what each answer becomes.

    >>> entry = {"id": "simple_python_0", "ground_truth": [
    ...     {"area": {"base": [10], "unit": ["units", ""], "note": [""]}}]}
    >>> spec = import_bfcl([entry])
    >>> spec["test_cases"][0]["expected_tools"][0]["args"]
    {'base': {'$one_of': [10]}, 'unit': {'$maybe': {'$one_of': ['units']}}, \
'note': {'$absent': True}}
    """
    entries = read_json_entries(possible_answers, "possible_answers")
    # Read once: every multi-turn call is named from the same definitions.
    tools = None if functions is None else function_docs(functions)
    cases = []
    places = []
    first: dict[str, str] = {}
    for where, entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise refused(
                f"{where}: a BFCL entry must be an object with an id and a ground_truth", entry
            )
        truth = entry.get("ground_truth")
        if not isinstance(truth, list):
            found = (
                "missing"
                if "ground_truth" not in entry
                else f"{short_repr(truth)} ({type_name(truth)})"
            )
            raise ValueError(f"{where} ({entry['id']}): ground_truth must be a list, got {found}")
        name = case_name(entry["id"], where, first, "entry")
        if truth and all(isinstance(turn, list) for turn in truth):
            cases.append(_multi_turn(name, truth, tools, where))
        else:
            cases.append(_single_turn(name, truth, where))
        places.append(f"{where} ({name})")
    return loadable(cases, places, possible_answers, "possible_answers")


def _single_turn(name: str, truth: list[Any], where: str) -> dict[str, Any]:
    expected = []
    for index, call in enumerate(truth):
        place = f"{where} ({name}), ground_truth[{index}]"
        if not isinstance(call, dict) or len(call) != 1:
            raise refused(f"{place}: a call must be an object with one function name", call)
        [(function, parameters)] = call.items()
        if not isinstance(parameters, dict):
            raise refused(f"{place}.{function}: the parameters must be an object", parameters)
        args = {
            parameter: _parameter(values, f"{place}.{function}.{parameter}")
            for parameter, values in parameters.items()
        }
        expected.append({"name": exact_name(function), "exact": True, "args": args})
    # BFCL fails a wrong number of calls: exhaustive asks every call to be expected.
    case: dict[str, Any] = {"name": name, "expected_tools": expected, "exhaustive": True}
    if len(expected) > 1:
        case["distinct"] = True
    return case


def _parameter(values: object, place: str) -> Any:
    """A parameter's acceptable values, as one value position."""
    if not isinstance(values, list):
        raise refused(f"{place}: the acceptable values must be a list", values)
    return _choices(values, _acceptable)


def _choices(values: list[Any], read: Callable[[Any], Any]) -> Any:
    """``$one_of`` the values ``read`` makes of the acceptable ones; ``$maybe`` of it when
    BFCL's ``""`` is among them, ``$absent`` when only that is."""
    kept = [read(value) for value in values if value != _OMITTED]
    if not kept:
        # [] accepts nothing at all: BFCL can never pass such a parameter, nor can this.
        return {"$absent": True} if values else {"$not": {"$any": True}}
    one_of = {"$one_of": kept}
    return {"$maybe": one_of} if len(kept) < len(values) else one_of


def _acceptable(value: object) -> Any:
    """One acceptable value: a dict answer (each key its own acceptable values) is read
    key by key, and so is each dict of a list of them, as BFCL's checker reads them; any
    other value is compared as written."""
    if _is_dict_answer(value):
        return _dict_answer(value)  # type: ignore[arg-type]
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return [_dict_answer(item) if _is_dict_answer(item) else escaped(item) for item in value]
    return escaped(value)


def _is_dict_answer(value: object) -> bool:
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(values, list) for values in value.values())
    )


def _dict_answer(answer: dict[str, list[Any]]) -> Any:
    # Inside a dict answer BFCL compares each value as written (it does not recurse).
    data = {key: _choices(values, escaped) for key, values in answer.items()}
    return escaped(data, holds_matchers=True)


def _multi_turn(
    name: str, truth: list[list[Any]], docs: list[ToolDefinition] | None, where: str
) -> dict[str, Any]:
    from toolmatch._readers.to_calls import to_calls

    turns = []
    for number, texts in enumerate(truth):
        expected = []
        for index, text in enumerate(texts):
            place = f"{where} ({name}), ground_truth[{number}][{index}]"
            if not isinstance(text, str):
                raise refused(f"{place}: a multi-turn call must be Python call text", text)
            try:
                calls = to_calls(text, syntax="python", tools=docs)
            except (TypeError, ValueError) as error:
                hint = (
                    "; give the function docs (functions=, or --functions)" if docs is None else ""
                )
                raise ValueError(f"{place}: {error}{hint}") from None
            for call in calls:
                if call.parse_error is not None:
                    raise ValueError(f"{place}: {call.parse_error}")
                args = {key: escaped(value) for key, value in (call.args or {}).items()}
                expected.append({"name": exact_name(call.name), "args": args})
        turn: dict[str, Any] = {"expected_tools": expected}
        # An empty ground-truth turn is where BFCL wants no call at all.
        turn["ordered" if expected else "exhaustive"] = True
        turns.append(turn)
    return {"name": name, "turns": turns}
