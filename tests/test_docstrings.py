"""Every public name has a docstring with an example (and instances' examples run too)."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect

import pytest

import toolmatch

PUBLIC = [name for name in toolmatch.__all__ if name != "__version__"]


def attribute_docstring(module_name: str, name: str) -> str | None:
    """The string literal right after ``name = ...`` at the top of a module, if any."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module_name)))
    for statement, following in zip(tree.body, tree.body[1:], strict=False):
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        assigned = any(isinstance(target, ast.Name) and target.id == name for target in targets)
        if (
            assigned
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            value = following.value.value
            return value if isinstance(value, str) else None
    return None


def docstring_of(name: str) -> tuple[str | None, bool]:
    """The docstring users see for ``toolmatch.<name>``, and whether doctest finds it itself.

    Classes and functions carry ``__doc__``; an instance such as ``ANY`` is documented by
    the string after its assignment, which ``--doctest-modules`` never collects.
    """
    obj = getattr(toolmatch, name)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return obj.__doc__, True
    return attribute_docstring(type(obj).__module__, name), False


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_has_a_docstring_with_an_example(name: str) -> None:
    docstring, _ = docstring_of(name)
    assert docstring, f"toolmatch.{name} has no docstring"
    assert ">>>" in docstring, f"toolmatch.{name}'s docstring has no example (>>>)"


@pytest.mark.parametrize("name", [name for name in PUBLIC if not docstring_of(name)[1]])
def test_instance_docstring_examples_run(name: str) -> None:
    docstring, _ = docstring_of(name)
    assert docstring is not None
    test = doctest.DocTestParser().get_doctest(
        docstring, vars(toolmatch).copy(), f"toolmatch.{name}", None, 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"toolmatch.{name}'s docstring example failed (output above)"


def test_attribute_docstring_reads_the_string_after_the_assignment() -> None:
    assert attribute_docstring(
        "toolmatch._values",
        "ANY",
    ).startswith("Matches every value")
    assert attribute_docstring("toolmatch._values", "OneOf") is None
