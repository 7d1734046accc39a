"""Interleaved micro-timing: every contender measured in the same rounds, in alternating order.

The machines these run on are shared and noisy, so a figure is only trusted as a ratio
between contenders timed close together: each round times every contender once (the order
rotates and reverses from round to round, so no contender always runs first or last), and
the best round of each is kept. Noise only ever adds time, so the minimum is the estimate
of the intrinsic cost; the median of the per-round ratios is kept as a cross-check.
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Contender:
    """A statement timed in a loop; ``names`` become local variables of the timed function."""

    statement: str
    names: Mapping[str, object]


@dataclass(frozen=True)
class Timing:
    """Seconds per execution of a contender's statement, one sample per round."""

    samples: tuple[float, ...]

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def ratio_to(self, reference: Timing) -> float:
        """This contender's best time over the reference's best time."""
        return self.best / reference.best

    def paired_ratio_to(self, reference: Timing) -> float:
        """Median over rounds of the ratio measured within each round."""
        return statistics.median(
            mine / theirs for mine, theirs in zip(self.samples, reference.samples, strict=True)
        )


def _timer(contender: Contender) -> timeit.Timer:
    # Binding the names in `setup` makes them locals of timeit's inner function, so the
    # timed loop pays a fast local lookup, not a global one.
    setup = "\n".join(f"{name} = __names[{name!r}]" for name in contender.names) or "pass"
    return timeit.Timer(contender.statement, setup, globals={"__names": dict(contender.names)})


def _calibrate(timer: timeit.Timer, sample_seconds: float) -> int:
    """How many loops make one sample last about ``sample_seconds``."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= sample_seconds / 5 or number >= 10**8:
            return max(1, int(number * sample_seconds / max(elapsed, 1e-9)))
        number *= 10


def compare(
    contenders: Mapping[str, Contender],
    *,
    rounds: int,
    sample_seconds: float,
    numbers: Mapping[str, int] | None = None,
) -> dict[str, Timing]:
    """Time every contender in ``rounds`` interleaved rounds; seconds per statement.

    ``numbers`` fixes the executions per sample of some contenders, skipping their
    calibration: for statements taking a second each, where calibrating costs a round.
    """
    timers = {name: _timer(contender) for name, contender in contenders.items()}
    fixed = numbers or {}
    loops = {
        name: fixed.get(name) or _calibrate(timer, sample_seconds) for name, timer in timers.items()
    }
    samples: dict[str, list[float]] = {name: [] for name in timers}
    names = list(timers)
    for round_index in range(rounds):
        shift = round_index % len(names)
        order = names[shift:] + names[:shift]
        if round_index % 2:
            order.reverse()
        for name in order:
            samples[name].append(timers[name].timeit(loops[name]) / loops[name])
    return {name: Timing(tuple(values)) for name, values in samples.items()}
