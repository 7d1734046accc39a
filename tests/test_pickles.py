"""Pickles name ``toolmatch`` only: exports pickle the same wherever they are defined inside the
package, and a pickle stored before the package's modules moved still loads."""

from __future__ import annotations

import inspect
import pickle
import pickletools
from pathlib import Path
from typing import Any

import pytest

import toolmatch
from toolmatch import (
    ANY,
    Absent,
    AnyOrder,
    Approx,
    Between,
    Capture,
    ChosenAlternative,
    ConfigError,
    ConfigProblem,
    ConformsTo,
    Contains,
    ContainsAll,
    Each,
    EndsWith,
    Exact,
    ExpectedTool,
    ExpectedTurn,
    Fuzzy,
    Ge,
    Gt,
    InOrder,
    IsDate,
    IsDatetime,
    IsEmail,
    IsJSON,
    IsType,
    IsURL,
    IsUUID,
    JudgedBy,
    Le,
    Len,
    Literal,
    Lt,
    Maybe,
    Mismatch,
    NotRecordedError,
    OneOf,
    Partial,
    Ref,
    Regex,
    Satisfies,
    Similar,
    SpecWarning,
    StartsWith,
    TestCase,
    ToolCall,
    Unordered,
    check_turn,
)

# The samples build a ConformsTo, which needs jsonschema.
pytest.importorskip("jsonschema")

FIXTURE = Path(__file__).parent / "data" / "pickles" / "exports.pickle"


def _turn_result() -> toolmatch.TurnResult:
    return check_turn(
        [ExpectedTool("search", {"q": Fuzzy("paris")}), ExpectedTool.never("delete")],
        [{"name": "search", "args": {"q": "rome"}}, {"name": "log"}],
        ignore=[ExpectedTool("log")],
    )


def examples() -> dict[str, Any]:
    """One value of every exported type (and every exported instance), built the same way
    each time, keyed by a name that says what it is."""
    result = _turn_result()
    return {
        "Literal": Literal({"a": [1, 2.5]}, trim_strings=True),
        "Partial": Partial({"q": "paris", "limit": Maybe(10), "debug": Absent}),
        "Exact": Exact({"q": Regex(r"p.*")}),
        "Maybe": Maybe(3),
        "Absent": Absent,
        "Fuzzy": Fuzzy("New York"),
        "Regex": Regex(r"^2026-\d\d$"),
        "Similar": Similar("quarterly sales review", min=0.6, case_insensitive=True),
        "Fuzzy whitespace": Fuzzy("(9+6)*3", whitespace="remove"),
        "StartsWith": StartsWith("ab"),
        "EndsWith": EndsWith("yz"),
        "IsUUID": IsUUID(4),
        "IsEmail": IsEmail(),
        "IsURL": IsURL(),
        "IsJSON": IsJSON({"a": 1}),
        "Gt": Gt(1),
        "Ge": Ge(1),
        "Lt": Lt(1),
        "Le": Le(1),
        "Between": Between(1, 5),
        "Gt strings": Gt(5, strings=True),
        "Between strings": Between(1, 5, inclusive=False, strings=True),
        "IsDatetime": IsDatetime(),
        "IsDate": IsDate(),
        "Unordered": Unordered([1, Fuzzy("a")]),
        "ContainsAll": ContainsAll([1]),
        "Each": Each(IsType(int)),
        "Len": Len(2),
        "ANY": ANY,
        "OneOf": OneOf("a", Fuzzy("b")),
        "Approx": Approx(3.0, rel=1e-3),
        "Contains": Contains("x"),
        "IsType": IsType(int, str),
        "Satisfies": Satisfies(str.isupper, "upper case"),
        "JudgedBy": JudgedBy("polite"),
        "Capture": Capture("order", match=1),
        "Ref": Ref("order"),
        "ConformsTo": ConformsTo({"type": "string", "maxLength": 5}),
        "AllOf": Gt(1) & Lt(5),
        "AnyOf": Gt(5) | Lt(1),
        "Not": ~Fuzzy("x"),
        "Mismatch": Mismatch("items[2].id", "expected 7, got 8"),
        "ToolCall": ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="sunny"),
        "ExpectedTool": ExpectedTool("search", {"q": Fuzzy("paris")}, count=1, max_count=2),
        "ExpectedTool.never": ExpectedTool.never("delete", {"path": ANY}),
        "ExpectedTool.never after": ExpectedTool.never("refund", after=["cancel"]),
        "ExpectedTool optional": ExpectedTool("log", optional=True, first=True, last=True),
        "InOrder": InOrder(
            ExpectedTool("a", id="a"), AnyOrder(ExpectedTool("b"), ExpectedTool("c"))
        ),
        "AnyOrder": AnyOrder(ExpectedTool("x", after=["a"]), ExpectedTool("y", before=["z"])),
        "ToolCheck": result.checks[0],
        "Candidate": result.checks[0].candidates[0],
        "IgnoredCall": result.ignored[0],
        "TurnResult": result,
        "ExpectedTurn": ExpectedTurn([ExpectedTool("search")], ordered=True),
        "TestCase": TestCase("weather", [ExpectedTurn([ExpectedTool("search")])]),
        "OneOfTurns": ExpectedTurn.one_of(
            ExpectedTurn([ExpectedTool("search")]), ExpectedTurn([ExpectedTool("fetch")])
        ),
        "ChosenAlternative": ChosenAlternative("turn", 1, 2, False),
        "ConfigProblem": ConfigProblem("args.q.regex", "invalid regular expression '('"),
        "ConfigError": ConfigError([ConfigProblem("name", "missing")], source="spec.yaml"),
        "SpecWarning": SpecWarning("args.q", "a plain string", source="spec.yaml"),
        "NotRecordedError": NotRecordedError(
            "ExpectedTool.never('refund', agent='triage') asserts who made call 0 refund({}), "
            "which a plain call does not record: leave agent= out"
        ),
    }


