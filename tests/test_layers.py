"""The package's layers hold: import-linter's contracts in pyproject.toml are kept."""

from __future__ import annotations

from pathlib import Path

import pytest

cli = pytest.importorskip("importlinter.cli")

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_no_layer_imports_a_higher_one_and_no_two_modules_import_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Imports inside functions and under TYPE_CHECKING count too: grimp reads them all.
    status = cli.lint_imports(config_filename=str(PYPROJECT), no_cache=True, no_logo=True)
    assert status == 0, capsys.readouterr().out
