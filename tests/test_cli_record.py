"""``toolmatch record`` as a subprocess: the spec it writes passes ``toolmatch check`` on the
traces it came from, in every format the readers take; bad lines and exit statuses."""

from __future__ import annotations

import datetime
import decimal
import gzip
import json
import os
import subprocess
import sys
import textwrap
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import commands
from shapes import CONTAINERS, call_shapes
from toolmatch import spec_schema
from toolmatch._spec.writing import NEEDS_RUAMEL

jsonschema = pytest.importorskip("jsonschema")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "traces.jsonl"


toolmatch = partial(commands.toolmatch, cwd=ROOT)  # the examples' paths are the checkout's


jsonl = commands.jsonl


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args}


@pytest.mark.parametrize("output", ["-", "spec.yaml", "spec.yml", "spec.json"])
def test_the_examples_record_to_a_spec_that_passes_check(tmp_path: Path, output: str) -> None:
    spec = tmp_path / ("spec.yaml" if output == "-" else output)
    if output == "-":
        recorded = toolmatch("record", EXAMPLES)
        spec.write_text(recorded.stdout, encoding="utf-8")
    else:
        recorded = toolmatch("record", EXAMPLES, "-o", spec)
        assert recorded.stdout == ""
    assert (recorded.returncode, recorded.stderr) == (0, "")
    checked = toolmatch("check", spec, EXAMPLES)
    assert (checked.returncode, checked.stderr) == (0, "")
    assert checked.stdout.splitlines()[-1] == "6 passed, 0 failed"
    jsonschema.validate(yaml.safe_load(spec.read_text(encoding="utf-8")), spec_schema())


def test_json_and_yaml_hold_the_same_spec(tmp_path: Path) -> None:
    toolmatch("record", EXAMPLES, "-o", tmp_path / "spec.json")
    as_yaml = yaml.safe_load(toolmatch("record", EXAMPLES).stdout)
    text = (tmp_path / "spec.json").read_text(encoding="utf-8")
    assert json.loads(text) == as_yaml
    assert text.startswith('{\n  "test_cases": [\n    {\n      "name": "weather_lookup",\n')


def _shape_traces() -> tuple[str, int]:
    """Every call shape of every reader, in every container of its kind: one case each,
    two runs, two calls a turn whose arguments differ between the runs."""
    lines = []
    for kind, containers in CONTAINERS.items():
        for shape in range(len(call_shapes("f", {}, "c")[kind])):
            for holder, container in enumerate(containers):
                case = f"{kind}-{shape}-{holder}"
                for run in range(2):
                    items = [
                        call_shapes(name, {"q": f"ORD-{run}{index}", "n": run}, f"c{run}")[kind][
                            shape
                        ]
                        for index, name in enumerate(["search_one", "fetch_two"])
                    ]
                    if not all(isinstance(item, dict) for item in items):
                        break  # a ToolCall object: not a JSON shape
                    lines.append({"case": case, "turns": [container(items), []]})
    return jsonl(*lines), len(lines) // 2


def test_every_reader_shape_records_to_a_spec_that_passes_check(tmp_path: Path) -> None:
    traces, cases = _shape_traces()
    assert cases > 40
    (tmp_path / "traces.jsonl").write_text(traces, encoding="utf-8")
    recorded = toolmatch("record", "traces.jsonl", "-o", "spec.yaml", cwd=tmp_path)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    spec = yaml.safe_load((tmp_path / "spec.yaml").read_text(encoding="utf-8"))
    assert len(spec["test_cases"]) == cases
    checked = toolmatch("check", "spec.yaml", "traces.jsonl", cwd=tmp_path)
    assert (checked.returncode, checked.stderr) == (0, "")
    assert checked.stdout.splitlines()[-1] == f"{2 * cases} passed, 0 failed"


WEATHER_RUNS = [
    {
        "case": "weather",
        "turns": [[call("get_weather", city="Paris", days=3, at="2026-12-01T10:00:00Z")]],
    },
    {
        "case": "weather",
        "turns": [[call("get_weather", city="Paris", days=5, at="2026-12-02T09:30:00Z")]],
    },
    {
        "case": "weather",
        "turns": [[call("get_weather", city="Paris", days=4, at="2026-12-02T11:00:00Z")]],
    },
]


def test_several_runs_of_a_case_are_loosened(tmp_path: Path) -> None:
    traces = jsonl(*WEATHER_RUNS)
    recorded = toolmatch("record", "-", stdin=traces)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    assert recorded.stdout == textwrap.dedent("""\
        test_cases:
        - name: weather  # recorded from 3 runs
          exhaustive: true
          expected_tools:
          - name: {$literal: get_weather}
            exact: true
            args:
              city: Paris
              days: {$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval
              at: {$datetime: {tz_aware: true}}  # observed: "2026-12-01T10:00:00Z", "2026-12-02T09:30:00Z", "2026-12-02T11:00:00Z"; rule: datetime
        """)
    (tmp_path / "spec.yaml").write_text(recorded.stdout, encoding="utf-8")
    checked = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=traces)
    assert checked.stdout.splitlines() == [
        "PASS weather",
        "PASS weather (run 2)",
        "PASS weather (run 3)",
        "TRIALS weather: 3/3 passed, pass^1 1.000, pass^2 1.000, pass^3 1.000",
        "TRIALS mean over 1 case: pass^1 1.000, pass^2 1.000, pass^3 1.000",
        "3 passed, 0 failed",
    ]


def test_loosen_none_records_each_case_from_its_last_run(tmp_path: Path) -> None:
    traces = jsonl(*WEATHER_RUNS)
    recorded = toolmatch(
        "record", "-", "--loosen", "none", "-o", tmp_path / "spec.yaml", stdin=traces
    )
    assert recorded.returncode == 0
    assert recorded.stderr.splitlines() == [
        f"note: <stdin>:{number}: case 'weather' is its run at <stdin>:3 (--loosen none); this "
        "run differs, and toolmatch check will fail it"
        for number in (1, 2)
    ]
    text = (tmp_path / "spec.yaml").read_text(encoding="utf-8")
    assert text.startswith("test_cases:\n- name: weather  # the last of 3 runs\n")
    assert "      days: 4\n" in text
    checked = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=traces)
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[-1] == "1 passed, 2 failed"


