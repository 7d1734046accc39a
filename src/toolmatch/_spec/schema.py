"""The JSON Schema (draft 2020-12) of spec files, shipped beside this module.

Editors validate and complete YAML against it; the loader stays the judge, and its
messages the reference (a schema cannot say "max_count must be >= count"). The file is
made from the loader's tables (``MATCHER_KEYS``, ``TURN_OPTIONS``, ``TOOL_KEYS``): after
adding a matcher key, a turn option or a key of an expected tool, write it again with
``python -m toolmatch._spec.schema``; a test fails until the file matches.
"""

from __future__ import annotations

from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from toolmatch._selection.options import TurnOption

__all__ = ["SCHEMA_FILE", "build_schema", "built_text", "schema_text", "spec_schema"]

SCHEMA_FILE = "spec.schema.json"
_ID = "https://github.com/toolmatch/toolmatch/raw/main/src/toolmatch/spec.schema.json"
_TYPE_NAMES = ["int", "float", "number", "str", "bool", "list", "dict", "null", None]
# A tool definition has one: a function tool's name, OpenAI Chat's function, a Gemini Tool's list.
_DEFINITION_KEYS = ("name", "function", "function_declarations", "functionDeclarations")


def schema_text() -> str:
    """The schema's JSON text, as ``toolmatch schema`` prints it."""
    from importlib.resources import files

    return files("toolmatch").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


@public
def spec_schema() -> dict[str, Any]:
    """The JSON Schema that spec files follow, as a dict (for ``jsonschema`` and the like).

    >>> schema = spec_schema()
    >>> schema["$schema"], schema["required"]
    ('https://json-schema.org/draft/2020-12/schema', ['test_cases'])
    """
    import json

    schema: dict[str, Any] = json.loads(schema_text())
    return schema


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _readers() -> dict[str, dict[str, Any]]:
    """What each way of reading a matcher key's value accepts (``MatcherKey.reads``); the
    "keywords" and "fields" readers are the row's own (:func:`_fields`)."""
    from toolmatch._matchers.shapes import UUID_VERSIONS

    type_name = {"enum": _TYPE_NAMES}
    number = {"type": "number"}
    values = {"type": "array", "minItems": 1, "items": _ref("item")}
    return {
        "plain": {"description": "a value compared as written: no matchers inside"},
        "value": _ref("item"),
        "values": values,
        "list": values,  # the same list, passed whole rather than spread
        "mapping": {"type": "object", "additionalProperties": _ref("value")},
        "text": {"type": "string"},
        "name": {"type": "string", "minLength": 1},
        "number": number,
        "true": {"const": True},
        "types": {"anyOf": [type_name, {"type": "array", "minItems": 1, "items": type_name}]},
        "bounds": {"type": "array", "prefixItems": [number, number], "minItems": 2, "maxItems": 2},
        "version": {
            "anyOf": [
                {"const": True},
                {"type": "integer", "minimum": UUID_VERSIONS[0], "maximum": UUID_VERSIONS[-1]},
            ]
        },
        "length": {"anyOf": [{"type": "integer", "minimum": 0}, _ref("item_matcher")]},
        "schema": {"description": "a JSON Schema", "type": ["object", "boolean"]},
    }


_FIELD_KINDS: dict[str, dict[str, Any]] = {
    "text": {"type": ["string", "null"]},
    "flag": {"type": ["boolean", "null"]},
    "bool": {"type": "boolean"},
    "string": {"type": "string"},
    "count": {"type": "integer", "minimum": 0},
    "number": {"type": "number"},
    "part": {"anyOf": [{"type": ["string", "null"]}, _ref("item_matcher")]},
}


def _fields(reads: str, fields: dict[str, str]) -> dict[str, Any]:
    """A "keywords" or "fields" row's value: a mapping of its fields (or ``true``)."""
    mapping = {
        "type": "object",
        "properties": {name: _FIELD_KINDS[kind] for name, kind in fields.items()},
        "additionalProperties": False,
    }
    return {"anyOf": [{"const": True}, mapping]} if reads == "keywords" else mapping


