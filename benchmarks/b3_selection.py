"""B3 selection: ``check_turn(expected, calls, distinct=True)`` for K expectations over M calls.

The calls are parsed from JSON, as recorded ones are: call ``i`` has the arguments
``{"q": "query i", "page": i % 7, "lang": "en"}`` and the tool name ``search`` (one name)
or ``tool_NN`` with ``NN = i % 50`` (50 names of equal width, so a name selects only its
own calls). Expectation ``k`` targets call ``k * M // K``, by its name and either plain
arguments (``{"q": ..., "page": ...}``, which toolmatch looks up by a canonical key) or
matchers (``{"lang": Fuzzy("EN"), "q": Regex(...), "page": Approx(...)}``, which cannot be
indexed, so every selected call is compared). Every timed run is checked first: it passes
and each expectation is given its target call.

Figures: the scaling in M at K = 100 (several M) and in K at M = 10,000 (several K) for
the four workloads; with matchers, the cost over a bare loop comparing every (expectation,
call) pair once; and toolscore's ``evaluate`` on the same pairs, in its own input format.

Partial order (issue 27): the same K = 100 expectations over M = 1,000 calls (50 names,
plain args) as an ``InOrder`` of 20 ``AnyOrder`` groups of 5 (each group listed backwards,
so only any order fits), and as 50 pairs joined by ``after`` (one group searched with
constraints inside), each timed beside the plain ``distinct=True`` turn in the same rounds.

Captures (issue 37): the same expectations as 50 pairs joined by a value carried between
calls: the first of a pair captures its call's ``lang`` (``Capture``), the second refers
to it (``Ref``), both found by their ``q``; and the same pairs as a partial order too (each
reference ``after`` its capture, listed backwards), issue 40's case with captures and
partial order; each timed beside the distinct turn, same rounds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._report import Config, Figure, Section, format_seconds, timed_figure
from benchmarks._timing import Contender, Timing, compare

TYPE_CHECKING = False
if TYPE_CHECKING:
    from toolmatch import ExpectedTool

TITLE = "selection: check_turn(distinct=True), K expectations over M calls"

MANY_NAMES = 50
# Seconds of timed work per workload (all its points, all rounds), full mode.
WORKLOAD_SECONDS = 6.0
SLOW_PEER_ROUNDS = 3
# Near-linear: a 10x larger M may cost at most 10 ** 1.1 (about 12.6x) as much.
MAX_EXPONENT = 1.1
MAX_PAIR_RATIO = 2.0
MIN_PEER_SPEEDUP = 50.0
# A partial order, or captures, may cost at most this many times the distinct turn on the
# same calls.
MAX_ORDER_RATIO = 3.0
ORDER_GROUP = 5


@dataclass(frozen=True)
class Sizes:
    k_fixed: int
    m_sweep: tuple[int, ...]
    m_fixed: int
    k_sweep: tuple[int, ...]
    peer_square: int  # the peer comparison runs on this many expectations x calls
    order: tuple[int, int]  # the partial order rows: K expectations x M calls


FULL_SIZES = Sizes(
    100, (100, 300, 1_000, 3_000, 10_000), 10_000, (1, 3, 10, 30, 100), 1_000, (100, 1_000)
)
QUICK_SIZES = Sizes(5, (10, 30), 30, (1, 5), 20, (100, 1_000))


@dataclass(frozen=True)
class Workload:
    key: str
    label: str
    names: int
    matchers: bool


WORKLOADS = (
    Workload("one-literal", "one name, plain args", 1, False),
    Workload("many-literal", f"{MANY_NAMES} names, plain args", MANY_NAMES, False),
    Workload("one-matchers", "one name, matchers", 1, True),
    Workload("many-matchers", f"{MANY_NAMES} names, matchers", MANY_NAMES, True),
)


def _calls(size: int, names: int) -> list[dict[str, object]]:
    calls = [
        {
            "name": "search" if names == 1 else f"tool_{index % names:02d}",
            "args": {"q": f"query {index}", "page": index % 7, "lang": "en"},
        }
        for index in range(size)
    ]
    parsed: list[dict[str, object]] = json.loads(json.dumps(calls))
    return parsed


def _targets(expectations: int, calls: int) -> list[int]:
    return [number * calls // expectations for number in range(expectations)]


def _plain_args(call: dict[str, object]) -> dict[str, object]:
    args = call["args"]
    assert isinstance(args, dict)
    # Parsed apart from the calls, so no comparison is won by identity.
    plain: dict[str, object] = json.loads(json.dumps({"q": args["q"], "page": args["page"]}))
    return plain


def _expectations(
    calls: list[dict[str, object]], targets: list[int], matchers: bool
) -> list[ExpectedTool]:
    from toolmatch import Approx, ExpectedTool, Fuzzy, Regex

    expected = []
    for target in targets:
        call = calls[target]
        args = _plain_args(call)
        if matchers:
            # Fuzzy first: it matches every call, so each pair pays for two matchers.
            args = {
                "lang": Fuzzy("EN"),
                "q": Regex(str(args["q"])),
                "page": Approx(float(args["page"])),  # type: ignore[arg-type]
            }
        expected.append(ExpectedTool(str(call["name"]), args))
    return expected


def _ordered_turns(expected: list[ExpectedTool]) -> dict[str, list[object]]:
    """The expectations (in call order) as the partial-order workloads: groups, and pairs."""
    from toolmatch import AnyOrder, ExpectedTool, InOrder

    groups = [
        AnyOrder(*reversed(expected[start : start + ORDER_GROUP]))
        for start in range(0, len(expected), ORDER_GROUP)
    ]
    pairs: list[object] = []
    for number, tool in enumerate(expected):
        assert isinstance(tool.args, dict)
        if number % 2 == 0:
            pairs.append(ExpectedTool(tool.name, tool.args, id=f"e{number}"))
        else:
            pairs.append(ExpectedTool(tool.name, tool.args, after=[f"e{number - 1}"]))
    return {"groups": [InOrder(*groups)], "pairs": pairs[::-1]}


def _toolscore_inputs(
    calls: list[dict[str, object]], targets: list[int]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The same expectations and calls in toolscore's format (``tool``, ``args``)."""
    expected = [{"tool": calls[t]["name"], "args": _plain_args(calls[t])} for t in targets]
    actual = [{"tool": call["name"], "args": call["args"]} for call in calls]
    return expected, actual


