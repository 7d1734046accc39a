"""The diff `--update` and `record --into` print: difflib's unified diff, byte for byte, over
generated texts (lines repeated, changed, added, removed; long enough for difflib's
"popular" lines), and over a spec changed in many places."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from toolmatch._cli.diff import LineMatcher, unified_diff

# Few distinct lines, so that equal lines repeat and runs of them match in several places.
lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "\n", "e"]), max_size=60)


@st.composite
def edited(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A text and the text edited: lines replaced, inserted and removed here and there,
    sometimes repeated past 200 lines (difflib then leaves out its most common ones)."""
    before = draw(lines) * draw(st.sampled_from([1, 1, 2, 5]))
    after = list(before)
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(after)))
        change = draw(st.sampled_from(["replace", "insert", "delete"]))
        new = draw(st.lists(st.sampled_from(["a\n", "x\n", "y\n", "\n"]), max_size=3))
        if change == "insert":
            after[at:at] = new
        elif change == "delete":
            del after[at : at + len(new) + 1]
        else:
            after[at : at + 1] = new
    return before, after


@settings(max_examples=400, derandomize=True, deadline=None)
@given(edited())
def test_the_blocks_and_the_diff_are_difflibs(texts: tuple[list[str], list[str]]) -> None:
    before, after = texts
    expected = difflib.SequenceMatcher(None, before, after)
    assert LineMatcher(before, after).get_matching_blocks() == expected.get_matching_blocks()
    assert list(unified_diff(before, after, "s.yaml")) == list(
        difflib.unified_diff(before, after, "s.yaml", "s.yaml")
    )


@settings(max_examples=300, derandomize=True, deadline=None)
@given(edited(), st.data())
def test_every_ranges_longest_block_is_difflibs(
    texts: tuple[list[str], list[str]], data: st.DataObject
) -> None:
    before, after = texts
    alo = data.draw(st.integers(0, len(before)))
    ahi = data.draw(st.integers(alo, len(before)))
    blo = data.draw(st.integers(0, len(after)))
    bhi = data.draw(st.integers(blo, len(after)))
    expected = difflib.SequenceMatcher(None, before, after).find_longest_match(alo, ahi, blo, bhi)
    assert LineMatcher(before, after).find_longest_match(alo, ahi, blo, bhi) == expected


def test_a_spec_changed_in_many_places() -> None:
    case = [
        "  - name: order_{n}  # ticket {n}\n",
        "    expected_tools:\n",
        "      - name: lookup_order\n",
        "        args: {{order_id: 'A-{n}', region: eu}}\n",
        "\n",
    ]
    before = ["test_cases:\n"] + [line.format(n=n) for n in range(400) for line in case]
    after = [line.replace("'A-", "'B-") if "order_id" in line else line for line in before]
    after[7:7] = ["      - name: send_email\n"]  # a line that is also elsewhere
    expected = list(difflib.unified_diff(before, after, "s.yaml", "s.yaml"))
    assert list(unified_diff(before, after, "s.yaml")) == expected
    assert len(expected) > 2000
