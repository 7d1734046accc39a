"""``Similar`` (word overlap) and ``Fuzzy(..., whitespace="remove")``: the two matchers
API-Bank's evaluator needs (issue 27, deliverable 10), on its own level-1 ground truth
(tests/data/apibank/README.md)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commands import jsonl, toolmatch
from toolmatch import (
    ConfigError,
    ExpectedTool,
    Fuzzy,
    Similar,
    load_expected_tools,
    load_test_cases,
    matcher_from_config,
)

yaml = pytest.importorskip("yaml")

APIBANK = Path(__file__).parent / "data" / "apibank" / "level-1-given-desc"


def ground_truth(name: str, api: str) -> dict[str, Any]:
    """The ``param_dict`` of the dialogue's ground-truth call of ``api``."""
    for line in (APIBANK / f"{name}.jsonl").read_text("utf-8").splitlines():
        turn = json.loads(line)
        if turn.get("role") == "API" and turn["api_name"] == api:
            params: dict[str, Any] = turn["param_dict"]
            return params
    raise LookupError(api)


# --- Similar --------------------------------------------------------------------------------


class TestSimilar:
    def test_the_score_is_shared_words_over_all_words(self) -> None:
        topic = Similar("quarterly sales review", min=0.5)
        assert topic == "review of quarterly sales"  # 3 of 4 distinct words
        assert topic == "quarterly review"  # 2 of 3
        assert topic != "sales"  # 1 of 3
        assert topic != "team lunch review"  # 1 of 5
        assert topic == "sales sales review review quarterly"  # sets: repeats count once

    def test_min_is_inclusive_and_above_exclusive(self) -> None:
        # "a b" against "a c": 1 shared of 3 distinct words; "a b" against "a": 1 of 2.
        assert Similar("a b", min=0.5) == "a"
        assert Similar("a b", above=0.5) != "a"
        assert Similar("a b", above=0.3) == "a c"
        assert Similar("a b", min=1) == "b a"
        assert Similar("a b", min=1) != "a b c"

    def test_case_is_kept_unless_asked(self) -> None:
        assert Similar("Call mom", min=1.0) != "call Mom"
        assert Similar("Call mom", min=1.0, case_insensitive=True) == "call Mom"
        assert Similar("STRASSE", min=1.0, case_insensitive=True) == "straße"  # casefold

    def test_words_are_runs_between_whitespace_with_their_punctuation(self) -> None:
        assert Similar("project updates", min=1.0) == "  project\tupdates\n"
        assert Similar("project updates", min=1.0) != "project updates."
        assert Similar("project updates", min=0.3) == "project updates."

    def test_a_non_string_is_a_mismatch_that_says_what_it_got(self) -> None:
        similar = Similar("42 items", min=0.5)
        assert similar != 42
        assert similar != ["42", "items"]
        assert similar != None  # noqa: E711 (== is what is tested)
        assert similar.explain(42) == (
            "expected text similar to '42 items' (word overlap >= 0.50), got 42 (int)"
        )

    def test_a_str_subclass_is_read_as_its_characters_and_never_raises(self) -> None:
        class Loud(str):
            def split(self, *args: object, **kwargs: object) -> Any:
                raise RuntimeError("no")

            def __str__(self) -> str:
                raise RuntimeError("no")

        assert Similar("a b", min=1.0) == Loud("b a")
        assert Similar("a b", min=1.0).explain(Loud("a")) == (
            "expected text similar to 'a b' (word overlap >= 1.00), got 'a' (0.50)"
        )

    def test_the_explanation_gives_the_score_rounded_down(self) -> None:
        assert Similar("quarterly sales review", min=0.6).explain("team lunch review") == (
            "expected text similar to 'quarterly sales review' (word overlap >= 0.60), got "
            "'team lunch review' (0.20)"
        )
        # 2 of 3 is 0.666...: shown as 0.66, never as a threshold it did not reach.
        assert Similar("a b c", min=0.67).explain("a b") == (
            "expected text similar to 'a b c' (word overlap >= 0.67), got 'a b' (0.66)"
        )
        assert Similar("a b", above=0.5, case_insensitive=True).explain("A") == (
            "expected text similar to 'a b' (word overlap > 0.50, ignoring case), got 'A' (0.50)"
        )
        assert Similar("a b", min=0.125).explain("c") == (
            "expected text similar to 'a b' (word overlap >= 0.125), got 'c' (0.00)"
        )
        assert Similar("a b", min=0.5).explain("a") is None

    def test_repr_and_pickle_rebuild_it(self) -> None:
        similar = Similar("project updates", above=0.5, case_insensitive=True)
        assert repr(similar) == "Similar('project updates', above=0.5, case_insensitive=True)"
        assert repr(Similar("x", min=1)) == "Similar('x', min=1.0)"
        copy = pickle.loads(pickle.dumps(similar))
        assert repr(copy) == repr(similar)
        assert copy == "Project Updates"

    @pytest.mark.parametrize(
        ("args", "kwargs", "error", "message"),
        [
            (
                (7,),
                {"min": 0.5},
                TypeError,
                "Similar text must be a str, got 7 (int)",
            ),
            (
                (" \n",),
                {"min": 0.5},
                ValueError,
                "Similar text must hold a word, got ' \\n'; to match an empty string, "
                "compare with '' itself",
            ),
            (
                ("a",),
                {},
                TypeError,
                "Similar needs one threshold, min (at least that share of words in common) "
                "or above (more than that share)",
            ),
            (
                ("a",),
                {"min": 0.5, "above": 0.5},
                TypeError,
                "Similar needs one threshold, min (at least that share of words in common) "
                "or above (more than that share); got both, min 0.5 and above 0.5",
            ),
            (
                ("a",),
                {"min": 0},
                ValueError,
                "Similar min must be in (0, 1], the share of words the texts have in common; got 0",
            ),
            (
                ("a",),
                {"min": 1.5},
                ValueError,
                "Similar min must be in (0, 1], the share of words the texts have in common; "
                "got 1.5",
            ),
            (
                ("a",),
                {"min": float("nan")},
                ValueError,
                "Similar min must be in (0, 1], the share of words the texts have in common; "
                "got nan",
            ),
            (
                ("a",),
                {"above": 1},
                ValueError,
                "Similar above must be in [0, 1), the share of words the texts have in common; "
                "got 1",
            ),
            (
                ("a",),
                {"above": -0.1},
                ValueError,
                "Similar above must be in [0, 1), the share of words the texts have in common; "
                "got -0.1",
            ),
            (("a",), {"min": True}, TypeError, "Similar min must be a number, got True (bool)"),
            (("a",), {"min": "0.5"}, TypeError, "Similar min must be a number, got '0.5' (str)"),
            (
                ("a",),
                {"min": 0.5, "case_insensitive": "yes"},
                TypeError,
                "Similar case_insensitive must be True or False, got 'yes'",
            ),
        ],
    )
    def test_bad_arguments_are_refused_when_it_is_built(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception], message: str
    ) -> None:
        with pytest.raises(error) as caught:
            Similar(*args, **kwargs)
        assert str(caught.value) == message

    @given(
        st.lists(st.sampled_from(["a", "b", "c", "d", "A", "b."]), min_size=1, max_size=6),
        st.lists(st.sampled_from(["a", "b", "c", "d", "A", "b."]), min_size=1, max_size=6),
    )
    def test_above_half_is_api_banks_rule_on_texts_of_single_spaces(
        self, expected: list[str], actual: list[str]
    ) -> None:
        # API-Bank's AddMeeting check: words split on single spaces, compared as sets, more
        # than half of them shared; AddReminder's lowercases first.
        def api_bank(truth: str, response: str, lower: bool) -> bool:
            if lower:
                truth, response = truth.lower(), response.lower()
            want, got = set(truth.split(" ")), set(response.split(" "))
            return len(want & got) / len(want | got) > 0.5

        truth, response = " ".join(expected), " ".join(actual)
        assert (Similar(truth, above=0.5) == response) is api_bank(truth, response, False)
        folded = Similar(truth, above=0.5, case_insensitive=True) == response
        assert folded is api_bank(truth, response, True)


