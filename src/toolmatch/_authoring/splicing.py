"""Changing a spec file's text in place: planned edits spliced into YAML, JSON written again.

A YAML spec is composed once with the spec loader (docs/config.md: the same reading,
limits and merge keys as ``load_test_cases``), which gives each value's place in the text.
Each edit replaces only the characters of the value it changes, so comments, quoting,
blank lines, indentation and flow or block style stay byte for byte everywhere else. A
value that stands in more than one place (an anchor with aliases, a merge key) is not
changed through one of them. A replaced value's comments (``record --into``'s
``# observed: ...; rule: ...``) are inserted at the end of its line. A JSON spec is
written again, with the indentation it had (and no comments: JSON has none).
"""

from __future__ import annotations

import functools
import itertools
import re

from toolmatch._authoring.update_plan import Append, NotDone, Replace, apply_to_data, same_data
from toolmatch._core.describe import join_path, short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.writing import block_yaml, inline_yaml, spec_json, spec_text

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from toolmatch._authoring.update_plan import Edit
    from toolmatch._spec.parsing import SpecDocument

__all__ = ["SpecText", "SplicingError"]

_BREAKS = "\r\n\x85\u2028\u2029"  # YAML 1.1's line breaks, PyYAML's
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class SplicingError(Exception):
    """The edits, each of which reads back as planned, do not together (a bug)."""


class _UnplacedError(Exception):
    """An edit whose place in the text cannot be told: the value is shared, or an alias."""


