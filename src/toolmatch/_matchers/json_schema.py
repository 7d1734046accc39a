"""``ConformsTo(schema)``: a value valid for a JSON Schema, checked by ``jsonschema``.

``jsonschema`` is an optional dependency (the ``schema`` extra), imported when the first
``ConformsTo`` is built.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import reduce

from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["ConformsTo", "import_jsonschema", "schema_validator"]


def import_jsonschema(who: str) -> Any:
    """The ``jsonschema`` module; when it is missing, an ``ImportError`` naming ``who`` and
    the extra that installs it."""
    try:
        import jsonschema
    except ImportError:
        raise ImportError(
            f"{who} needs the jsonschema package: pip install 'toolmatch[schema]'"
        ) from None
    return jsonschema


def schema_validator(schema: Mapping[str, Any] | bool, who: str, where: str = "") -> Any:
    """A ``jsonschema`` validator for ``schema`` (its ``$schema`` draft, else the latest),
    checking formats; an invalid schema raises ``ValueError`` naming ``who`` and its place,
    a missing ``jsonschema`` ``ImportError`` naming the ``schema`` extra."""
    jsonschema = import_jsonschema(who)
    try:
        kind = jsonschema.validators.validator_for(schema)
        kind.check_schema(schema)
    except jsonschema.exceptions.SchemaError as error:
        steps = "/".join(str(step) for step in error.absolute_path) or "the top level"
        message = f"{who} got an invalid schema{where} at {steps}: {error.message}"
        raise ValueError(message) from None
    except Exception as error:  # a $schema that names no known draft, a hostile mapping
        raise ValueError(f"{who} got an unusable schema{where}: {error}") from None
    return kind(schema, format_checker=kind.FORMAT_CHECKER)


@public
class ConformsTo(Matcher, _trusted=True):
    """A value valid for the JSON Schema ``schema`` (its ``$schema`` draft, else the latest),
    formats checked as far as ``jsonschema`` checks them; each violation is explained at its
    path. Needs the ``schema`` extra (docs/matchers.md).

    >>> from toolmatch import explain
    >>> schema = {"type": "object", "properties": {"limit": {"type": "integer"}},
    ...           "required": ["limit"], "additionalProperties": False}
    >>> ConformsTo(schema) == {"limit": 5}, ConformsTo(schema) == {"limit": True}
    (True, False)
    >>> for mismatch in explain({"args": ConformsTo(schema)}, {"args": {"limit": "5", "n": 2}}):
    ...     print(mismatch)
    args: Additional properties are not allowed ('n' was unexpected)
    args.limit: '5' is not of type 'integer'

    """

    __slots__ = ("schema", "_validator")
    schema: Mapping[str, Any] | bool
    _validator: Any

    def __init__(self, schema: Mapping[str, Any] | bool) -> None:
        import_jsonschema("ConformsTo")
        if not isinstance(schema, (Mapping, bool)):
            raise TypeError(
                f"ConformsTo needs a JSON Schema (a dict), got {short_repr(schema)} "
                f"({type_name(schema)})"
            )
        self._set(_validator=schema_validator(schema, "ConformsTo"), schema=schema)

    def matches(self, actual: object) -> bool:
        try:
            return bool(self._validator.is_valid(actual))
        except Exception:  # an unresolvable $ref, a value too deep, a hostile object
            return False

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        try:
            errors = sorted(
                self._validator.iter_errors(actual), key=lambda error: list(error.absolute_path)
            )
        except Exception as error:
            yield Mismatch(path, f"could not be validated: {type(error).__name__}: {error}")
            return
        for failure in errors:
            yield Mismatch(reduce(join_path, failure.absolute_path, path), failure.message)

    def _constructor_args(self) -> ConstructorArgs:
        return (self.schema,), {}
