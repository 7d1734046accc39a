"""Judges by name (issue 37 deliverable 7): ``register_judge``, ``JudgedBy`` and
``{$judge: name}``, answers kept per judge and value for one run, ``--plugin``, and the
judges nobody registered (``check`` refuses, ``lint`` reports). Every judge here is a fake:
no network."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    ExpectedTool,
    JudgedBy,
    check_turn,
    load_test_cases,
    matcher_from_config,
    register_judge,
)


class FakeJudge:
    """A judge that accepts texts holding ``word`` and counts what it was asked."""

    def __init__(self, word: str = "please") -> None:
        self.word = word
        self.asked: list[object] = []

    def __call__(self, text: object) -> tuple[bool, str]:
        self.asked.append(text)
        return self.word in str(text), f"no {self.word!r} in it"


def test_a_registered_judge_decides_and_says_why() -> None:
    register_judge("test-polite", FakeJudge())
    assert JudgedBy("test-polite") == "please refund"
    assert JudgedBy("test-polite") != "refund"
    assert JudgedBy("test-polite").explain("refund") == (
        "judge 'test-polite' refused 'refund': no 'please' in it"
    )


def test_a_judge_answering_a_bare_bool_refuses_without_a_reason() -> None:
    register_judge("test-short", lambda text: len(text) < 5)
    assert JudgedBy("test-short") == "hi"
    assert JudgedBy("test-short").explain("a long text") == (
        "judge 'test-short' refused 'a long text'"
    )


def test_a_judge_that_raises_or_answers_nonsense_refuses_quoting_it() -> None:
    def broken(text: object) -> bool:
        raise RuntimeError("the model timed out")

    register_judge("test-broken", broken)
    register_judge("test-nonsense", lambda text: "yes")
    assert JudgedBy("test-broken") != "x"
    assert JudgedBy("test-broken").explain("x") == (
        "judge 'test-broken' refused 'x': raised RuntimeError: the model timed out"
    )
    assert JudgedBy("test-nonsense").explain("x") == (
        "judge 'test-nonsense' refused 'x': raised TypeError: answered 'yes' (str); a judge "
        "answers True or False, or a pair (passed, reason)"
    )


def test_a_judge_nobody_registered_accepts_nothing_and_says_so() -> None:
    assert JudgedBy("test-nobody") != "anything"
    assert JudgedBy("test-nobody").explain("x") == (
        "no judge named 'test-nobody' is registered: register it with "
        "toolmatch.register_judge, declare it in the toolmatch.judges entry point group, or "
        "pass toolmatch check --plugin MODULE"
    )


@pytest.mark.parametrize("name", ["", 3, None])
def test_a_judge_name_is_a_non_empty_string(name: object) -> None:
    with pytest.raises(TypeError, match="a judge's name must be a non-empty str"):
        JudgedBy(name)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a judge's name must be a non-empty str"):
        register_judge(name, print)  # type: ignore[arg-type]


def test_register_judge_needs_a_callable() -> None:
    with pytest.raises(TypeError, match=r"register_judge needs a callable, got 3 \(int\)"):
        register_judge("test-x", 3)  # type: ignore[arg-type]


def test_a_judge_is_asked_once_per_value_in_a_run_and_again_in_the_next() -> None:
    judge = FakeJudge()
    register_judge("test-counted", judge)
    expected = [ExpectedTool("send", {"text": JudgedBy("test-counted")}, count=2)]
    calls = [
        {"name": "send", "args": {"text": "help"}},
        {"name": "send", "args": {"text": "help"}},
        {"name": "send", "args": {"text": "please"}},
    ]
    result = check_turn(expected, calls, distinct=True)
    assert not result.passed
    str(result)  # the explanations ask again: answered from the run's answers
    assert judge.asked == ["help", "please"]
    check_turn(expected, calls, distinct=True)
    assert judge.asked == ["help", "please", "help", "please"]


def test_the_answers_of_a_replaced_judge_are_forgotten() -> None:
    register_judge("test-replaced", lambda text: True)
    assert JudgedBy("test-replaced") == "x"
    register_judge("test-replaced", lambda text: False)
    assert JudgedBy("test-replaced") != "x"


def test_a_spec_names_a_judge_with_dollar_judge() -> None:
    register_judge("test-spec", FakeJudge())
    matcher = matcher_from_config({"text": {"$judge": "test-spec"}})
    assert matcher == {"text": "please"}
    [case] = load_test_cases(
        {
            "test_cases": [
                {
                    "name": "ask",
                    "expected_tools": [{"name": "send", "args": {"text": {"$judge": "test-spec"}}}],
                }
            ]
        }
    )
    results = case.check([[{"name": "send", "args": {"text": "go away"}}]])
    assert results[0].checks[0].unmatched_reason == (
        "call 0: text: judge 'test-spec' refused 'go away': no 'please' in it"
    )


def test_dollar_judge_takes_a_name() -> None:
    from toolmatch import ConfigError

    with pytest.raises(ConfigError) as error:
        matcher_from_config({"text": {"$judge": 3}})
    assert str(error.value.problems[0]) == (
        'args.text.$judge: must be a string, got 3 (int); quote it: "3"'
    )


def test_an_installed_package_declares_a_judge_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_judges.py").write_text(
        "def kind(text):\n    return 'thanks' in text, 'not thankful'\n", encoding="utf-8"
    )
    info = tmp_path / "fake_judges-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-judges\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[toolmatch.judges]\ntest-kind = fake_judges:kind\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert JudgedBy("test-kind") == "thanks a lot"
    assert JudgedBy("test-kind").explain("no") == "judge 'test-kind' refused 'no': not thankful"


SPEC = textwrap.dedent(
    """\
    test_cases:
      - name: ask
        expected_tools:
          - name: send
            args: {text: {$judge: cli-polite}}
    """
)
PLUGIN = textwrap.dedent(
    """\
    import toolmatch

    def polite(text):
        return "please" in text, "no 'please' in it"

    toolmatch.register_judge("cli-polite", polite)
    """
)
RUNS = jsonl(
    {"case": "ask", "turns": [[{"name": "send", "args": {"text": "help me"}}]]},
    {"case": "ask", "turns": [[{"name": "send", "args": {"text": "please help"}}]]},
)


@pytest.fixture
def judged(tmp_path: Path) -> Path:
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "my_judges.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "runs.jsonl").write_text(RUNS, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_check_plugin_imports_a_module_that_registers(judged: Path, jobs: str) -> None:
    done = toolmatch(
        "check", "spec.yaml", "runs.jsonl", "--plugin", "my_judges", "--jobs", jobs, cwd=judged
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[:4] == [
        "FAIL ask",
        "  turn 0, expected_tools[0]: ExpectedTool('send', {'text': JudgedBy('cli-polite')})",
        "    call 0: text: judge 'cli-polite' refused 'help me': no 'please' in it",
        "PASS ask (run 2)",
    ]


def test_check_refuses_a_spec_naming_a_judge_nobody_registered(judged: Path) -> None:
    done = toolmatch("check", "spec.yaml", "runs.jsonl", cwd=judged)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "toolmatch: the spec names judges nobody registered: 'cli-polite'; register each "
        "with toolmatch.register_judge in a module given to --plugin, or in the "
        "toolmatch.judges entry point group\n"
    )


def test_check_plugin_that_cannot_be_imported_is_an_error(judged: Path) -> None:
    done = toolmatch("check", "spec.yaml", "runs.jsonl", "--plugin", "no_such_mod", cwd=judged)
    assert done.returncode == 2
    assert done.stderr == (
        "toolmatch: cannot import the plugin 'no_such_mod': ModuleNotFoundError: No module "
        "named 'no_such_mod'\n"
    )


def test_lint_reports_a_judge_nobody_registered(judged: Path) -> None:
    done = toolmatch("lint", "spec.yaml", "--format", "json", cwd=judged)
    assert done.returncode == 1
    finding = json.loads(done.stdout.splitlines()[0])
    assert finding == {
        "type": "finding",
        "place": "test_cases[0](ask).expected_tools[0]",
        "line": 4,
        "rule": "unregistered-judge",
        "message": "names the judge 'cli-polite', which nobody registered: it accepts no value "
        "(register it in a module given to --plugin, or in the toolmatch.judges entry point "
        "group)",
    }
    registered = toolmatch("lint", "spec.yaml", "--plugin", "my_judges", cwd=judged)
    assert (registered.returncode, registered.stdout) == (0, "no findings\n")


def test_check_refuses_an_answer_naming_a_judge_nobody_registered(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(
        "test_cases: [{name: a, turns: [{expected_tools: [], answer: {$judge: kind}}],"
        " answer: {$judge: brief}}]\n",
        encoding="utf-8",
    )
    done = toolmatch("check", "spec.yaml", "-", stdin="", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "toolmatch: the spec names judges nobody registered: 'kind', 'brief'; register each "
        "with toolmatch.register_judge in a module given to --plugin, or in the "
        "toolmatch.judges entry point group\n"
    )
