"""Reading a spec file: JSON or YAML text to data, or a ``ConfigError`` saying where it is bad.

Both parsers would keep the last of a key given twice in one mapping and drop the first
without a word; a spec file refuses it instead, naming the line. A file is also refused
when it nests deeper than ``MAX_NESTING`` or, in YAML, when its aliases would repeat more
than ``MAX_REPEATED`` values: both are measured before anything is built, so a small
hostile file cannot cost minutes or gigabytes. ``json`` and PyYAML are imported only when
a file is read, so ``import toolmatch`` stays light.
"""

from __future__ import annotations

from toolmatch._core.describe import short_repr
from toolmatch._core.limits import (
    MAX_NESTING,
    MAX_REPEATED,
    NESTED_TOO_DEEPLY,
    read_whole,
    unbounded,
)
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.errors import ConfigError, ConfigProblem

if TYPE_CHECKING:
    from typing import Any

__all__ = ["SpecDocument", "read_spec_document", "read_spec_file", "spec_loader"]


def read_spec_file(where: str) -> object:
    """The parsed ``.yaml`` / ``.yml`` / ``.json`` file at ``where``.

    A syntax error, a repeated key, a value YAML cannot read, nesting deeper than
    ``MAX_NESTING`` or aliases that repeat more than ``MAX_REPEATED`` values become a
    ``ConfigError`` whose path is ``file:line:column``; a file larger than
    ``MAX_FILE_BYTES`` (read no further) a ``ConfigError`` naming the file; a file that
    cannot be opened raises ``OSError``.
    """
    return read_spec_document(where).data


class SpecDocument:
    """A spec file read once: its bytes, its text, its data and, for YAML when asked for,
    the nodes its data was built from (where each value stands in the text).

    ``--update`` reads the spec once: the cases it checks, the changes it plans and the
    places it splices them into are all this one parse.
    """

    def __init__(self, where: str, raw: bytes, text: str, data: object, nodes: Any) -> None:
        self.where = where
        self.raw = raw
        self.text = text
        self.data = data
        # (the root node, the paths that reach each node by id, the loader that built them)
        self.nodes = nodes