def test_bad_lines_are_reported_and_the_others_recorded(tmp_path: Path) -> None:
    traces = jsonl(
        {"case": "a", "turns": [[call("f", x=1)]]},
        '{"case": "a", "turns": [',
        "",
        [1, 2],
        {"turns": []},
        {"case": "", "turns": []},
        {"case": "b"},
        {"case": "b", "turns": [42]},
        {"case": "c", "turns": []},
        {"case": "a", "turns": [[call("f", x=1)]]},
    )
    recorded = toolmatch("record", "-", "-o", tmp_path / "spec.yaml", stdin=traces)
    assert recorded.returncode == 1
    assert recorded.stderr.splitlines() == [
        "ERROR <stdin>:2: invalid JSON: Expecting value at column 25",
        'ERROR <stdin>:4: a run must be a JSON object {"case": NAME, "turns": [...]}, got [1, 2] (list)',
        """ERROR <stdin>:5: "case" must be the case's name, a non-empty string, got missing""",
        """ERROR <stdin>:6: "case" must be the case's name, a non-empty string, got '' (str)""",
        'ERROR <stdin>:7: missing "turns": a list with one entry of calls per turn',
        "ERROR <stdin>:8: turns[0]: to_calls cannot read tool calls from input: 42 (int); "
        "accepted shapes: https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md"
        "#accepted-shapes",
        "ERROR <stdin>:9: case 'c': a run with no turns cannot be recorded",
    ]
    spec = yaml.safe_load((tmp_path / "spec.yaml").read_text(encoding="utf-8"))
    assert [case["name"] for case in spec["test_cases"]] == ["a"]


def test_runs_with_another_number_of_turns_are_not_recorded(tmp_path: Path) -> None:
    one, two = [[call("f")]], [[call("f")], [call("g")]]
    traces = jsonl(*({"case": "a", "turns": turns} for turns in (two, one, two)))
    recorded = toolmatch("record", "-", "-o", tmp_path / "spec.yaml", stdin=traces)
    assert recorded.returncode == 1
    assert recorded.stderr == (
        "ERROR <stdin>:2: case 'a': this run has 1 turn(s), the case is recorded from its "
        "runs with 2; not recorded\n"
    )
    checked = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=traces)
    assert checked.stdout.splitlines()[-1] == "2 passed, 1 failed"
    # Without loosening, the last run is the case, whatever the others hold.
    assert toolmatch("record", "-", "--loosen", "none", stdin=traces).returncode == 0


def test_other_envelopes_are_read_as_check_reads_them(tmp_path: Path) -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "lookup", "arguments": '{"id": 7}'},
            }
        ],
    }
    traces = jsonl(
        {"info": {"task": "t1"}, "messages": [{"role": "user", "content": "hi"}, message]},
        {"info": {}, "messages": []},
    )
    options = ["--case-key", "info.task", "--turns-key", "messages", "--one-turn"]
    (tmp_path / "traces.jsonl").write_text(traces, encoding="utf-8")
    recorded = toolmatch("record", "traces.jsonl", *options, "-o", "spec.yaml", cwd=tmp_path)
    assert recorded.returncode == 1
    assert recorded.stderr == (
        "ERROR traces.jsonl:2: no 'info.task' field (--case-key) in this record\n"
    )
    checked = toolmatch("check", "spec.yaml", "traces.jsonl", *options, cwd=tmp_path)
    assert checked.stdout.splitlines()[0] == "PASS t1"