def _every_pair(matchers: Sequence[object], arguments: Sequence[object]) -> None:
    """The reference for budget (b): every (expectation, call) pair compared once."""
    for matcher in matchers:
        for args in arguments:
            matcher == args  # noqa: B015 (the comparison is the work measured)


def _toolmatch_problem(result: object, targets: list[int]) -> str | None:
    from toolmatch import TurnResult

    assert isinstance(result, TurnResult)
    if not result.passed:
        return "check_turn failed a turn where every expectation has its call"
    got = [list(check.assigned_call_indices or ()) for check in result.checks]
    if got != [[target] for target in targets]:
        return "check_turn gave an expectation a call other than its target"
    return None


def _toolscore_passed(result: object) -> bool:
    """toolscore scores; its pass: every expected argument matched on a one-to-one pairing."""
    metrics = result.metrics["argument_metrics"]  # type: ignore[attr-defined]
    return bool(metrics["recall"] == 1.0)


@dataclass
class Curves:
    """Seconds per run, by workload, then by (K, M); for the plot."""

    toolmatch: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    every_pair: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    toolscore: dict[tuple[int, int], float] = field(default_factory=dict)


class _Bench:
    def __init__(self, config: Config, section: Section) -> None:
        self.config = config
        self.section = section
        self.curves = Curves()

    def _rounds(self, seconds_per_round: float, budget: float) -> int:
        if self.config.quick:
            return self.config.rounds
        return max(3, min(self.config.rounds, int(budget / max(seconds_per_round, 1e-9))))

    def workload(
        self, workload: Workload, points: Sequence[tuple[int, int]], largest: tuple[int, int]
    ) -> dict[str, Timing]:
        """Time check_turn at every (K, M) point of a workload in the same interleaved rounds.

        With matchers, the every-pair loop is timed beside it at each point of the M sweep
        (one name) or at the largest point only (many names, where it is the slow part).
        """
        import time

        from toolmatch import check_turn, to_calls

        contenders: dict[str, Contender] = {}
        once: dict[str, float] = {}
        for expectations, size in points:
            calls = _calls(size, workload.names)
            targets = _targets(expectations, size)
            expected = _expectations(calls, targets, workload.matchers)
            started = time.perf_counter()
            problem = _toolmatch_problem(check_turn(expected, calls, distinct=True), targets)
            label = f"K={expectations} M={size}"
            once[label] = time.perf_counter() - started
            if problem:
                self.section.errors.append(f"{workload.label}, {label}: {problem}")
                continue
            contenders[label] = Contender(
                "check_turn(e, c, distinct=True)",
                {"check_turn": check_turn, "e": expected, "c": calls},
            )
            wants_loop = (expectations, size) == largest or (
                workload.names == 1 and expectations == largest[0]
            )
            if workload.matchers and wants_loop:
                matchers = [expectation._args_matcher for expectation in expected]
                arguments = [call.args for call in to_calls(calls)]
                contenders[f"every pair {label}"] = Contender(
                    "every_pair(m, a)", {"every_pair": _every_pair, "m": matchers, "a": arguments}
                )
                started = time.perf_counter()
                _every_pair(matchers, arguments)
                once[f"every pair {label}"] = time.perf_counter() - started
        per_round = sum(max(seconds, self.config.sample_seconds) for seconds in once.values())
        timings = compare(
            contenders,
            rounds=self._rounds(per_round, WORKLOAD_SECONDS),
            sample_seconds=self.config.sample_seconds,
            # A run longer than a sample is one sample: calibrating it would cost a round.
            numbers={label: 1 for label in contenders if once[label] > self.config.sample_seconds},
        )
        for label, timing in timings.items():
            loop = label.startswith("every pair ")
            k_text, m_text = label.removeprefix("every pair ").split()
            point = (int(k_text[2:]), int(m_text[2:]))
            curve = self.curves.every_pair if loop else self.curves.toolmatch
            curve.setdefault(workload.key, {})[point] = timing.best
        return timings

    def partial_order(self, expectations: int, size: int) -> None:
        """Time the partial-order turns beside the distinct turn on the same calls."""
        from toolmatch import check_turn

        calls = _calls(size, MANY_NAMES)
        targets = _targets(expectations, size)
        expected = _expectations(calls, targets, matchers=False)
        contenders = {
            "distinct": Contender(
                "check_turn(e, c, distinct=True)",
                {"check_turn": check_turn, "e": expected, "c": calls},
            )
        }
        for key, turn in _ordered_turns(expected).items():
            result = check_turn(turn, calls)  # type: ignore[arg-type]
            got = sorted(index for check in result.checks for index in check.assigned_call_indices)
            if not result.passed or got != targets:
                self.section.errors.append(
                    f"partial order ({key}), K={expectations} M={size}: check_turn failed a "
                    "turn where every expectation has its call in order"
                )
                return
            late = calls[targets[1] :] + calls[: targets[1]]  # the first expectation's call last
            if check_turn(turn, late).passed:  # type: ignore[arg-type]
                self.section.errors.append(
                    f"partial order ({key}): check_turn passed a turn out of order"
                )
                return
            contenders[key] = Contender(
                "check_turn(t, c)", {"check_turn": check_turn, "t": turn, "c": calls}
            )
        timings = compare(
            contenders,
            rounds=self.config.rounds if self.config.quick else max(3, self.config.rounds),
            sample_seconds=self.config.sample_seconds,
        )
        point = f"K x M = {expectations} x {size:,}"
        labels = {
            "groups": f"InOrder of {expectations // ORDER_GROUP} AnyOrder groups of {ORDER_GROUP}",
            "pairs": f"{expectations // 2} pairs joined by after",
        }
        for key, label in labels.items():
            self.section.figures.append(
                timed_figure(
                    f"partial order, {label}, {point}",
                    "check_turn(order)",
                    timings[key],
                    "check_turn(distinct=True)",
                    timings["distinct"],
                    max_ratio=MAX_ORDER_RATIO,
                    budget=f"<= {MAX_ORDER_RATIO:g}x",
                )
            )

    def captures(self, expectations: int, size: int) -> None:
        """Time 50 capture/reference pairs, alone and joined by ``after`` too, beside the
        distinct turn on the same calls."""
        from toolmatch import Capture, ExpectedTool, Ref, check_turn

        calls = _calls(size, MANY_NAMES)
        targets = _targets(expectations, size)
        expected = _expectations(calls, targets, matchers=False)
        carried: list[ExpectedTool] = []
        ordered: list[ExpectedTool] = []
        for number, tool in enumerate(expected):
            assert isinstance(tool.args, dict)
            first = number % 2 == 0
            value = Capture(f"v{number}") if first else Ref(f"v{number - 1}")
            args = {"q": tool.args["q"], "lang": value}
            carried.append(ExpectedTool(tool.name, args))
            # The same pairs as a partial order too: each reference after its capture,
            # listed backwards, so only the order the calls were made in fits.
            if first:
                ordered.append(ExpectedTool(tool.name, args, id=f"e{number}"))
            else:
                ordered.append(ExpectedTool(tool.name, args, after=[f"e{number - 1}"]))
        ordered.reverse()
        changed = json.loads(json.dumps(calls))
        changed[targets[1]]["args"]["lang"] = "fr"  # the first pair's reference: another value
        late = calls[targets[1] :] + calls[: targets[1]]  # the first expectation's call last
        for key, turn, wrong in (
            ("captures", carried, (changed,)),
            ("captures in a partial order", ordered, (changed, late)),
        ):
            result = check_turn(turn, calls, distinct=True)
            got = sorted(index for check in result.checks for index in check.assigned_call_indices)
            if (
                not result.passed
                or got != targets
                or any(check_turn(turn, other, distinct=True).passed for other in wrong)
            ):
                self.section.errors.append(
                    f"{key}, K={expectations} M={size}: check_turn's verdict is not the pairs'"
                )
                return
        timings = compare(
            {
                "distinct": Contender(
                    "check_turn(e, c, distinct=True)",
                    {"check_turn": check_turn, "e": expected, "c": calls},
                ),
                "captures": Contender(
                    "check_turn(t, c, distinct=True)",
                    {"check_turn": check_turn, "t": carried, "c": calls},
                ),
                "ordered": Contender(
                    "check_turn(t, c, distinct=True)",
                    {"check_turn": check_turn, "t": ordered, "c": calls},
                ),
            },
            rounds=self.config.rounds if self.config.quick else max(3, self.config.rounds),
            sample_seconds=self.config.sample_seconds,
        )
        for key, label, contender in (
            ("captures", "joined by a captured value", "check_turn(captures)"),
            (
                "ordered",
                "joined by a captured value and by after",
                "check_turn(captures, order)",
            ),
        ):
            self.section.figures.append(
                timed_figure(
                    f"captures, {expectations // 2} pairs {label}, "
                    f"K x M = {expectations} x {size:,}",
                    contender,
                    timings[key],
                    "check_turn(distinct=True)",
                    timings["distinct"],
                    max_ratio=MAX_ORDER_RATIO,
                    budget=f"<= {MAX_ORDER_RATIO:g}x",
                )
            )

    def peer(self, expectations: int, size: int) -> dict[str, Timing] | None:
        """Time toolscore.evaluate and check_turn on plain args, one name, side by side."""
        from toolscore import evaluate

        from toolmatch import check_turn

        calls = _calls(size, 1)
        targets = _targets(expectations, size)
        expected = _expectations(calls, targets, matchers=False)
        peer_expected, peer_calls = _toolscore_inputs(calls, targets)
        if not _toolscore_passed(evaluate(peer_expected, peer_calls)):
            self.section.errors.append(
                f"toolscore failed K={expectations}, M={size} where every expectation has its call"
            )
            return None
        problem = _toolmatch_problem(check_turn(expected, calls, distinct=True), targets)
        if problem:
            self.section.errors.append(f"K={expectations}, M={size}: {problem}")
            return None
        contenders = {
            "toolscore": Contender(
                "evaluate(e, c)", {"evaluate": evaluate, "e": peer_expected, "c": peer_calls}
            ),
            "check_turn": Contender(
                "check_turn(e, c, distinct=True)",
                {"check_turn": check_turn, "e": expected, "c": calls},
            ),
        }
        # check_turn takes milliseconds where toolscore takes seconds: in the same rounds,
        # check_turn gets a calibrated number of runs per sample, toolscore one.
        return compare(
            contenders,
            rounds=self.config.rounds if self.config.quick else SLOW_PEER_ROUNDS,
            sample_seconds=self.config.sample_seconds,
            numbers={"toolscore": 1},
        )

    def peer_curve(self, expectations: int, sizes: Sequence[int]) -> None:
        """One toolscore run per point of the M sweep (plain args, one name), for the plot."""
        import gc
        import time

        from toolscore import evaluate

        for size in sizes:
            calls = _calls(size, 1)
            peer_expected, peer_calls = _toolscore_inputs(calls, _targets(expectations, size))
            gc.disable()  # as timeit does for every other figure
            try:
                started = time.perf_counter()
                result = evaluate(peer_expected, peer_calls)
                seconds = time.perf_counter() - started
            finally:
                gc.enable()
            if not _toolscore_passed(result):
                self.section.errors.append(
                    f"toolscore failed K={expectations}, M={size} where every expectation has "
                    "its call"
                )
                continue
            self.curves.toolscore[expectations, size] = seconds

    def failing_verdicts_agree(self, expectations: int, size: int) -> None:
        """On a turn missing one expectation's call, both must fail."""
        from toolscore import evaluate

        from toolmatch import check_turn

        calls = _calls(size, 1)
        targets = _targets(expectations, size)
        expected = _expectations(calls, targets, matchers=False)
        peer_expected, peer_calls = _toolscore_inputs(calls, targets)
        # The last expected call was never made: drop it from both sides' calls.
        missing = targets[-1]
        calls = calls[:missing] + calls[missing + 1 :]
        peer_calls = peer_calls[:missing] + peer_calls[missing + 1 :]
        if check_turn(expected, calls, distinct=True).passed:
            self.section.errors.append("check_turn passed a turn missing an expected call")
        if _toolscore_passed(evaluate(peer_expected, peer_calls)):
            self.section.errors.append("toolscore passed a turn missing an expected call")