ADDED_SINCE_THE_FIXTURE = {
    "Similar",
    "Fuzzy whitespace",
    "OneOfTurns",
    "ChosenAlternative",
    "InOrder",
    "AnyOrder",
    "NotRecordedError",
    "Gt strings",
    "Between strings",
    "ExpectedTool.never after",
    "ExpectedTool optional",
    "JudgedBy",
    "Capture",
    "Ref",
}


def shown(value: object) -> str:
    """What a value is, for comparing a pickle's copy with its original."""
    if isinstance(value, toolmatch.TurnResult | toolmatch.ToolCheck):
        return f"{value!r}\n{value}"
    return repr(value)


def globals_named(data: bytes) -> set[str]:
    """Every module a pickle names (``GLOBAL`` and ``STACK_GLOBAL`` operands)."""
    names: set[str] = set()
    strings: list[str] = []
    for opcode, argument, _ in pickletools.genops(data):
        if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(argument)
        elif opcode.name == "STACK_GLOBAL":
            names.add(strings[-2])
        elif opcode.name == "GLOBAL":
            names.add(argument.split(" ")[0])
    return names


EXPORTED_CLASSES = sorted(
    name
    for name in toolmatch.__all__
    if not name.startswith("__") and inspect.isclass(getattr(toolmatch, name))
)


def test_every_exported_class_has_an_example() -> None:
    exported_instances = {
        name
        for name in toolmatch.__all__
        if not name.startswith("__")
        and not inspect.isclass(getattr(toolmatch, name))
        and not inspect.isroutine(getattr(toolmatch, name))
    }
    built = {type(value).__name__ for value in examples().values()}
    # Matcher and ExpectedItem are bases, never made themselves: the other examples are some.
    missing = set(EXPORTED_CLASSES) - built - {"Matcher", "ExpectedItem"}
    assert not missing, f"add an example of {sorted(missing)} to examples()"
    assert exported_instances <= set(examples()), exported_instances - set(examples())


