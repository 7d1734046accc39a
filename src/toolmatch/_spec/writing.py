"""Spec text written as YAML: whole specs, recorded cases, and values spliced into a file.

:func:`spec_yaml` writes plain data with PyYAML, block style with matchers and short lists
inline; :func:`spec_text` writes ruamel.yaml nodes with their comments (``toolmatch
record``); :func:`inline_yaml` and :func:`block_yaml` write one value to splice into a
spec's text (``--update``).
"""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["NEEDS_RUAMEL", "block_yaml", "inline_yaml", "spec_text", "spec_yaml"]

# Wherever they appear: these keys first and these last, in this order; the options between.
_FIRST = ("name", "exact")
_LAST = ("args", "turns", "expected_tools")
_NO_FOLDING = 1 << 20  # a long string stays on its line: folded, it reads worse
_INLINE_WIDTH = 60  # a matcher or a list this short (as JSON) stands on its line
_BREAKS = "\n\r\x85\u2028\u2029"

NEEDS_RUAMEL = "writing a recorded spec needs ruamel.yaml: pip install 'toolmatch[cli]'"
"""The message of the ``ImportError`` raised without ruamel.yaml."""


def _one_line(value: Any) -> bool:
    """Whether ``value`` reads well on one line: short, and made of scalars, lists of them
    and matchers of them, no data mapping."""
    return _flat(value) and len(repr(value)) <= _INLINE_WIDTH


def _flat(value: Any) -> bool:
    if isinstance(value, dict):
        if not any(isinstance(key, str) and key.startswith("$") for key in value):
            return False
        return all(map(_flat, value.values()))
    if isinstance(value, list):
        return all(map(_flat, value))
    return True


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
        inline = _one_line(value)
        return dumper.represent_mapping(
            "tag:yaml.org,2002:map", [(key, value[key]) for key in keys], flow_style=inline
        )

    def sequence(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
        inline = _one_line(value)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=inline)

    Dumper.add_representer(dict, mapping)
    Dumper.add_representer(list, sequence)
    try:
        text: str = yaml.dump(
            data,
            Dumper=Dumper,
            sort_keys=False,
            allow_unicode=True,
            width=_NO_FOLDING,
            default_flow_style=False,
        )
    except yaml.representer.RepresenterError as error:
        found = error.args[1] if len(error.args) > 1 else None
        raise TypeError(
            "spec_yaml writes plain data (dicts, lists, strings, numbers, booleans, None), "
            f"got {short_repr(found)} ({type_name(found)})"
        ) from None
    return text


def inline_yaml(value: Any, quotes: str | None = None) -> str:
    """``value`` as one line of YAML (flow style) that the spec loader reads back as itself;
    a string in ``quotes`` (``'`` or ``"``) when they can hold it.

    >>> print(inline_yaml({"city": "yes", "days": [1, 2], "note": "a: b"}))
    {city: 'yes', days: [1, 2], note: 'a: b'}
    >>> print(inline_yaml("Lyon", '"'), inline_yaml("it's", "'"), inline_yaml("a\\nb"))
    "Lyon" 'it''s' "a\\nb"
    """
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def string(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
        # A line break in a plain or single-quoted string would spread it over lines.
        style = '"' if any(char in _BREAKS for char in text) else quotes
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    Dumper.add_representer(str, string)
    text: str = yaml.dump(
        [value],
        Dumper=Dumper,
        default_flow_style=True,
        allow_unicode=True,
        width=_NO_FOLDING,
        sort_keys=False,
    )
    return text.strip()[1:-1]  # inside the list: a flow context, the strictest one


def block_yaml(value: Any, column: int) -> str:
    """``value`` as block YAML whose lines after the first start at ``column``."""
    import yaml

    text: str = yaml.safe_dump(
        value, default_flow_style=False, allow_unicode=True, width=_NO_FOLDING, sort_keys=False
    )
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
    yaml.width = 1 << 20  # a long string stays on its line, as spec_yaml keeps it
    yaml.allow_unicode = True
    yaml.brace_single_entry_mapping_in_flow_sequence = True  # [null, {$gt: 3}], as written
    return yaml
