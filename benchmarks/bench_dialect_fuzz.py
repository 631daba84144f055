"""Long run of the Cypher translator's semantic differential fuzzer (tests/cypher_fuzz).

    python benchmarks/bench_dialect_fuzz.py --seconds 600 --seed 1

Rounds of random scene graphs and random Neo4j read queries, until the time is up. Each query's
expected rows come from the reference evaluator (Neo4j's semantics); the translator runs it on
Kuzu and on Ladybug, each in its own interpreter. Prints queries tried, agreements, refusals by
construct, blamed queries (a runtime, syntax or schema error on a query Neo4j answers: the
model would be charged with it) grouped by error message with their translation, silent
disagreements by construct, and every disagreeing query (shrunk when a smaller form still
disagrees) with the expected rows and each engine's rows.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.cypher_fuzz.differential import Round, expected_plain, run_round
from tests.cypher_fuzz.engines import BACKENDS
from tests.cypher_fuzz.graphs import spec_json
from tests.cypher_fuzz.shrink import shrink_many
from tests.test_dialect_fuzz import KNOWN_IN_SAMPLE, explained

BLAMED_EXAMPLES = 2  # queries printed per blamed error message


class Tally:
    """Counts over every round, per engine."""

    def __init__(self) -> None:
        self.tried = 0
        self.skipped: Counter = Counter()
        self.outcomes: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.refused_by: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.refused_kind: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.disagree_by: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.blamed_kind: dict[str, Counter] = {b: Counter() for b in BACKENDS}
        self.blamed: dict[str, list[tuple[Round, int, str]]] = {}  # message -> queries
        self.tried_by: Counter = Counter()
        self.disagreements: list[tuple[Round, int]] = []

    def add(self, rnd: Round) -> None:
        self.tried += len(rnd.trials)
        self.skipped.update(rnd.skipped)
        for i, trial in enumerate(rnd.trials):
            self.tried_by.update(trial.generated.constructs)
            silent = False
            for backend in BACKENDS:
                verdict = rnd.verdicts[backend][i]
                self.outcomes[backend][verdict.outcome] += 1
                if verdict.outcome == "refused":
                    self.refused_by[backend].update(trial.generated.constructs)
                    self.refused_kind[backend][verdict.kind] += 1
                elif verdict.outcome == "disagree":
                    self.disagree_by[backend].update(trial.generated.constructs)
                    silent = True
                elif verdict.outcome == "blamed":
                    self.blamed_kind[backend][verdict.kind] += 1
                    self.blamed.setdefault(message_class(verdict.error), []).append(
                        (rnd, i, backend))
            if silent:
                self.disagreements.append((rnd, i))


def message_class(error: str) -> str:
    """An error message with its numbers blanked, so one defect is one group."""
    first = next((line for line in error.strip().splitlines() if line.strip()), "(no message)")
    return re.sub(r"\d+", "#", first)[:200]


def report_blamed(tally: Tally) -> None:
    total = sum(len(items) for items in tally.blamed.values())
    print(f"\n== blamed: {total} verdicts on queries Neo4j answers failed as runtime, syntax "
          f"or schema, in {len(tally.blamed)} kinds of message")
    for message, items in sorted(tally.blamed.items(), key=lambda kv: -len(kv[1])):
        per = Counter(backend for _, _, backend in items)
        print(f"\n-- {dict(per)}: {message}")
        for rnd, i, backend in items[:BLAMED_EXAMPLES]:
            trial, verdict = rnd.trials[i], rnd.verdicts[backend][i]
            why = explained(backend, trial, verdict)
            print(f"   query:    {trial.generated.text}")
            print(f"   expected: {expected_plain(trial)}")
            print(f"   {backend + ':':9} {verdict.kind}: {verdict.error.strip()[:400]}"
                  f"{f' [{why}]' if why else ''}")
            print(f"   executed: {verdict.executed}")


def report(tally: Tally, seconds: float, show: int, do_shrink: bool) -> None:
    print(f"queries tried: {tally.tried} in {seconds:.0f} s "
          f"(skipped before running, rows not fixed by Neo4j or a Neo4j error: "
          f"{sum(tally.skipped.values())} {dict(tally.skipped)})")
    for backend in BACKENDS:
        out = tally.outcomes[backend]
        print(f"\n== {backend}: agree {out['agree']}, refused {out['refused']}, "
              f"DISAGREE {out['disagree']}, BLAMED {out['blamed']}")
        print(f"   refusals by kind: {dict(tally.refused_kind[backend].most_common())}")
        print(f"   blamed by kind:   {dict(tally.blamed_kind[backend].most_common())}")
        print("   refusals by construct (refused / tried):")
        for name, n in tally.refused_by[backend].most_common():
            print(f"     {name:28} {n:5} / {tally.tried_by[name]}")
        print("   disagreements by construct (disagree / tried):")
        for name, n in tally.disagree_by[backend].most_common():
            print(f"     {name:28} {n:5} / {tally.tried_by[name]}")
    report_blamed(tally)
    print(f"\n== silent disagreements: {len(tally.disagreements)} queries "
          f"(showing {min(show, len(tally.disagreements))})")
    def known(item: tuple[Round, int]) -> str:
        rnd, i = item
        constructs = rnd.trials[i].generated.constructs
        which = {b for b in BACKENDS if rnd.verdicts[b][i].outcome == "disagree"}
        return next((why for engines, names, why in KNOWN_IN_SAMPLE
                     if which <= engines and names & constructs), "")

    # the ones no listed defect explains first: those are news
    ordered = sorted(tally.disagreements, key=lambda item: bool(known(item)))
    print(f"   not explained by a listed defect: "
          f"{sum(not known(item) for item in ordered)}")
    shown = ordered[:show]
    wanted = [(rnd.specs[rnd.trials[i].graph], rnd.trials[i].generated,
               [b for b in BACKENDS if rnd.verdicts[b][i].outcome == "disagree"])
              for rnd, i in shown]
    shrunk = shrink_many(wanted) if do_shrink and wanted else [None] * len(wanted)
    for (rnd, i), (spec, _, which), small in zip(shown, wanted, shrunk, strict=True):
        trial = rnd.trials[i]
        text, expected, rows = trial.generated.text, expected_plain(trial), {
            b: rnd.verdicts[b][i].rows for b in BACKENDS}
        if small is not None:
            text, expected, rows = small
        print(f"\n-- disagree on {', '.join(which)} "
              f"[{known((rnd, i)) or 'NOT EXPLAINED by a listed defect'}]; constructs: "
              f"{', '.join(sorted(trial.generated.constructs))}")
        print(f"   query:    {text}")
        print(f"   expected: {expected}")
        for backend in BACKENDS:
            print(f"   {backend + ':':9} {rows[backend]}")
        print(f"   graph:    {spec_json(spec)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--graphs", type=int, default=6, help="graphs per round")
    parser.add_argument("--queries", type=int, default=40, help="queries per graph")
    parser.add_argument("--show", type=int, default=40, help="disagreements to print")
    parser.add_argument("--no-shrink", action="store_true")
    args = parser.parse_args(argv)
    tally = Tally()
    start = time.monotonic()
    seed = args.seed
    while time.monotonic() - start < args.seconds:
        tally.add(run_round(seed, args.graphs, args.queries))
        seed += 1_000_003  # rounds never repeat each other's draws
        elapsed = time.monotonic() - start
        print(f"[{elapsed:5.0f} s] {tally.tried} queries, "
              f"{len(tally.disagreements)} with a silent disagreement", file=sys.stderr)
    report(tally, time.monotonic() - start, args.show, not args.no_shrink)
    return 0


if __name__ == "__main__":
    sys.exit(main())
