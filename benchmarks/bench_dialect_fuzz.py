"""Long run of the Cypher translator's semantic differential fuzzer (tests/cypher_fuzz).

    python benchmarks/bench_dialect_fuzz.py --seconds 600 --seed 1

Rounds of random scene graphs and random Neo4j read queries, until the time is up. Each query's
expected rows (or Neo4j's error) come from the reference evaluator (Neo4j's semantics); the
translator runs it on Kuzu and on Ladybug, each in its own interpreter. Prints queries tried
and, per engine, how many agree, are refused (`dialect`, timeout, truncated), disagree
silently, are blamed (a runtime, syntax or schema error on a query Neo4j answers: the model
would be charged with it) and are answered (rows for a query on which Neo4j raises); refusals
and failures by construct; the blamed queries grouped by error message with their translation;
and the failing queries, shrunk when a smaller form still fails the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.cypher_fuzz.differential import (
    Round,
    Trial,
    Verdict,
    expected_plain,
    message_class,
    run_round,
)
from tests.cypher_fuzz.engines import BACKENDS
from tests.cypher_fuzz.graphs import spec_json
from tests.cypher_fuzz.shrink import Shrunk, shrink_many
from tests.test_dialect_fuzz import explained

FAILURES = ("disagree", "blamed", "answered")
Item = tuple[Round, int]


class Tally:
    """Counts over every round, per engine."""

    def __init__(self) -> None:
        self.tried = 0
        self.rejected = 0  # queries on which Neo4j raises
        self.skipped: Counter = Counter()
        self.outcomes: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.refused_by: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.refused_kind: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.blamed_kind: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.tried_by: Counter = Counter()
        self.failing: list[Item] = []  # queries that fail on some engine

    def add(self, rnd: Round) -> None:
        self.tried += len(rnd.trials)
        self.skipped.update(rnd.skipped)
        for i, trial in enumerate(rnd.trials):
            self.tried_by.update(trial.generated.constructs)
            self.rejected += isinstance(expected_plain(trial), str)
            for backend in BACKENDS:
                verdict = rnd.verdicts[backend][i]
                self.outcomes[backend][verdict.outcome] += 1
                if verdict.outcome == "refused":
                    self.refused_by[backend].update(trial.generated.constructs)
                    self.refused_kind[backend][verdict.kind] += 1
                elif verdict.outcome == "blamed":
                    self.blamed_kind[backend][verdict.kind] += 1
            if failing_on(rnd, i):
                self.failing.append((rnd, i))

    def count(self, outcome: str) -> int:
        return sum(1 for rnd, i in self.failing
                   if any(v.outcome == outcome for v in failing_on(rnd, i).values()))


def failing_on(rnd: Round, i: int) -> dict[str, Verdict]:
    return {b: rnd.verdicts[b][i] for b in BACKENDS if rnd.verdicts[b][i].outcome in FAILURES}


def known(item: Item) -> str:
    """The listed defect that explains every failing verdict of the query, or ''."""
    rnd, i = item
    reasons = [explained(b, rnd.trials[i], v) for b, v in failing_on(rnd, i).items()]
    return reasons[0] if reasons and all(reasons) else ""


def pick_to_shrink(tally: Tally, show: int, examples: int, limit: int) -> list[Item]:
    """The failing queries worth shrinking: the disagreements and answered queries to be
    shown (unexplained first), a few of each blamed error, then the rest up to `limit`."""
    ordered = sorted(tally.failing, key=lambda item: bool(known(item)))
    chosen: dict[tuple[int, int], Item] = {}

    def take(items: list[Item]) -> None:
        for rnd, i in items:
            if len(chosen) < limit:
                chosen.setdefault((id(rnd), i), (rnd, i))

    for outcome in ("disagree", "answered"):
        take([it for it in ordered
              if any(v.outcome == outcome for v in failing_on(*it).values())][:show])
    for group in blamed_groups(tally).values():
        take(group[:examples])
    take(ordered)
    return list(chosen.values())


def blamed_groups(tally: Tally) -> dict[str, list[Item]]:
    groups: dict[str, list[Item]] = {}
    for rnd, i in tally.failing:
        messages = {message_class(v.error) for v in failing_on(rnd, i).values()
                    if v.outcome == "blamed"}
        for message in messages:
            groups.setdefault(message, []).append((rnd, i))
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def shown(item: Item, shrunk: dict[tuple[int, int], Shrunk]) -> tuple[str, object,
                                                                          dict[str, Verdict]]:
    """The query, Neo4j's answer and each engine's verdict: of the shrunk form if there is
    one."""
    rnd, i = item
    small = shrunk.get((id(rnd), i))
    if small is not None:
        return small.generated.text, small.expected, small.verdicts
    trial: Trial = rnd.trials[i]
    return trial.generated.text, expected_plain(trial), {b: rnd.verdicts[b][i]
                                                         for b in BACKENDS}


def describe(verdict: Verdict) -> str:
    if verdict.error:
        return f"{verdict.outcome}: {verdict.kind}: {verdict.error.strip()[:400]}"
    return f"{verdict.outcome}: {verdict.rows}"


def report(tally: Tally, seconds: float, args: argparse.Namespace) -> None:
    print(f"queries tried: {tally.tried} in {seconds:.0f} s, of which Neo4j rejects "
          f"{tally.rejected} with an error (skipped before running, rows not fixed by Neo4j: "
          f"{sum(tally.skipped.values())} {dict(tally.skipped)})")
    for backend in BACKENDS:
        out = tally.outcomes[backend]
        print(f"\n== {backend}: agree {out['agree']}, refused {out['refused']}, "
              f"DISAGREE {out['disagree']}, BLAMED {out['blamed']}, ANSWERED {out['answered']}")
        print(f"   refusals by kind: {dict(tally.refused_kind[backend].most_common())}")
        print(f"   blamed by kind:   {dict(tally.blamed_kind[backend].most_common())}")
        print("   refusals by construct (refused / tried):")
        for name, n in tally.refused_by[backend].most_common():
            print(f"     {name:28} {n:5} / {tally.tried_by[name]}")
    to_shrink = pick_to_shrink(tally, args.show, args.examples, args.shrink_limit)
    shrunk: dict[tuple[int, int], Shrunk] = {}
    if to_shrink and not args.no_shrink:
        found = shrink_many([(rnd.specs[rnd.trials[i].graph], rnd.trials[i].generated,
                              failing_on(rnd, i)) for rnd, i in to_shrink])
        shrunk = {(id(rnd), i): small for (rnd, i), small in zip(to_shrink, found, strict=True)
                  if small is not None}
    print(f"\n(shrunk {len(shrunk)} of the {len(to_shrink)} failing queries tried)")
    for outcome in ("disagree", "answered"):
        print(f"\n== {outcome} by construct, per engine ({outcome} / tried; the constructs of "
              f"the shrunk query where the shrinker made a smaller one, else of the query as "
              f"drawn)")
        for backend in BACKENDS:
            by: Counter = Counter()
            for rnd, i in tally.failing:
                if rnd.verdicts[backend][i].outcome == outcome:
                    small = shrunk.get((id(rnd), i))
                    by.update(small.generated.present_constructs() if small
                              else rnd.trials[i].generated.constructs)
            print(f"   {backend}:")
            for name, n in by.most_common():
                print(f"     {name:28} {n:5} / {tally.tried_by[name]}")
    report_blamed(tally, shrunk, args.examples)
    for outcome, title in (("answered", "rows for a query on which Neo4j raises"),
                           ("disagree", "silent disagreements")):
        report_failing(tally, shrunk, outcome, title, args.show)


def report_blamed(tally: Tally, shrunk: dict[tuple[int, int], Shrunk], examples: int) -> None:
    groups = blamed_groups(tally)
    print(f"\n== blamed: {tally.count('blamed')} queries Neo4j answers failed as runtime, "
          f"syntax or schema, in {len(groups)} kinds of message")
    for message, items in groups.items():
        per = Counter(b for rnd, i in items for b, v in failing_on(rnd, i).items()
                      if v.outcome == "blamed" and message_class(v.error) == message)
        print(f"\n-- {dict(per)}: {message}")
        for item in items[:examples]:
            text, expected, verdicts = shown(item, shrunk)
            print(f"   query:    {text}")
            print(f"   expected: {expected}")
            for backend in BACKENDS:
                print(f"   {backend + ':':9} {describe(verdicts[backend])}")
                if verdicts[backend].outcome == "blamed":
                    print(f"   {'':9} executed: {verdicts[backend].executed}")


def report_failing(tally: Tally, shrunk: dict[tuple[int, int], Shrunk], outcome: str,
                   title: str, show: int) -> None:
    items = sorted((it for it in tally.failing
                    if any(v.outcome == outcome for v in failing_on(*it).values())),
                   key=lambda it: bool(known(it)))  # the ones no listed defect explains: news
    print(f"\n== {title} ({outcome}): {len(items)} queries (showing {min(show, len(items))}); "
          f"not explained by a listed defect: {sum(not known(it) for it in items)}")
    for rnd, i in items[:show]:
        text, expected, verdicts = shown((rnd, i), shrunk)
        which = [b for b in BACKENDS if rnd.verdicts[b][i].outcome == outcome]
        print(f"\n-- {outcome} on {', '.join(which)} "
              f"[{known((rnd, i)) or 'NOT EXPLAINED by a listed defect'}]; constructs: "
              f"{', '.join(sorted(rnd.trials[i].generated.constructs))}")
        print(f"   query:    {text}")
        print(f"   expected: {expected}")
        for backend in BACKENDS:
            print(f"   {backend + ':':9} {describe(verdicts[backend])}")
        print(f"   graph:    {spec_json(rnd.specs[rnd.trials[i].graph])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--graphs", type=int, default=6, help="graphs per round")
    parser.add_argument("--queries", type=int, default=40, help="queries per graph")
    parser.add_argument("--show", type=int, default=40,
                        help="disagreeing and answered queries to print, each")
    parser.add_argument("--examples", type=int, default=2, help="queries per blamed message")
    parser.add_argument("--shrink-limit", type=int, default=150,
                        help="failing queries to shrink at most")
    parser.add_argument("--no-shrink", action="store_true")
    args = parser.parse_args(argv)
    tally = Tally()
    start = time.monotonic()
    seed = args.seed
    while time.monotonic() - start < args.seconds:
        tally.add(run_round(seed, args.graphs, args.queries))
        seed += 1_000_003  # rounds never repeat each other's draws
        elapsed = time.monotonic() - start
        print(f"[{elapsed:5.0f} s] {tally.tried} queries, {len(tally.failing)} failing "
              f"(disagree, blamed or answered)", file=sys.stderr)
    report(tally, time.monotonic() - start, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
