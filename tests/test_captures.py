"""Values carried between calls (issue 37 deliverable 4): ``Capture`` / ``{$capture: name}``
names the value at its place in the call its expectation is paired with, ``Ref`` /
``{$ref: name}`` asks a later place for it, across the turns of a case; checked against a
brute force written from docs/selection.md's words."""

from __future__ import annotations

import itertools
import random
import textwrap
from pathlib import Path

import pytest
import yaml

from commands import jsonl, toolmatch
from toolmatch import (
    Capture,
    ConfigError,
    ExpectedTool,
    ExpectedTurn,
    Ref,
    StartsWith,
    TestCase,
    check_turn,
    check_turns,
    load_test_cases,
)


def created(*ids: str) -> list[dict[str, object]]:
    return [{"name": "create", "args": {}, "result": {"id": each}} for each in ids]


def called(name: str, *ids: str) -> list[dict[str, object]]:
    return [{"name": name, "args": {"id": each}} for each in ids]


CREATE = ExpectedTool("create", result={"id": Capture("order")})
REFUND = ExpectedTool("refund", {"id": Ref("order")})
CASE = TestCase("refund", [ExpectedTurn([CREATE]), ExpectedTurn([REFUND])])


def test_a_value_from_a_result_is_referred_to_in_a_later_turn() -> None:
    assert CASE.passes([created("o1"), called("refund", "o1")])
    assert not CASE.passes([created("o1"), called("refund", "o2")])


def test_a_capture_binds_per_assignment_not_to_the_first_call_seen() -> None:
    assert CASE.passes([created("o1", "o2"), called("refund", "o2")])
    turn = [*created("o1", "o2"), *called("refund", "o2")]
    assert check_turn([CREATE, REFUND], turn, distinct=True).passed


def test_the_explanation_shows_the_captured_value_and_where_it_came_from() -> None:
    results = CASE.check([created("o1"), called("refund", "o9")])
    assert results[1].checks[0].unmatched_reason == (
        "call 0: id: expected 'o1', the value captured as 'order' (create, turn 0 call 0), got 'o9'"
    )
    assert repr(results[1].checks[0].expected_tool) == (
        "ExpectedTool('refund', {'id': Ref('order')})"
    )


def test_a_capture_s_own_matcher_narrows_what_it_takes() -> None:
    create = ExpectedTool("create", result={"id": Capture("order", match=StartsWith("ord_"))})
    case = TestCase("c", [ExpectedTurn([create]), ExpectedTurn([REFUND])])
    assert case.passes([created("tmp", "ord_1"), called("refund", "ord_1")])
    assert not case.passes([created("tmp", "ord_1"), called("refund", "tmp")])


def test_a_name_holds_one_value_for_all_the_calls_it_captures() -> None:
    twice = ExpectedTool("create", result={"id": Capture("order")}, count=2)
    turn = ExpectedTurn([twice])
    assert turn.check(created("o1", "o1")).passed
    result = turn.check(created("o1", "o2"))
    assert not result.passed
    assert result.checks[0].unmatched_reason == "expected 2 matching call(s), got 1"


def test_never_with_a_reference() -> None:
    case = TestCase(
        "keep",
        [
            ExpectedTurn([CREATE]),
            ExpectedTurn([ExpectedTool.never("delete", {"id": Ref("order")})]),
        ],
    )
    assert case.passes([created("o1"), called("delete", "o2")])
    assert not case.passes([created("o1"), called("delete", "o1")])


def test_alone_a_capture_is_its_matcher_and_a_reference_matches_nothing() -> None:
    assert Capture("x", StartsWith("a")) == "abc"
    assert Capture("x", StartsWith("a")) != "b"
    assert repr(Capture("x", StartsWith("a"))) == "Capture('x', match=StartsWith('a'))"
    assert Ref("x") != "abc"
    assert Ref("x").explain("abc") == (
        "expected the value captured as 'x', but nothing captured it"
    )


def test_a_reference_to_a_value_no_call_offered() -> None:
    results = CASE.check([called("create"), called("refund", "o1")])
    assert results[1].checks[0].unmatched_reason == (
        "call 0: id: expected the value captured as 'order', but no call offered one"
    )


