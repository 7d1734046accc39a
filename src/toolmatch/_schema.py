"""The JSON Schema (draft 2020-12) of spec files, shipped beside this module.

Editors validate and complete YAML against it; the loader stays the judge, and its
messages the reference (a schema cannot say "max_count must be >= count").
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

__all__ = ["SCHEMA_FILE", "schema_text", "spec_schema"]

SCHEMA_FILE = "spec.schema.json"


def schema_text() -> str:
    """The schema's JSON text, as ``toolmatch schema`` prints it."""
    from importlib.resources import files

    return files("toolmatch").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def spec_schema() -> dict[str, Any]:
    """The JSON Schema that spec files follow, as a dict (for ``jsonschema`` and the like).

    >>> schema = spec_schema()
    >>> schema["$schema"], schema["required"]
    ('https://json-schema.org/draft/2020-12/schema', ['test_cases'])
    """
    import json

    schema: dict[str, Any] = json.loads(schema_text())
    return schema
