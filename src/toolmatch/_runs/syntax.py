"""``--syntax python``: a run's turns given as Python call text, as BFCL's model outputs hold
them, read as calls (docs/cli.md, Python-text turns).

A turn that is a string is one model output, ``[cd(folder='docs'), ls()]``, read by the
Python reader (``toolmatch._readers.python_text``): text that is no call syntax is the
model answering in words, no call, where its case's turn passes without a call (BFCL's
irrelevance categories, where abstaining is the right answer), else the turn's error. A
turn that is a non-empty list of strings is the steps of a BFCL multi-turn turn, one model
output each, their calls in order: a step that is no call syntax is the model answering in
words (BFCL ends a turn on it) and holds no call. Any other turn is read as without the
option. Positional arguments take their names from the function docs.
"""

from __future__ import annotations

from toolmatch._calls.definitions import read_tool_definitions
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.python_text import NotCallsError, python_calls

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from toolmatch._calls.call import ToolCall
    from toolmatch._calls.definitions import ToolDefinition
    from toolmatch._selection.case import TestCase

__all__ = ["PythonTurns", "no_call_expected", "python_turns", "python_turns_of"]


class PythonTurns:
    """Reads the text turns of a run as Python calls, naming positional arguments from
    ``tools``; sent to each ``--jobs`` worker with the judge.

    >>> PythonTurns(None)(["[cd(folder='docs')]", ["ls()", "Done: the folder is listed."], []])
    [[ToolCall(name='cd', args={'folder': 'docs'})], [ToolCall(name='ls', args={})], []]
    """

    __slots__ = ("tools",)

    def __init__(self, tools: Mapping[str, ToolDefinition] | None) -> None:
        self.tools = tools

    def __reduce__(self) -> tuple[type[PythonTurns], tuple[Mapping[str, ToolDefinition] | None]]:
        return (PythonTurns, (self.tools,))

    def __call__(self, turns: object, case: TestCase | None = None) -> object:
        """``turns`` with each text turn read as calls; anything that is not a list of
        turns as it is (the judge names what is wrong with it). A text turn that is no call
        syntax is the model answering in words (no call) where that turn of ``case`` passes
        without a call (:func:`no_call_expected`), else an error."""
        if not isinstance(turns, (list, tuple)):
            return turns
        return [self._read_turn(turn, number, case) for number, turn in enumerate(turns)]

    def _read_turn(self, turn: object, number: int, case: TestCase | None) -> object:
        where = f"turns[{number}]"
        if isinstance(turn, str):
            return self._text_turn(turn, where, number, case)
        if not isinstance(turn, (list, tuple)) or not turn:
            return turn
        if not all(isinstance(step, str) for step in turn):
            return turn
        calls: list[ToolCall] = []
        for index, step in enumerate(turn):
            try:
                calls += self._calls(step, f"{where}[{index}]", words=True)
            except NotCallsError:
                continue  # the model's reply in words
        return calls

    def _text_turn(
        self, turn: str, where: str, number: int, case: TestCase | None
    ) -> list[ToolCall]:
        """A turn given as one text: its calls; words alone are no calls where the case
        expects none (abstaining), an error elsewhere."""
        if case is None:
            return self._calls(turn, where)
        try:
            return self._calls(turn, where, words=True)
        except NotCallsError as error:
            if no_call_expected(case, number):
                return []  # an answer in words where no call is expected: abstaining
            raise ValueError(f"{where}: {error}") from None

    def _calls(self, text: str, where: str, words: bool = False) -> list[ToolCall]:
        try:
            return python_calls(text, self.tools)
        except ValueError as error:
            if words and isinstance(error, NotCallsError):
                raise
            raise ValueError(f"{where}: {error}") from None


def no_call_expected(case: TestCase, number: int) -> bool:
    """Whether turn ``number`` of ``case`` (of one of its alternatives) passes without a
    call: where an answer in words is right.

    >>> from toolmatch import ExpectedTurn, TestCase
    >>> case = TestCase("irrelevance_0", [ExpectedTurn([], exhaustive=True)])
    >>> no_call_expected(case, 0), no_call_expected(case, 1)
    (True, False)
    """
    bodies = case.alternatives or (case,)
    return any(number < len(body.turns) and body.turns[number].check([]).passed for body in bodies)


def python_turns(syntax: str, tools: object = None) -> PythonTurns | None:
    """The reader of text turns for ``syntax`` (``"json"``: none; ``"python"``), naming
    positional arguments from ``tools`` (definitions in any shape ``to_calls`` takes);
    ``ValueError`` for any other syntax, or ``tools`` without ``"python"``.

    >>> python_turns("json") is None
    True
    >>> python_turns("yaml")
    Traceback (most recent call last):
    ...
    ValueError: syntax must be 'json' or 'python', got 'yaml'
    """
    if syntax == "python":
        return PythonTurns(None if tools is None else read_tool_definitions(tools))
    if syntax != "json":
        raise ValueError(f"syntax must be 'json' or 'python', got {short_repr(syntax)}")
    if tools is not None:
        raise ValueError(
            "tools= names positional arguments in Python call text; pass syntax='python'"
        )
    return None


def python_turns_of(syntax: str, functions: Sequence[str] | None) -> PythonTurns | None:
    """The reader of a command's ``--syntax`` and ``--functions DOCS`` (read here, once);
    ``ValueError`` or ``OSError`` for docs that cannot be read.

    >>> python_turns_of("json", None) is None
    True
    >>> python_turns_of("json", ["docs.json"])
    Traceback (most recent call last):
    ...
    ValueError: --functions names positional arguments in Python call text: it needs --syntax python
    """
    if syntax != "python":
        if functions:
            raise ValueError(
                "--functions names positional arguments in Python call text: it needs "
                "--syntax python"
            )
        return None
    if not functions:
        return PythonTurns(None)
    from toolmatch._calls.definitions import function_docs

    return PythonTurns(read_tool_definitions(function_docs(functions)))
