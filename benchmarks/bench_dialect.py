"""Translation cost per query (parse + rewrite + print), Neo4j -> Kuzu; goal: median <= 2 ms.

Run: python benchmarks/bench_dialect.py [repeats]. Queries: the translator tests' Neo4j queries
and the demo set's reference queries (a mix of short and long, rewritten and unchanged).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsgqa.dialect import translate  # noqa: E402
from dsgqa.questions import load_question_set  # noqa: E402
from tests.test_dialect import REWRITES, UNCHANGED  # noqa: E402


def main(repeats: int = 50) -> None:
    demo = load_question_set(ROOT / "questions/demo/apartment_questions.yaml").questions
    queries = [r[1] for r in REWRITES] + UNCHANGED + [q.cypher for q in demo]
    translate(queries[0])  # builds the parser once, as a long-running worker does
    timings = []
    for _ in range(repeats):
        for query in queries:
            started = time.perf_counter()
            translate(query)
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(f"queries: {len(queries)} x {repeats} repeats = {len(timings)} translations")
    print(f"median: {statistics.median(timings):.3f} ms  p95: {p95:.3f} ms  "
          f"max: {timings[-1]:.3f} ms  mean chars/query: "
          f"{sum(map(len, queries)) / len(queries):.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
