"""Run fuzz queries on one embedded engine, the way the run-query stage runs a model's query.

`python -m tests.cypher_fuzz.engine_worker --backend ladybug --jobs jobs.json` reads
`[{"graph": "<spark_dsg JSON path>", "queries": [...]}, ...]` and prints one JSON line per
query: `job`, `index`, `valid`, `kind` (query_error_kind), `error`, `executed`, `rows`.

Why a separate interpreter: Kuzu and Ladybug ship C++ libraries with the same symbols and must
never share a process, so each engine gets its own; the two run side by side. Every query goes
through `dsgqa.stages.run_query` (write guard, translation, guard, the store's read-only
workers), so what is compared is exactly what a benchmark run would score.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from benchcore.names import EMBEDDED_BACKENDS
from dsgqa.graphstore import open_graph_store
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages.run_query import run_query

TIMEOUT_S = 20.0
MAX_ROWS = 5_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.cypher_fuzz.engine_worker")
    parser.add_argument("--backend", required=True, choices=EMBEDDED_BACKENDS)
    parser.add_argument("--jobs", type=Path, required=True)
    args = parser.parse_args(argv)
    jobs = json.loads(args.jobs.read_text())
    with tempfile.TemporaryDirectory(prefix="cypher-fuzz-") as scratch:
        for j, job in enumerate(jobs):
            graph = load_scene_graph(job["graph"])
            with open_graph_store(args.backend, graph, db_root=Path(scratch)) as store:
                for i, query in enumerate(job["queries"]):
                    attempt = CypherAttempt(uid=f"q{i}", model="fuzz", cypher=query,
                                            raw_reply=query, usage=LLMUsage())
                    out = run_query(store, attempt, timeout_s=TIMEOUT_S, max_rows=MAX_ROWS)
                    print(json.dumps({"job": j, "index": i, "valid": out.valid,
                                      "kind": out.query_error_kind or "",
                                      "error": out.error or "", "executed": out.cypher_executed,
                                      "truncated": out.truncated, "rows": out.rows},
                                     default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