def test_a_gzip_traces_file_is_read(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "traces.jsonl.gz", "wt", encoding="utf-8") as file:
        file.write(EXAMPLES.read_text(encoding="utf-8"))
    recorded = toolmatch("record", tmp_path / "traces.jsonl.gz")
    assert recorded.stdout == toolmatch("record", EXAMPLES).stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["no-such.jsonl"],
            "toolmatch: cannot read the traces no-such.jsonl: No such file or directory",
        ),
        (
            [EXAMPLES, "-o", "spec.txt"],
            "toolmatch: cannot write spec.txt: a spec's name ends in .yaml, .yml or .json",
        ),
        (["-"], "toolmatch: no run to record in <stdin>"),
        (
            [EXAMPLES, "-o", "no-such-dir/spec.yaml"],
            "toolmatch: cannot write no-such-dir/spec.yaml: No such file or directory",
        ),
        ([EXAMPLES, "--loosen", "some"], None),
        (
            [EXAMPLES, "--tools", "no-such-tools.json"],
            "toolmatch: cannot read no-such-tools.json: No such file or directory",
        ),
        (
            [EXAMPLES, "--tools", "tools.txt"],
            "toolmatch: --tools tools.txt: tools.txt: unsupported file type; accepted: .yaml, "
            ".yml, .json",
        ),
    ],
)
def test_nothing_written_is_exit_status_2(
    tmp_path: Path, args: list[object], message: str | None
) -> None:
    result = toolmatch("record", *args, stdin="\n\n", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    if message is not None:
        assert result.stderr == message + "\n"
    else:
        assert "argument --loosen: invalid choice: 'some'" in result.stderr


def test_tools_that_are_not_definitions_are_refused_naming_the_place(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text('[{"name": "f"}, 7]', encoding="utf-8")
    result = toolmatch("record", EXAMPLES, "--tools", tmp_path / "tools.json")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"toolmatch: --tools {tmp_path / 'tools.json'}: ")
    assert "[1]" in result.stderr


ORDERS = [
    {
        "case": "refund",
        "turns": [
            [
                call("get_order", order_id=order),
                *([call("get_order", order_id=order)] * again),
                call("refund", order_id=order, lang=lang, amount=amount),
            ]
        ],
    }
    for order, lang, amount, again in (
        ("ORD-20931", "en", 39.99, 0),
        ("ORD-11230", "fr", 40.01, 1),
        ("ORD-55555", "en", 40.0, 0),
    )
]


def test_loosen_strict_loosens_only_ids_times_and_uuids() -> None:
    recorded = toolmatch("record", "-", "--loosen", "strict", stdin=jsonl(*ORDERS))
    assert (recorded.returncode, recorded.stderr) == (0, "")
    args = recorded.stdout.split("  - name: {$literal: refund}\n    exact: true\n    args:\n")[1]
    assert textwrap.dedent(args) == textwrap.dedent("""\
              order_id: {regex: 'ORD-[0-9]{5}'}  # observed: "ORD-20931", "ORD-11230", "ORD-55555"; rule: id-shape
              lang: {$one_of: [en, fr]}  # observed: "en", "fr"; rule: observed-only
              amount: {$one_of: [39.99, 40.01, 40.0]}  # observed: 39.99, 40.01, 40.0; rule: observed-only
        """)


def test_tools_definitions_steer_the_rules(tmp_path: Path) -> None:
    definitions = [
        {
            "name": "get_order",
            "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}},
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "refund",
            "inputSchema": {
                "type": "object",
                "properties": {"lang": {"type": "string", "enum": ["en", "fr", "de"]}},
            },
            "annotations": {"destructiveHint": True},
        },
    ]
    (tmp_path / "tools.yaml").write_text(yaml.safe_dump(definitions), encoding="utf-8")
    recorded = toolmatch(
        "record",
        "-",
        "--tools",
        tmp_path / "tools.yaml",
        "-o",
        tmp_path / "spec.yaml",
        stdin=jsonl(*ORDERS),
    )
    assert (recorded.returncode, recorded.stderr) == (0, "")
    spec = (tmp_path / "spec.yaml").read_text(encoding="utf-8")
    assert spec.startswith(
        textwrap.dedent("""\
        test_cases:
        - name: refund  # recorded from 3 runs
          exhaustive: true
          ignore:
          - name: {$literal: get_order}
          expected_tools:  # ignored, read-only by definition: "get_order"
          - name: {$literal: refund}
        """)
    )
    assert '      lang: {$one_of: [en, fr, de]}  # observed: "en", "fr"; rule: enum\n' in spec
    new = {
        "case": "refund",
        "turns": [[call("refund", order_id="ORD-00001", lang="de", amount=40.02)]],
    }
    wrong = {
        "case": "refund",
        "turns": [[call("refund", order_id="ORD-00001", lang="zz", amount=40.02)]],
    }
    checked = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=jsonl(new, wrong))
    assert checked.stdout.splitlines()[0] == "PASS refund"
    assert checked.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_the_traces_file_is_never_overwritten(tmp_path: Path) -> None:
    traces = tmp_path / "runs.json"
    traces.write_text(EXAMPLES.read_text(encoding="utf-8"), encoding="utf-8")
    result = toolmatch("record", traces, "-o", traces)
    assert (result.returncode, result.stderr) == (
        2,
        f"toolmatch: cannot write {traces}: it is the traces file\n",
    )
    assert traces.read_text(encoding="utf-8") == EXAMPLES.read_text(encoding="utf-8")


def test_without_ruamel_record_exits_2_naming_the_extra() -> None:
    code = (
        "import sys; sys.modules['ruamel'] = None\n"
        "from toolmatch._cli.main import main\n"
        f"sys.exit(main(['record', {str(EXAMPLES)!r}]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"toolmatch: {NEEDS_RUAMEL}\n"


def test_the_readme_record_command_runs_as_written(tmp_path: Path) -> None:
    command = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "readme_command.py"), "record"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert command.startswith("toolmatch record ")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "traces.jsonl").write_bytes(EXAMPLES.read_bytes())
    bin_dir = str(Path(sys.executable).parent)  # where this environment's toolmatch is
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")},
        timeout=300,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == "6 passed, 0 failed"


def test_a_case_deeper_than_a_spec_may_be_is_not_recorded(tmp_path: Path) -> None:
    def nested(levels: int) -> str:
        return '{"name": "f", "args": {"x": ' + "[" * levels + "1" + "]" * levels + "}}"

    traces = "".join(
        f'{{"case": "{case}", "turns": [[{nested(levels)}]]}}\n'
        for case, levels in (("deepest", 94), ("too_deep", 95), ("far_too_deep", 500))
    )
    recorded = toolmatch("record", "-", "-o", tmp_path / "spec.yaml", stdin=traces)
    assert recorded.returncode == 1
    assert recorded.stderr.splitlines() == [
        "ERROR <stdin>:2: case 'too_deep': nested too deeply: more than 100 mappings and lists "
        "inside one another, counted from the top of the spec (the spec's own levels and the "
        "matchers written around values count too); not recorded",
        "ERROR <stdin>:3: case 'far_too_deep': turn 0, call 0 ('f'): its arguments are nested "
        "too deeply: more than 100 mappings and lists inside one another (a spec's limit); "
        "not recorded",
    ]
    checked = toolmatch("check", tmp_path / "spec.yaml", "-", stdin=traces.splitlines()[0])
    assert (checked.returncode, checked.stdout) == (0, "PASS deepest\n1 passed, 0 failed\n")


