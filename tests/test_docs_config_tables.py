"""docs/config.md's error tables: every row's input, loaded, gives that row's path and message.

The rows are the page's documentation of every loader message, so they are checked here
rather than copied into a code block. The page's YAML fences are checked too: each one is
the text a ```python block on the page loads, so what is shown is what runs.
"""

from __future__ import annotations

import re

import pytest

from config_tables import LOADERS, PAGE, error_rows
from toolmatch import ConfigError

yaml = pytest.importorskip("yaml")


ROWS = error_rows()


def test_every_loader_has_a_table() -> None:
    assert {loader for loader, *_ in ROWS} == set(LOADERS)
    assert len(ROWS) >= 50


@pytest.mark.parametrize(("loader", "text", "path", "message"), ROWS)
def test_error_rows_are_what_the_loader_says(
    loader: str, text: str, path: str, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        LOADERS[loader](yaml.safe_load(text))
    assert (path, message) in [(found.path, found.message) for found in caught.value.problems]


def test_shown_yaml_is_the_yaml_that_runs() -> None:
    text = PAGE.read_text(encoding="utf-8")
    shown = re.findall(r"^```yaml\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)
    loaded = re.findall(r'^text = """\\\n(.*?)^"""$', text, flags=re.DOTALL | re.MULTILINE)
    assert shown
    # A python string doubles the backslashes the YAML file has once.
    assert [block.replace("\\\\", "\\") for block in loaded] == shown


_MATCHER_ROW = re.compile(r"^\| `(?P<key>\$\w+)` \|(?P<options>[^|]*)\| `(?P<python>\w+)` \|")
# The rows whose builder adapts the file's spelling to a public name.
_ADAPTED = {
    "$regex": "Regex",
    "$any": "ANY",
    "$absent": "Absent",
    "$uuid": "IsUUID",
    "$conforms_to": "ConformsTo",
}


def test_the_matcher_table_is_the_loaders_table() -> None:
    """docs/config.md's matcher table lists exactly MATCHER_KEYS: keys, options, builders."""
    from toolmatch._spec.matcher_keys import MATCHER_KEYS

    documented = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        row = _MATCHER_ROW.match(line)
        if row is not None:
            options = tuple(re.findall(r"`(\w+)`", row["options"]))
            documented[row["key"]] = (options, row["python"])
    assert documented == {
        key: (tuple(entry.options), _ADAPTED.get(key, getattr(entry.make, "__name__", "")))
        for key, entry in MATCHER_KEYS.items()
    }


def _table_after(line: str) -> list[str]:
    """The rows of the page's table that follows ``line`` (its header and rule left out)."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    rows = []
    for row in lines[lines.index(line) + 4 :]:
        if not row.startswith("| "):
            break
        rows.append(row)
    return rows


def test_the_turn_keys_table_is_the_turn_options_table() -> None:
    """docs/config.md's table of a turn's keys lists exactly TURN_OPTIONS, after expected_tools."""
    from toolmatch._selection.options import TURN_OPTIONS

    rows = _table_after("The keys of a turn (or of a single-turn case):")
    assert rows[0].startswith("| `expected_tools` |")
    assert rows[1:] == [
        f"| `{option.name}` | {option.docs} | {option.docs_default} |" for option in TURN_OPTIONS
    ]


def test_the_expected_tool_table_is_the_tool_keys_table() -> None:
    """docs/config.md's table of an expected tool's keys lists exactly TOOL_KEYS, in order."""
    from toolmatch._selection.tool_keys import TOOL_KEYS

    rows = _table_after("An item of `expected_tools` is either a bare tool name or a mapping:")
    assert rows == [f"| `{key.name}` | {key.docs} | {key.docs_default} |" for key in TOOL_KEYS]
