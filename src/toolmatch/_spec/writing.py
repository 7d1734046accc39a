"""Spec text written as YAML: whole specs, recorded cases, and values spliced into a file.

:func:`spec_yaml` writes plain data with PyYAML, block style with matchers and short lists
inline; :func:`spec_text` writes ruamel.yaml nodes with their comments (``toolmatch
record``); :func:`spec_json` writes strict JSON; :func:`inline_yaml` and :func:`block_yaml`
write one value to splice into a spec's text (``--update``).
"""

from __future__ import annotations

import functools
import re

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.matcher_keys import matcher_key

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "NEEDS_RUAMEL",
    "block_yaml",
    "inline_yaml",
    "one_line",
    "plain_data",
    "spec_json",
    "spec_text",
    "spec_yaml",
]

# Wherever they appear: these keys first and these last, in this order; the options between.
_FIRST = ("name", "exact")
_LAST = ("args", "turns", "expected_tools")
_NO_FOLDING = 1 << 20  # a long string stays on its line: folded, it reads worse
_INLINE_WIDTH = 60  # a matcher or a list this short (as JSON) stands on its line
_BREAKS = "\n\r\x85\u2028\u2029"

NEEDS_RUAMEL = "writing a recorded spec needs ruamel.yaml: pip install 'toolmatch[cli]'"
"""The message of the ``ImportError`` raised without ruamel.yaml."""


def one_line(value: Any, *, loose: bool = False) -> bool:
    """Whether ``value`` (plain data, or ruamel.yaml nodes) reads well on one line: short as
    Python writes its plain data, and made of scalars, lists and matcher mappings, no data
    mapping. A matcher mapping has a ``$`` key; ``loose`` (as ``toolmatch record`` writes)
    also takes the seed's ``{regex: ...}`` and ``{fuzzy: ...}`` for matchers, and keeps a
    matcher's options mapping on the line (``{$datetime: {tz_aware: true}}``).

    >>> one_line({"$one_of": [1, 2]}), one_line([1, {"a": 1}]), one_line(list(range(30)))
    (True, False, False)
    >>> near = {"$date": {"near": "today"}}
    >>> one_line(near), one_line(near, loose=True), one_line({"regex": "a.*"}, loose=True)
    (False, True, True)
    """
    return _flat(value, loose, False) and len(repr(plain_data(value))) <= _INLINE_WIDTH


def _flat(value: Any, loose: bool, options: bool) -> bool:
    """``options``: whether ``value`` is a matcher's value, where ``loose`` takes a mapping."""
    if isinstance(value, dict):
        key = matcher_key(value)  # a $ key when it has one, else a seed form's or None
        matcher = key is not None and (loose or key.startswith("$"))
        if not matcher and not options:
            return False
        return all(_flat(item, loose, loose and matcher) for item in value.values())
    if isinstance(value, list):
        return all(_flat(item, loose, False) for item in value)
    return True