@pytest.mark.parametrize(
    ("turns", "message"),
    [
        (
            [ExpectedTurn([REFUND])],
            "Ref('order') names no capture of the case; capture it first with "
            "{$capture: order} (Capture('order')) where its value appears",
        ),
        (
            [ExpectedTurn([ExpectedTool.never("create", result={"id": Capture("order")})])],
            "ExpectedTool.never('create', result={'id': Capture('order')}) captures 'order' but "
            "may take no call: a capture takes the value of the call its expectation is paired "
            "with; capture in an expectation with count >= 1",
        ),
        (
            [ExpectedTurn([], ignore=[ExpectedTool("log", {"id": Capture("order")})])],
            "ignore pattern ExpectedTool('log', {'id': Capture('order')}) captures 'order': a "
            "pattern leaves calls out, it is paired with none; capture in an expected tool",
        ),
    ],
)
def test_captures_that_cannot_bind_are_refused(turns: list[ExpectedTurn], message: str) -> None:
    with pytest.raises(ValueError, match="capture") as error:
        TestCase("c", turns)
    assert str(error.value) == message


def test_check_turns_carries_values_across_turns() -> None:
    results = check_turns([[CREATE], [REFUND]], [created("o1"), called("refund", "o2")])
    assert [result.passed for result in results] == [True, False]


def test_too_many_choices_is_an_error_that_says_how_to_narrow() -> None:
    turn = [
        ExpectedTool(f"t{number}", {"v": Capture(f"c{number}")}, max_count=6) for number in range(4)
    ]
    calls = [{"name": f"t{number}", "args": {"v": v}} for number in range(4) for v in range(6)]
    with pytest.raises(ValueError, match="too many choices") as error:
        check_turn(turn, calls)
    assert str(error.value) == (
        "the run offers too many choices of captured values to judge ('c0' 6, 'c1' 6, 'c2' "
        "6, 'c3' 6; at most 1024 choices in all): narrow a capture with a matcher, "
        "{$capture: name, match: ...} (Capture(name, match=...))"
    )


SPEC = textwrap.dedent(
    """\
    test_cases:
      - name: refund_created
        turns:
          - expected_tools:
              - name: create_order
                result: {order_id: {$capture: order, match: {$starts_with: "ord_"}}}
          - expected_tools:
              - name: refund
                args: {order_id: {$ref: order}}
              - name: delete_order
                never: true
                args: {order_id: {$ref: order}}
    """
)


def test_a_spec_captures_and_refers() -> None:
    [case] = load_test_cases(yaml.safe_load(SPEC))
    create = [{"name": "create_order", "args": {}, "result": {"order_id": "ord_7"}}]
    assert case.passes([create, [{"name": "refund", "args": {"order_id": "ord_7"}}]])
    assert not case.passes([create, [{"name": "refund", "args": {"order_id": "ord_8"}}]])


def test_a_spec_reference_to_no_capture_is_a_load_error() -> None:
    text = "test_cases: [{name: c, expected_tools: [{name: r, args: {id: {$ref: nothing}}}]}]"
    with pytest.raises(ConfigError) as error:
        load_test_cases(yaml.safe_load(text))
    assert [str(problem) for problem in error.value.problems] == [
        "test_cases[0](c): Ref('nothing') names no capture of the case; capture it first with "
        "{$capture: nothing} (Capture('nothing')) where its value appears"
    ]


def test_the_command_shows_where_a_captured_value_came_from(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    create = [{"name": "create_order", "args": {}, "result": {"order_id": "ord_7"}}]
    runs = jsonl(
        {
            "case": "refund_created",
            "turns": [create, [{"name": "refund", "args": {"order_id": "ord_7"}}]],
        },
        {
            "case": "refund_created",
            "turns": [create, [{"name": "refund", "args": {"order_id": "ord_1"}}]],
        },
    )
    done = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=runs)
    assert done.returncode == 1
    assert done.stdout.splitlines()[:4] == [
        "PASS refund_created",
        "FAIL refund_created (run 2)",
        "  turn 1, expected_tools[0]: ExpectedTool('refund', {'order_id': Ref('order')})",
        "    call 0: order_id: expected 'ord_7', the value captured as 'order' (create_order, "
        "turn 0 call 0), got 'ord_1'",
    ]


