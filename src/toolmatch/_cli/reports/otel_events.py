"""``toolmatch check --otel-events PATH``: each run's verdict as an OpenTelemetry
``gen_ai.evaluation.result`` event, in an OTLP JSON file (docs/cli.md)."""

from __future__ import annotations

from toolmatch import __version__
from toolmatch._cli.output_files import Replacement
from toolmatch._runs.evaluation_events import logs_request_head

__all__ = ["OtelEvents"]


class OtelEvents:
    """An OTLP JSON logs request, one line: the events go to its temporary file as they
    come, and :meth:`finish` puts it in PATH's place whole, as :class:`Replacement` does."""

    def __init__(self, path: str) -> None:
        self.target = Replacement(path)
        head, self.tail = logs_request_head(__version__)
        self.target.file.write(head)
        self.separator = ""  # none before the first record

    def add(self, record: str) -> None:
        """Adds one event, an OTLP JSON log record."""
        self.target.file.write(self.separator)
        self.target.file.write(record)
        self.separator = ", "

    def finish(self) -> None:
        """Ends the request and puts the file in PATH's place."""
        self.target.file.write(f"{self.tail}\n")
        self.target.commit()

    def discard(self) -> None:
        """Removes the temporary file of a request that was not finished."""
        self.target.discard()
