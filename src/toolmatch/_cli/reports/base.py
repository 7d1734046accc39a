"""What every format of the report is told, and what they share."""

from __future__ import annotations

__all__ = ["Tally", "plural"]


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.errors = 0
        self.missing = 0

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.errors or self.missing else 0


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"
