"""The spec files' JSON Schema: shipped in the wheel, printed by ``toolmatch schema``, true
to the loader (every example and doc block valid, every malformed spec refused by both)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from config_tables import error_rows, loader_only_rows
from toolmatch import ConfigError, import_bfcl, import_tau2, load_test_cases, spec_schema

jsonschema = pytest.importorskip("jsonschema")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).parent.parent
SCHEMA = spec_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_errors(data: object) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_toolmatch_schema_prints_the_packaged_file() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "toolmatch", "schema"], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stderr) == (0, "")
    packaged = ROOT / "src" / "toolmatch" / "spec.schema.json"
    assert result.stdout == packaged.read_text(encoding="utf-8")
    assert json.loads(result.stdout) == SCHEMA


def test_the_wheel_ships_the_schema(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [wheel] = tmp_path.glob("toolmatch-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = json.loads(archive.read("toolmatch/spec.schema.json"))
    assert shipped == SCHEMA


def test_the_packaged_schema_is_made_from_the_loader_s_tables() -> None:
    from toolmatch._spec.schema import built_text

    packaged = (ROOT / "src" / "toolmatch" / "spec.schema.json").read_text(encoding="utf-8")
    assert packaged == built_text(), "write it again: python -m toolmatch._spec.schema"


def test_the_schema_has_a_row_for_every_matcher_key() -> None:
    from toolmatch._spec.matcher_keys import MATCHER_KEYS

    rows = {
        name.removeprefix("matcher_"): definition
        for name, definition in SCHEMA["$defs"].items()
        if name.startswith("matcher_")
    }
    assert {f"${name}" for name in rows} == set(MATCHER_KEYS)
    for key, row in MATCHER_KEYS.items():
        definition = rows[key.removeprefix("$")]
        assert definition["required"] == [key]
        assert set(definition["properties"]) == {key, *row.options}, key
        assert definition["additionalProperties"] is False


# --- what must validate ---------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_spec_validates(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert schema_errors(data) == []
    load_test_cases(path)


def as_spec(block: Any) -> dict[str, Any]:
    """A doc's YAML block as a whole spec: a spec, a turn, or an expected tool's args."""
    if isinstance(block, dict) and "test_cases" in block:
        return block
    if isinstance(block, dict) and "expected_tools" in block:
        return {"test_cases": [{"name": "doc", "turns": [block]}]}
    if isinstance(block, dict) and set(block) == {"args"}:
        tool = {"name": "tool", "args": block["args"]}
        return {"test_cases": [{"name": "doc", "expected_tools": [tool]}]}
    raise AssertionError(f"a YAML block in the docs that is no spec, turn or args: {block!r}")


# YAML blocks of the docs that are no spec, by page and first line.
NOT_SPECS = {
    ("cli.md", "# .github/workflows/"): "a GitHub Actions workflow that runs toolmatch check",
    (
        "integrations.md",
        "# promptfooconfig.yaml",
    ): "a promptfoo config naming toolmatch's assertion",
    ("migrating.md", "# 0.1"): "a spec for 0.1 and its rewrite, side by side",
}


def doc_blocks() -> list[tuple[str, str]]:
    """Every YAML block in the docs but those in NOT_SPECS."""
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)):
            first = block.partition("\n")[0]
            if any(page.name == name and first.startswith(start) for name, start in NOT_SPECS):
                continue
            found.append((f"{page.name}[{number}]", block))
    return found


@pytest.mark.parametrize(("where", "block"), doc_blocks(), ids=[w for w, _ in doc_blocks()])
def test_every_yaml_block_in_the_docs_validates(where: str, block: str) -> None:
    spec = as_spec(yaml.safe_load(block))
    assert schema_errors(spec) == []
    load_test_cases(spec)


def test_the_docs_have_yaml_blocks_to_validate() -> None:
    assert len(doc_blocks()) >= 3


def test_imported_specs_validate() -> None:
    data = ROOT / "tests" / "data"
    docs = sorted((data / "bfcl" / "multi_turn_func_doc").glob("*.json"))
    for path in sorted((data / "bfcl" / "possible_answer").glob("*.json")):
        assert schema_errors(import_bfcl(path, docs)) == [], path.name
    for path in sorted((data / "tau2").glob("*/tasks.json")):
        assert schema_errors(import_tau2(path)) == [], path


# --- what must be refused, by the loader and the schema alike -------------------------------


def wrapped(kind: str, text: str) -> Any:
    """A malformed piece, as the whole spec it is a part of."""
    piece = yaml.safe_load(text)
    if kind == "spec":
        return piece
    if kind == "case":
        return {"test_cases": [piece]}
    if kind == "tool":
        return {"test_cases": [{"name": "a", "expected_tools": [piece]}]}
    assert kind == "value"
    return {"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "args": {"x": piece}}]}]}


MALFORMED = [
    # the top level
    ("spec", "~"),
    ("spec", "[a, b]"),
    ("spec", "{tests: []}"),
    ("spec", "{test_cases: []}"),
    ("spec", "{test_cases: {a: 1}}"),
    ("spec", "{test_cases: [refund]}"),
    # cases and turns
    ("case", "{expected_tools: []}"),
    ("case", "{name: '', expected_tools: []}"),
    ("case", "{name: 3, expected_tools: []}"),
    ("case", "{name: a, input: hi, expected_tools: []}"),
    ("case", "{name: a}"),
    ("case", "{name: a, turns: [], expected_tools: []}"),
    ("case", "{name: a, turns: []}"),
    ("case", "{name: a, turns: [f]}"),
    ("case", "{name: a, turns: {expected_tools: []}}"),
    ("case", "{name: a, turns: [{ordered: true}]}"),
    ("case", "{name: a, turns: [{expected_tools: [], orderd: true}]}"),
    ("case", "{name: a, distinct: true, turns: [{expected_tools: []}]}"),
    ("case", "{name: a, exhaustive: true, turns: [{expected_tools: []}]}"),
    ("case", "{name: a, expected_tools: [], ordered: 1}"),
    ("case", "{name: a, expected_tools: [], exhaustive: 'yes'}"),
    ("case", "{name: a, expected_tools: [], no_repeats: 1}"),
    ("case", "{name: a, expected_tools: [], max_calls: -1}"),
    ("case", "{name: a, expected_tools: [], max_calls: '3'}"),
    ("case", "{name: a, expected_tools: [], max_calls: true}"),
    ("case", "{name: a, turns: [{expected_tools: [], max_calls: 1.5}]}"),
    ("case", "{name: a, expected_tools: [], ignore: search}"),
    ("case", "{name: a, expected_tools: [], ignore: [7]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: f, max_count: 0}]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: f, max_count: '2'}]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: f, count: 2}]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: f, count: 0, max_count: 2}]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: f, never: true}]}"),
    ("case", "{name: a, expected_tools: search}"),
    # expected tools
    ("tool", "7"),
    ("tool", "''"),
    ("tool", "[search]"),
    ("tool", "{name: 3}"),
    ("tool", "{name: ''}"),
    ("tool", "{args: {q: x}}"),
    ("tool", "{name: f, cout: 2}"),
    ("tool", "{name: f, args: [q]}"),
    ("tool", "{name: f, args: q}"),
    ("tool", "{name: f, count: '2'}"),
    ("tool", "{name: f, count: true}"),
    ("tool", "{name: f, count: -1}"),
    ("tool", "{name: f, count: 0}"),
    ("tool", "{name: f, max_count: false}"),
    ("tool", "{name: f, max_count: -1}"),
    ("tool", "{name: f, never: 'yes'}"),
    ("tool", "{name: f, never: true, count: 2}"),
    ("tool", "{name: f, never: true, max_count: 2}"),
    ("tool", "{name: f, exact: 'yes'}"),
    ("tool", "{name: f, failed: 'no'}"),
    ("tool", "{name: {$regex: 3}}"),
    ("tool", "{name: {$literal: f, $regex: g}}"),
    ("tool", "{name: {$one_of: []}}"),
    ("tool", "{name: {kind: f}}"),
    ("tool", "{name: f, result: {$any: false}}"),
    ("tool", "{name: f, result: null}"),
    ("tool", "{name: {$maybe: f}}"),
    ("tool", "{name: {$absent: true}}"),
    ("tool", "{name: f, args: {1: x}}"),
    ("tool", "{name: f, ignore_args: request_id}"),
    ("tool", "{name: f, ignore_args: [3]}"),
    ("tool", "{name: f, ignore_args: ['']}"),
    ("tool", "{name: f, ignore_args: ['a.']}"),
    ("tool", "{name: f, ignore_args: ['.a']}"),
    ("tool", "{name: f, ignore_args: ['a..b']}"),
    # values and matchers
    ("value", "{$regex: x, $fuzzy: y}"),
    ("value", "{$regex: 'x', flags: 2}"),
    ("value", "{$similar: {text: now, min: 0.5, case_insensitive: null}}"),
    ("value", "{$similar: {text: null, min: 0.5}}"),
    ("value", "{fuzzy: 206588}"),
    ("value", "{$fuzzy: 3}"),
    ("value", "{regex: 42}"),
    ("value", "{regex: 'a', ignore_case: 'yes'}"),
    ("value", "{$regex: 'a', ignore_case: 'yes'}"),
    ("value", "{$literal: Paris, case_insensitive: 1}"),
    ("value", "{$any: false}"),
    ("value", "{$one_of: []}"),
    ("value", "{$one_of: metric}"),
    ("value", "{$approx: '3'}"),
    ("value", "{$approx: 3, abs: '1'}"),
    ("value", "{$approx: true}"),
    ("value", "{$type: image}"),
    ("value", "{$partial: [q]}"),
    ("value", "{$exact: q}"),
    ("value", "{$exact: {q: 1}, abs: 1}"),
    ("value", "{$maybe: {$absent: true}}"),
    ("value", "{$maybe: {$maybe: 1}}"),
    ("value", "[{$absent: true}]"),
    ("value", "{$not: {$maybe: 1}}"),
    ("value", "{$one_of: [{$absent: true}]}"),
    ("value", "{$absent: false}"),
    ("value", "{$unknown: 1}"),
    ("value", "{city: {$one_of: []}}"),
    ("value", "[1, {$approx: x}]"),
    # each matcher key's value, typed as its reader takes it
    ("value", "{$uuid: a}"),
    ("value", "{$uuid: null}"),
    ("value", "{$uuid: 9}"),
    ("value", "{$uuid: false}"),
    ("value", "{$datetime: 3}"),
    ("value", "{$datetime: {near: 3}}"),
    ("value", "{$datetime: {near: now, tz_aware: 1}}"),
    ("value", "{$datetime: {nearr: today}}"),
    ("value", "{$date: x}"),
    ("value", "{$date: {near: today, within_days: -1}}"),
    ("value", "{$date: {near: today, within_days: null}}"),
    ("value", "{$conforms_to: 3}"),
    ("value", "{$conforms_to: [integer]}"),
    ("value", "{$len: a}"),
    ("value", "{$len: -1}"),
    ("value", "{$len: [1]}"),
    ("value", "{$len: {a: 1}}"),
    ("value", "{$len: {$maybe: 1}}"),
    ("value", "{$url: {a: 1}}"),
    ("value", "{$url: true}"),
    ("value", "{$url: {scheme: 3}}"),
    ("value", "{$url: {host: {a: 1}}}"),
    ("value", "{$url: {host: {$maybe: a}}}"),
    ("value", "{$between: [null]}"),
    ("value", "{$unordered: []}"),
    ("value", "{$contains_all: []}"),
    ("value", "{$between: [1]}"),
    ("value", "{$between: [1, 2, 3]}"),
    ("value", "{$between: 3}"),
    ("value", "{$between: [a, 3]}"),
    ("value", "{$between: [{$gt: 1}, 3]}"),
]

# Rules a JSON Schema cannot state, which only the loader refuses: docs/config.md's table.
LOADER_ONLY = loader_only_rows()
LOADER_ONLY_MESSAGES = tuple(message for *_, message in LOADER_ONLY)


def is_loader_only(error: ConfigError) -> bool:
    """Whether every problem is one of the documented rules only the loader checks."""
    return all(any(part in p.message for part in LOADER_ONLY_MESSAGES) for p in error.problems)


def test_the_malformed_corpus_is_large() -> None:
    assert len(MALFORMED) >= 50


@pytest.mark.parametrize(("kind", "text"), MALFORMED, ids=[text for _, text in MALFORMED])
def test_a_malformed_spec_is_refused_by_the_loader_and_the_schema(kind: str, text: str) -> None:
    spec = wrapped(kind, text)
    with pytest.raises(ConfigError):
        load_test_cases(spec)
    assert schema_errors(spec), "the schema accepts what the loader refuses"


def test_the_table_of_rules_only_the_loader_checks_is_read() -> None:
    assert len(LOADER_ONLY) >= 9


@pytest.mark.parametrize(
    ("rule", "kind", "text", "message"), LOADER_ONLY, ids=[rule for rule, *_ in LOADER_ONLY]
)
def test_what_only_the_loader_refuses(rule: str, kind: str, text: str, message: str) -> None:
    spec = wrapped(kind, text)
    with pytest.raises(ConfigError) as caught:
        load_test_cases(spec)
    assert [message in problem.message for problem in caught.value.problems] == [True]
    assert schema_errors(spec) == [], f"the schema can state {rule!r} after all: move it up"


# Specs both accept: the schema is no stricter than the loader.
VALID = [
    ("tool", "{name: f, args: null}"),
    ("tool", "{name: f, exact: true, args: {}}"),
    ("tool", "{name: f, count: 0, max_count: 2}"),
    ("tool", "{name: f, max_count: null}"),
    ("tool", "{name: f, failed: null}"),
    ("tool", "{name: f, result: 3}"),
    ("tool", "{name: f, result: {$regex: 'Error.*'}, failed: true}"),
    ("tool", "{name: {$literal: search}}"),
    ("tool", "{name: {regex: 'web_.*'}}"),
    ("tool", "{name: {$one_of: [search, fetch]}}"),
    ("tool", "{name: {$any: true}, never: true}"),
    ("tool", "{name: f, args: {type: restaurant, exact: 1, $note: x}}"),
    ("tool", "{name: f, args: {q: 1}, ignore_args: ['*_id', trace.span_id, 'items.*']}"),
    ("tool", "{name: f, exact: true, ignore_args: []}"),
    ("tool", "{name: f, ignore_args: null}"),
    ("value", "{type: restaurant, city: {fuzzy: paris}}"),
    ("value", "{fuzzy: x, other: 1}"),
    ("value", "{regex: 3, other: 1}"),
    ("value", "{$literal: {fuzzy: x}}"),
    ("value", "{$type: [int, str]}"),
    ("value", "{$type: null}"),
    ("value", "{$approx: 3, rel: 0.01, abs: 0}"),
    ("value", "{$partial: {a: {$absent: true}}, case_insensitive: true}"),
    ("value", "{a: {$maybe: 1}}"),
    ("value", "[{a: {$absent: true}}]"),
    ("value", "{$not: {$one_of: [1, {$regex: 'x.*'}]}}"),
    ("value", "{$all_of: [{$type: str}, {$contains: a}]}"),
    ("value", "{$uuid: true}"),
    ("value", "{$uuid: 8}"),
    ("value", "{$datetime: true}"),
    ("value", "{$datetime: {near: now, within: PT1H, tz_aware: null}}"),
    ("value", "{$date: {near: '2026-01-02', within_days: 0}}"),
    ("value", "{$date: {}}"),
    ("value", "{$conforms_to: {type: integer}}"),
    ("value", "{$conforms_to: true}"),
    ("value", "{$len: 0}"),
    ("value", "{$len: {$between: [1, 3]}}"),
    ("value", "{$url: {}}"),
    ("value", "{$url: {scheme: https, host: {$ends_with: .com}, path: null}}"),
    ("value", "{$between: [1, 2.5], inclusive: false}"),
    ("case", "{name: a, expected_tools: [], ignore: [f, {name: g, args: {q: 1}}], max_calls: 3}"),
    ("case", "{name: a, expected_tools: [f], exhaustive: true, no_repeats: true, ordered: true}"),
    ("case", "{name: a, max_calls: 0, turns: [{expected_tools: [], max_calls: null}]}"),
    ("case", "{name: a, expected_tools: [], ignore: [{name: g, ignore_args: ['*_id']}]}"),
    (
        "case",
        "{name: a, expected_tools: [], ignore: [{name: g, max_count: 2}, {name: f, max_count: null}]}",
    ),
]


@pytest.mark.parametrize(("kind", "text"), VALID, ids=[text for _, text in VALID])
def test_a_valid_spec_is_accepted_by_both(kind: str, text: str) -> None:
    spec = wrapped(kind, text)
    load_test_cases(spec)
    assert schema_errors(spec) == []


# --- docs/config.md's error tables: every loader message, with an input ---------------------


def config_error_rows() -> list[tuple[str, str, str]]:
    return [(loader, text, message) for loader, text, _, message in error_rows()]


def row_spec(loader: str, text: str) -> Any:
    if loader == "matcher_from_config":
        return wrapped("value", text)
    if loader == "load_expected_tools":
        return {"test_cases": [{"name": "a", "expected_tools": yaml.safe_load(text)}]}
    return yaml.safe_load(text)


@pytest.mark.parametrize(
    ("loader", "text", "message"), config_error_rows(), ids=[t for _, t, _ in config_error_rows()]
)
def test_every_error_row_of_the_docs_is_refused_by_the_schema(
    loader: str, text: str, message: str
) -> None:
    spec = row_spec(loader, text)
    with pytest.raises(ConfigError):
        load_test_cases(spec)
    if any(part in message for part in LOADER_ONLY_MESSAGES):
        assert schema_errors(spec) == [], f"the schema can state {message!r} after all"
    else:
        assert schema_errors(spec), f"the schema accepts what the loader refuses: {message}"


# --- generated specs: the schema and the loader agree, both ways ----------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from toolmatch._spec.matcher_keys import MATCHER_KEYS, MatcherKey  # noqa: E402

# Any value, mostly of the wrong kind wherever it is put.
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, -0.1, 1e400, 2.0, "", "a", "x.*", "(", "int", "today", "2026-01-02"]),
)
# Data both accept anywhere a value goes.
_DATA = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "x", 0.5]))


def mostly(
    right: st.SearchStrategy[Any], wrong: st.SearchStrategy[Any], odds: int = 10
) -> st.SearchStrategy[Any]:
    """``wrong`` once in ``odds``, else ``right``: a spec is valid only when every part of it
    is, so each part must mostly be right for the generated specs to reach matcher values."""
    # sampled_from draws evenly; st.integers favours its ends, and would draw `wrong` often
    return st.sampled_from(range(odds)).flatmap(lambda n: wrong if n == 0 else right)


def rarely(right: st.SearchStrategy[Any], wrong: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``wrong`` once in 40: for the many parts of a spec around its values."""
    return mostly(right, wrong, 40)


