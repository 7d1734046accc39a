"""The final answer (issue 37 deliverable 5): readers keep the text of the model's last
message (``final_answer``), and ``answer`` on a turn or a case checks it; where the input
records no message of the model, a check on it is an error, never a pass."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    Contains,
    ExpectedTool,
    ExpectedTurn,
    NotRecordedError,
    Regex,
    TestCase,
    check_turn,
    check_turns,
    final_answer,
    load_test_cases,
    to_calls,
)
from toolmatch._readers.records import RECORDS, format_of
from toolmatch._readers.to_calls import read_final

CALLED = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "refund", "arguments": "{}"}}
    ],
}
ANSWERED = {"role": "tool", "tool_call_id": "c1", "content": "refunded 42.00"}
TOLD = {"role": "assistant", "content": "Your refund of 42.00 is on its way."}
RUN = [{"role": "user", "content": "Refund me"}, CALLED, ANSWERED, TOLD]


def test_chat_messages_end_on_the_model_s_last_text() -> None:
    assert final_answer(RUN) == "Your refund of 42.00 is on its way."


def test_a_run_ending_on_a_call_has_no_final_answer() -> None:
    assert final_answer(RUN[:3]) is None
    with_text = {**CALLED, "content": "Let me refund that."}
    assert final_answer([with_text]) is None  # the text comes with a call: not the end


def test_the_formats_that_record_the_model_s_messages() -> None:
    anthropic_types = pytest.importorskip("anthropic.types")
    message = anthropic_types.Message(
        id="msg_1",
        type="message",
        role="assistant",
        model="claude",
        content=[anthropic_types.TextBlock(type="text", text="Done: refunded.")],
        stop_reason="end_turn",
        usage=anthropic_types.Usage(input_tokens=1, output_tokens=1),
    )
    assert final_answer(message) == "Done: refunded."
    responses = {
        "output": [
            {"type": "function_call", "call_id": "c", "name": "refund", "arguments": "{}"},
            {
                "type": "message",
                "id": "m",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Refunded."}],
            },
        ]
    }
    assert final_answer(responses) == "Refunded."
    gemini = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}]}}]}
    assert final_answer(gemini) == "Sunny."
    messages = pytest.importorskip("langchain_core.messages")
    run = [
        messages.HumanMessage("refund me"),
        messages.AIMessage("", tool_calls=[{"name": "refund", "args": {}, "id": "c"}]),
        messages.ToolMessage("ok", tool_call_id="c"),
        messages.AIMessage("All done."),
    ]
    assert final_answer(run) == "All done."


def test_an_input_without_a_message_of_the_model_records_no_answer() -> None:
    with pytest.raises(ValueError, match="records no message of the model") as error:
        final_answer([{"name": "refund", "args": {}}])
    assert str(error.value) == (
        "a plain call records no message of the model, so no final answer: pass the run's "
        "messages (the model's replies with its calls), or leave answer out"
    )


def test_check_turn_answer_passes_and_fails_with_the_answer_shown() -> None:
    assert check_turn([ExpectedTool("refund")], RUN, answer=Contains("42.00")).passed
    result = check_turn([ExpectedTool("refund")], RUN, answer=Regex(".*declined.*"))
    assert not result.passed
    assert result.problems == (
        "the final answer: regex '.*declined.*' does not match 'Your refund of 42.00 is on "
        "its way.'",
    )


def test_a_turn_without_a_final_answer_fails_its_answer_check() -> None:
    result = ExpectedTurn([ExpectedTool("refund")], answer=Contains("42")).check(RUN[:3])
    assert result.problems == (
        "the final answer: the turn ends without one (the model's last message holds calls, "
        "or no text)",
    )


def test_an_answer_check_on_plain_calls_is_an_error() -> None:
    with pytest.raises(NotRecordedError, match="records no message of the model") as error:
        check_turn([ExpectedTool("refund")], [{"name": "refund"}], answer="ok")
    assert str(error.value) == (
        "the final answer is checked ('ok'), but a plain call records no message of "
        "the model, so no final answer: pass the run's messages (the model's replies with "
        "its calls), or leave answer out"
    )


def test_check_turns_checks_each_turn_s_answer() -> None:
    results = check_turns([[ExpectedTool("refund")]] * 2, [RUN, RUN[:3]], answer=Contains("42"))
    assert [result.passed for result in results] == [True, False]


def test_a_case_s_answer_is_its_last_turn_s() -> None:
    case = TestCase(
        "refund",
        [ExpectedTurn([]), ExpectedTurn([ExpectedTool("refund")])],
        answer=Contains("42.00"),
    )
    assert case.passes([[{"role": "assistant", "content": "Which order?"}], RUN])
    results = case.check([RUN, [{"role": "assistant", "content": "Sorry."}, CALLED]])
    assert results[1].problems == (
        "the case's final answer (its last turn's): the turn ends without one (the model's "
        "last message holds calls, or no text)",
    )
    assert results[0].passed  # an empty turn expects nothing: its extra call passes


SPEC = textwrap.dedent(
    """\
    test_cases:
      - name: single
        expected_tools: [refund]
        answer: {$contains: "42.00"}
      - name: turns
        answer: {$regex: '.*on its way.*'}
        turns:
          - expected_tools: []
            answer: {$contains: order}
          - expected_tools: [refund]
    """
)


def test_a_spec_writes_answer_on_a_turn_and_on_a_case() -> None:
    import yaml

    single, turns = load_test_cases(yaml.safe_load(SPEC))
    assert repr(single.turns[0].answer) == "Contains('42.00')"
    assert repr(turns.answer) == "Regex('.*on its way.*')"
    assert single.passes([RUN])
    asked = {"role": "assistant", "content": "Which order?"}
    assert turns.passes([[asked], RUN])
    failed = turns.check([[{"role": "assistant", "content": "Hello"}], RUN[:3]])
    assert failed[0].problems == (
        "the final answer: expected a value containing 'order', got 'Hello'",
    )
    assert failed[1].problems == (
        "the case's final answer (its last turn's): the turn ends without one (the model's "
        "last message holds calls, or no text)",
    )


def test_answer_null_is_refused() -> None:
    from toolmatch import ConfigError

    with pytest.raises(ConfigError) as error:
        load_test_cases({"test_cases": [{"name": "a", "expected_tools": [], "answer": None}]})
    assert [str(problem) for problem in error.value.problems] == [
        "test_cases[0](a).answer: must be a value or a matcher the final answer must match, "
        "got null"
    ]


def test_the_command_shows_a_failed_answer_and_cannot_judge_an_unrecorded_one(
    tmp_path: Path,
) -> None:
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    runs = jsonl(
        {"case": "single", "turns": [RUN]},
        {"case": "single", "turns": [[*RUN[:3], {"role": "assistant", "content": "Done."}]]},
        {"case": "single", "turns": [[{"name": "refund"}]]},
    )
    done = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=runs)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "PASS single",
        "FAIL single (run 2)",
        "  turn 0: the final answer: expected a value containing '42.00', got 'Done.'",
        "NOT EVALUABLE single (run 3): turn 0: the final answer is checked (Contains('42.00')), "
        "but a plain call records no message of the model, so no final answer: pass the run's "
        "messages (the model's replies with its calls), or leave answer out",
    ]
    assert "FLAKY single: turns[0].answer the final answer matches Contains('42.00'): " in (
        done.stdout
    )


# --- where the answer is recorded: RECORDS' answer column (docs/formats.md) ----------------

CHUNK = {
    "object": "chat.completion.chunk",
    "choices": [
        {
            "index": 0,
            "delta": {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "refund", "arguments": "{}"},
                    }
                ]
            },
        }
    ],
}
COMPLETION = {
    "object": "chat.completion",
    "choices": [{"index": 0, "message": TOLD, "finish_reason": "stop"}],
}
MCP = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "refund", "arguments": {}},
    }
]
ANTHROPIC = {
    "type": "message",
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Refunding."},
        {"type": "tool_use", "id": "c1", "name": "refund", "input": {}},
    ],
}


@pytest.mark.parametrize(
    ("run", "form", "answer"),
    [
        ([{"name": "refund", "args": {}}], "a plain call", None),
        (RUN, "a chat message", "Your refund of 42.00 is on its way."),
        ([CHUNK], "an OpenAI chat completion", None),
        ([CHUNK, COMPLETION], "an OpenAI chat completion", "Your refund of 42.00 is on its way."),
        (MCP, "an MCP transcript", None),
        (ANTHROPIC, "an Anthropic message", None),  # it ends on its call
    ],
)
def test_a_format_whose_answer_column_says_no_never_records_one(
    run: object, form: str, answer: str | None
) -> None:
    calls = to_calls(run)
    records = format_of(calls[0])
    assert records.name == form
    unrecorded, text = read_final(run)
    if records.answer == "no":
        assert unrecorded is not None
    if unrecorded is None:
        assert records.answer != "no"
        assert text == answer


def test_an_answer_check_names_the_format_that_does_not_record_it() -> None:
    with pytest.raises(NotRecordedError, match="records no message") as error:
        check_turn([ExpectedTool("refund")], [CHUNK], answer=Contains("42"))
    assert str(error.value) == (
        "the final answer is checked (Contains('42')), but an OpenAI chat completion records "
        "no message of the model, so no final answer: pass the final completion (the stream's "
        "get_final_completion()) or the chat history, or leave answer out"
    )
    with pytest.raises(ValueError, match="records no message") as error:
        final_answer(MCP)
    assert str(error.value) == (
        "an MCP transcript records no message of the model, so no final answer: leave answer out"
    )
    with pytest.raises(ValueError, match="records no message") as error:
        final_answer([{"role": "user", "content": "Refund me"}])
    assert str(error.value) == (
        "the input records no message of the model, so no final answer: pass the run's "
        "messages (the model's replies with its calls), or leave answer out"
    )


def test_every_format_says_what_to_pass_where_it_may_record_no_answer() -> None:
    for records in RECORDS:
        if records.answer != "no" and "no" in records.answer.split():
            assert records.advice.get("answer"), records.name
