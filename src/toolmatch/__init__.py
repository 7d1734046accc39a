"""toolmatch: assert what LLM agents do with tools.

Matchers drop into expected-argument dicts and compare with plain ``==``:

>>> from toolmatch import ANY, Approx, Fuzzy, Regex
>>> expected = {"city": Fuzzy("New York"), "days": Approx(3), "date": Regex("2026-.*")}
>>> expected["units"] = ANY
>>> expected == {"city": "new  york", "days": 3.0, "units": "metric", "date": "2026-12-01"}
True
"""

from toolmatch._base import Matcher, Mismatch
from toolmatch._combinators import AllOf, AnyOf, Not
from toolmatch._dates import IsDate, IsDatetime
from toolmatch._explain import explain
from toolmatch._lists import ContainsAll, Each, Len, Unordered
from toolmatch._literal import Literal
from toolmatch._mappings import Absent, Exact, Maybe, Partial
from toolmatch._numbers import Between, Ge, Gt, Le, Lt
from toolmatch._predicates import Satisfies
from toolmatch._schemas import ConformsTo
from toolmatch._shapes import EndsWith, IsEmail, IsJSON, IsURL, IsUUID, StartsWith
from toolmatch._strings import Fuzzy, Regex
from toolmatch._typing import TYPE_CHECKING
from toolmatch._values import ANY, Approx, Contains, IsType, OneOf

if TYPE_CHECKING:
    from toolmatch._batch import check_batch, check_runs
    from toolmatch._calls import ToolCall
    from toolmatch._cases import TestCase, load_expected_tools, load_test_cases
    from toolmatch._config import ConfigError, ConfigProblem, SpecWarning, matcher_from_config
    from toolmatch._formats import to_calls
    from toolmatch._import_bfcl import import_bfcl
    from toolmatch._import_tau2 import import_tau2
    from toolmatch._results import Candidate, IgnoredCall, ToolCheck, TurnResult
    from toolmatch._schema import spec_schema
    from toolmatch._selection import (
        ExpectedTool,
        ExpectedTurn,
        assert_called,
        assert_turn,
        check_turn,
        check_turns,
    )
    from toolmatch._spec_yaml import spec_yaml
    from toolmatch._trials import pass_hat_k

# Calls, selection and configuration load on first use: a test that only compares
# arguments with matchers does not pay for them in `import toolmatch`.
_LAZY = {
    "ToolCall": "_calls",
    "to_calls": "_formats",
    "ExpectedTool": "_selection",
    "assert_called": "_selection",
    "assert_turn": "_selection",
    "check_turn": "_selection",
    "check_turns": "_selection",
    "Candidate": "_results",
    "IgnoredCall": "_results",
    "ToolCheck": "_results",
    "TurnResult": "_results",
    "ConfigError": "_config",
    "ConfigProblem": "_config",
    "SpecWarning": "_config",
    "matcher_from_config": "_config",
    "ExpectedTurn": "_selection",
    "TestCase": "_cases",
    "load_expected_tools": "_cases",
    "load_test_cases": "_cases",
    "spec_schema": "_schema",
    "spec_yaml": "_spec_yaml",
    "import_bfcl": "_import_bfcl",
    "import_tau2": "_import_tau2",
    "check_runs": "_batch",
    "check_batch": "_batch",
    "pass_hat_k": "_trials",
}


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
    # composition
    "AllOf",
    "AnyOf",
    "Not",
    # tool calls
    "ToolCall",
    "to_calls",
    # selection
    "ExpectedTool",
    "ToolCheck",
    "Candidate",
    "TurnResult",
    "IgnoredCall",
    "check_turn",
    "check_turns",
    "assert_called",
    "assert_turn",
    # configuration files
    "ConfigError",
    "ConfigProblem",
    "SpecWarning",
    "matcher_from_config",
    "load_expected_tools",
    "load_test_cases",
    "TestCase",
    "ExpectedTurn",
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