# --- Similar in spec files ------------------------------------------------------------------


def test_similar_in_a_spec_is_the_same_matcher() -> None:
    built = matcher_from_config(
        yaml.safe_load("{$similar: {text: project updates, above: 0.5, case_insensitive: true}}")
    )
    assert repr(built) == "Similar('project updates', above=0.5, case_insensitive=True)"
    assert repr(matcher_from_config({"$similar": {"text": "a b", "min": 0.6}})) == (
        "Similar('a b', min=0.6)"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "{$similar: {min: 0.5}}",
            "needs text, the text to compare with, and min (or above)",
        ),
        (
            "{$similar: {text: a b}}",
            "Similar needs one threshold, min (at least that share of words in common) or "
            "above (more than that share)",
        ),
        (
            "{$similar: {text: a b, min: 0}}",
            "Similar min must be in (0, 1], the share of words the texts have in common; got 0",
        ),
        (
            "{$similar: {text: a b, min: 60%}}",
            "Similar min must be a number, got '60%' (str)",
        ),
        ("{$similar: {text: 42, min: 0.5}}", "Similar text must be a str, got 42 (int)"),
        (
            "{$similar: {text: a, min: 0.5, max: 1}}",
            "unknown option 'max'; Similar takes text, min, above, case_insensitive",
        ),
        ("{$similar: project updates}", "must be a mapping, got 'project updates' (str)"),
    ],
)
def test_a_bad_similar_is_refused_at_its_place(value: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_expected_tools(
            [{"name": "AddMeeting", "args": {"meeting_topic": yaml.safe_load(value)}}]
        )
    assert str(caught.value) == f"expected_tools[0].args.meeting_topic.$similar: {message}"


# --- Fuzzy(..., whitespace="remove") --------------------------------------------------------


class TestFuzzyWithoutWhitespace:
    def test_every_whitespace_character_is_removed(self) -> None:
        formula = Fuzzy("(9+6)*3", whitespace="remove")
        assert formula == "(9 + 6) * 3"
        assert formula == " ( 9+6 )\t*\n3 "
        assert formula != "(9+6)*4"
        assert formula != "(9+6)/3"
        assert Fuzzy("(9+6)*3") != "(9 + 6) * 3"  # collapsed, not removed: the default

    def test_the_rest_of_fuzzy_stays(self) -> None:
        assert Fuzzy("New York", whitespace="remove") == "NEWYORK"
        assert Fuzzy("1 234 567", whitespace="remove") == 1234567
        assert Fuzzy("12", whitespace="remove") == "1 2"  # the digits, once spaces are gone

    def test_it_says_so_in_the_explanation_and_the_repr(self) -> None:
        formula = Fuzzy("(9+6)*3", whitespace="remove")
        assert formula.explain("(9 + 7) * 3") == (
            "fuzzy '(9+6)*3' (whitespace removed) does not match '(9 + 7) * 3'"
        )
        assert repr(formula) == "Fuzzy('(9+6)*3', whitespace='remove')"
        assert repr(Fuzzy("x", whitespace="collapse")) == "Fuzzy('x')"
        assert repr(pickle.loads(pickle.dumps(formula))) == repr(formula)

    def test_a_long_text_is_compared_whole(self) -> None:
        # Longer than the chunks whitespace is handled in: no word is joined or split wrong.
        text = "ab " * 100_000
        assert Fuzzy(text, whitespace="remove") == "a b" * 100_000
        assert Fuzzy(text, whitespace="remove") != "a b" * 99_999

    @pytest.mark.parametrize("whitespace", ["strip", "", True, None])
    def test_other_values_are_refused(self, whitespace: Any) -> None:
        with pytest.raises(ValueError, match=r"^Fuzzy whitespace must be") as caught:
            Fuzzy("x", whitespace=whitespace)
        assert str(caught.value) == (
            "Fuzzy whitespace must be 'collapse' (runs of it read as one space, the default) "
            f"or 'remove' (none of it counts), got {whitespace!r}"
        )

    def test_in_a_spec_it_is_an_option_beside_fuzzy(self) -> None:
        built = matcher_from_config(yaml.safe_load("{$fuzzy: '(9+6)*3', whitespace: remove}"))
        assert repr(built) == "Fuzzy('(9+6)*3', whitespace='remove')"
        with pytest.raises(ConfigError) as caught:
            load_expected_tools([{"name": "f", "args": {"x": {"$fuzzy": "a", "whitespace": "no"}}}])
        assert str(caught.value) == (
            "expected_tools[0].args.x.$fuzzy: Fuzzy whitespace must be 'collapse' (runs of it "
            "read as one space, the default) or 'remove' (none of it counts), got 'no'"
        )

    def test_the_seed_form_takes_no_new_option_a_mapping_with_it_stays_data(self) -> None:
        # {fuzzy: ...} alone is the seed's matcher; with another key it is data, as before.
        data = {"fuzzy": "a b", "whitespace": "remove"}
        assert matcher_from_config(data) == {"fuzzy": "a b", "whitespace": "remove"}
        assert matcher_from_config(data) != "ab"


# --- API-Bank's level-1 ground truth --------------------------------------------------------


SPEC = """\
test_cases:
- name: meeting
  expected_tools:
  - name: AddMeeting
    args:
      meeting_topic: {$similar: {text: project updates, above: 0.5}}
      start_time: "2022-12-15 14:00:00"
- name: agenda
  expected_tools:
  - name: AddAgenda
    args:
      content: {$similar: {text: Meeting with the marketing team, above: 0.5}}
- name: reminder
  expected_tools:
  - name: AddReminder
    args:
      content: {$similar: {text: Call mom, above: 0.5, case_insensitive: true}}
- name: calculator
  expected_tools:
  - name: Calculator
    args:
      formula: {$fuzzy: (5+6)*3, whitespace: remove}
"""


def test_the_spec_is_api_banks_ground_truth() -> None:
    # The texts in SPEC are the fixtures' ground-truth values: a spec a user writes from them.
    assert ground_truth("AddMeeting-level-1-1", "AddMeeting")["meeting_topic"] == "project updates"
    assert (
        ground_truth("AddAgenda-level-1-1", "AddAgenda")["content"]
        == "Meeting with the marketing team"
    )
    assert ground_truth("AddReminder-level-1-1", "AddReminder")["content"] == "Call mom"
    assert ground_truth("Calculator-level-1-1", "Calculator")["formula"] == "(5+6)*3"


@pytest.mark.parametrize(
    ("case", "api", "dialogue", "argument", "other", "passes"),
    [
        # 2 of 3 distinct words shared: more than half, as API-Bank accepts
        (
            "meeting",
            "AddMeeting",
            "AddMeeting-level-1-1",
            "meeting_topic",
            "project updates meeting",
            True,
        ),
        # 2 of 4: exactly half, which API-Bank refuses
        (
            "meeting",
            "AddMeeting",
            "AddMeeting-level-1-1",
            "meeting_topic",
            "updates on the project",
            False,
        ),
        (
            "agenda",
            "AddAgenda",
            "AddAgenda-level-1-1",
            "content",
            "Meeting with marketing team",
            True,
        ),
        # case kept: "meeting" is not "Meeting", 4 of 6 words still shared
        (
            "agenda",
            "AddAgenda",
            "AddAgenda-level-1-1",
            "content",
            "meeting with the marketing team",
            True,
        ),
        (
            "agenda",
            "AddAgenda",
            "AddAgenda-level-1-1",
            "content",
            "Lunch with the sales team",
            False,
        ),
        ("reminder", "AddReminder", "AddReminder-level-1-1", "content", "call Mom", True),
        ("reminder", "AddReminder", "AddReminder-level-1-1", "content", "Call dad", False),
        ("calculator", "Calculator", "Calculator-level-1-1", "formula", "(5 + 6) * 3", True),
        ("calculator", "Calculator", "Calculator-level-1-1", "formula", "(5 + 6) * 4", False),
    ],
)
def test_api_bank_calls_pass_as_its_evaluator_says(
    case: str, api: str, dialogue: str, argument: str, other: str, passes: bool
) -> None:
    cases = {tested.name: tested for tested in load_test_cases(yaml.safe_load(SPEC))}
    truth = ground_truth(dialogue, api)
    assert cases[case].passes([[{"name": api, "args": truth}]])
    assert cases[case].passes([[{"name": api, "args": {**truth, argument: other}}]]) is passes


def test_toolmatch_check_explains_a_text_that_is_not_similar_enough(tmp_path: Path) -> None:
    spec = tmp_path / "apibank.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    runs = [
        {"case": case, "turns": [[{"name": api, "args": ground_truth(dialogue, api)}]]}
        for case, api, dialogue in [
            ("agenda", "AddAgenda", "AddAgenda-level-1-1"),
            ("reminder", "AddReminder", "AddReminder-level-1-1"),
            ("calculator", "Calculator", "Calculator-level-1-1"),
        ]
    ]
    truth = ground_truth("AddMeeting-level-1-1", "AddMeeting")
    paraphrase = {**truth, "meeting_topic": "updates on the project"}
    runs.append({"case": "meeting", "turns": [[{"name": "AddMeeting", "args": paraphrase}]]})
    result = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        "PASS agenda",
        "PASS reminder",
        "PASS calculator",
        "FAIL meeting",
        "  turn 0, expected_tools[0]: ExpectedTool('AddMeeting', {'meeting_topic': "
        "Similar('project updates', above=0.5), 'start_time': '2022-12-15 14:00:00'})",
        "    call 0: meeting_topic: expected text similar to 'project updates' (word overlap "
        "> 0.50), got 'updates on the project' (0.50)",
        "3 passed, 1 failed",
    ]


def test_an_expected_tool_with_similar_arguments() -> None:
    expected = ExpectedTool("AddMeeting", {"meeting_topic": Similar("project updates", above=0.5)})
    assert expected == [{"name": "AddMeeting", "args": {"meeting_topic": "weekly project updates"}}]
    assert expected != [{"name": "AddMeeting", "args": {"meeting_topic": "budget"}}]
