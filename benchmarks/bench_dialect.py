"""Translation cost per query (parse + rewrite + print), Neo4j -> Kuzu / Ladybug; goal: median
<= 2 ms on the fidelity set.

Run: python benchmarks/bench_dialect.py [repeats]. Query sets: the fidelity set's reference
queries (Heracles-style Neo4j Cypher, most of them rewritten), and the translator tests' Neo4j
queries with the demo set's reference queries (a mix of short and long, rewritten and
unchanged). Each set is translated for both targets: Ladybug adds its own passes.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsgqa.dialect import DialectError, translate  # noqa: E402
from dsgqa.questions import load_question_set  # noqa: E402
from tests.test_dialect import REWRITES, UNCHANGED  # noqa: E402


def query_sets() -> dict[str, list[str]]:
    fidelity = load_question_set(ROOT / "questions/fidelity/example_questions.yaml").questions
    demo = load_question_set(ROOT / "questions/demo/apartment_questions.yaml").questions
    return {
        "fidelity": [q.cypher for q in fidelity],
        "tests+demo": [r[1] for r in REWRITES] + UNCHANGED + [q.cypher for q in demo],
    }


def measure(queries: list[str], target: str, repeats: int) -> list[float]:
    """Milliseconds per translation, every query `repeats` times."""
    timings = []
    for _ in range(repeats):
        for query in queries:
            started = time.perf_counter()
            with contextlib.suppress(DialectError):  # a refusal costs a translation too
                translate(query, target)  # type: ignore[arg-type]
            timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)


def main(repeats: int = 50) -> None:
    sets = query_sets()
    translate(sets["fidelity"][0])  # builds the parser once, as a long-running worker does
    for name, queries in sets.items():
        for target in ("kuzu", "ladybug"):
            timings = measure(queries, target, repeats)
            p95 = timings[int(0.95 * (len(timings) - 1))]
            print(f"{name:<10} {target:<7} {len(queries)} queries x {repeats}: "
                  f"median {statistics.median(timings):.3f} ms  p95 {p95:.3f} ms  "
                  f"max {timings[-1]:.3f} ms  mean chars/query "
                  f"{sum(map(len, queries)) / len(queries):.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