_OPTION_KINDS: dict[str, dict[str, Any]] = {
    "bool": {"type": "boolean"},
    "number": {"type": "number"},
    "text": {"type": "string"},
    "value": _ref("item"),
}


def _matchers() -> dict[str, dict[str, Any]]:
    from toolmatch._spec.matcher_keys import MATCHER_KEYS, SEED_FORMS, SEED_OPTIONS

    readers = _readers()
    found: dict[str, dict[str, Any]] = {}
    for key, row in MATCHER_KEYS.items():
        properties = {key: _fields(row.reads, row.fields) if row.fields else readers[row.reads]}
        properties.update({name: _OPTION_KINDS[kind] for name, kind in row.options.items()})
        found[f"matcher_{key[1:]}"] = {
            "description": f"{{{key}: ...}}, see docs/config.md",
            "type": "object",
            "required": [key],
            "properties": properties,
            "additionalProperties": False,
        }
    for bare, key in SEED_FORMS.items():
        row = MATCHER_KEYS[key]
        properties = {bare: readers[row.reads]}
        properties.update({name: _OPTION_KINDS[row.options[name]] for name in SEED_OPTIONS[bare]})
        found[f"seed_{bare}"] = {
            "description": f"the seed's {{{bare}: ...}}, read as {key}",
            "type": "object",
            "required": [bare],
            "properties": properties,
            "additionalProperties": False,
        }
    return found


def _seed_shapes() -> list[dict[str, Any]]:
    """The mappings the seed forms claim: data mappings are none of them."""
    from toolmatch._spec.matcher_keys import SEED_FORMS, SEED_OPTIONS

    return [
        {"required": [bare], "propertyNames": {"enum": [bare, *SEED_OPTIONS[bare]]}}
        for bare in SEED_FORMS
    ]


