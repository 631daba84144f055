"""Speed of the SLDP comparator against its speed targets; prints the figures.

    .venv/bin/python benchmarks/bench_sldp.py [--sets-only] [--naive-large]

1. comparisons/s on a mix of small answers, parsing both sides each time (target >= 10,000/s;
   the reference does 37/s): with repeated texts (the memo's case: answers and solutions recur
   across models) and with every text new (the parser alone);
2. a 2,000-point set: parse + compare (target <= 200 ms), compare of the parsed values
   (<= 10 ms), exact copies, and a naive O(n^2) set comparison for the ratio;
3. a 20,000-point set: parse + compare (target <= 2 s), compare of the parsed values, growth
   against 2,000 points. The naive comparison runs here only with ``--naive-large`` (minutes).

The answer is the solution shuffled, with every coordinate moved by 0.002 up or down (the
rounding or jitter of a model's copy), so no exact lookup applies. Each figure is the median
of a few runs, with the fastest beside it; a target counts as met when the median meets it.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from statistics import median

from dsgqa.sldp import Point, SLDPSet, parse_sldp, sldp_equals

TOL = 0.01


def timings(runs: int, action: Callable[[], object]) -> list[float]:
    """Wall-clock seconds of ``runs`` calls, sorted."""
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - started)
    return sorted(seconds)


def best_of(runs: int, action: Callable[[], object]) -> float:
    """Fastest of ``runs`` wall-clock timings, in seconds."""
    return timings(runs, action)[0]


# ----------------------------------------------------------------------------- small answers


def small_answer(rng: random.Random, kind: int, serial: int) -> str:
    """A short answer of one of eight kinds; ``serial`` makes texts unique when wanted."""
    n = serial
    makers = [
        lambda: str(rng.randint(0, 3) + n),
        lambda: f"{rng.uniform(0, 0.03) + n:.3f}",
        lambda: rng.choice(["kitchen_{}", '"Living Room {}"', "Bathroom_{}"]).format(n),
        lambda: (
            "<" + ", ".join(f"O{rng.randint(0, 5) + n}" for _ in range(rng.randint(2, 5))) + ">"
        ),
        lambda: "[" + ", ".join(str(rng.randint(0, 1) + n) for _ in range(3)) + "]",
        lambda: f"{{tree: {n}, rock: {rng.randint(0, 1)}, door: 3}}",
        lambda: f"POINT({rng.uniform(0, 0.02):.3f} {n} 1.5)",
        lambda: f"<POINT(1 2 {n}), POINT({rng.randint(0, 1)} 5 6)>",
    ]
    return makers[kind]()


KINDS = 8


def answer_pairs(
    rng: random.Random, count: int, serial: Callable[[int], int]
) -> list[tuple[str, str]]:
    """(answer, solution) pairs of the same kind, so most comparisons go past the kind check
    and about half come out equal, as when models mostly answer in the expected form."""
    pairs = []
    for i in range(count):
        kind = rng.randrange(KINDS)
        pairs.append(
            (small_answer(rng, kind, serial(2 * i)), small_answer(rng, kind, serial(2 * i)))
        )
    return pairs


def bench_small(count: int) -> tuple[float, float]:
    """(comparisons/s with a recurring pool of texts, comparisons/s with all-new texts)."""
    rng = random.Random(1)
    pool = answer_pairs(rng, 400, lambda i: i % 5)
    pairs = [rng.choice(pool) for _ in range(count)]
    fresh = answer_pairs(rng, count, lambda i: 10**6 + i)

    def compare_all(items: list[tuple[str, str]]) -> int:
        return sum(sldp_equals(a, b, TOL) for a, b in items)

    print(f"  (equal pairs: recurring {compare_all(pairs) / count:.0%}, ", end="")
    recurring = count / best_of(3, lambda: compare_all(pairs))
    started = time.perf_counter()
    equal = compare_all(fresh)  # one pass only: a second would hit the memo
    fresh_rate = count / (time.perf_counter() - started)
    print(f"all-new {equal / count:.0%})")
    return recurring, fresh_rate


# ----------------------------------------------------------------------------- large sets


SHIFT = 0.002
#: Seconds allowed per figure, by set size.
TARGETS = {
    2_000: {"parse+compare": 0.200, "compare": 0.010},
    20_000: {"parse+compare": 2.0},
}


def point_sets(count: int, seed: int) -> tuple[str, str]:
    """(answer text, solution text): the same points, shuffled, each coordinate moved by
    ``SHIFT`` up or down."""
    rng = random.Random(seed)
    solution = [
        (
            round(rng.uniform(-50, 50), 3),
            round(rng.uniform(-50, 50), 3),
            round(rng.uniform(0, 3), 3),
        )
        for _ in range(count)
    ]
    answer = [tuple(round(c + rng.choice((-SHIFT, SHIFT)), 4) for c in p) for p in solution]
    rng.shuffle(answer)

    def text(points: list[tuple[float, ...]]) -> str:
        return "<" + ", ".join(f"POINT({x} {y} {z})" for x, y, z in points) + ">"

    return text(answer), text(solution)


def naive_set_equals(a: SLDPSet, b: SLDPSet, tol: float) -> bool:
    """The reference's approach: every element against every element, both ways."""

    def same(p: Point, q: Point) -> bool:
        return len(p.coords) == len(q.coords) and all(
            abs(x - y) <= tol for x, y in zip(p.coords, q.coords, strict=True)
        )

    return all(any(same(p, q) for q in b) for p in a) and all(any(same(q, p) for p in a) for q in b)


