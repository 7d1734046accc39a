"""The API reference's griffe extension: doctest runs become code, Sphinx roles plain code."""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "griffe_doctests.py"


@pytest.fixture
def fence_doctests(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    if importlib.util.find_spec("griffe") is None:
        # Without the docs extra: the function under test needs nothing from griffe.
        stub = types.ModuleType("griffe")
        stub.Extension = object  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "griffe", stub)
    spec = importlib.util.spec_from_file_location("griffe_doctests", EXTENSION)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fence_doctests  # type: ignore[no-any-return]


def test_doctest_runs_become_pycon_fences(fence_doctests: Callable[[str], str]) -> None:
    text = "Matches a thing.\n>>> Fuzzy('a') == 'A'\nTrue\n\nMore text.\n\n>>> 1\n1"
    assert fence_doctests(text) == (
        "Matches a thing.\n\n```pycon\n>>> Fuzzy('a') == 'A'\nTrue\n```\n\n"
        "More text.\n\n```pycon\n>>> 1\n1\n```"
    )


def test_sphinx_roles_become_code(fence_doctests: Callable[[str], str]) -> None:
    assert fence_doctests("Uses :class:`Literal` and :meth:`~Matcher.matches`.") == (
        "Uses `Literal` and `Matcher.matches`."
    )


def test_the_api_reference_lists_every_public_name() -> None:
    import toolmatch

    reference = (EXTENSION.parent.parent / "reference.md").read_text(encoding="utf-8")
    listed = {
        line[len("::: toolmatch.") :].strip()
        for line in reference.splitlines()
        if line.startswith("::: toolmatch.")
    }
    public = set(toolmatch.__all__) - {"__version__"}
    assert sorted(public - listed) == []
    assert sorted(listed - public) == []