class SpecText:
    """A spec file's text, its data as the loader reads it, and edits made to both.

    Made from the spec's bytes, or from the :class:`SpecDocument` the spec was loaded
    from (read with its nodes): the one parse serves the loading, the planning and the
    splicing.
    """

    def __init__(self, where: str, raw: bytes, document: SpecDocument | None = None) -> None:
        import codecs

        from toolmatch._spec.parsing import read_spec_document

        if document is None or document.raw != raw:
            document = read_spec_document(where, raw, nodes=True)
        self.where = where
        self.document = document
        self.bom = raw.startswith(codecs.BOM_UTF8)
        self.text = document.text
        self.json = where.rpartition(".")[2].lower() == "json"
        self.data: Any = document.data
        self.root: Any = None
        self.indents: tuple[int, int, int] | None = None  # measured when a case is added
        self.explicit: dict[int, int] | None = None  # a key's start: its "?", read when needed
        self._read: tuple[str, SpecDocument] | None = None  # the last text read back
        self.scalars: tuple[list[int], list[int]] | None = None  # read when a comment is added
        if document.nodes is not None:
            self.root, self.visits, self.loader = document.nodes

    @classmethod
    def of(cls, document: SpecDocument) -> SpecText:
        """The spec text of a document read with its nodes."""
        return cls(document.where, document.raw, document)

    def document_of(self, text: str) -> SpecDocument:
        """The edited ``text`` read as a spec file (as :meth:`edited` read it back)."""
        from toolmatch._spec.parsing import read_spec_document

        if self._read is not None and self._read[0] == text:
            return self._read[1]
        return read_spec_document(self.where, self.bytes_of(text))

    # The new text -------------------------------------------------------------------------

    def bytes_of(self, text: str) -> bytes:
        return (b"\xef\xbb\xbf" if self.bom else b"") + text.encode("utf-8")

    def edited(self, edits: list[Edit], where: Any) -> tuple[str, list[Edit], list[NotDone]]:
        """The text with the edits made, the edits made, and the ones left out (with why);
        ``where`` names a path as the loader does. The text reads back as this data with
        the edits made: an edit that would not is left out, the others are made; raises
        :class:`SplicingError` when they do not read back together."""
        text, made, not_done = self._spliced(edits, where)
        if text is not None and self._reads_back(text, made):
            return text, made, not_done
        kept = []
        for edit in made:
            alone, placed, _ = self._spliced([edit], where)
            if alone is not None and placed and self._reads_back(alone, placed):
                kept.append(edit)
            else:
                why = "written in the text, it would not read back as planned; change it by hand"
                not_done.append(_not_done(edit, where, why))
        text, made, _ = self._spliced(kept, where)
        if text is None or not self._reads_back(text, made):
            raise SplicingError("the edited text does not read back as planned")
        return text, made, not_done

    def _reads_back(self, text: str, made: list[Edit]) -> bool:
        from toolmatch._spec.errors import ConfigError
        from toolmatch._spec.parsing import read_spec_document

        try:
            found = read_spec_document(self.where, self.bytes_of(text))
        except (ConfigError, UnicodeError):  # a lone surrogate cannot be written as UTF-8
            return False
        self._read = (text, found)
        return same_data(found.data, apply_to_data(self.data, made))

    def _spliced(
        self, edits: list[Edit], where: Any
    ) -> tuple[str | None, list[Edit], list[NotDone]]:
        """The text with the edits made (``None`` when two overlap), the edits made, and
        those that have no place in the text."""
        if self.json:
            return self._json_text(edits), edits, []
        splices: list[tuple[int, int, int, str]] = []
        made: list[Edit] = []
        not_done: list[NotDone] = []
        for edit in edits:
            try:
                # Made from the end of the text backwards; at one place, the later edits
                # first, so that the text reads in the edits' order.
                number = len(splices)
                splices.extend(
                    (start, stop, number + index, new)
                    for index, (start, stop, new) in enumerate(self._splices(edit))
                )
            except _UnplacedError as unplaced:
                not_done.append(_not_done(edit, where, str(unplaced)))
            else:
                made.append(edit)
        # The pieces of the new text from its end: each kept stretch of the old text, then
        # what a splice puts before it (joined once: many splices cost one copy).
        old = self.text
        pieces: list[str] = []
        end = len(old)
        for start, stop, _, new in sorted(splices, reverse=True):
            if stop > end:  # overlapping edits
                return None, made, not_done
            pieces += (old[stop:end], new)
            end = start
        pieces.append(old[:end])
        return "".join(reversed(pieces)), made, not_done

    def _json_text(self, edits: list[Edit]) -> str:
        data = apply_to_data(self.data, edits)
        found = re.search(r"\n([ \t]+)\S", self.text)
        indent: str | None = found.group(1) if found else None
        # record's writer: strict JSON (an infinity as 1e400, never Infinity).
        text = spec_json(data, indent, ascii_only=self.text.isascii())
        text += "\n" if self.text.endswith("\n") else ""
        # JSON escapes a line break in a string: each one here is the layout's own.
        return text.replace("\n", "\r\n") if "\r\n" in self.text else text

    # Places in the YAML text --------------------------------------------------------------

    def _node(self, path: tuple[Any, ...]) -> tuple[Any, Any]:
        """The node at ``path`` and the key node it is the value of (``None`` in a list)."""
        import yaml

        node, key_node = self.root, None
        for step in path:
            self._not_shared(node)
            if isinstance(node, yaml.MappingNode):
                pairs = [pair for pair in node.value if self._key(pair[0]) == step]
                key_node, node = pairs[-1]  # a key beside a merge key overrides the merged one
            else:
                key_node, node = None, node.value[step]
        self._not_shared(node)
        return node, key_node

    def _key(self, node: Any) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except Exception:  # a key no spec path can name
            return None

    def _not_shared(self, node: Any) -> None:
        if self.visits.get(id(node), 0) > 1:
            raise _UnplacedError(
                "is shared through a YAML anchor or merge key (<<); change it by hand"
            )

    def _within(self, outer: Any, inner: Any) -> bool:
        return bool(outer.start_mark.index <= inner.start_mark.index < outer.end_mark.index)

    def _end(self, node: Any) -> int:
        """Where the node's own text ends: a block collection ends with its last item."""
        import yaml

        if isinstance(node, yaml.ScalarNode):
            if node.style in ("|", ">"):  # the trailing line break and indentation are not it
                span = self.text[node.start_mark.index : node.end_mark.index]
                return int(node.start_mark.index + len(span.rstrip()))
            return int(node.end_mark.index)
        if node.flow_style or not node.value:
            return int(node.end_mark.index)
        last = node.value[-1][1] if isinstance(node, yaml.MappingNode) else node.value[-1]
        if not self._within(node, last):
            raise _UnplacedError("ends with a YAML alias; change the spec by hand")
        return self._end(last)

    def _line_start(self, index: int) -> int:
        """Where the line holding ``index`` starts: after any YAML line break, as the
        loader counts lines (NEL and the Unicode separators break lines too)."""
        return max(self.text.rfind(char, 0, index) for char in _BREAKS) + 1

    def _line_end(self, index: int) -> int:
        """Where the line holding ``index`` ends, before its line break."""
        found = _BREAK.search(self.text, index)
        return len(self.text) if found is None else found.start()

    def _break_after(self, index: int) -> int:
        """Where the line break at ``index`` (the end of a line) ends."""
        found = _BREAK.match(self.text, index)
        return index if found is None else found.end()

    def _pair_start(self, key_node: Any) -> int:
        """Where a mapping pair starts: its key, or the ``?`` of an explicit key before it."""
        if self.explicit is None:
            import yaml

            from toolmatch._spec.parsing import spec_loader

            # The scanner's tokens tell an explicit key's ``?`` from one in a comment.
            self.explicit = {}
            tokens = list(yaml.scan(self.text, Loader=spec_loader(yaml)))
            for token, following in itertools.pairwise(tokens):
                if isinstance(token, yaml.KeyToken) and self.text[token.start_mark.index] == "?":
                    self.explicit[following.start_mark.index] = token.start_mark.index
        start = int(key_node.start_mark.index)
        return self.explicit.get(start, start)

    def _pair_column(self, key_node: Any) -> int:
        return int(key_node.start_mark.column) - (
            int(key_node.start_mark.index) - self._pair_start(key_node)
        )

    def _newline(self) -> str:
        return "\r\n" if "\r\n" in self.text else "\n"

    def _first_on_line(self, index: int) -> bool:
        return not self.text[self._line_start(index) : index].strip()

    # Splices ------------------------------------------------------------------------------

    def _splices(self, edit: Edit) -> list[tuple[int, int, str]]:
        if isinstance(edit, Replace):
            node, key_node = self._node(edit.path)
            splices = [self._replace(node, key_node, edit.value)]
            if edit.comments:
                splices += self._comment(edit.path, node, edit.comments)
            return splices
        if isinstance(edit, Append):
            return [self._append(edit)]
        return self._rekey(edit)

    def _replace(self, node: Any, key_node: Any, value: Any) -> tuple[int, int, str]:
        import yaml

        start = int(node.start_mark.index)
        block = not isinstance(node, yaml.ScalarNode) and not node.flow_style and node.value
        column = int(node.start_mark.column)
        extra = ""
        if (
            block
            and key_node is not None
            and self._first_on_line(start)
            and column <= key_node.start_mark.column
        ):
            # A list at its key's indentation: anything else in its place must go deeper.
            extra = "  "
            column += 2
        new = self._value_text(node, value, column, block=bool(block))
        end = self._end(node)
        if end == start and self.text[start - 1 : start] == ":":
            extra = " "  # an empty value (null) right after its key's colon
        return start, end, extra + new

    def _value_text(self, node: Any, value: Any, column: int, *, block: bool) -> str:
        """``value`` as the text in place of ``node`` at ``column``: a block collection in
        place of one, else on one line (a quoted string staying in its quotes)."""
        if block and isinstance(value, (dict, list)) and value:
            # Its line breaks are the layout's (a string in it is quoted, escaped).
            return block_yaml(value, column).replace("\n", self._newline())
        quotes = None
        if isinstance(value, str) and getattr(node, "style", None) in ("'", '"'):
            quotes = node.style
        return inline_yaml(value, quotes)

    def _comment(
        self, path: tuple[Any, ...], node: Any, comments: tuple[tuple[tuple[Any, ...], str], ...]
    ) -> list[tuple[int, int, str]]:
        """The comments of a replaced value at the end of the line its text ends on, as
        ``toolmatch record`` writes them (each naming its value in a flow collection); none where
        a string that goes on past the line's end starts on it (a ``#`` would be the string's)."""
        import bisect

        end = self._end(node)
        line_end = self._line_end(end)
        if self.scalars is None:
            self.scalars = self._scalars()
        starts, ends = self.scalars
        # Past the last scalar or flow collection that ends on the line: punctuation, then
        # perhaps a comment (a "#" in it starts one: every string is in some scalar).
        before = bisect.bisect_right(ends, line_end)
        last = max(end, ends[before - 1]) if before else end
        if bisect.bisect_left(starts, line_end) > bisect.bisect_left(starts, last):
            return []
        parent, _ = self._node(path[:-1])
        texts = _comment_texts(path[-1], comments, named=getattr(parent, "flow_style", False))
        rest = self.text[last:line_end]
        if "#" in rest:
            at = last + rest.index("#")
            return [(at, at, "".join(f"{text}  " for text in texts))]
        return [(line_end, line_end, "".join(f"  {text}" for text in texts))]

    def _scalars(self) -> tuple[list[int], list[int]]:
        """Where the text's scalars start, and where they and its flow collections end,
        each sorted."""
        import yaml

        starts, ends = [], []
        stack = [self.root]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if id(node) in seen:  # an alias: the node's text is where its anchor is
                continue
            seen.add(id(node))
            if isinstance(node, yaml.ScalarNode):
                starts.append(int(node.start_mark.index))
                ends.append(int(node.end_mark.index))
                continue
            if node.flow_style:
                ends.append(int(node.end_mark.index))
            if isinstance(node, yaml.MappingNode):
                stack.extend(child for pair in node.value for child in pair)
            else:
                stack.extend(node.value)
        return sorted(starts), sorted(ends)

    def _own_pairs(self, node: Any) -> list[tuple[Any, Any]]:
        """The mapping's pairs written in it (not merged in), in the text's order."""
        pairs = [pair for pair in node.value if self._within(node, pair[0])]
        return sorted(pairs, key=lambda pair: int(pair[0].start_mark.index))

    def _rekey(self, edit: Any) -> list[tuple[int, int, str]]:
        node, key_node = self._node(edit.path)
        own = self._own_pairs(node)
        gone = self._deleted_pairs(own, edit.delete)
        kept = [pair for pair in own if pair not in gone]
        if not kept:  # nothing of the mapping stays: written anew
            if len(own) < len(node.value):
                raise _UnplacedError("has keys merged in (<<); change it by hand")
            return [self._replace(node, key_node, dict(edit.add))]
        splices = self._deletions(node, own, gone)
        if edit.add:
            after = [pair for pair in kept if self._key(pair[0]) == edit.after]
            anchor = after[0] if after else kept[-1]
            splices.append(self._insertion(node, kept, anchor, edit.add))
        return splices

    def _deleted_pairs(
        self, own: list[tuple[Any, Any]], delete: tuple[Any, ...]
    ) -> list[tuple[Any, Any]]:
        """The pairs of ``own`` (a mapping's own key and value nodes) whose keys are in
        ``delete``; refuses a key merged in (``<<``) and a value shared by an alias."""
        gone = [pair for pair in own if self._key(pair[0]) in delete]
        merged = [key for key in delete if key not in map(self._key, (k for k, _ in own))]
        if merged:
            raise _UnplacedError(
                f"{short_repr(merged[0])} is brought in by a merge key (<<); change it by hand"
            )
        for pair in gone:
            self._not_shared(pair[1])
        return gone

    def _deletions(
        self, node: Any, own: list[tuple[Any, Any]], gone: list[tuple[Any, Any]]
    ) -> list[tuple[int, int, str]]:
        """Each run of removed pairs, with what belongs to it: its lines in a block
        mapping, its comma in a flow one."""
        splices = []
        run: list[tuple[Any, Any]] = []
        for position, pair in enumerate([*own, None]):
            if pair is not None and pair in gone:
                run.append(pair)
                continue
            if not run:
                continue
            first_key, last_value = run[0][0], run[-1][1]
            start = self._pair_start(first_key)
            if not node.flow_style and self._first_on_line(start):
                stop = self._break_after(self._line_end(self._end(last_value)))
                splices.append((self._line_start(start), stop, ""))
            elif pair is not None:
                splices.append((start, self._pair_start(pair[0]), ""))
            else:
                splices.extend(self._last_deletion(node, own[position - len(run) - 1], run))
            run = []
        return splices

    def _last_deletion(
        self, node: Any, before: tuple[Any, Any], run: list[tuple[Any, Any]]
    ) -> list[tuple[int, int, str]]:
        """The last pairs of a flow mapping removed. On the line of the pair before, from
        its end; on lines of their own, with the comment after the closing brace, while
        the comment of the pair before stays with it (only its comma goes)."""
        kept_end, start = self._end(before[1]), self._pair_start(run[0][0])
        if not self._first_on_line(start):
            return [(kept_end, self._end(run[-1][1]), "")]
        comma = self.text.index(",", kept_end)
        closing = int(node.end_mark.index) - 1
        comment = re.compile(r"[ \t]*#[^\r\n\x85\u2028\u2029]*").match(self.text, closing + 1)
        after = closing + 1 if comment is None else comment.end()
        return [(comma, comma + 1, ""), (start, closing, ""), (closing + 1, after, "")]

    def _insertion(
        self, node: Any, kept: list[tuple[Any, Any]], anchor: tuple[Any, Any], add: Any
    ) -> tuple[int, int, str]:
        entries = [f"{inline_yaml(key)}: {inline_yaml(value)}" for key, value in add]
        if node.flow_style:
            at = self._end(anchor[1])
            return at, at, "".join(f", {entry}" for entry in entries)
        at = self._line_end(self._end(anchor[1]))
        indent = " " * self._pair_column(kept[0][0])
        return at, at, "".join(f"{self._newline()}{indent}{entry}" for entry in entries)

    def _append(self, edit: Any) -> tuple[int, int, str]:
        node, _ = self._node(edit.path)
        last = node.value[-1]
        if not self._within(node, last):
            raise _UnplacedError("ends with a YAML alias; change the spec by hand")
        if node.flow_style:
            at = self._end(last)
            return at, at, f", {inline_yaml(edit.item)}"
        newline = self._newline()
        at = self._line_end(self._end(last))
        gap = ""
        if len(node.value) > 1:  # cases apart by a blank line get one more
            between = self.text[self._end(node.value[-2]) : node.value[-1].start_mark.index]
            if between.count("\n") > 1:
                gap = newline
        dash = int(node.start_mark.column)
        column = int(last.start_mark.column)
        if self.indents is None:
            self.indents = self._indents()
        lines = _case_yaml(edit.shown, self.indents).split("\n")
        first = " " * dash + "-" + " " * (column - dash - 1) + lines[0]
        rest = [(" " * column + line) if line else line for line in lines[1:]]
        case = newline.join([first, *rest])
        after = self._break_after(at)
        if after > at:
            # Added after the last line's break rather than before it (the same text): an
            # edit that removes the last lines, break and all, does not overlap it.
            return after, after, gap + case + newline
        return at, at, newline + gap + case

    def _indents(self) -> tuple[int, int, int]:
        """How the file indents a nested mapping, and a list under a key (its items, its
        dashes), measured at their first use; 2, 2 and 0 where it has none."""
        import yaml

        mapping = sequence = offset = None
        for key, value in self._keyed_blocks():
            if isinstance(value, yaml.MappingNode):
                if mapping is None:
                    mapping = value.value[0][0].start_mark.column - key.start_mark.column
            elif sequence is None:
                offset = value.start_mark.column - key.start_mark.column
                sequence = value.value[0].start_mark.column - key.start_mark.column
            if mapping is not None and sequence is not None:
                break
        return mapping or 2, sequence or 2, offset or 0

    def _keyed_blocks(self) -> Iterator[tuple[Any, Any]]:
        """Each key of the file's mappings whose value is a block mapping or list with items,
        with that value, depth first in the file's order (a flow collection, a scalar or a
        key merged in is left out)."""
        import yaml

        stack = [self.root]
        while stack:
            node = stack.pop()
            if not isinstance(node, yaml.MappingNode):
                if isinstance(node, yaml.SequenceNode):
                    stack.extend(reversed(node.value))
                continue
            for key, value in node.value:
                block = not getattr(value, "flow_style", True) and value.value
                if block and self._within(node, key):
                    yield key, value
            stack.extend(reversed([value for _, value in node.value]))


def _not_done(edit: Edit, where: Any, why: str) -> NotDone:
    return NotDone(where(edit.path), why, "added" if isinstance(edit, Append) else "fixed")


def _comment_texts(
    step: Any, comments: tuple[tuple[tuple[Any, ...], str], ...], *, named: bool
) -> list[str]:
    """Each comment as ``# place: text``, its place in the value (the value's own ``step``
    first when ``named``, in a flow collection), else ``# text``."""
    texts = []
    for inside, text in comments:
        place = functools.reduce(join_path, inside, join_path("", step) if named else "")
        texts.append(f"# {place}: {text}" if place else f"# {text}")
    return texts


def _case_yaml(case: Any, indents: tuple[int, int, int]) -> str:
    """A new case's mapping as block YAML (with its comments), its keys at column 0: as
    ``toolmatch record`` writes it (:func:`spec_text`'s settings), indented as the file is."""
    mapping, sequence, offset = indents
    return spec_text(case, (mapping, max(sequence, offset + 2), offset)).rstrip("\n")
