"""The commands' options as typed values: a parsed ``argparse.Namespace`` is read once, here,
into records the steps take, as pytest's junitxml turns its options into constructor
arguments. Nothing below ``_cli`` sees a namespace, and nothing is added to one after parsing.
"""

from __future__ import annotations

from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.envelope import DEFAULT_ERROR_KEYS, ErrorKeys, columns_of, envelope_of

if TYPE_CHECKING:
    import argparse

    from toolmatch._runs.envelope import Envelope
    from toolmatch._runs.trials import MinPassRate, PassK

__all__ = ["CheckOptions", "TracesOptions"]


class TracesOptions(Record):
    """How a command reads TRACES: its path (``-`` for standard input), where a record keeps
    its case and turns (``--case-key``, ``--turns-key``, ``--one-turn``), how a turn given
    as text is read (``--syntax``, ``--functions``), and where a record says its run did not
    complete (``--error-key``, ``--completed-value``).

    >>> keys = ErrorKeys(("status.error",))
    >>> traces = TracesOptions("runs.jsonl", "info.id", "messages", True, "json", None, keys)
    >>> sorted(traces.columns()), traces.envelope().one_turn
    (['info', 'messages', 'status'], True)
    """

    __slots__ = _fields = (
        "path", "case_key", "turns_key", "one_turn", "syntax", "functions", "error_keys"
    )  # fmt: skip
    path: str
    case_key: str
    turns_key: str
    one_turn: bool
    syntax: str
    functions: tuple[str, ...] | None
    error_keys: ErrorKeys  # runs that did not complete: not evaluable, not recorded

    @classmethod
    def of(cls, namespace: argparse.Namespace) -> TracesOptions:
        """The options of ``toolmatch check`` or ``toolmatch record``, as parsed."""
        functions = None if namespace.functions is None else tuple(namespace.functions)
        return cls(
            namespace.traces,
            namespace.case_key,
            namespace.turns_key,
            namespace.one_turn,
            namespace.syntax,
            functions,
            ErrorKeys(
                tuple(namespace.error_key or DEFAULT_ERROR_KEYS), tuple(namespace.completed_value)
            ),
        )

    def envelope(self) -> Envelope | None:
        """Where a record keeps its run; ``None`` for the trace format's own."""
        return envelope_of(self.case_key, self.turns_key, self.one_turn, self.syntax == "python")

    def columns(self) -> set[str]:
        """The top-level fields a Parquet file must read: the run's and the error keys'."""
        return columns_of(self.case_key, self.turns_key, *self.error_keys.keys)


class CheckOptions(Record):
    """``toolmatch check``'s options (docs/cli.md), each as the step that uses it takes it:
    ``progress`` is ``not --no-progress``; the others are named after their flags.

    >>> from toolmatch._cli.main import _parser
    >>> options = CheckOptions.of(_parser().parse_args(["check", "s.yaml", "t.jsonl"]))
    >>> options.spec, options.traces.path, options.format, options.jobs, options.progress
    ('s.yaml', 't.jsonl', 'text', 1, True)
    """

    __slots__ = _fields = (
        "spec",
        "traces",
        "format",
        "junit_xml",
        "html",
        "markdown",
        "otel_events",
        "min_pass_rate",
        "confidence",
        "baseline",
        "significance",
        "allow_missing",
        "pass_k",
        "jobs",
        "regex_timeout",
        "update",
        "update_in_ci",
        "update_allow_rename",
        "progress",
        "strict",
        "coverage",
        "tools",
        "plugin",
        "not_evaluable",
    )
    spec: str
    traces: TracesOptions
    format: str
    junit_xml: str | None
    html: str | None
    markdown: str | None
    otel_events: str | None
    # --min-pass-rate, with --confidence's level in it when both are given
    min_pass_rate: MinPassRate | None
    confidence: float | None
    baseline: str | None  # the results file compared with
    significance: float
    allow_missing: bool
    pass_k: PassK | None
    jobs: int
    regex_timeout: float | None
    update: str | None  # new, fix or all
    update_in_ci: bool
    update_allow_rename: bool
    progress: bool
    strict: bool
    coverage: bool
    tools: str | None  # the file of the tools' definitions
    plugin: tuple[str, ...]  # the modules that register judges, imported first
    not_evaluable: str  # fail or pass-through: whether such a run fails the command

    @classmethod
    def of(cls, namespace: argparse.Namespace) -> CheckOptions:
        """The options of ``toolmatch check``, as parsed."""
        gate = namespace.min_pass_rate
        if gate is not None and namespace.confidence is not None:
            gate = gate._replace(confidence=namespace.confidence)
        # The fields not converted here are the namespace's attributes of the same name.
        values = {
            **vars(namespace),
            "traces": TracesOptions.of(namespace),
            "min_pass_rate": gate,
            "progress": not namespace.no_progress,
            "plugin": tuple(namespace.plugin),
        }
        return cls(**{name: values[name] for name in cls._fields})

    @property
    def needs_tools(self) -> bool:
        """Whether a step uses ``--tools``: ``--strict`` or ``--coverage``."""
        return self.strict or self.coverage
