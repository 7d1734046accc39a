"""toolmatch: assert what LLM agents do with tools.

Matchers drop into expected-argument dicts and compare with plain ``==``:

>>> from toolmatch import ANY, Approx, Fuzzy, Regex
>>> expected = {"city": Fuzzy("New York"), "days": Approx(3), "date": Regex("2026-.*")}
>>> expected["units"] = ANY
>>> expected == {"city": "new  york", "days": 3.0, "units": "metric", "date": "2026-12-01"}
True
"""

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch
from toolmatch._matchers.captures import Capture, Ref
from toolmatch._matchers.combinators import AllOf, AnyOf, Not
from toolmatch._matchers.dates import IsDate, IsDatetime
from toolmatch._matchers.explain import explain
from toolmatch._matchers.json_schema import ConformsTo
from toolmatch._matchers.judges import JudgedBy, register_judge
from toolmatch._matchers.lists import ContainsAll, Each, Len, Unordered
from toolmatch._matchers.literal import Literal
from toolmatch._matchers.mappings import Absent, Exact, Maybe, Partial
from toolmatch._matchers.numbers import Approx, Between, Ge, Gt, Le, Lt
from toolmatch._matchers.predicates import Satisfies
from toolmatch._matchers.shapes import EndsWith, IsEmail, IsJSON, IsURL, IsUUID, StartsWith
from toolmatch._matchers.similarity import Similar
from toolmatch._matchers.strings import Fuzzy, Regex
from toolmatch._matchers.values import ANY, Contains, IsType, OneOf

if TYPE_CHECKING:
    from toolmatch._calls.call import ToolCall
    from toolmatch._readers.to_calls import final_answer, to_calls
    from toolmatch._runs.batch import check_batch, check_runs
    from toolmatch._runs.trials import pass_hat_k
    from toolmatch._selection.api import assert_called, assert_turn, check_turn, check_turns
    from toolmatch._selection.case import TestCase
    from toolmatch._selection.expectation import ExpectedItem, ExpectedTool
    from toolmatch._selection.groups import AnyOrder, InOrder
    from toolmatch._selection.results import (
        Candidate,
        ChosenAlternative,
        IgnoredCall,
        ToolCheck,
        TurnResult,
    )
    from toolmatch._selection.run import ExpectedTurn, OneOfTurns
    from toolmatch._selection.unrecorded import NotRecordedError
    from toolmatch._spec.errors import ConfigError, ConfigProblem, SpecWarning
    from toolmatch._spec.import_bfcl import import_bfcl
    from toolmatch._spec.import_tau2 import import_tau2
    from toolmatch._spec.loading import load_expected_tools, load_test_cases
    from toolmatch._spec.matcher_keys import matcher_from_config
    from toolmatch._spec.schema import spec_schema
    from toolmatch._spec.writing import spec_yaml

del TYPE_CHECKING  # needed above only: not a name of toolmatch's

# Calls, selection and configuration load on first use: a test that only compares
# arguments with matchers does not pay for them in `import toolmatch`.
_LAZY_MODULES = {
    "_calls.call": ("ToolCall",),
    "_readers.to_calls": ("to_calls", "final_answer"),
    "_selection.expectation": ("ExpectedTool", "ExpectedItem"),
    "_selection.groups": ("InOrder", "AnyOrder"),
    "_selection.api": ("assert_called", "assert_turn", "check_turn", "check_turns"),
    "_selection.results": (
        "Candidate",
        "IgnoredCall",
        "ToolCheck",
        "TurnResult",
        "ChosenAlternative",
    ),
    "_selection.unrecorded": ("NotRecordedError",),
    "_spec.errors": ("ConfigError", "ConfigProblem", "SpecWarning"),
    "_spec.matcher_keys": ("matcher_from_config",),
    "_selection.run": ("ExpectedTurn", "OneOfTurns"),
    "_selection.case": ("TestCase",),
    "_spec.loading": ("load_expected_tools", "load_test_cases"),
    "_spec.schema": ("spec_schema",),
    "_spec.writing": ("spec_yaml",),
    "_spec.import_bfcl": ("import_bfcl",),
    "_spec.import_tau2": ("import_tau2",),
    "_runs.batch": ("check_runs", "check_batch"),
    "_runs.trials": ("pass_hat_k",),
}
_LAZY = {name: module for module, names in _LAZY_MODULES.items() for name in names}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toolmatch' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"toolmatch.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

__all__ = [
    # the base class and explanations
    "Matcher",
    "Mismatch",
    "explain",
    # literal equality and argument dicts
    "Literal",
    "Partial",
    "Exact",
    "Maybe",
    "Absent",
    # strings
    "Fuzzy",
    "Regex",
    "Similar",
    "StartsWith",
    "EndsWith",
    "IsUUID",
    "IsEmail",
    "IsURL",
    "IsJSON",
    # numbers
    "Gt",
    "Ge",
    "Lt",
    "Le",
    "Between",
    # dates and times
    "IsDatetime",
    "IsDate",
    # lists
    "Unordered",
    "ContainsAll",
    "Each",
    "Len",
    # values
    "ANY",
    "OneOf",
    "Approx",
    "Contains",
    "IsType",
    "Satisfies",
    "ConformsTo",
    # values carried between calls
    "Capture",
    "Ref",
    # judges by name
    "JudgedBy",
    "register_judge",
    # composition
    "AllOf",
    "AnyOf",
    "Not",
    # tool calls
    "ToolCall",
    "to_calls",
    "final_answer",
    # selection
    "ExpectedTool",
    "InOrder",
    "AnyOrder",
    "ExpectedItem",
    "ToolCheck",
    "Candidate",
    "TurnResult",
    "IgnoredCall",
    "check_turn",
    "check_turns",
    "assert_called",
    "assert_turn",
    "NotRecordedError",
    # configuration files
    "ConfigError",
    "ConfigProblem",
    "SpecWarning",
    "matcher_from_config",
    "load_expected_tools",
    "load_test_cases",
    "TestCase",
    "ExpectedTurn",
    "OneOfTurns",
    "ChosenAlternative",
    "spec_schema",
    "spec_yaml",
    # spec files from benchmarks' ground truth
    "import_bfcl",
    "import_tau2",
    # batches of recorded runs
    "check_runs",
    "check_batch",
    "pass_hat_k",
    "__version__",
]
