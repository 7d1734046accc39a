"""The package's surface: every public name importable, and a light `import toolmatch`."""

from __future__ import annotations

import subprocess
import sys

import pytest

import toolmatch


@pytest.mark.parametrize("name", toolmatch.__all__)
def test_every_public_name_is_importable(name: str) -> None:
    assert getattr(toolmatch, name) is not None
    assert name in dir(toolmatch)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'toolmatch' has no attribute 'Fuzy'"):
        toolmatch.Fuzy  # noqa: B018 (the attribute access is the test)


def test_selection_and_configuration_load_on_first_use() -> None:
    code = (
        "import sys, toolmatch\n"
        "lazy = ('toolmatch._selection.expectation', 'toolmatch._spec.matcher_keys', 'toolmatch._spec.loading', 'toolmatch._readers.dispatch')\n"
        "print(sorted(name for name in lazy if name in sys.modules))\n"
        "from toolmatch import ExpectedTool, load_test_cases\n"
        "home = ('toolmatch._selection.expectation', 'toolmatch._spec.loading')\n"
        "print(*(name for name in home if name in sys.modules))\n"
    )
    assert _printed(code) == [
        "[]",
        "toolmatch._selection.expectation toolmatch._spec.loading",
    ]


def test_a_test_case_loads_no_spec_module() -> None:
    # A case is a selection concept: checking a run built in code enters no spec module.
    code = (
        "import sys, toolmatch\n"
        "turn = toolmatch.ExpectedTurn([toolmatch.ExpectedTool('refund')])\n"
        "case = toolmatch.TestCase('refund', [turn])\n"
        "case.passes([{'name': 'refund', 'args': {}}])\n"
        "print(sorted(name for name in sys.modules if name.startswith('toolmatch._spec')))\n"
    )
    assert _printed(code) == ["[]"]


def test_only_the_public_names_are_public() -> None:
    # In a fresh process: what other tests import adds nothing here, but be exact.
    code = (
        "import toolmatch\n"
        "print(sorted(name for name in dir(toolmatch) if not name.startswith('_')))\n"
        "print(sorted(name for name in toolmatch.__all__ if not name.startswith('_')))\n"
    )
    shown, public = _printed(code)
    assert shown == public


def _printed(code: str) -> list[str]:
    """The lines ``code`` prints in a fresh interpreter (no other test's imports)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()