@pytest.mark.parametrize("name", [n for n in toolmatch.__all__ if not n.startswith("__")])
def test_every_export_is_named_as_toolmatchs(name: str) -> None:
    value = getattr(toolmatch, name)
    owner = value if inspect.isclass(value) or inspect.isroutine(value) else type(value)
    assert owner.__module__ == "toolmatch"


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize(("name", "value"), list(examples().items()), ids=list(examples()))
def test_a_pickle_names_no_private_module(name: str, value: object, protocol: int) -> None:
    data = pickle.dumps(value, protocol=protocol)
    private = {module for module in globals_named(data) if module.startswith("toolmatch.")}
    assert not private, f"a pickled {name} names {sorted(private)}"
    assert shown(pickle.loads(data)) == shown(value)


@pytest.mark.parametrize(
    "name",
    [n for n in toolmatch.__all__ if inspect.isroutine(getattr(toolmatch, n, None))],
)
def test_exported_functions_pickle_by_their_public_name(name: str) -> None:
    data = pickle.dumps(getattr(toolmatch, name))
    assert globals_named(data) == {"toolmatch"}
    assert pickle.loads(data) is getattr(toolmatch, name)


def test_a_pickle_stored_before_the_modules_moved_loads() -> None:
    # Written by `python tests/test_pickles.py` before src/toolmatch was split into its
    # layers' subpackages; it must keep loading whatever moves inside the package.
    stored = pickle.loads(FIXTURE.read_bytes())
    expected = examples()
    # Examples added since are new classes or options: the stored pickle stays as it was.
    assert set(stored) == set(expected) - ADDED_SINCE_THE_FIXTURE
    for name, value in stored.items():
        assert shown(value) == shown(expected[name]), name


# The results and problems: values, equal to their pickles and to a result built again.
VALUE_EQUAL = ["ToolCheck", "Candidate", "IgnoredCall", "TurnResult", "ConfigProblem"]


@pytest.mark.parametrize("name", VALUE_EQUAL)
def test_a_result_equals_its_pickle_and_the_same_result_built_again(name: str) -> None:
    value, again = examples()[name], examples()[name]
    assert value is not again
    assert value == again
    assert not value != again  # noqa: SIM202 (!= is what is tested)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(value, protocol=protocol)) == value
    assert pickle.loads(FIXTURE.read_bytes())[name] == value


def test_results_with_other_content_are_not_equal() -> None:
    result = _turn_result()
    other = check_turn(
        [ExpectedTool("search", {"q": Fuzzy("paris")}), ExpectedTool.never("delete")],
        [{"name": "search", "args": {"q": "paris"}}, {"name": "log"}],
        ignore=[ExpectedTool("log")],
    )
    assert result != other
    assert result.checks[0] != other.checks[0]
    assert result.checks[1] != other.checks[1]  # the same verdict, on other calls
    assert result.ignored == other.ignored
    # An ExpectedTool == reads the other side as calls; a result compares its expectations
    # as values: ExpectedTool("lo") selects a call named "log", but is not the same pattern.
    looser = check_turn([], [{"name": "log"}], ignore=[ExpectedTool("lo")])
    assert looser.ignored != check_turn([], [{"name": "log"}], ignore=[ExpectedTool("log")]).ignored
    assert ConfigProblem("a", "x") != ConfigProblem("a", "y")
    assert ConfigProblem("a", "x") != ConfigProblem("b", "x")


def test_results_are_unhashable_and_problems_hash_by_value() -> None:
    # A result holds calls, whose args are dicts: like ToolCall, it has no hash.
    for name in ("ToolCheck", "Candidate", "IgnoredCall", "TurnResult"):
        with pytest.raises(TypeError, match="unhashable type"):
            hash(examples()[name])
    assert len({ConfigProblem("a", "x"), ConfigProblem("a", "x"), ConfigProblem("a", "y")}) == 2


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_bytes(pickle.dumps(examples(), protocol=4))
