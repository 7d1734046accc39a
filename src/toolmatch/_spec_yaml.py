"""Spec data written as readable YAML: block style, matchers and short lists inline."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

__all__ = ["spec_yaml"]

# Keys first in this order, wherever they appear; any other key keeps its place after them.
_FIRST = ("name", "exact", "args", "turns", "expected_tools")
_INLINE_ITEMS = 6  # a list of this many scalars or fewer fits on its line


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
        pass

    def mapping(dumper: yaml.SafeDumper, value: dict[Any, Any]) -> yaml.MappingNode:
        keys = [key for key in _FIRST if key in value]
        keys += [key for key in value if key not in keys]
        inline = any(isinstance(key, str) and key.startswith("$") for key in value)
        return dumper.represent_mapping(
            "tag:yaml.org,2002:map", [(key, value[key]) for key in keys], flow_style=inline
        )

    def sequence(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
        scalars = all(not isinstance(item, (dict, list)) for item in value)
        inline = scalars and len(value) <= _INLINE_ITEMS
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=inline)

    Dumper.add_representer(dict, mapping)
    Dumper.add_representer(list, sequence)
    return yaml.dump(
        data,
        Dumper=Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )
