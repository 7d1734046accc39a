"""Reading a spec file: JSON or YAML text to data, or a ``ConfigError`` saying where it is bad.

Both parsers would keep the last of a key given twice in one mapping and drop the first
without a word; a spec file refuses it instead, naming the line. ``json`` and PyYAML are
imported only when a file is read, so ``import toolmatch`` stays light.
"""

from __future__ import annotations

from toolmatch._config import ConfigError, ConfigProblem

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_spec_file"]


def read_spec_file(where: str) -> object:
    """The parsed ``.yaml`` / ``.yml`` / ``.json`` file at ``where``.

    A syntax error or a repeated key becomes a ``ConfigError`` whose path is
    ``file:line:column``; a file that cannot be opened raises ``OSError``.
    """
    suffix = where.rpartition(".")[2].lower() if "." in where else ""
    if suffix not in ("yaml", "yml", "json"):
        raise ConfigError(
            [ConfigProblem(where, "unsupported file type; accepted: .yaml, .yml, .json")]
        )
    with open(where, "rb") as file:  # OSError is the caller's: the file is not a config mistake
        raw = file.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(
            [ConfigProblem(where, f"not UTF-8 text: byte {error.start} cannot be decoded")]
        ) from None
    return _read_json(text, where) if suffix == "json" else _read_yaml(text, where)


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
    import json

    try:
        try:
            return json.loads(text, object_pairs_hook=_unique_pairs)
        except _RepeatedKeyError as repeated:
            key = repeated.args[0]
            _locate_repeated_json_key(text)
    except json.JSONDecodeError as error:
        place = f"{where}:{error.lineno}:{error.colno}"
        raise ConfigError([ConfigProblem(place, f"invalid JSON: {error.msg}")]) from None
    except (ValueError, RecursionError) as error:
        raise ConfigError([ConfigProblem(where, f"invalid JSON: {error}")]) from None
    # Not located: json's Python parser is an undocumented part of it, and might go.
    raise ConfigError([ConfigProblem(where, f"invalid JSON: duplicate key {key!r}")])


def _locate_repeated_json_key(text: str) -> None:
    """Parse again, slowly, with json's Python parser, which tells where each object starts;
    raise ``JSONDecodeError`` at the first object holding a key twice."""
    import json
    import json.decoder
    import json.scanner

    try:
        read_object = vars(json.decoder)["JSONObject"]
        python_scanner = vars(json.scanner)["py_make_scanner"]
    except KeyError:
        return

    def parse_object(
        text_and_end: tuple[str, int], strict: bool, *rest: Any, **options: Any
    ) -> tuple[dict[str, Any], int]:
        scan_once, _, _, *more = rest
        pairs, end = read_object(text_and_end, strict, scan_once, None, list, *more, **options)
        try:
            return _unique_pairs(pairs), end
        except _RepeatedKeyError as repeated:
            start = text_and_end[1] - 1  # the object's '{'
            message = f"duplicate key {repeated.args[0]!r} in the object that starts here"
            raise json.JSONDecodeError(message, text_and_end[0], start) from None

    decoder = json.JSONDecoder()
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = python_scanner(decoder)  # type: ignore[attr-defined]  # C's never calls it
    try:
        decoder.decode(text)
    except RecursionError:
        return  # deeper than the Python parser goes: the key is named without its line


def _read_yaml(text: str, where: str) -> object:
    try:
        import yaml
    except ImportError:
        raise ConfigError(
            [ConfigProblem(where, "reading YAML needs PyYAML: pip install 'toolmatch[yaml]'")]
        ) from None
    try:
        return yaml.load(text, Loader=_unique_key_loader(yaml))  # a SafeLoader
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        what = " ".join(part for part in (error.context, error.problem) if part)
        place = where if mark is None else f"{where}:{mark.line + 1}:{mark.column + 1}"
        raise ConfigError([ConfigProblem(place, f"invalid YAML: {what}")]) from None
    except yaml.YAMLError as error:
        raise ConfigError([ConfigProblem(where, f"invalid YAML: {error}")]) from None
    except RecursionError:
        raise ConfigError([ConfigProblem(where, "invalid YAML: nested too deeply")]) from None


_LOADER: Any = None


def _unique_key_loader(yaml: Any) -> Any:
    """PyYAML's safe loader, refusing a key given twice in one mapping (made on first use)."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    merge_tag = "tag:yaml.org,2002:merge"

    class UniqueKeyLoader(yaml.SafeLoader):  # type: ignore[misc]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            first_lines: dict[object, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == merge_tag:
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
                        f"duplicate key {key!r}; the first is on line {first + 1}",
                        key_node.start_mark,
                    )
                first_lines[key] = key_node.start_mark.line
            return super().construct_mapping(node, deep=deep)

    _LOADER = UniqueKeyLoader
    return _LOADER
