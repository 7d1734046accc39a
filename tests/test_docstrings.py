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


def docstring_of(name: str) -> str | None:
    """The docstring users see for ``toolmatch.<name>``.

    Classes and functions carry ``__doc__``; an instance such as ``ANY`` is documented by
    the string after its assignment.
    """
    obj = getattr(toolmatch, name)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return obj.__doc__
    return attribute_docstring(_defined_in(obj), name)


def _defined_in(instance: object) -> str:
    """The module that assigns an exported instance: where its class's methods are defined
    (the class itself names ``toolmatch`` as its module, for pickles)."""
    methods = [value for value in vars(type(instance)).values() if inspect.isfunction(value)]
    return str(methods[0].__module__)


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_has_a_docstring_with_an_example(name: str) -> None:
    docstring = docstring_of(name)
    assert docstring, f"toolmatch.{name} has no docstring"
    assert ">>>" in docstring, f"toolmatch.{name}'s docstring has no example (>>>)"


def _examples(name: str) -> list[doctest.DocTest]:
    """The examples of ``toolmatch.<name>``: its docstring's and its members'.

    Every export names itself ``toolmatch``'s (``__module__``), so ``--doctest-modules``
    no longer finds them in the modules that define them: they run here, each once.
    """
    obj = getattr(toolmatch, name)
    # every public name, loaded: the lazy ones are not in vars(toolmatch) until first used
    globs = {**vars(toolmatch), **{public: getattr(toolmatch, public) for public in PUBLIC}}
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return doctest.DocTestFinder(exclude_empty=True).find(
            obj, f"toolmatch.{name}", module=False, globs=globs
        )
    docstring = docstring_of(name)
    assert docstring is not None
    return [doctest.DocTestParser().get_doctest(docstring, globs, f"toolmatch.{name}", None, 0)]


# The exports whose examples need an extra, and the module it installs.
NEEDS_EXTRA = {"ConformsTo": "jsonschema", "spec_yaml": "yaml"}


@pytest.mark.parametrize("name", PUBLIC)
def test_public_examples_run(name: str) -> None:
    if name in NEEDS_EXTRA:
        pytest.importorskip(NEEDS_EXTRA[name])
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _examples(name):
        runner.run(test)
    assert runner.failures == 0, f"toolmatch.{name}'s docstring examples failed (output above)"


def test_attribute_docstring_reads_the_string_after_the_assignment() -> None:
    assert attribute_docstring(
        "toolmatch._matchers.values",
        "ANY",
    ).startswith("Matches every value")
    assert attribute_docstring("toolmatch._matchers.values", "OneOf") is None