def read_spec_document(where: str, raw: bytes | None = None, nodes: bool = False) -> SpecDocument:
    """The spec file at ``where`` (or its bytes ``raw``, read from there), parsed as
    :func:`read_spec_file` parses it; with ``nodes``, a YAML file's nodes are kept.

    >>> document = read_spec_document("spec.json", b'{"test_cases": []}')
    >>> document.data, document.nodes
    ({'test_cases': []}, None)
    """
    suffix = where.rpartition(".")[2].lower() if "." in where else ""
    if suffix not in ("yaml", "yml", "json"):
        raise ConfigError(
            [ConfigProblem(where, "unsupported file type; accepted: .yaml, .yml, .json")]
        )
    if raw is None:
        # OSError is the caller's: the file is not a config mistake
        try:
            raw = read_whole(where)
        except ValueError as error:  # too large to read whole
            raise ConfigError([ConfigProblem(where, str(error))]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(
            [ConfigProblem(where, f"not UTF-8 text: byte {error.start} cannot be decoded")]
        ) from None
    if suffix == "json":
        return SpecDocument(where, raw, text, _read_json(text, where), None)
    data, composed = _read_yaml(text, where, nodes)
    return SpecDocument(where, raw, text, data, composed)


class _LimitError(Exception):
    """A spec beyond a loading limit, at a 1-based ``line`` and ``column``."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column


def _limit_error(where: str, refused: _LimitError) -> ConfigError:
    return ConfigError([ConfigProblem(f"{where}:{refused.line}:{refused.column}", refused.message)])


class _RepeatedKeyError(Exception):
    """A key given twice in one JSON object (found by the fast parse; located by the slow one)."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKeyError(key)
        found[key] = value
    return found


def _read_json(text: str, where: str) -> object:
    import contextlib
    import json

    try:
        try:
            data = json.loads(text, object_pairs_hook=_unique_pairs)
        except _RepeatedKeyError as repeated:
            problem = f"invalid JSON: duplicate key {short_repr(repeated.args[0])}"
        except RecursionError:  # deeper than the C parser goes: far beyond the limit
            problem = NESTED_TOO_DEEPLY
        except json.JSONDecodeError:
            # Under a raised recursion limit the C parser reads a deep nesting to its end and
            # finds the syntax error there: the nesting, which comes first, is said instead.
            with contextlib.suppress(json.JSONDecodeError):
                _locate_json_problem(text)
            raise
        else:
            if unbounded(data) is None:  # JSON has no aliases: only the nesting can be
                return data
            problem = NESTED_TOO_DEEPLY
        _locate_json_problem(text)
    except json.JSONDecodeError as error:
        place = f"{where}:{error.lineno}:{error.colno}"
        raise ConfigError([ConfigProblem(place, f"invalid JSON: {error.msg}")]) from None
    except _LimitError as refused:
        raise _limit_error(where, refused) from None
    except ValueError as error:  # an integer beyond Python's digit limit
        raise ConfigError([ConfigProblem(where, f"invalid JSON: {error}")]) from None
    # Not located: json's Python parser is an undocumented part of it, and might go.
    raise ConfigError([ConfigProblem(where, problem)])


def _locate_json_problem(text: str) -> None:
    """Parse again, slowly, with json's Python parser, which tells where each object and array
    starts: raise ``JSONDecodeError`` at the first object holding a key twice, or ``_LimitError``
    at the first object or array nested deeper than ``MAX_NESTING``."""
    import json
    import json.decoder
    import json.scanner

    try:
        read_object = vars(json.decoder)["JSONObject"]
        read_array = vars(json.decoder)["JSONArray"]
        python_scanner = vars(json.scanner)["py_make_scanner"]
    except KeyError:
        return
    open_containers = 0

    def enter(text_and_end: tuple[str, int]) -> None:
        nonlocal open_containers
        open_containers += 1
        if open_containers > MAX_NESTING:
            start = json.JSONDecodeError("", text_and_end[0], text_and_end[1] - 1)
            raise _LimitError(NESTED_TOO_DEEPLY, start.lineno, start.colno)

    def parse_object(
        text_and_end: tuple[str, int], strict: bool, *rest: Any, **options: Any
    ) -> tuple[dict[str, Any], int]:
        nonlocal open_containers
        enter(text_and_end)
        scan_once, _, _, *more = rest
        pairs, end = read_object(text_and_end, strict, scan_once, None, list, *more, **options)
        open_containers -= 1
        try:
            return _unique_pairs(pairs), end
        except _RepeatedKeyError as repeated:
            start = text_and_end[1] - 1  # the object's '{'
            message = f"duplicate key {short_repr(repeated.args[0])} in the object that starts here"
            raise json.JSONDecodeError(message, text_and_end[0], start) from None

    def parse_array(text_and_end: tuple[str, int], scan_once: Any) -> tuple[list[Any], int]:
        nonlocal open_containers
        enter(text_and_end)
        found: tuple[list[Any], int] = read_array(text_and_end, scan_once)
        open_containers -= 1
        return found

    decoder = json.JSONDecoder()
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.parse_array = parse_array  # type: ignore[attr-defined]
    decoder.scan_once = python_scanner(decoder)  # type: ignore[attr-defined]  # C's never calls it
    decoder.decode(text)


def _read_yaml(text: str, where: str, keep: bool) -> tuple[object, Any]:
    """The data, and with ``keep`` its nodes (see :class:`SpecDocument`)."""
    try:
        import yaml
    except ImportError:
        raise ConfigError(
            [ConfigProblem(where, "reading YAML needs PyYAML: pip install 'toolmatch[yaml]'")]
        ) from None
    try:
        return _parsed(yaml, text, keep)
    except _LimitError as refused:
        raise _limit_error(where, refused) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        what = " ".join(part for part in (error.context, error.problem) if part)
        place = where if mark is None else f"{where}:{mark.line + 1}:{mark.column + 1}"
        raise ConfigError([ConfigProblem(place, f"invalid YAML: {what}")]) from None
    except yaml.YAMLError as error:
        raise ConfigError([ConfigProblem(where, f"invalid YAML: {error}")]) from None


def _parsed(yaml: Any, text: str, keep: bool) -> tuple[object, Any]:
    """:func:`_read_yaml`'s data and nodes, its errors left to it."""
    loader = spec_loader(yaml)(text)  # a SafeLoader
    try:
        root = loader.get_single_node()
        if root is None:  # an empty file
            return None, None
        # Counted before the data is built, which flattens each merge key into its
        # mapping's pairs in place: a mapping merged elsewhere is reached twice.
        visits = _visits(yaml, root) if keep else None
        data = loader.construct_document(root)
    finally:
        loader.dispose()
    return data, (root, visits, loader) if keep else None


_LOADER: Any = None
_KINDS = {"int": "an integer", "float": "a number", "bool": "a boolean", "timestamp": "a date"}


def spec_loader(yaml: Any) -> Any:
    """PyYAML's safe loader, bounded and strict (made on first use).

    While composing the node graph, before anything is built, it measures each node as
    the values it stands for once every alias in it is expanded, and how deep it nests;
    it refuses an alias to a node that contains it (infinitely deep), aliases that repeat
    more than ``MAX_REPEATED`` values in all, and nesting deeper than ``MAX_NESTING``.
    While building, it refuses a key given twice in one mapping, and turns a scalar its
    tag cannot read (``2026-02-30``, ``!!int abc``) into an error at the scalar.
    """
    global _LOADER
    if _LOADER is not None:
        return _LOADER

    class SpecLoader(yaml.SafeLoader):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.open_collections = 0
            self.repeated = 0  # values added by aliases so far
            # node -> (values it stands for, collections nested in it, itself included)
            self.measures: dict[Any, tuple[int, int]] = {}

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                target = self.anchors.get(event.anchor)
                if target is not None:  # else PyYAML reports the undefined alias
                    self.measure_alias(event, target)
                return super().compose_node(parent, index)
            if self.check_event(yaml.ScalarEvent):
                node = super().compose_node(parent, index)
                self.measures[node] = (1, 0)
                return node
            if self.open_collections >= MAX_NESTING:
                mark = self.peek_event().start_mark
                raise _LimitError(NESTED_TOO_DEEPLY, mark.line + 1, mark.column + 1)
            self.open_collections += 1
            node = super().compose_node(parent, index)
            self.open_collections -= 1
            children = node.value
            if isinstance(node, yaml.MappingNode):
                children = [child for pair in node.value for child in pair]
            parts = [self.measures[child] for child in children]
            values = 1 + sum(values for values, _ in parts)
            depth = 1 + max((depth for _, depth in parts), default=0)
            self.measures[node] = (values, depth)
            return node

        def measure_alias(self, event: Any, target: Any) -> None:
            mark = event.start_mark
            measure = self.measures.get(target)
            if measure is None:  # still being composed: the alias is inside what it names
                raise _LimitError(
                    f"alias *{event.anchor} is inside the value it names; a value cannot "
                    "contain itself",
                    mark.line + 1,
                    mark.column + 1,
                )
            values, depth = measure
            self.repeated += values
            if self.repeated > MAX_REPEATED:
                raise _LimitError(
                    f"aliases repeat more than {MAX_REPEATED:,} values by here; a spec "
                    f"file's aliases may repeat {MAX_REPEATED:,} in all",
                    mark.line + 1,
                    mark.column + 1,
                )
            if self.open_collections + depth > MAX_NESTING:
                raise _LimitError(NESTED_TOO_DEEPLY, mark.line + 1, mark.column + 1)

        def construct_object(self, node: Any, deep: bool = False) -> Any:
            if not isinstance(node, yaml.ScalarNode):
                return super().construct_object(node, deep=deep)
            try:
                return super().construct_object(node, deep=deep)
            except yaml.YAMLError:
                raise
            except Exception as error:  # PyYAML's readers raise whatever their parsing hits
                raise yaml.constructor.ConstructorError(
                    None, None, self.unreadable(node, error), node.start_mark
                ) from None

        def unreadable(self, node: Any, error: Exception) -> str:
            tag = node.tag.removeprefix("tag:yaml.org,2002:")
            message = f"cannot read {short_repr(node.value)} as {_KINDS.get(tag, '!!' + tag)}"
            if isinstance(error, ValueError):
                # Python's advice for its digit limit names a call, not a fix to a spec.
                message += f" ({str(error).partition('; ')[0]})"
            implicit = self.resolve(yaml.ScalarNode, node.value, (True, False)) == node.tag
            if node.style is None and implicit:
                message += "; quote it to compare a string"
            return message

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if not isinstance(node, yaml.MappingNode):  # !!set or !!map on a scalar or a list
                return super().construct_mapping(node, deep=deep)  # which says so
            first_lines: dict[object, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # '<<' merges another mapping in: keys beside it override it
                key = self.construct_object(key_node, deep=deep)
                try:
                    first = first_lines.get(key)
                except TypeError:
                    continue  # an unhashable key: the safe loader says what is wrong with it
                if first is not None:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"duplicate key {short_repr(key)}; the first is on line {first + 1}",
                        key_node.start_mark,
                    )
                first_lines[key] = key_node.start_mark.line
            return super().construct_mapping(node, deep=deep)

    _LOADER = SpecLoader
    return _LOADER


def _visits(yaml: Any, root: Any) -> dict[int, int]:
    """How many paths reach each node: an aliased node, or one merged in, more than one."""
    visits: dict[int, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        visits[id(node)] = visits.get(id(node), 0) + 1
        if isinstance(node, yaml.MappingNode):
            stack.extend(child for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return visits