def _exponent(points: dict[int, float]) -> float:
    """The least-squares slope of log(seconds) over log(size)."""
    xs = [math.log(size) for size in points]
    ys = [math.log(seconds) for seconds in points.values()]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    return covariance / sum((x - mean_x) ** 2 for x in xs)


def _scaling_figures(section: Section, curves: Curves, sizes: Sizes) -> None:
    """Per workload: the fitted ratio per 10x of M (judged), and per 10x of K (shown)."""
    for workload in WORKLOADS:
        times = curves.toolmatch.get(workload.key, {})
        for axis, fixed in (("M", sizes.k_fixed), ("K", sizes.m_fixed)):
            if axis == "M":
                curve = {m: times[k, m] for k, m in times if k == fixed}
                where = f"K={fixed}"
            else:
                curve = {k: times[k, m] for k, m in times if m == fixed}
                where = f"M={fixed:,}"
            if len(curve) < 2:
                continue
            exponent = _exponent(curve)
            low, high = min(curve), max(curve)
            below = max(size for size in curve if size < high)
            top = _exponent({size: curve[size] for size in (below, high)})
            judged = axis == "M"
            section.figures.append(
                Figure(
                    name=f"scaling in {axis}, {where}, {workload.label}",
                    contender=f"{axis}={high:,}",
                    reference=f"{axis}={low:,}",
                    value=format_seconds(curve[high]),
                    reference_value=format_seconds(curve[low]),
                    ratio=10**exponent,
                    cross_check=f"exponent {exponent:.2f}, fitted over {axis}="
                    + ", ".join(f"{size:,}" for size in sorted(curve))
                    + f"; {top:.2f} from {axis}={below:,} to {high:,}",
                    max_ratio=10**MAX_EXPONENT if judged else None,
                    budget=f"<= {10**MAX_EXPONENT:.1f}x per 10x of M" if judged else "",
                )
            )


