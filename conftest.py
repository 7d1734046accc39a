"""pytest's collection: a module that imports an optional package at its top is left out
of the doctests where that package is not installed (the tests skip themselves)."""

from __future__ import annotations

import importlib.util

_NEEDS = {"src/toolmatch/_plugins/inline_snapshot.py": "inline_snapshot"}
collect_ignore = [path for path, package in _NEEDS.items() if not importlib.util.find_spec(package)]