_OPTIONS = {
    "ignore_case": st.booleans(),
    "trim_strings": st.booleans(),
    "case_insensitive": st.booleans(),
    "rel": st.sampled_from([0, 0.1, -1]),
    "abs": st.sampled_from([0, 1]),
    "inclusive": st.booleans(),
    "strings": st.booleans(),
    "whitespace": st.sampled_from(["collapse", "remove", "strip"]),
    "match": st.sampled_from(["a", 1, {"$starts_with": "a"}]),
}
# A field of a "keywords" or "fields" row, by kind (FIELD_KINDS).
_FIELDS = {
    "text": st.sampled_from(["now", "today", "2026-01-02", "2026-01-02T10:00:00Z", "PT1H", None]),
    "flag": st.one_of(st.booleans(), st.none()),
    "bool": st.one_of(st.booleans(), st.none()),
    "string": st.sampled_from(["now", "call mom", "", None]),
    "count": st.integers(0, 2),
    "number": st.sampled_from([0, 0.5, 1, 1.5]),
}


def _read_as(row: MatcherKey, inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value of the kind a matcher key reads (``MatcherKey.reads``), mostly right."""
    fields = st.fixed_dictionaries(
        {},
        optional={
            name: _FIELDS.get(kind, st.one_of(st.sampled_from(["https", "a.com", None]), inner))
            for name, kind in row.fields.items()
        },
    )
    right = {
        "plain": st.one_of(_DATA, st.lists(_DATA, max_size=2)),
        "value": inner,
        "values": st.lists(inner, min_size=1, max_size=2),
        "list": st.lists(inner, max_size=2),
        "mapping": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
        "text": st.sampled_from(["a", "x.*", "(", ""]),
        "name": st.sampled_from(["a", "order", ""]),
        "number": st.sampled_from([0, 1, 2.5, -1, 1e400]),
        "true": st.just(True),
        "types": st.one_of(
            st.sampled_from(["int", "str", None]),
            st.lists(st.sampled_from(["int", "null"]), max_size=2),
        ),
        "bounds": mostly(
            st.lists(st.sampled_from([0, 1, 2.5, -1]), min_size=2, max_size=2).map(sorted),
            st.just([1, 0]),
        ),
        "version": st.one_of(st.just(True), st.integers(0, 9)),
        "length": st.one_of(st.integers(-1, 3), inner),
        "schema": st.one_of(st.booleans(), st.sampled_from([{}, {"type": "integer"}])),
        "keywords": st.one_of(st.just(True), fields),
        "fields": fields,
    }[row.reads]
    wrong = st.one_of(_SCALARS, st.lists(_SCALARS, max_size=3), st.just({"a": 1}))
    return mostly(right, wrong, 20)


def _options(row: MatcherKey) -> st.SearchStrategy[dict[str, Any]]:
    right = st.fixed_dictionaries({}, optional={name: _OPTIONS[name] for name in row.options})
    wrong = st.dictionaries(
        st.sampled_from(["ignore_case", "flags", "$regex"]), _SCALARS, min_size=1, max_size=1
    )
    return mostly(right, wrong, 20)


def _values(depth: int = 2) -> st.SearchStrategy[Any]:
    if depth == 0:
        return _DATA
    inner = _values(depth - 1)
    matchers = [
        st.builds(
            lambda key, value, options: {key: value, **options},
            st.just(key),
            _read_as(row, inner),
            _options(row),
        )
        for key, row in sorted(MATCHER_KEYS.items())
    ]
    return st.one_of(
        _DATA,
        *matchers,
        st.lists(inner, max_size=2),
        st.dictionaries(st.sampled_from(["a", "b", "regex", "fuzzy"]), inner, max_size=2),
    )


_NAMES = rarely(st.sampled_from(["f", "search"]), st.one_of(st.just(""), _values(1)))
_TOOL_KEYS = {
    "name": _NAMES,
    "args": rarely(
        mostly(
            st.dictionaries(st.sampled_from(["q", "a"]), _values(), min_size=1, max_size=2),
            st.one_of(st.none(), st.just({})),
        ),
        _SCALARS,
    ),
    "exact": rarely(st.booleans(), _SCALARS),
    "ignore_args": rarely(
        st.one_of(st.none(), st.lists(st.sampled_from(["*_id", "a.b"]), max_size=2)),
        st.one_of(st.lists(st.sampled_from(["a..b", "", ".a", 3]), min_size=1), _SCALARS),
    ),
    "count": rarely(st.integers(1, 3), st.one_of(st.integers(-1, 0), _SCALARS)),
    "max_count": rarely(st.sampled_from([None, 3]), st.one_of(st.integers(-1, 2), _SCALARS)),
    "never": rarely(st.just(False), st.one_of(st.just(True), _SCALARS)),
    "result": rarely(_values(), st.none()),
    "failed": rarely(st.one_of(st.none(), st.booleans()), _SCALARS),
}


def _tools(keys: dict[str, Any]) -> st.SearchStrategy[Any]:
    required = {"name": _NAMES, "args": keys.get("args", _TOOL_KEYS["args"])}
    optional = {key: value for key, value in keys.items() if key != "args"}
    mapping = st.fixed_dictionaries(required, optional=optional)
    return rarely(st.one_of(st.sampled_from(["f", "search"]), mapping), _SCALARS)


_EXPECTED = _tools({key: value for key, value in _TOOL_KEYS.items() if key != "name"})
_IGNORED = _tools(
    {k: v for k, v in _TOOL_KEYS.items() if k not in ("name", "count", "max_count", "never")}
    # An ignore entry's cap: no count beside it, so at least 1.
    | {"max_count": rarely(st.sampled_from([None, 1, 3]), st.one_of(st.integers(-1, 0), _SCALARS))}
)
_TURN = {
    "distinct": rarely(st.booleans(), _SCALARS),
    "ordered": rarely(st.booleans(), _SCALARS),
    "exhaustive": st.booleans(),
    "no_repeats": st.booleans(),
    "max_calls": rarely(st.one_of(st.none(), st.integers(0, 2)), st.one_of(st.just(-1), _SCALARS)),
    "ignore": rarely(st.lists(_IGNORED, max_size=2), _SCALARS),
}
_TURNS = st.fixed_dictionaries(
    {"expected_tools": rarely(st.lists(_EXPECTED, max_size=2), _SCALARS)}, optional=_TURN
)
_CASES = st.one_of(
    st.fixed_dictionaries(
        {
            "name": rarely(st.sampled_from(["a", "b"]), st.just("")),
            "expected_tools": st.lists(_EXPECTED, min_size=1, max_size=2),
        },
        optional=_TURN,
    ),
    st.fixed_dictionaries(
        {
            "name": st.sampled_from(["a", "b"]),
            "turns": rarely(st.lists(_TURNS, min_size=1, max_size=2), st.just([])),
        },
        optional={"max_calls": rarely(st.one_of(st.none(), st.integers(0, 2)), st.just(-1))},
    ),
)
SPECS = st.fixed_dictionaries(
    {
        "test_cases": rarely(
            st.lists(_CASES, min_size=1, max_size=2, unique_by=lambda case: case["name"]),
            st.lists(_CASES, min_size=2, max_size=2),
        )
    }
)


def agree(spec: Any) -> str:
    """Whether the schema and the loader agree on ``spec``: "valid", "invalid" (refused by
    both) or "loader only" (a documented rule only the loader checks); fails otherwise."""
    errors = schema_errors(spec)
    refused = None
    try:
        load_test_cases(spec)
    except ConfigError as error:
        refused = error
    if refused is None:
        assert errors == [], f"the loader reads what the schema refuses: {errors}"
        return "valid"
    if errors:
        return "invalid"
    assert is_loader_only(refused), f"the schema accepts what the loader refuses: {refused}"
    return "loader only"


# Derandomized: the same examples every run, so a pass is no luck of the draw.
@settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(SPECS)
def test_generated_specs_the_loader_reads_are_valid_and_valid_ones_load(spec: Any) -> None:
    """Both directions: a spec the loader reads validates; a spec that validates loads,
    unless each problem is one of the documented rules only the loader checks."""
    agree(spec)
