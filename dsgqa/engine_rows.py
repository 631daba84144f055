"""Run Neo4j-dialect queries on one engine, the way the run-query stage runs a model's query.

`python -m dsgqa.engine_rows --backend ladybug [--scene-graph G.json] < queries.json` reads a
JSON list of queries and prints one JSON line per query: `query`, `executed` (the translated
query the engine ran), `rewrites`, `valid`, `error`, `rows`. Without `--scene-graph` the graph
is the conformance check's hand-checked tiny graph.

Why a module with a command line: tests ask the interpreter `LADYBUG_PYTHON` names (this one by
default; `tests/ladybug_run.py`) for Ladybug's rows, all queries in one call so the database is
built and its query workers start once (see `dsgqa.fidelity_check`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchcore.names import DEFAULT_EMBEDDED_BACKEND, EMBEDDED_BACKENDS
from dsgqa.conformance import tiny_graph
from dsgqa.graphstore import open_graph_store
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.scene_graph import SceneGraph, load_scene_graph
from dsgqa.stages.run_query import run_query


def engine_rows(backend: str, graph: SceneGraph, queries: list[str],
                db_root: Path) -> Iterator[dict[str, Any]]:
    """One result per query, in order, each through `run_query` (guard, translation, guard)."""
    with open_graph_store(backend, graph, db_root=db_root) as store:
        for i, query in enumerate(queries):
            attempt = CypherAttempt(uid=f"q{i}", model="engine_rows", cypher=query,
                                    raw_reply=query, usage=LLMUsage())
            outcome = run_query(store, attempt, timeout_s=20.0, max_rows=10_000)
            yield {"query": query, "executed": outcome.cypher_executed,
                   "rewrites": list(outcome.rewrites), "valid": outcome.valid,
                   "error": outcome.error or "", "rows": outcome.rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dsgqa.engine_rows",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND,
                        choices=EMBEDDED_BACKENDS)
    parser.add_argument("--scene-graph", type=Path, default=None)
    args = parser.parse_args(argv)
    queries = json.load(sys.stdin)
    if not (isinstance(queries, list) and all(isinstance(q, str) for q in queries)):
        parser.error("stdin must hold a JSON list of query strings")
    graph = load_scene_graph(args.scene_graph) if args.scene_graph else tiny_graph()
    with tempfile.TemporaryDirectory(prefix="engine-rows-") as scratch:
        for result in engine_rows(args.backend, graph, queries, Path(scratch)):
            print(json.dumps(result, default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