def _pair_figures(section: Section, timings: dict[str, dict[str, Timing]], point: str) -> None:
    for workload in WORKLOADS:
        if not workload.matchers or workload.key not in timings:
            continue
        section.figures.append(
            timed_figure(
                f"every pair once, {workload.label}, K x M = {point}",
                "check_turn",
                timings[workload.key]["check_turn"],
                "bare loop over every pair",
                timings[workload.key]["every pair"],
                max_ratio=MAX_PAIR_RATIO,
                budget=f"<= {MAX_PAIR_RATIO:g}x",
            )
        )


def _plotter(curves: Curves, sizes: Sizes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, (by_m, by_k) = plt.subplots(1, 2, figsize=(12, 4.8))
        styles = {
            "one-literal": "o-",
            "many-literal": "s-",
            "one-matchers": "^-",
            "many-matchers": "v-",
        }

        def plot_both(times: dict[tuple[int, int], float], style: str, label: str) -> None:
            """One curve over M at the fixed K, and one over K at the fixed M."""
            for axis, fixed_k in ((by_m, True), (by_k, False)):
                points = sorted(
                    (m if fixed_k else k, seconds)
                    for (k, m), seconds in times.items()
                    if (k == sizes.k_fixed if fixed_k else m == sizes.m_fixed)
                )
                if points:
                    xs, ys = zip(*points, strict=True)
                    axis.plot(xs, ys, style, label=label)

        for workload in WORKLOADS:
            times = curves.toolmatch.get(workload.key, {})
            plot_both(times, styles[workload.key], f"check_turn, {workload.label}")
        loops = curves.every_pair.get("one-matchers", {})
        plot_both(loops, "k:", "bare loop over every pair (matchers)")
        peer = sorted((m, s) for (k, m), s in curves.toolscore.items() if k == sizes.k_fixed)
        if peer:
            xs, ys = zip(*peer, strict=True)
            by_m.plot(xs, ys, "rx--", label="toolscore.evaluate, one name, plain args")
        by_m.set(
            title=f"K = {sizes.k_fixed} expectations", xlabel="M calls", ylabel="seconds per turn"
        )
        by_k.set(title=f"M = {sizes.m_fixed:,} calls", xlabel="K expectations")
        for axis in (by_m, by_k):
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.grid(True, which="both", alpha=0.3)
        by_m.legend(fontsize=8)
        figure.suptitle(
            "B3: check_turn(expected, calls, distinct=True), best of interleaved rounds"
        )
        figure.tight_layout()
        figure.savefig(path, dpi=110)
        plt.close(figure)

    return write


def run(config: Config) -> Section:
    section = Section("B3", TITLE)
    sizes = QUICK_SIZES if config.quick else FULL_SIZES
    bench = _Bench(config, section)
    largest_point = (sizes.k_fixed, sizes.m_fixed)
    points = sorted(
        {(sizes.k_fixed, m) for m in sizes.m_sweep} | {(k, sizes.m_fixed) for k in sizes.k_sweep},
        key=lambda point: (point[1], point[0]),
    )
    largest: dict[str, dict[str, Timing]] = {}
    label = f"K={largest_point[0]} M={largest_point[1]}"
    for workload in WORKLOADS:
        timings = bench.workload(workload, points, largest_point)
        if label in timings and f"every pair {label}" in timings:
            largest[workload.key] = {
                "check_turn": timings[label],
                "every pair": timings[f"every pair {label}"],
            }
    where = f"{largest_point[0]} x {largest_point[1]:,}"
    _scaling_figures(section, bench.curves, sizes)
    _pair_figures(section, largest, where)
    bench.partial_order(*sizes.order)
    bench.captures(*sizes.order)
    over = [f for f in section.figures if f.name.startswith("captures,") and f.met is False]
    if over and not config.quick:
        section.notes.append(
            f"captures over the {MAX_ORDER_RATIO:g}x budget: by cProfile, an expectation "
            "holding a Capture or a Ref is not looked up by its literal arguments' key, so it "
            "is compared with every call of its name (about 3,000 literal comparisons a check "
            "where the distinct turn looks each expectation up by key, none), and each check "
            "collects the values every call offers each name (CapturePlan); meeting it would "
            "take the literal arguments beside a capture kept as a lookup key and the plan "
            "built once per list of expectations"
        )
    section.notes.append(
        "partial order: the groups are met group by group (a distinct assignment ended as "
        "early as it can, per group); the pairs joined by after form one group with "
        "constraints inside, searched call by call with a windowed-flow bound at each state. "
        "Both are checked first: they pass with every expectation on its call, and fail when "
        "the calls are rotated so the first expectation's call comes last. The reference is "
        "the distinct turn on the same expectations and calls, in the same rounds"
    )

    try:
        import toolscore  # noqa: F401
    except ImportError:
        section.notes.append(
            "toolscore skipped: tool-scorer is not installed (pip install -e '.[bench]')"
        )
    else:
        _peer_figures(section, bench, sizes)
    section.notes.append(
        "'every pair once' (budget b) is a bare loop `for e in expectations: for c in calls: "
        "e_args_matcher == c.args` over the same Partial matchers check_turn builds "
        "(ExpectedTool's args matcher) and the calls' parsed args, with no selection, "
        "bookkeeping or assignment; check_turn's time includes reading the calls, selecting "
        f"by name and the distinct assignment. With {MANY_NAMES} names check_turn compares "
        "only the calls of each expectation's name, so it does far less than every pair"
    )
    section.notes.append(
        "plain args are looked up by a canonical key (no pair-by-pair comparison); matchers "
        "are compared with every selected call. All points of a workload are timed in the "
        "same interleaved rounds (at least 3, about "
        f"{WORKLOAD_SECONDS:g} s of work per workload), best round kept. A scaling "
        "figure's ratio is per 10x of M "
        "(or K), from the exponent of a least-squares fit of log(time) on log(M) over the "
        f"whole sweep; the budget is an exponent of at most {MAX_EXPONENT:g}. The contender "
        "and reference columns show the sweep's two ends"
    )
    if not config.quick:
        section.images["performance-b3.png"] = _plotter(bench.curves, sizes)
    return section


# Why the peer budget is unmet, written after the run of 2026-12-07 (its figures).
PEER_NOT_MET = (
    "1,000 x 1,000 over its budget: the reference, not check_turn, moved: the full run of "
    "2026-12-07 10:40 measured toolscore.evaluate at 1.40 s on this turn where the full run "
    "of 2026-12-02 measured 2.84 s, and check_turn at 32.3 ms where it measured 43.8 ms "
    "(tool-scorer 1.10.0, installed again for that run); why toolscore's time halved was "
    "not measured; the next step is to time the tool-scorer release of that run beside this "
    "one, and the budget to be read against a pinned release"
)


def _peer_figures(section: Section, bench: _Bench, sizes: Sizes) -> None:
    square = sizes.peer_square
    timings = bench.peer(square, square)
    if timings is not None:
        mine, theirs = timings["check_turn"], timings["toolscore"]
        section.figures.append(
            timed_figure(
                f"{square:,} x {square:,} same-name calls, plain args",
                "check_turn",
                mine,
                "toolscore.evaluate",
                theirs,
                cross_check=f"{mine.paired_ratio_to(theirs):.3g}x; toolscore "
                f"{theirs.best / mine.best:.0f}x slower",
                max_ratio=1 / MIN_PEER_SPEEDUP,
                budget=f"<= {1 / MIN_PEER_SPEEDUP:g}x ({MIN_PEER_SPEEDUP:g}x faster)",
            )
        )
        if mine.best * MIN_PEER_SPEEDUP > theirs.best:
            section.notes.append(PEER_NOT_MET)
    bench.peer_curve(sizes.k_fixed, sizes.m_sweep)
    top = (sizes.k_fixed, sizes.m_sweep[-1])
    mine_seconds = bench.curves.toolmatch.get("one-literal", {}).get(top)
    theirs_seconds = bench.curves.toolscore.get(top)
    if mine_seconds is not None and theirs_seconds is not None:
        section.figures.append(
            Figure(
                name=f"K={top[0]}, M={top[1]:,}, one name, plain args",
                contender="check_turn",
                reference="toolscore.evaluate",
                value=format_seconds(mine_seconds),
                reference_value=format_seconds(theirs_seconds),
                ratio=mine_seconds / theirs_seconds,
                cross_check=f"toolscore {theirs_seconds / mine_seconds:.0f}x slower; one run",
            )
        )
    bench.failing_verdicts_agree(sizes.k_fixed, sizes.m_sweep[-2])
    section.notes.append(
        "toolscore scores rather than asserts: its pass here is an argument recall of 1.0 "
        "(every expected argument matched on its one-to-one pairing of expected to actual "
        "calls of the same tool), checked on every input it is timed on; both pass every "
        "timed turn, and both fail when one expected call is missing "
        f"(K={sizes.k_fixed}, M={sizes.m_sweep[-2]:,}). Semantics differ beyond this "
        "benchmark: toolscore pairs greedily beyond 12 calls of a tool (check_turn finds "
        "an optimal distinct assignment), strips strings and compares ints with floats "
        "leniently, and matches tool names exactly (toolmatch's str name is a substring: "
        "the names here never contain one another). toolscore also computes metrics "
        "check_turn does not (sequence edit distance, redundancy, secrets scan): the ratio "
        "is the cost of each library's verdict on a turn, not of the same algorithm"
    )
    section.notes.append(
        f"toolscore takes seconds per run: at {square:,} x {square:,} it is timed in "
        f"{SLOW_PEER_ROUNDS} rounds of one run each (check_turn beside it, calibrated, in "
        "the same rounds); its curve in the plot (K="
        f"{sizes.k_fixed}, one name, plain args) is one run per point, garbage collector off "
        "as in the timed rounds (timeit turns it off for every figure; in a trial at "
        "1,000 x 1,000 it made no difference to toolscore)"
    )
