"""The package's layers hold: import-linter's contracts in pyproject.toml are kept."""

from __future__ import annotations

import re
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


PACKAGE = PYPROJECT.parent / "src" / "toolmatch"
CONTRIBUTING = PYPROJECT.parent / "CONTRIBUTING.md"


def _module_map() -> dict[str, set[str]]:
    """CONTRIBUTING.md's module map: for each folder's heading (`_x/`, or `toolmatch/` for
    the package's own files; `integrations/`, the public one), the files (`name.py`) its
    lines name."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    section = text[text.index("## The module map") : text.index("## Where a change goes")]
    listed: dict[str, set[str]] = {}
    folder = None
    for line in section.splitlines():
        heading = re.fullmatch(r"`(toolmatch|_\w+|integrations)/`", line)
        if heading:
            folder = "" if heading.group(1) == "toolmatch" else heading.group(1)
            listed[folder] = set()
        elif folder is not None:
            listed[folder] |= set(re.findall(r"`(\w+\.py)`", line))
    return listed


def test_the_module_map_names_every_module() -> None:
    listed = _module_map()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if path.name == "__init__.py" and len(relative.parts) > 1:
            continue  # a layer's package: its heading says what it owns
        folder = relative.parts[0] if len(relative.parts) > 1 else ""
        assert path.name in listed.get(folder, set()), (
            f"CONTRIBUTING.md's module map does not name {relative}"
        )
