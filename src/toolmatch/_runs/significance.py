"""The statistics of pass rates over trials: Fisher's exact test (a baseline's pass rate
against a new one) and the Wilson score lower bound (``--min-pass-rate`` with
``--confidence``).

Both are exact or closed-form on counts of passed and failed runs, with no assumption of
many runs: a case is often run 3 to 10 times.
"""

from __future__ import annotations

import math

__all__ = ["fisher_worse", "wilson_lower"]


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_worse(before_runs: int, before_passed: int, runs: int, passed: int) -> float:
    """The one-sided p-value of Fisher's exact test that the second pass rate
    (``passed`` of ``runs``) is lower than the first: the chance, were both sets of runs
    drawn alike, that the second would hold ``passed`` passes or fewer, given the total.

    >>> round(fisher_worse(10, 10, 10, 5), 4)  # 10/10 then 5/10: unlikely by chance
    0.0163
    >>> round(fisher_worse(4, 4, 4, 3), 4)  # 4/4 then 3/4: one failure, no evidence
    0.5
    >>> round(fisher_worse(1, 1, 1, 0), 4)  # a single run each: a flip is a coin's worth
    0.5
    """
    for name, all_runs, some in (
        ("before", before_runs, before_passed),
        ("after", runs, passed),
    ):
        if all_runs < 1 or not 0 <= some <= all_runs:
            raise ValueError(
                f"fisher_worse: the {name} counts must be runs >= 1 and passed from 0 to "
                f"runs, got {some} of {all_runs}"
            )
    total, passes = before_runs + runs, before_passed + passed
    lowest = max(0, passes - before_runs)  # the fewest passes the second set can hold
    # The hypergeometric terms P(X = x) for x from `passed` down to `lowest`, each from the
    # one before by their ratio: exact in logs at the start, then a product; they are added
    # until the rest cannot change the sum's float.
    log_first = (
        _log_choose(runs, passed)
        + _log_choose(before_runs, passes - passed)
        - _log_choose(total, passes)
    )
    term = math.exp(log_first)
    p_value = term
    failures = total - passes
    for x in range(passed, lowest, -1):
        # P(x - 1) / P(x) = x (failures - runs + x) / ((runs - x + 1) (passes - x + 1))
        term *= x * (failures - runs + x) / ((runs - x + 1) * (passes - x + 1))
        p_value += term
        if term < p_value * 1e-17:
            break
    return min(p_value, 1.0)


def wilson_lower(passed: int, runs: int, confidence: float) -> float:
    """The lower bound of the Wilson score interval of a pass rate, one-sided at
    ``confidence``: the true pass rate is at least this with that confidence.

    >>> round(wilson_lower(5, 5, 0.95), 3)  # 5 of 5: with 95% confidence, at least 0.65
    0.649
    >>> round(wilson_lower(50, 50, 0.95), 3)
    0.949
    >>> wilson_lower(0, 4, 0.95)
    0.0
    """
    if runs < 1 or not 0 <= passed <= runs:
        raise ValueError(
            f"wilson_lower: runs must be >= 1 and passed from 0 to runs, got {passed} of {runs}"
        )
    if not 0 < confidence < 1:
        raise ValueError(f"wilson_lower: confidence must be between 0 and 1, got {confidence}")
    from statistics import NormalDist  # here: it costs toolmatch check's start-up 2 ms

    z = NormalDist().inv_cdf(confidence)
    rate, zz = passed / runs, z * z
    centre = rate + zz / (2 * runs)
    spread = z * math.sqrt(rate * (1 - rate) / runs + zz / (4 * runs * runs))
    return max(0.0, (centre - spread) / (1 + zz / runs))