# The brute force, from docs/selection.md: "a run passes when some choice of one value per
# capture name makes it pass, the capture's place holding that value in the call its
# expectation is paired with" -- every value the run holds tried, each name's places made
# that plain value.


def _written(value: object, choice: dict[str, object]) -> object:
    if isinstance(value, Capture):
        return choice[value.name]
    if isinstance(value, Ref):
        return choice[value.name]
    if isinstance(value, dict):
        return {key: _written(item, choice) for key, item in value.items()}
    return value


def _plain(tool: ExpectedTool, choice: dict[str, object]) -> ExpectedTool:
    if tool.is_never:
        return ExpectedTool.never(tool.name, _written(tool.args, choice))  # type: ignore[arg-type]
    return ExpectedTool(
        tool.name,
        _written(tool.args, choice),  # type: ignore[arg-type]
        result=_written(tool.result, choice),
        count=tool.count,
        max_count=tool.max_count,
    )


def _brute_force(
    turns: list[tuple[list[ExpectedTool], bool]], run: list[list[dict[str, object]]]
) -> bool:
    held = {
        value
        for turn in run
        for call in turn
        for part in (call.get("args", {}), call.get("result") or {})
        for value in part.values()  # type: ignore[union-attr]
    }
    values = [*sorted(held), "(no value)"]
    for x, y in itertools.product(values, repeat=2):
        choice = {"x": x, "y": y}
        case = TestCase(
            "b",
            [
                ExpectedTurn([_plain(tool, choice) for tool in tools], distinct=distinct)
                for tools, distinct in turns
            ],
        )
        if case.passes(run):
            return True
    return False


def _random_case(rng: random.Random) -> list[tuple[list[ExpectedTool], bool]]:
    first = [ExpectedTool("make", result={"id": Capture("x")}, count=rng.choice([1, 1, 2]))]
    if rng.random() < 0.5:
        first.append(ExpectedTool("tag", {"id": Ref("x"), "label": Capture("y")}))
    second = [ExpectedTool("use", {"id": Ref("x")}, count=rng.choice([1, 2]))]
    if any("y" in str(tool) for tool in first):
        second.append(ExpectedTool("label", {"label": Ref("y")}))
    if rng.random() < 0.4:
        second.append(ExpectedTool.never("drop", {"id": Ref("x")}))
    return [(first, rng.random() < 0.5), (second, rng.random() < 0.5)]


def _random_run(rng: random.Random) -> list[list[dict[str, object]]]:
    ids = ["a", "b", "c"]
    first: list[dict[str, object]] = [
        {"name": "make", "args": {}, "result": {"id": rng.choice(ids)}}
        for _ in range(rng.randint(0, 3))
    ]
    first += [
        {"name": "tag", "args": {"id": rng.choice(ids), "label": rng.choice(["p", "q"])}}
        for _ in range(rng.randint(0, 2))
    ]
    second: list[dict[str, object]] = [
        {"name": rng.choice(["use", "use", "drop", "label"]), "args": {"id": rng.choice(ids)}}
        for _ in range(rng.randint(0, 3))
    ]
    for call in second:
        if call["name"] == "label":
            call["args"] = {"label": rng.choice(["p", "q"])}
    return [first, second]


def test_the_verdict_is_the_brute_force_s() -> None:
    rng = random.Random(37)
    agreed = passed = 0
    for _ in range(300):
        turns = _random_case(rng)
        run = _random_run(rng)
        case = TestCase("c", [ExpectedTurn(tools, distinct=distinct) for tools, distinct in turns])
        expected = _brute_force(turns, run)
        assert case.passes(run) == expected, (turns, run)
        assert all(result.passed for result in case.check(run)) == expected
        agreed += 1
        passed += expected
    assert agreed == 300
    assert 10 < passed < 290  # both verdicts are exercised


