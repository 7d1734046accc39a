"""Spec data written as readable YAML: block style, matchers and short lists inline."""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["spec_yaml"]

# Wherever they appear: these keys first and these last, in this order; the options between.
_FIRST = ("name", "exact")
_LAST = ("args", "turns", "expected_tools")
_NO_FOLDING = 1 << 20  # a long string stays on its line: folded, it reads worse
_INLINE_WIDTH = 60  # a matcher or a list this short (as JSON) stands on its line


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
