"""What vulture takes for dead code in src/toolmatch, and why each is used (tests/test_dead_code.py).

Each line names what is called by something vulture cannot see: Python's protocols, the
standard library's hooks and other tools' protocols. A name that no longer needs its line
here is dead in the allowlist itself: vulture then reports nothing for it, so remove it.
"""

# The package's lazy exports: Python calls a module's __getattr__ and __dir__ itself.
__getattr__
__dir__
# reprlib.Repr's limits and its repr_<type> hooks (_core/describe.py).
_.maxlevel
_.maxother
_.maxlist
_.maxset
_.maxtuple
_.maxarray
_.maxdeque
_.maxfrozenset
_.repr_str
_.repr_dict
# IPython's pretty-printing hook and its signature (_core/display.py).
_._repr_pretty_
cycle
# Parameters that a protocol's signature requires: sys.settrace-style tracers, __exit__.
trace
exc_info
exception
traceback
# Google ADK calls a custom metric with four arguments, the last one unread (integrations/adk.py).
conversation_scenario
# A class swapped for an instance of a subclass (_readers/reading.py).
_.__class__
# ruamel.yaml's YAML settings and PyYAML's Dumper hook (spec writers).
_.width
_.allow_unicode
_.brace_single_entry_mapping_in_flow_sequence
_.ignore_aliases
# Read by tests/test_docs_config_tables.py, which checks docs/config.md against the table.
_.docs_default
# A result's public property that only users read: the JSON rows take it from the
# expectation's cached JSON part (_selection/expectation_protocol.py), not from here.
_.args_asserted
# difflib's get_matching_blocks calls the search it overrides (_cli/diff.py).
_.find_longest_match
# The results' and mismatches' JSON-ready dicts, and a check's first matching call: public
# API that only users call. The results write themselves as JSON text
# (_selection/json_text.py), which a result's own as_dict reads back.
_.as_dict
_.matched_call_index
# The frameworks read these of the adapters (toolmatch/integrations): deepeval a metric's
# include_reason, async_mode, strict_mode, score_breakdown, a_measure and is_successful;
# pydantic-evals an evaluator's get_default_evaluation_name.
_.include_reason
_.async_mode
_.strict_mode
_.score_breakdown
_.a_measure
_.is_successful
_.get_default_evaluation_name
