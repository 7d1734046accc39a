"""pytest's collection: a module that imports an optional package at its top is left out
of the doctests where that package is not installed (the tests skip themselves)."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "src/toolmatch/_plugins/inline_snapshot.py": "inline_snapshot",
    # the framework adapters (toolmatch.integrations), each importing its framework
    "src/toolmatch/integrations/pydantic_evals.py": "pydantic_evals",
    "src/toolmatch/integrations/inspect_ai.py": "inspect_ai",
    "src/toolmatch/integrations/langsmith.py": "langsmith",
    "src/toolmatch/integrations/mlflow.py": "mlflow",
    "src/toolmatch/integrations/deepeval.py": "deepeval",
}
collect_ignore = [path for path, package in _NEEDS.items() if not importlib.util.find_spec(package)]