def _tool(keys: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": "a tool name (a substring of the called tool's name) or a mapping",
        "anyOf": [
            {"type": "string", "minLength": 1},
            {
                "type": "object",
                "required": ["name"],
                "properties": keys,
                "additionalProperties": False,
                "allOf": [
                    {
                        "if": {"required": ["count"], "properties": {"count": {"const": 0}}},
                        "then": {
                            "required": ["max_count"],
                            "properties": {"max_count": {"type": "integer"}},
                        },
                    },
                    {
                        "if": {"required": ["never"], "properties": {"never": {"const": True}}},
                        "then": {
                            "not": {"anyOf": [{"required": ["count"]}, {"required": ["max_count"]}]}
                        },
                    },
                ],
            },
        ],
    }


def build_schema() -> dict[str, Any]:
    """The schema, made from the loader's tables (what ``spec.schema.json`` holds)."""
    from toolmatch._calls.call import STATUSES
    from toolmatch._matchers.key_filter import MAX_STEPS
    from toolmatch._selection.options import TURN_OPTIONS
    from toolmatch._selection.tool_keys import NOT_WITH_NEVER, TOOL_KEYS, tool_key_names

    options = {option.name: option for option in TURN_OPTIONS}
    flag = {"type": "boolean"}
    budget = {"type": ["integer", "null"], "minimum": 0}
    agent = {"anyOf": [{"type": "string", "minLength": 1}, _ref("item_matcher")]}
    # Each key of an expected tool's schema by its kind, in TOOL_KEYS' order.
    ids = {"type": "array", "items": {"type": "string", "minLength": 1}}
    by_key_kind: dict[str, dict[str, Any]] = {
        "name": {"anyOf": [{"type": "string", "minLength": 1}, _ref("item_matcher")]},
        "args": {
            "type": ["object", "null"],
            "propertyNames": {"type": "string"},
            "additionalProperties": _ref("value"),
        },
        "flag": flag,
        "key_patterns": {
            "type": ["array", "null"],
            # a step is a glob without dots, and a path has at most MAX_STEPS of them
            "items": {"type": "string", "pattern": f"^[^.]+(\\.[^.]+){{0,{MAX_STEPS - 1}}}$"},
        },
        "count": {"type": "integer", "minimum": 0},
        "cap": budget,
        "result": {"allOf": [_ref("item"), {"not": {"type": "null"}}]},
        "tristate": {"type": ["boolean", "null"]},
        "agent": agent,
        "status": {
            "anyOf": [
                {"enum": list(STATUSES)},
                {"type": "array", "minItems": 1, "items": {"enum": list(STATUSES)}},
                _ref("item_matcher"),
                {"type": "null"},
            ]
        },
        "id": {"type": "string", "minLength": 1},
        "ids": ids,
    }
    tool_keys = {
        key.name: {"description": key.summary, **by_key_kind[key.kind]} for key in TOOL_KEYS
    }
    # An ignore entry has no count, so its cap leaves out at least one call.
    ignore_cap = {
        "description": "at most this many matching calls left out (the first); null: every one",
        "type": ["integer", "null"],
        "minimum": 1,
    }
    ignored_keys = {name: tool_keys[name] for name in tool_key_names(ignore=True)}

    def group(key: str, other: str) -> dict[str, Any]:
        """A group of one kind: its items are expected tools or groups of the other kind."""
        items = {"anyOf": [_ref("grouped_tool"), _ref(f"{other}_group")]}
        return {
            "description": f"{{{key}: [...]}}: items met "
            + ("one after the other" if key == "in_order" else "in any order"),
            "type": "object",
            "required": [key],
            "properties": {key: {"type": "array", "minItems": 2, "items": items}},
            "additionalProperties": False,
        }

    def takes_no_call(key: str, value: object) -> dict[str, Any]:
        return {"type": "object", "required": [key], "properties": {key: {"const": value}}}

    expected_tool = _tool(tool_keys)
    # never takes no call, so it has no id and no place of its own (after / before say where
    # none may be); a cap (count: 0) has no place in an order, an optional step has.
    expected_tool["anyOf"][1]["allOf"] += [
        {
            "if": takes_no_call("never", True),
            "then": {"not": {"anyOf": [{"required": [key]} for key in NOT_WITH_NEVER]}},
        },
        {
            "if": {**takes_no_call("count", 0), "not": takes_no_call("optional", True)},
            "then": {
                "not": {
                    "anyOf": [
                        {"required": [key], "properties": {key: {"minItems": 1}}}
                        for key in ("before", "after")
                    ]
                }
            },
        },
    ]
    tools = {
        "description": options["tools"].summary,
        "oneOf": [
            {"type": "string", "minLength": 1},
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "anyOf": [{"required": [key]} for key in _DEFINITION_KEYS],
                },
            },
        ],
    }
    # Each turn option's schema by its kind, in TURN_OPTIONS' order (the file's key order).
    by_kind: dict[str, Callable[[TurnOption], dict[str, Any]]] = {
        "flag": lambda option: {**flag, "description": option.summary},
        "patterns": lambda option: {"type": "array", "items": _ref("ignored_tool")},
        "budget": lambda option: {"description": option.summary, **budget},
        "tools": lambda option: tools,
        "agent": lambda option: {"description": option.summary, **agent},
        "answer": lambda option: {"description": option.summary, **_ref("item")},
    }
    turn = {
        "expected_tools": {"type": "array", "items": _ref("turn_item")},
        **{name: by_kind[option.kind](option) for name, option in options.items()},
    }
    name = {"type": "string", "minLength": 1}
    matchers = _matchers()
    single_turn = {
        "type": "object",
        "required": ["expected_tools"],
        "properties": turn,
        "additionalProperties": False,
    }
    with_turns = {
        "type": "object",
        "required": ["turns"],
        "properties": {
            "turns": {
                "type": "array",
                "minItems": 1,
                "items": {"anyOf": [_ref("turn"), _ref("turn_alternatives")]},
            },
            "max_calls": {"description": "at most this many calls in all turns", **budget},
            "tools": {**tools, "description": "every turn's tools, unless a turn gives its own"},
            "agent": {"description": "every turn's agent, unless a turn gives its own", **agent},
            "answer": {
                "description": "the run's final answer (its last turn's) must match this",
                **_ref("item"),
            },
        },
        "additionalProperties": False,
    }

    def named(body: dict[str, Any]) -> dict[str, Any]:
        return {
            **body,
            "required": ["name", *body["required"]],
            "properties": {"name": name, **body["properties"]},
        }

    def alternatives(items: dict[str, Any], description: str) -> dict[str, Any]:
        return {"description": description, "type": "array", "minItems": 2, "items": items}

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": _ID,
        "title": "toolmatch spec file",
        "description": (
            "Test cases for toolmatch check and load_test_cases (docs/config.md). The loader "
            "is the judge: its messages name each problem and its place."
        ),
        "type": "object",
        "required": ["test_cases"],
        "properties": {"test_cases": {"type": "array", "minItems": 1, "items": _ref("case")}},
        "additionalProperties": False,
        "$defs": {
            "case": {
                "description": (
                    "a named test case: turns, or expected_tools for a single turn, or one_of "
                    "its alternatives"
                ),
                "oneOf": [
                    _ref("single_turn_case"),
                    _ref("case_with_turns"),
                    _ref("case_with_alternatives"),
                ],
            },
            "single_turn_case": named(single_turn),
            "case_with_turns": named(with_turns),
            "case_with_alternatives": {
                "type": "object",
                "required": ["name", "one_of"],
                "properties": {
                    "name": name,
                    "one_of": alternatives(
                        {"oneOf": [_ref("turn"), _ref("turns")]},
                        "the case passes when the run passes any of these, each a case "
                        "without its name",
                    ),
                },
                "additionalProperties": False,
            },
            "turn": single_turn,
            "turns": {**with_turns, "description": "turns, as a case without its name has them"},
            "turn_alternatives": {
                "type": "object",
                "required": ["one_of"],
                "properties": {
                    "one_of": alternatives(
                        _ref("turn"), "the turn passes when its calls pass any of these turns"
                    )
                },
                "additionalProperties": False,
            },
            "expected_tool": expected_tool,
            "turn_item": {
                "description": "an expected tool, or a group of them met in order or in any order",
                "anyOf": [_ref("expected_tool"), _ref("in_order_group"), _ref("any_order_group")],
            },
            "in_order_group": group("in_order", "any_order"),
            "any_order_group": group("any_order", "in_order"),
            "grouped_tool": {
                "description": "an expected tool in a group: one that takes a call",
                "allOf": [
                    _ref("expected_tool"),
                    {"not": takes_no_call("never", True)},
                    {"not": takes_no_call("count", 0)},
                ],
            },
            "ignored_tool": _tool({**ignored_keys, "max_count": ignore_cap}),
            "value": {
                "description": (
                    "a value position: a mapping with a $ key (or a seed form) is a matcher, "
                    "any other value is data"
                ),
                "anyOf": [
                    {"type": ["null", "boolean", "number", "string"]},
                    {"type": "array", "items": _ref("item")},
                    _ref("data_mapping"),
                    _ref("matcher"),
                ],
            },
            "item": {
                "description": "a value position where $maybe and $absent mean nothing",
                "allOf": [_ref("value"), _ref("not_about_keys")],
            },
            "item_matcher": {
                "description": "a matcher where $maybe and $absent mean nothing",
                "allOf": [_ref("matcher"), _ref("not_about_keys")],
            },
            "not_about_keys": {
                "description": "not $maybe or $absent, which only say whether a key may be missing",
                "not": {
                    "type": "object",
                    "anyOf": [{"required": [key]} for key in ("$maybe", "$absent")],
                },
            },
            "data_mapping": {
                "description": "a mapping compared by value, key by key; its values are values",
                "type": "object",
                "propertyNames": {"not": {"pattern": "^\\$"}},
                "not": {"anyOf": _seed_shapes()},
                "additionalProperties": _ref("value"),
            },
            "matcher": {
                "description": "a mapping with one $ key and its options, or a seed form",
                "anyOf": [_ref(definition) for definition in matchers],
            },
            **matchers,
        },
    }


def built_text() -> str:
    """:func:`build_schema` as the text of ``spec.schema.json``."""
    import json

    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def _write() -> None:
    from pathlib import Path

    # beside the package's __init__: the file's place is part of its published $id
    Path(__file__).parent.parent.joinpath(SCHEMA_FILE).write_text(built_text(), encoding="utf-8")


if __name__ == "__main__":
    _write()