def plain_data(node: Any) -> Any:
    """A ruamel.yaml node as the plain dicts, lists, strings and numbers the loader reads it
    to (a quoted string's ``ScalarString`` is a ``str``)."""
    if isinstance(node, dict):
        return {plain_data(key): plain_data(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain_data(item) for item in node]
    if isinstance(node, str):
        return str(node)
    return node


def _dumped(value: Any, dumper: Any, flow: bool) -> str:
    """PyYAML's text of ``value``: keys in their order, any character as itself, no folding."""
    import yaml

    text: str = yaml.dump(
        value,
        Dumper=dumper,
        default_flow_style=flow,
        allow_unicode=True,
        width=_NO_FOLDING,
        sort_keys=False,
    )
    return text


@public
def spec_yaml(data: Any) -> str:
    """``data`` as YAML that :func:`load_test_cases` reads back as the same spec (needs PyYAML).

    >>> print(spec_yaml({"test_cases": [{"name": "a", "expected_tools": [
    ...     {"args": {"q": {"$one_of": ["x", "yes"]}}, "name": {"$literal": "f"}}]}]}), end="")
    test_cases:
    - name: a
      expected_tools:
      - name: {$literal: f}
        args:
          q: {$one_of: [x, 'yes']}
    """
    import yaml

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True  # a value used twice is written twice: no &anchors to follow

    def mapping(dumper: yaml.SafeDumper, value: dict[Any, Any]) -> yaml.MappingNode:
        keys = [key for key in _FIRST if key in value]
        keys += [key for key in value if key not in _FIRST and key not in _LAST]
        keys += [key for key in _LAST if key in value]
        inline = one_line(value)
        return dumper.represent_mapping(
            "tag:yaml.org,2002:map", [(key, value[key]) for key in keys], flow_style=inline
        )

    def sequence(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
        inline = one_line(value)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=inline)

    Dumper.add_representer(dict, mapping)
    Dumper.add_representer(list, sequence)
    try:
        text = _dumped(data, Dumper, flow=False)
    except yaml.representer.RepresenterError as error:
        found = error.args[1] if len(error.args) > 1 else None
        raise TypeError(
            "spec_yaml writes plain data (dicts, lists, strings, numbers, booleans, None), "
            f"got {short_repr(found)} ({type_name(found)})"
        ) from None
    return text


def spec_json(data: Any, indent: int | str | None = 2, ascii_only: bool = False) -> str:
    """``data`` as strict JSON text, indented by ``indent`` (as :func:`json.dumps` takes it;
    ``None``: on one line), that the loader reads back as the same spec; with
    ``ascii_only``, other characters are written as ``\\u`` escapes.

    JSON has no infinity: an infinity is written as ``1e400`` (``-1e400``), a number too
    large for a float, which JSON parsers read back as the infinity. A lone surrogate,
    which UTF-8 cannot hold, is written as its ``\\u`` escape. NaN, which no spec holds
    (it equals nothing), raises ``ValueError``.

    >>> print(spec_json({"x": [float("inf"), "caf\\u00e9" + chr(0xD800)]}))
    {
      "x": [
        1e400,
        "café\\ud800"
      ]
    }
    """
    import json

    def strict(found: re.Match[str]) -> str:
        token = found.group()
        if token == "NaN":
            raise ValueError("NaN cannot be written in a spec: it equals nothing")
        if token.startswith('"'):
            return _SURROGATE.sub(lambda char: f"\\u{ord(char.group()):04x}", token)
        return token.replace("Infinity", "1e400")

    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    # Outside strings (where quotes and backslashes are escaped), these are JSON's numbers.
    return _JSON_TOKENS.sub(strict, text)


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN')
_SURROGATE = re.compile("[\\ud800-\\udfff]")


@functools.cache  # made once for each quotes: an update writes thousands of values
def _string_dumper(quotes: str | None) -> Any:
    """PyYAML's safe dumper, writing a string with a line break double-quoted (plain or
    single-quoted, the break would be folded or spread over lines), else in ``quotes``."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def string(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
        style = '"' if any(char in _BREAKS for char in text) else quotes
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    Dumper.add_representer(str, string)
    return Dumper


def inline_yaml(value: Any, quotes: str | None = None) -> str:
    """``value`` as one line of YAML (flow style) that the spec loader reads back as itself;
    a string in ``quotes`` (``'`` or ``"``) when they can hold it.

    >>> print(inline_yaml({"city": "yes", "days": [1, 2], "note": "a: b"}))
    {city: 'yes', days: [1, 2], note: 'a: b'}
    >>> print(inline_yaml("Lyon", '"'), inline_yaml("it's", "'"), inline_yaml("a\\nb"))
    "Lyon" 'it''s' "a\\nb"
    """
    text = _dumped([value], _string_dumper(quotes), flow=True)
    return text.strip()[1:-1]  # inside the list: a flow context, the strictest one


def block_yaml(value: Any, column: int) -> str:
    """``value`` as block YAML whose lines after the first start at ``column``."""
    text = _dumped(value, _string_dumper(None), flow=False)
    return ("\n" + " " * column).join(text.rstrip("\n").split("\n"))


def spec_text(spec: Any, indents: tuple[int, int, int] | None = None) -> str:
    """``spec`` as YAML text, with its comments, read back by :func:`load_test_cases` as the
    same spec: strings that YAML 1.1 (PyYAML's, the loader's) reads as something else,
    such as ``yes`` or ``12:30``, are quoted. ``indents`` are ruamel.yaml's mapping,
    sequence and offset indents (``check --update new`` follows its file's).

    >>> print(spec_text({"answer": "yes", "at": "12:30", "count": 3}), end="")
    answer: 'yes'
    at: '12:30'
    count: 3
    """
    import io

    yaml = _ruamel_yaml()
    # YAML 1.1's rules decide what needs quotes; its %YAML directive is left out, as
    # PyYAML reads 1.1 whether or not the file says so.
    yaml.version = (1, 1)
    if indents is not None:
        mapping, sequence, offset = indents
        yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    out = io.StringIO()
    yaml.dump(spec, out, transform=_without_directive)
    return out.getvalue()


def _without_directive(text: str) -> str:
    return text.removeprefix("%YAML 1.1\n---\n")


def _ruamel_yaml() -> Any:
    try:
        from ruamel.yaml import YAML
    except ImportError:
        raise ImportError(NEEDS_RUAMEL) from None
    yaml = YAML()
    yaml.width = _NO_FOLDING
    yaml.allow_unicode = True
    yaml.brace_single_entry_mapping_in_flow_sequence = True  # [null, {$gt: 3}], as written
    return yaml