def bench_set(count: int, naive: bool) -> dict[str, list[float]]:
    """Sorted timings per figure for a ``count``-point set."""
    answer, solution = point_sets(count, seed=count)
    runs = 5 if count <= 5000 else 3
    figures = {"parse+compare": timings(runs, lambda: sldp_equals(answer, solution, TOL))}
    parsed_a, parsed_b = parse_sldp(answer), parse_sldp(solution)
    assert sldp_equals(parsed_a, parsed_b, TOL), "benchmark inputs must be equal"
    figures["compare"] = timings(4 * runs, lambda: sldp_equals(parsed_a, parsed_b, TOL))
    exact_b = parse_sldp(solution)
    figures["compare, exact copies"] = timings(
        4 * runs, lambda: sldp_equals(exact_b, parsed_b, TOL)
    )
    if naive:
        figures["naive O(n^2) compare"] = timings(
            1, lambda: naive_set_equals(parsed_a, parsed_b, TOL * 1.000001)
        )
    return figures


def report_set(count: int, figures: dict[str, list[float]]) -> None:
    print(f"{count:,}-point set (answer shuffled, every coordinate moved by {SHIFT})")
    for name, seconds in figures.items():
        line = f"  {name:<22} median {median(seconds) * 1000:>8.1f} ms"
        if len(seconds) > 1:
            line += f"  best {seconds[0] * 1000:>8.1f} ms"
        target = TARGETS.get(count, {}).get(name)
        if target is not None:
            verdict = "met" if median(seconds) <= target else "MISSED"
            line += f"  target <= {target * 1000:,.0f} ms: {verdict}"
        print(line)
    if "naive O(n^2) compare" in figures:
        ratio = median(figures["naive O(n^2) compare"]) / median(figures["compare"])
        print(f"  naive / indexed compare: {ratio:>8.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets-only", action="store_true", help="skip the small answers")
    parser.add_argument("--naive-large", action="store_true", help="naive compare at 20,000 too")
    args = parser.parse_args()

    if not args.sets_only:
        print("small answers, parse both sides + compare (target >= 10,000/s; reference 37/s)")
        recurring, fresh = bench_small(20_000)
        print(f"  recurring texts (memo):  {recurring:>10,.0f} comparisons/s")
        print(f"  all-new texts (parser):  {fresh:>10,.0f} comparisons/s")

    results = {}
    for count in (2_000, 20_000):
        results[count] = bench_set(count, naive=count <= 2_000 or args.naive_large)
        report_set(count, results[count])
    growth = median(results[20_000]["parse+compare"]) / median(results[2_000]["parse+compare"])
    print(f"growth 2,000 -> 20,000 points (10x input): parse+compare x{growth:.1f}")


if __name__ == "__main__":
    main()
