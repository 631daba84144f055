"""Speed of planeval on real data, printed as plain figures (targets: plans/s on gold plans
and their mutations, PlanningLCS against GAICo).

1. Validation: every gold plan in the planning data plus 4 mutations of each (drop a step,
   swap two neighbours, duplicate a step, change an argument), validated in one process after
   the domains and problems are parsed. Target: >= 3,000 plans/s (the reference validator, one
   process per plan, managed about 340/s here). The first pass starts with empty grounding
   caches and is the headline; a second pass (warm caches) and a pass that also classifies every
   failure against its gold plan are shown too.
2. PlanningLCS pairs/s on 30-step and 1,000-step plans, planeval vs GAICo 0.4.0 side by side
   on the same pairs (scores checked equal). Target: >= 20x GAICo.

Usage: python benchmarks/bench_planeval.py [DATA_DIR]
(default: the external planning data, found by benchcore/external_data.py)
"""

from __future__ import annotations

import random
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

from benchcore import external_data
from planeval.dataset import PlanningData
from planeval.diagnosis import validate_plan
from planeval.metrics import planning_lcs
from planeval.plan_text import parse_plan

DEFAULT_DATA = external_data.path_or_fetched(external_data.PLANNING)


def mutations(steps: list[str], rng: random.Random, objects: list[str]) -> list[list[str]]:
    """Four broken variants of a plan: dropped, swapped, duplicated, wrong argument."""
    k = rng.randrange(len(steps))
    j = rng.randrange(max(len(steps) - 1, 1))
    dropped = steps[:k] + steps[k + 1 :]
    swapped = list(steps)
    if len(steps) > 1:
        swapped[j], swapped[j + 1] = swapped[j + 1], swapped[j]
    duplicated = [*steps[: k + 1], steps[k], *steps[k + 1 :]]
    words = steps[k][1:-1].split()
    if len(words) > 1:
        words[rng.randrange(1, len(words))] = rng.choice(objects)
    wrong_arg = [*steps[:k], "(" + " ".join(words) + ")", *steps[k + 1 :]]
    return [dropped, swapped, duplicated, wrong_arg]


def bench_validation(data_dir: Path) -> None:
    data = PlanningData(data_dir)
    rng = random.Random(5)
    jobs = []
    started = time.perf_counter()
    for domain_name in data.domain_names():
        domain = data.domain(domain_name)
        for instance in data.instance_names(domain_name):
            gold = data.gold_plan(domain_name, instance)
            if gold is None:
                continue
            problem = data.problem(domain_name, instance)
            steps = parse_plan(gold).actions()
            objects = sorted(problem.objects)
            for plan in [steps, *mutations(steps, rng, objects)]:
                jobs.append((domain, problem, "\n".join(plan), gold))
    parse_seconds = time.perf_counter() - started
    n_gold = len(jobs) // 5
    print(
        f"parsed {len(data.domain_names())} domains, {n_gold} problems with gold plans "
        f"in {parse_seconds:.2f} s"
    )

    def run(with_gold: bool) -> tuple[float, int]:
        t0 = time.perf_counter()
        valid = 0
        for domain, problem, text, gold in jobs:
            valid += validate_plan(domain, problem, text, gold if with_gold else None).valid
        return time.perf_counter() - t0, valid

    cold, valid = run(False)
    warm, _ = run(False)
    classified, _ = run(True)
    n = len(jobs)
    print(f"validation: {n} plans ({n_gold} gold + 4 mutations each), {valid} valid")
    print(f"  first pass (cold grounding cache): {n / cold:,.0f} plans/s  ({cold:.3f} s)")
    print(f"  second pass (warm cache):          {n / warm:,.0f} plans/s  ({warm:.3f} s)")
    print(
        f"  with gold-plan classification:     {n / classified:,.0f} plans/s  ({classified:.3f} s)"
    )
    print(f"  target >= 3,000 plans/s: {'met' if n / cold >= 3000 else 'NOT met'}")


def load_gaico_lcs() -> Callable[[str, str], float]:
    """GAICo 0.4.0's PlanningLCS. Its package __init__ imports image metrics that need scipy,
    which is not installed here; a stub stands in for scipy.ndimage (unused by PlanningLCS)."""
    try:
        from gaico.metrics.structured import PlanningLCS
    except ModuleNotFoundError as exc:
        if exc.name not in ("scipy", "scipy.ndimage"):
            raise
        for name in ("scipy", "scipy.ndimage"):
            sys.modules.setdefault(name, types.ModuleType(name))
        sys.modules["scipy.ndimage"].gaussian_filter = None  # type: ignore[attr-defined]
        for name in [m for m in sys.modules if m.startswith("gaico")]:
            del sys.modules[name]
        from gaico.metrics.structured import PlanningLCS

        print("(gaico: scipy is missing, stubbed scipy.ndimage to import PlanningLCS)")
    metric = PlanningLCS()
    return lambda generated, reference: float(metric.calculate(generated, reference))


def lcs_pairs(data_dir: Path, length: int, count: int, rng: random.Random) -> list[tuple[str, str]]:
    """Pairs (mutated, original) of `length`-step plans made from real gold plans."""
    data = PlanningData(data_dir)
    pool: list[str] = []
    for domain_name in data.domain_names():
        for instance in data.instance_names(domain_name):
            gold = data.gold_plan(domain_name, instance)
            if gold:
                pool.extend(parse_plan(gold).actions())
    pairs = []
    for _ in range(count):
        start = rng.randrange(len(pool) - length)
        reference = pool[start : start + length]
        generated = list(reference)
        for _ in range(max(1, length // 10)):  # about 10% of the steps disturbed
            k = rng.randrange(len(generated) - 1)
            op = rng.randrange(3)
            if op == 0:
                del generated[k]
            elif op == 1:
                generated[k], generated[k + 1] = generated[k + 1], generated[k]
            else:
                generated.insert(k, rng.choice(pool))
        pairs.append((", ".join(generated), ", ".join(reference)))
    return pairs


def time_pairs(
    fn: Callable[[str, str], float], pairs: list[tuple[str, str]], min_seconds: float
) -> tuple[float, list[float]]:
    """Pairs per second (best of repeated rounds lasting at least min_seconds in total)."""
    scores = [fn(g, r) for g, r in pairs]
    best = float("inf")
    spent = 0.0
    rounds = 0
    while spent < min_seconds or rounds < 3:
        t0 = time.perf_counter()
        for g, r in pairs:
            fn(g, r)
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
        spent += elapsed
        rounds += 1
    return len(pairs) / best, scores


def bench_lcs(data_dir: Path) -> None:
    gaico_lcs = load_gaico_lcs()
    rng = random.Random(30)
    for length, count in ((30, 300), (1000, 4)):
        pairs = lcs_pairs(data_dir, length, count, rng)
        ours, our_scores = time_pairs(planning_lcs, pairs, 1.0)
        theirs, their_scores = time_pairs(gaico_lcs, pairs, 1.0)
        agree = all(abs(a - b) < 1e-12 for a, b in zip(our_scores, their_scores, strict=True))
        print(
            f"PlanningLCS {length:>5}-step plans: planeval {ours:>10,.0f} pairs/s | "
            f"gaico 0.4.0 {theirs:>8,.1f} pairs/s | {ours / theirs:6.1f}x | "
            f"scores {'identical' if agree else 'DIFFER'}"
        )


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    bench_validation(data_dir)
    bench_lcs(data_dir)


if __name__ == "__main__":
    main()
