"""Run a question set's reference queries through the benchmark's own stages on one engine.

`python -m dsgqa.fidelity_check --backend ladybug --questions Q.yaml --scene-graph G.json`
prints one JSON line per question (`uid`, `passed`, `error`, `error_kind`, `answer`, `solution`,
`cypher`).

Why a module with a command line: the test suite checks Ladybug by running it under the
interpreter `LADYBUG_PYTHON` names (this one by default; `tests/ladybug_run.py`), and anyone can
check a new engine version from the shell. Kuzu and Ladybug must never be loaded into one
process; stores build and query in child processes, so this module imports neither itself.
Each question goes the way a benchmark run takes it: the oracle writes the reference Cypher,
`run_query` translates and runs it, the oracle refines the rows into SLDP, and the answer is
compared with the solution.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchcore import external_data
from benchcore.llm.base import ModelConfig
from benchcore.names import DEFAULT_EMBEDDED_BACKEND, EMBEDDED_BACKENDS
from dsgqa.graphstore import open_graph_store
from dsgqa.oracle import OracleClient
from dsgqa.questions import load_question_set
from dsgqa.scene_graph import load_scene_graph
from dsgqa.sldp import sldp_equals
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query

FIDELITY_QUESTIONS = Path(__file__).resolve().parent.parent / "questions/fidelity" \
    / "example_questions.yaml"


def example_graph() -> Path | None:
    """The example Hydra graph the fidelity set is written for, if it is on this machine:
    `NLP_DSG_EXAMPLE_DSG`, else wherever the external data is (`benchcore.external_data`)."""
    named = os.environ.get("NLP_DSG_EXAMPLE_DSG")
    if named and Path(named).is_file():
        return Path(named)
    return external_data.find(external_data.EXAMPLE_DSG)


def check(backend: str, questions: Path, scene_graph: Path,
          db_root: Path) -> Iterator[dict[str, Any]]:
    """One result per question, in the set's order."""
    question_set = load_question_set(questions).questions
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"),
                          {q.uid: q for q in question_set})
    with open_graph_store(backend, load_scene_graph(scene_graph), db_root=db_root) as store:
        for question in question_set:
            attempt = generate_cypher(question, oracle, schema="")
            outcome = run_query(store, attempt)
            answer = refine(question, outcome, oracle).answer
            passed = outcome.valid and not outcome.truncated and sldp_equals(
                answer, question.solution)
            yield {"uid": question.uid, "passed": bool(passed), "error": outcome.error or "",
                   "error_kind": outcome.query_error_kind,
                   "answer": str(answer), "solution": question.solution,
                   "cypher": outcome.cypher_executed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dsgqa.fidelity_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND,
                        choices=EMBEDDED_BACKENDS)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--scene-graph", type=Path, required=True)
    args = parser.parse_args(argv)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="fidelity-") as scratch:
        for result in check(args.backend, args.questions, args.scene_graph, Path(scratch)):
            failed += not result["passed"]
            print(json.dumps(result), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