def test_a_directory_is_read_as_check_reads_it_with_each_bad_record_at_its_place(
    tmp_path: Path,
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    runs = tmp_path / "runs"
    (runs / "later").mkdir(parents=True)
    (runs / "a.jsonl").write_text(jsonl(WEATHER_RUNS[0]) + "{\n", encoding="utf-8")
    (runs / "b.json").write_text(json.dumps([WEATHER_RUNS[1], 7]), encoding="utf-8")
    table = {"case": ["weather"], "turns": [json.dumps(WEATHER_RUNS[2]["turns"])]}
    pq.write_table(pa.table(table), runs / "later" / "c.parquet")
    recorded = toolmatch("record", runs, "-o", tmp_path / "spec.yaml")
    assert recorded.returncode == 1  # written, with two records left out
    assert recorded.stderr.splitlines() == [
        f"ERROR {runs}/a.jsonl:2: invalid JSON: Expecting property name enclosed in double "
        "quotes at column 2",
        f'ERROR {runs}/b.json:item 2: a run must be a JSON object {{"case": NAME, "turns": '
        "[...]}, got 7 (int)",
    ]
    spec = (tmp_path / "spec.yaml").read_text(encoding="utf-8")
    assert (
        "days: {$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval" in spec
    )  # all three runs, in order
    checked = toolmatch("check", tmp_path / "spec.yaml", runs)
    assert checked.stdout.splitlines()[-1] == "3 passed, 0 failed"


# Writing the spec: never destroying the one there, strict JSON, JSON values only -----------

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_lone_surrogate_is_written_escaped_and_the_spec_replaced_whole(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text("the previous spec", encoding="utf-8")
    traces = '{"case": "a", "turns": [[{"name": "f", "args": {"x": "\\ud800", "y": "é"}}]]}\n'
    recorded = toolmatch("record", "-", "-o", spec, stdin=traces)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    text = spec.read_text(encoding="utf-8")
    assert '"x": "\\ud800",\n' in text
    assert '"y": "é"\n' in text
    assert _strict_json(text)["test_cases"][0]["expected_tools"][0]["args"] == {
        "x": "\ud800",
        "y": "é",
    }
    checked = toolmatch("check", spec, "-", stdin=traces)
    assert (checked.returncode, checked.stdout) == (0, "PASS a\n1 passed, 0 failed\n")
    assert os.listdir(tmp_path) == ["spec.json"]


@POSIX
@pytest.mark.parametrize("name", ["spec.yaml", "spec.json"])
def test_a_spec_that_cannot_be_written_whole_leaves_the_previous_one(
    tmp_path: Path, name: str
) -> None:
    spec = tmp_path / name
    spec.write_text("the previous spec", encoding="utf-8")
    recorded = commands.toolmatch(
        "record", EXAMPLES, "-o", spec, cwd=tmp_path, largest_file=100
    )  # the disk fills up after 100 bytes
    assert (recorded.returncode, recorded.stderr) == (
        2,
        f"toolmatch: cannot write {spec}: File too large; {spec} is unchanged\n",
    )
    assert spec.read_text(encoding="utf-8") == "the previous spec"
    assert os.listdir(tmp_path) == [name]  # no temporary file left behind


def test_the_spec_written_through_a_link_replaces_the_file_it_names(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    target = tmp_path / "specs" / "spec.yaml"
    target.write_text("the previous spec", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "spec.yaml"
    link.symlink_to(target)
    recorded = toolmatch("record", EXAMPLES, "-o", link)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("test_cases:")
    assert target.stat().st_mode & 0o777 == 0o640  # a spec replaced keeps its mode


@pytest.mark.parametrize(("number", "written"), [("1e400", "1e400"), ("-1e400", "-1e400")])
def test_an_infinity_is_a_json_number_too_large_for_a_float(
    tmp_path: Path, number: str, written: str
) -> None:
    traces = f'{{"case": "a", "turns": [[{{"name": "f", "args": {{"x": {number}}}}}]]}}\n'
    spec = tmp_path / "spec.json"
    recorded = toolmatch("record", "-", "-o", spec, stdin=traces)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    text = spec.read_text(encoding="utf-8")
    assert f'"x": {written}\n' in text
    assert _strict_json(text)["test_cases"][0]["expected_tools"][0]["args"] == {"x": float(number)}
    checked = toolmatch("check", spec, "-", stdin=traces)
    assert (checked.returncode, checked.stdout) == (0, "PASS a\n1 passed, 0 failed\n")


@pytest.mark.parametrize(
    ("value", "found"),
    [
        (decimal.Decimal("1.50"), "Decimal('1.50') (decimal.Decimal)"),
        (
            datetime.datetime(2024, 1, 2, 3, 4, 5),
            "datetime.datetime(2024, 1, 2, 3, 4, 5) (datetime.datetime)",
        ),
        (datetime.date(2024, 1, 2), "datetime.date(2024, 1, 2) (datetime.date)"),
        (b"\x00", "b'\\x00' (bytes)"),
    ],
)
def test_parquet_values_that_are_not_json_values_are_refused_at_their_row(
    tmp_path: Path, value: object, found: str
) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    traces = tmp_path / "runs.parquet"
    turns = [
        [[{"name": "f", "args": {"x": None, "y": 1}}]],
        [[{"name": "f", "args": {"x": value}}]],
    ]
    pq.write_table(pa.table({"case": ["good", "bad"], "turns": turns}), traces)
    spec = tmp_path / "spec.json"
    recorded = toolmatch("record", traces, "-o", spec)
    assert (recorded.returncode, recorded.stdout) == (1, "")
    assert recorded.stderr == (
        f"ERROR {traces}:row 2: turn 0, call 0 ('f'): args.x: {found} is not a JSON value, "
        "and a spec holds only those (store the column as JSON text); not recorded\n"
    )
    assert [case["name"] for case in json.loads(spec.read_text("utf-8"))["test_cases"]] == ["good"]


def test_who_made_each_call_and_how_it_ended_are_recorded(tmp_path: Path) -> None:
    # Billing refunds in every run: written, so a refund by support fails. The lookup's
    # status varied: loosened as any value that varies is; the log's agent is not recorded.
    def run(status: str) -> dict[str, Any]:
        refund = {**call("refund", order=7), "agent": "billing", "status": "succeeded"}
        lookup = {**call("lookup"), "agent": "triage", "status": status}
        return {"case": "refund", "turns": [[lookup, refund, call("log")]]}

    runs = [run("succeeded"), run("denied"), run("succeeded")]
    recorded = toolmatch("record", "-", stdin=jsonl(*runs))
    assert (recorded.returncode, recorded.stderr) == (0, "")
    assert recorded.stdout == textwrap.dedent("""\
        test_cases:
        - name: refund  # recorded from 3 runs
          ordered: true
          exhaustive: true
          expected_tools:
          - name: {$literal: lookup}
            exact: true
            agent: triage
            status: {$one_of: [succeeded, denied]}  # observed: "succeeded", "denied"; rule: enum-like
          - name: {$literal: refund}
            exact: true
            args:
              order: 7
            agent: billing
            status: succeeded
          - name: {$literal: log}
            exact: true
        """)
    spec = tmp_path / "spec.yaml"
    spec.write_text(recorded.stdout, encoding="utf-8")
    wrong = run("succeeded")
    wrong["turns"][0][1]["agent"] = "support"
    checked = toolmatch("check", spec, "-", stdin=jsonl(*runs, wrong))
    assert checked.stdout.splitlines()[-1] == "3 passed, 1 failed"
    assert "    call 1: (agent): expected 'billing', got 'support'" in checked.stdout


# --into SPEC: more runs widen a spec ----------------------------------------------------------


def widen(
    tmp_path: Path, text: str, *runs: dict[str, Any]
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``record - --into SPEC`` of the runs, SPEC holding ``text`` dedented; the result and
    SPEC's path."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(textwrap.dedent(text), encoding="utf-8")
    return toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs)), spec


def weakened(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines saying what a widening weakened (docs/record.md)."""
    return [line for line in result.stderr.splitlines() if line.startswith("toolmatch: weakened")]


WIDENED_FROM = textwrap.dedent("""\
    test_cases:
    - name: weather
      exhaustive: true
      expected_tools:
      - name: {$literal: get_weather}
        exact: true
        args:
          city: Paris
          days: 3
          at: {$datetime: true}   # mine: any time
    """)


def test_into_widens_the_literals_new_runs_disagree_with_and_keeps_the_rest(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(WIDENED_FROM, encoding="utf-8")
    runs = [
        {
            "case": "weather",
            "turns": [[call("get_weather", city="paris", days=5, at="2026-12-01T10:00:00Z")]],
        },
        {
            "case": "weather",
            "turns": [
                [
                    call("get_weather", city="PARIS", days=4, at="2026-12-02T10:00:00"),
                    call("log", level="debug"),
                ]
            ],
        },
        {"case": "news", "turns": [[call("headlines", country="fr")]]},
    ]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert (widened.returncode, widened.stdout) == (0, "")
    after = spec.read_text(encoding="utf-8")
    assert after == textwrap.dedent("""\
        test_cases:
        - name: weather
          exhaustive: true
          ignore: [{name: {$literal: log}, max_count: 1}]
          expected_tools:
          - name: {$literal: get_weather}
            exact: true
            args:
              city: {fuzzy: Paris}  # observed: "Paris", "paris", "PARIS"; rule: case-only
              days: {$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval
              at: {$datetime: true}   # mine: any time
        - name: news
          exhaustive: true
          expected_tools:
          - name: {$literal: headlines}
            exact: true
            args:
              country: fr
        """)
    assert [line for line in widened.stderr.splitlines() if line[:1] in "+-"][:4] == [
        f"--- {spec}",
        f"+++ {spec}",
        "+  ignore: [{name: {$literal: log}, max_count: 1}]",
        "-      city: Paris",
    ]
    # Each assertion widened is said, after the diff.
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](weather).expected_tools[0].args.city: literal "
        "'Paris' loosened to {'fuzzy': 'Paris'}",
        "toolmatch: weakened: test_cases[0](weather).expected_tools[0].args.days: literal 3 "
        "loosened to {'$between': [0, 16]}",
        "toolmatch: weakened: test_cases[0](weather).ignore: calls of 'log' ignored: a new run "
        "calls it, and the exhaustive turn no longer fails a run that does",
    ]
    checked = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert checked.stdout.splitlines()[-1] == "3 passed, 0 failed"
    # The matcher kept ("at") is the user's: a run it fails still fails.
    again = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert (again.returncode, again.stderr) == (0, "")  # nothing left to widen
    assert spec.read_text(encoding="utf-8") == after


def test_into_knows_the_tools_a_hand_written_spec_names_plainly(tmp_path: Path) -> None:
    # A plain name selects the calls whose name holds it, as the check reads it: the run's
    # search calls are the expected tool's own, widened, never ignored as unexpected.
    spec_text = """\
            test_cases:
            - name: find
              exhaustive: true
              expected_tools:
              - name: search
                args: {q: paris}
              - lookup
            - name: loose
              expected_tools:
              - name: search
                args: {q: paris}
            """
    runs = [
        {"case": "find", "turns": [[call("web_search", q="Paris"), call("lookup_user")]]},
        {"case": "loose", "turns": [[call("search", q="PARIS")]]},
    ]
    widened, spec = widen(tmp_path, spec_text, *runs)
    assert (widened.returncode, widened.stdout) == (0, "")
    assert spec.read_text(encoding="utf-8") == textwrap.dedent("""\
        test_cases:
        - name: find
          exhaustive: true
          expected_tools:
          - name: search
            args: {q: {fuzzy: paris}}  # q: observed: "paris", "Paris"; rule: case-only
          - lookup
        - name: loose
          expected_tools:
          - name: search
            args: {q: {fuzzy: paris}}  # q: observed: "paris", "PARIS"; rule: case-only
        """)
    checked = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert checked.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_into_widens_the_alternative_each_run_is_closest_to(tmp_path: Path) -> None:
    spec_text = """\
            test_cases:
            - name: mail
              one_of:
              - expected_tools:
                - name: archive_mail
                  args: {folder: old}
              - turns:
                - expected_tools: [lookup]
                - one_of:
                  - expected_tools:
                    - name: delete_mail
                      args: {folder: spam}
                  - expected_tools:
                    - name: flag_mail
                      args: {folder: spam}
            """
    runs = [
        {"case": "mail", "turns": [[call("archive_mail", folder="OLD")]]},
        {"case": "mail", "turns": [[call("lookup")], [call("flag_mail", folder="Spam")]]},
    ]
    widened, spec = widen(tmp_path, spec_text, *runs)
    assert (widened.returncode, widened.stdout) == (0, ""), widened.stderr
    assert spec.read_text(encoding="utf-8") == textwrap.dedent("""\
        test_cases:
        - name: mail
          one_of:
          - expected_tools:
            - name: archive_mail
              args: {folder: {fuzzy: old}}  # folder: observed: "old", "OLD"; rule: case-only
          - turns:
            - expected_tools: [lookup]
            - one_of:
              - expected_tools:
                - name: delete_mail
                  args: {folder: spam}
              - expected_tools:
                - name: flag_mail
                  args: {folder: {fuzzy: spam}}  # folder: observed: "spam", "Spam"; rule: case-only
        """)
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](mail).one_of[0].expected_tools[0].args.folder: "
        "literal 'old' loosened to {'fuzzy': 'old'}",
        "toolmatch: weakened: test_cases[0](mail).one_of[1].turns[1].one_of[1].expected_tools[0]"
        ".args.folder: literal 'spam' loosened to {'fuzzy': 'spam'}",
    ]
    checked = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert checked.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_into_widens_a_written_agent_or_status_a_new_run_disagrees_with(tmp_path: Path) -> None:
    spec_text = """\
            test_cases:
            - name: refund
              expected_tools:
              - {name: refund, agent: billing, status: succeeded}
              - {name: lookup, agent: {$one_of: [triage]}}
            """

    def run(status: str, *lookups: dict[str, Any]) -> dict[str, Any]:
        refund = {**call("refund"), "agent": "Billing", "status": status}
        return {"case": "refund", "turns": [[refund, *lookups]]}

    runs = [run("denied", {**call("lookup"), "agent": "triage"}), run("succeeded", call("lookup"))]
    widened, spec = widen(tmp_path, spec_text, *runs)
    assert spec.read_text(encoding="utf-8") == textwrap.dedent("""\
        test_cases:
        - name: refund
          expected_tools:
          - {name: refund, agent: {fuzzy: billing}, status: {$one_of: [succeeded, denied]}}  # agent: observed: "billing", "Billing"; rule: case-only  # status: observed: "succeeded", "denied"; rule: enum-like
          - {name: lookup, agent: {$one_of: [triage]}}
        """)
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](refund).expected_tools[0].agent: literal 'billing' "
        "loosened to {'fuzzy': 'billing'}",
        "toolmatch: weakened: test_cases[0](refund).expected_tools[0].status: literal "
        "'succeeded' loosened to {'$one_of': ['succeeded', 'denied']}",
    ]
    # A matcher is kept; a run whose trace does not say who made the call cannot be checked.
    assert widened.stderr.splitlines()[-1] == (
        "toolmatch: not widened: test_cases[0](refund): run 2 cannot be checked by the widened "
        "case: turn 0: ExpectedTool('lookup', agent=OneOf('triage')) asserts who made call 1 "
        "lookup({}), which a plain call does not record: pass calls that hold their agent "
        '(ToolCall(agent=...), an "agent" key), or leave agent= out'
    )
    assert widened.returncode == 1


def test_into_drops_an_ignore_cap_a_new_run_goes_over(tmp_path: Path) -> None:
    def run(*names: str) -> dict[str, object]:
        return {"case": "c", "turns": [[call(name) for name in names]]}

    recorded = toolmatch("record", "-", stdin=jsonl(run("a", "log"), run("a"), run("a", "log")))
    spec = tmp_path / "spec.yaml"
    spec.write_text(recorded.stdout, encoding="utf-8")
    assert "    max_count: 1  # observed: in 2 of 3 runs, once each; rule: optional-call\n" in (
        recorded.stdout
    )
    assert toolmatch("record", "-", "--into", spec, stdin=jsonl(run("a", "log"))).stderr == ""
    later = run("log", "a", "log")
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later, run("a", "b", "b")))
    assert widened.returncode == 0, widened.stderr
    assert [line for line in widened.stderr.splitlines() if line[:1] in "+-"] == [
        f"--- {spec}",
        f"+++ {spec}",
        "-    max_count: 1  # observed: in 2 of 3 runs, once each; rule: optional-call",
        "+  - name: {$literal: b}",
        "+    max_count: 2",
    ]
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](c).ignore[0].max_count: max_count 1 dropped: a new "
        "run goes over it",
        "toolmatch: weakened: test_cases[0](c).ignore: calls of 'b' ignored: a new run calls "
        "it, and the exhaustive turn no longer fails a run that does",
    ]
    checked = toolmatch("check", spec, "-", stdin=jsonl(later, run("a", *["log"] * 5)))
    assert checked.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_into_drops_the_after_constraints_a_new_run_breaks(tmp_path: Path) -> None:
    def run(*names: str) -> dict[str, object]:
        return {"case": "c", "turns": [[call(name) for name in names]]}

    recorded = toolmatch(
        "record",
        "-",
        stdin=jsonl(
            run("login", "lookup", "search", "out"), run("login", "search", "lookup", "out")
        ),
    )
    spec = tmp_path / "spec.yaml"
    spec.write_text(recorded.stdout, encoding="utf-8")
    assert "    after: [lookup, search]\n" in recorded.stdout
    later = run("login", "lookup", "out", "search")  # out before search: that constraint goes
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 0, widened.stderr
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](c).expected_tools[3].after: after 'search' "
        "dropped: a new run breaks it",
    ]
    text = spec.read_text(encoding="utf-8")
    assert "    after: [lookup]\n" in text
    assert text.count("after: [login]") == 2
    checked = toolmatch(
        "check", spec, "-", stdin=jsonl(later, run("login", "search", "out", "lookup"))
    )
    assert checked.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_into_keeps_the_order_that_held_when_a_new_run_reorders_an_ordered_turn(
    tmp_path: Path,
) -> None:
    def run(*names: str) -> dict[str, object]:
        return {"case": "c", "turns": [[call(name) for name in names]]}

    spec = tmp_path / "spec.yaml"
    spec.write_text(
        toolmatch("record", "-", stdin=jsonl(run("login", "lookup", "search", "out"))).stdout
    )
    assert "  ordered: true\n" in spec.read_text(encoding="utf-8")
    later = run("login", "search", "lookup", "out")
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 0, widened.stderr
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](c).ordered: ordered dropped: a new run calls the "
        "tools in another order; the order that held is kept as after constraints",
    ]
    # As record writes the order that held in every run: the spec's order and the new run's.
    assert spec.read_text(encoding="utf-8") == textwrap.dedent("""\
        test_cases:
        - name: c
          exhaustive: true
          expected_tools:
          - name: {$literal: login}
            exact: true
            id: login
          - name: {$literal: lookup}
            exact: true
            id: lookup
            after: [login]
          - name: {$literal: search}
            exact: true
            id: search
            after: [login]
          - name: {$literal: out}
            exact: true
            after: [lookup, search]
        """)
    swapped = run("out", "lookup", "search", "login")
    checked = toolmatch("check", spec, "-", stdin=jsonl(later, swapped))
    assert checked.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_into_says_which_left_out_step_keeps_its_place_from_the_spec_alone(
    tmp_path: Path,
) -> None:
    # The new run reorders the turn and leaves out the optional check: the order that held
    # is kept, the check's place in it from the spec's order alone, and the line says so.
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        textwrap.dedent("""\
            test_cases:
              - name: refund
                ordered: true
                expected_tools:
                  - name: lookup
                  - name: check
                    optional: true
                  - name: refund
            """),
        encoding="utf-8",
    )
    later = {"case": "refund", "turns": [[call("refund"), call("lookup")]]}
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 0, widened.stderr
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](refund).ordered: ordered dropped: a new run calls "
        "the tools in another order; the order that held is kept as after constraints, "
        "those of 'check' from the spec's order alone: a new run leaves it out",
    ]
    # refund no longer follows check: with lookup before check, that would put lookup
    # before refund, which the new run breaks.
    assert spec.read_text(encoding="utf-8").endswith(
        "      - name: lookup\n        id: lookup\n      - name: check\n        optional: true\n"
        "        after: [lookup]\n      - name: refund\n"
    )
    misplaced = {**later, "turns": [[call("check"), call("lookup"), call("refund")]]}
    checked = toolmatch("check", spec, "-", stdin=jsonl(later, misplaced))
    assert checked.stdout.splitlines()[-1] == "1 passed, 1 failed"  # the check out of place


def test_into_says_a_left_out_step_where_no_order_is_kept(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases: [{name: c, ordered: true, expected_tools: [a, b, c]}]\n", encoding="utf-8"
    )
    later = {"case": "c", "turns": [[call("c"), call("a")]]}
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 1  # the run leaves out b, which the case still expects
    assert weakened(widened) == [
        "toolmatch: weakened: test_cases[0](c).ordered: ordered dropped: a new run calls the "
        "tools in another order; no order is kept ('b' left out by a new run)",
    ]


def test_into_drops_the_other_lookup_entry_of_an_argument_it_widens(tmp_path: Path) -> None:
    # Recorded with --tools from two runs that looked up u1: a lookup of another user is
    # ignored (rule other-lookup). A later run looks up u2 and logs: user_id widens, and the
    # entry goes with it (it would ignore the very lookup the widened value accepts).
    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps([{"name": "get_user", "annotations": {"readOnlyHint": True}}]),
        encoding="utf-8",
    )

    def run(user: str, *more: str) -> dict[str, object]:
        calls = [call("get_user", user_id=user), *(call(name) for name in more), call("book")]
        return {"case": "c", "turns": [calls]}

    spec = tmp_path / "spec.yaml"
    first = toolmatch(
        "record", "-", "--tools", tools, "-o", spec, stdin=jsonl(run("u1"), run("u1"))
    )
    assert first.returncode == 0, first.stderr
    assert "      user_id: {$not: u1}  # rule: other-lookup " in spec.read_text(encoding="utf-8")
    later = [run("u2", "log")]
    widened = toolmatch("record", "-", "--tools", tools, "--into", spec, stdin=jsonl(*later))
    assert widened.returncode == 0, widened.stderr
    assert spec.read_text(encoding="utf-8").split("  expected_tools:")[0] == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 2 runs
          ordered: true
          exhaustive: true
          ignore: [{name: {$literal: log}, max_count: 1}]
        """)
    both = jsonl(run("u1"), run("u1"), *later)
    assert toolmatch("check", spec, "-", stdin=both).stdout.endswith("3 passed, 0 failed\n")


def test_into_drops_a_cap_and_an_other_lookup_entry_of_one_turn_together(tmp_path: Path) -> None:
    # Both change the same ignore list: the list is written again once, the cap left out.
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        textwrap.dedent("""\
            test_cases:
            - name: c
              turns:
              - expected_tools:
                - name: {$literal: get_user}
                  exact: true
                  args:
                    user_id: u1
                exhaustive: true
                ignore:
                - name: {$literal: log}
                  max_count: 1
                - name: {$literal: get_user}
                  args:
                    user_id: {$not: u1}
            """),
        encoding="utf-8",
    )
    later = {"case": "c", "turns": [[call("get_user", user_id="u2"), call("log"), call("log")]]}
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 0, widened.stderr
    text = spec.read_text(encoding="utf-8")
    assert text.endswith("    exhaustive: true\n    ignore: [{name: {$literal: log}}]\n")
    assert toolmatch("check", spec, "-", stdin=jsonl(later)).stdout.endswith("1 passed, 0 failed\n")


def test_into_reports_what_it_cannot_widen_and_writes_the_rest(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(WIDENED_FROM, encoding="utf-8")
    runs = [
        {"case": "weather", "turns": [[call("get_weather", city="Lyon", days=3, units="si")]]},
        {"case": "weather", "turns": [[], []]},
    ]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert widened.returncode == 1
    assert widened.stderr.splitlines()[-3:] == [
        "toolmatch: not widened: test_cases[0](weather): run 2 has 2 turn(s), the case 1; not used",
        "toolmatch: not widened: test_cases[0](weather).expected_tools[0].args: argument 'units' "
        "of a new run is not in the spec",
        "toolmatch: not widened: test_cases[0](weather): run 1 still fails the widened case: "
        "turn 0: expectation 0: arg 'at' missing",
    ]
    assert (
        '      city: {$type: str}  # observed: "Paris", "Lyon"; rule: any-string\n'
        in spec.read_text(encoding="utf-8")
    )


def test_into_writes_each_widened_values_observed_comment_and_keeps_the_lines_own(
    tmp_path: Path,
) -> None:
    # In a block mapping the comment is record's, before the line's own; in a flow mapping,
    # where a line holds several values, each comment names its value; a key missing
    # from a run counts the spec's value as one seen.
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        textwrap.dedent("""\
            test_cases:
            - name: weather
              expected_tools:
              - name: {$literal: get_weather}
                args:
                  city: Paris  # the capital
                  lang: en
                  days: 3
              - name: {$literal: find}
                args: {city: Paris, cuisine: bistro,
                  km: 1.5}  # near
            """),
        encoding="utf-8",
    )
    runs = [
        {
            "case": "weather",
            "turns": [
                [
                    call("get_weather", city="paris", lang="fr", days=3),
                    call("find", city="PARIS", cuisine="bistro", km=1.52),
                ]
            ],
        },
        {
            "case": "weather",
            "turns": [
                [
                    call("get_weather", city="Paris ", lang="fr"),
                    call("find", city="paris", cuisine="Bistro", km=1.49),
                ]
            ],
        },
    ]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert widened.returncode == 0, widened.stderr
    assert spec.read_text(encoding="utf-8") == textwrap.dedent("""\
        test_cases:
        - name: weather
          expected_tools:
          - name: {$literal: get_weather}
            args:
              city: {fuzzy: Paris}  # observed: "Paris", "paris", "Paris "; rule: case-only  # the capital
              lang: {$one_of: [en, fr]}  # observed: "en", "fr"; rule: enum-like
              days: {$maybe: 3}  # missing in 1 of 3
          - name: {$literal: find}
            args: {city: {fuzzy: Paris}, cuisine: {fuzzy: bistro},  # city: observed: "Paris", "PARIS", "paris"; rule: case-only  # cuisine: observed: "bistro", "Bistro"; rule: case-only
              km: {$approx: 1.5, abs: 0.05}}  # km: observed: 1.5, 1.52, 1.49; rule: rounding  # near
        """)
    checked = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert checked.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_into_writes_the_comments_inside_a_widened_mapping_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "- name: c\n"
        "  expected_tools:\n"
        "  - name: {$literal: f}\n"
        "    args:\n"
        "      where: {city: Paris, zip: '75001'}\n",
        encoding="utf-8",
    )
    runs = [{"case": "c", "turns": [[call("f", where={"city": "paris", "zip": "75001"})]]}]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert widened.returncode == 0, widened.stderr
    assert spec.read_text(encoding="utf-8").endswith(
        "      where: {city: {fuzzy: Paris}, zip: '75001'}"
        '  # city: observed: "Paris", "paris"; rule: case-only\n'
    )


def test_into_a_json_spec_widens_without_comments(tmp_path: Path) -> None:
    # JSON has no comments: the values are widened, the diff shows what they were.
    spec = tmp_path / "spec.json"
    data = {"test_cases": [{"name": "c", "expected_tools": [
        {"name": {"$literal": "f"}, "args": {"city": "Paris"}}]}]}  # fmt: skip
    spec.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    runs = [{"case": "c", "turns": [[call("f", city="paris")]]}]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert widened.returncode == 0, widened.stderr
    data["test_cases"][0]["expected_tools"][0]["args"]["city"] = {"fuzzy": "Paris"}
    assert spec.read_text(encoding="utf-8") == json.dumps(data, indent=2) + "\n"
    assert '+              "fuzzy": "Paris"' in widened.stderr.splitlines()


def test_into_writes_no_comment_where_a_string_goes_on_past_the_line(tmp_path: Path) -> None:
    # A "#" at that line's end would be inside the string, not a comment.
    text = (
        "test_cases:\n"
        "- name: c\n"
        "  expected_tools:\n"
        "  - name: {$literal: f}\n"
        '    args: {city: Paris, note: "a #\n'
        '      b"}\n'
    )
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    runs = [{"case": "c", "turns": [[call("f", city="paris", note="a # b")]]}]
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(*runs))
    assert widened.returncode == 0, widened.stderr
    assert spec.read_text(encoding="utf-8") == text.replace("Paris,", "{fuzzy: Paris},")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-o", "other.yaml"],
            "toolmatch: --into widens SPEC in place; give -o or --into, not both",
        ),
        (
            ["--loosen", "none"],
            "toolmatch: --into widens with loosened values; --loosen none cannot widen a spec",
        ),
    ],
)
def test_into_refuses_what_cannot_widen(tmp_path: Path, args: list[str], message: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(WIDENED_FROM, encoding="utf-8")
    result = toolmatch("record", EXAMPLES, "--into", spec, *args, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, message + "\n")
    assert spec.read_text(encoding="utf-8") == WIDENED_FROM


def test_into_a_spec_that_does_not_load_changes_nothing(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases: [{name: weather}]\n", encoding="utf-8")
    result = toolmatch("record", EXAMPLES, "--into", spec)
    assert result.returncode == 2
    assert result.stderr.startswith(f"toolmatch: cannot widen {spec}: test_cases[0]")
    assert result.stderr.endswith("; it is unchanged\n")
    assert spec.read_text(encoding="utf-8") == "test_cases: [{name: weather}]\n"
    missing = toolmatch("record", EXAMPLES, "--into", tmp_path / "none.yaml")
    assert missing.returncode == 2
    assert missing.stderr == (
        f"toolmatch: cannot read {tmp_path / 'none.yaml'}: No such file or directory\n"
    )


def test_into_keeps_ordered_where_dropping_it_leaves_an_optional_step_no_place(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec.yaml"
    text = (
        "test_cases: [{name: c, ordered: true, expected_tools: [a, {name: b, optional: true},"
        " c]}]\n"
    )
    spec.write_text(text, encoding="utf-8")
    later = {"case": "c", "turns": [[call("c"), call("a")]]}
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(later))
    assert widened.returncode == 1
    assert widened.stderr.splitlines()[-2:] == [
        "toolmatch: not widened: test_cases[0](c): a new run calls the tools in another order, "
        "and without ordered the optional step 'b' would have no place in an order; ordered "
        "kept",
        "toolmatch: not widened: test_cases[0](c): run 1 still fails the widened case: turn 0: "
        "expectation 2: c (call 0) comes before a (call 1); it must come after",
    ]
    assert spec.read_text(encoding="utf-8") == text