def test_record_writes_a_value_that_flows_in_every_run_as_a_capture(tmp_path: Path) -> None:
    def run(order: str) -> dict[str, object]:
        made = {
            "name": "create_order",
            "args": {"item": "book"},
            "result": f'{{"order_id": "{order}"}}',
        }
        return {
            "case": "refund",
            "turns": [[made], [{"name": "refund", "args": {"order_id": order}}]],
        }

    (tmp_path / "runs.jsonl").write_text(jsonl(run("ord_111"), run("ord_222")), encoding="utf-8")
    recorded = toolmatch("record", "runs.jsonl", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    lines = recorded.stdout.splitlines()
    assert "      result: {$json: {$partial: {order_id: {$capture: order_id}}}}" in lines
    assert (
        '        order_id: {$ref: order_id}  # observed: "ord_111", "ord_222"; carried from '
        "create_order's result"
    ) in lines
    (tmp_path / "spec.yaml").write_text(recorded.stdout, encoding="utf-8")
    wrong = run("ord_444")
    wrong["turns"] = [wrong["turns"][0], [{"name": "refund", "args": {"order_id": "ord_9"}}]]  # type: ignore[index]
    later = jsonl(run("ord_333"), wrong)
    done = toolmatch("check", "spec.yaml", "-", stdin=later, cwd=tmp_path)
    assert done.stdout.splitlines()[:2] == ["PASS refund", "FAIL refund (run 2)"]


def test_record_writes_no_capture_for_values_that_match_by_chance(tmp_path: Path) -> None:
    made = {"name": "create", "args": {}, "result": {"id": 7, "ok": "ok"}}
    runs = jsonl({"case": "c", "turns": [[made, {"name": "use", "args": {"id": 7, "flag": "ok"}}]]})
    (tmp_path / "runs.jsonl").write_text(runs, encoding="utf-8")
    recorded = toolmatch("record", "runs.jsonl", cwd=tmp_path)
    assert "$capture" not in recorded.stdout
    assert "$ref" not in recorded.stdout


WHOSE = {"answer": "the final answer", "agent": "the turn's agent"}


# A turn's answer and agent are no call's values: a capture or reference there could only
# match nothing, so it is refused where it is written (issue 37, "Every new key").
@pytest.mark.parametrize("key", ["answer", "agent"])
@pytest.mark.parametrize(
    ("carried", "shown"), [(Ref("order"), "Ref('order')"), (Capture("order"), "Capture('order')")]
)
def test_a_capture_or_reference_in_a_turn_s_answer_or_agent_is_refused(
    key: str, carried: Capture | Ref, shown: str
) -> None:
    message = (
        f"{key} holds {shown}: a capture or a reference is a value of the call its expected "
        f"tool is paired with, and {WHOSE[key]} is no call's; carry the value in an "
        "expected tool's args, result or agent"
    )
    with pytest.raises(ValueError, match="capture") as error:
        ExpectedTurn([CREATE], **{key: carried})
    assert str(error.value) == message
    with pytest.raises(ValueError, match="capture") as error:
        check_turn([CREATE], created("o1"), **{key: carried})
    assert str(error.value) == message


def test_a_reference_in_a_case_s_answer_is_refused() -> None:
    with pytest.raises(ValueError, match="capture") as error:
        TestCase("c", [ExpectedTurn([CREATE])], answer=Ref("order"))
    assert str(error.value) == (
        "answer holds Ref('order'): a capture or a reference is a value of the call "
        "its expected tool is paired with, and the final answer is no call's; carry the value "
        "in an expected tool's args, result or agent"
    )


def test_a_spec_reference_in_an_answer_or_agent_is_a_load_error() -> None:
    text = textwrap.dedent(
        """\
        test_cases:
          - name: c
            answer: {$contains: {$ref: order}}
            turns:
              - expected_tools: [{name: create, result: {id: {$capture: order}}}]
                agent: {$capture: who}
              - expected_tools: [refund]
                answer: {$ref: order}
        """
    )
    with pytest.raises(ConfigError) as error:
        load_test_cases(yaml.safe_load(text))
    words = (
        ": a capture or a reference is a value of the call its expected tool is paired with, "
        "and {} is no call's; carry the value in an expected tool's args, result or agent"
    )
    assert [str(problem) for problem in error.value.problems] == [
        "test_cases[0](c).answer: holds {$ref: order}" + words.format(WHOSE["answer"]),
        "test_cases[0](c).turns[0].agent: holds {$capture: who}" + words.format(WHOSE["agent"]),
        "test_cases[0](c).turns[1].answer: holds {$ref: order}" + words.format(WHOSE["answer"]),
    ]
