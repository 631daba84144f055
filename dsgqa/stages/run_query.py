"""Stage 2: run the model's Cypher read-only, with a time limit and a row cap.

Everything the database says is data: a syntax error, a write attempt or a timeout becomes
`valid=False` with the error text, never an exception that would sink the run.
"""

from __future__ import annotations

from dsgqa.graphstore import GraphStore
from dsgqa.records import CypherAttempt, QueryOutcome


def run_query(
    store: GraphStore, attempt: CypherAttempt, timeout_s: float = 10.0, max_rows: int = 200
) -> QueryOutcome:
    if not attempt.cypher.strip():
        return QueryOutcome(uid=attempt.uid, backend=store.backend, cypher="", valid=False,
                            error="the model wrote no query")
    result = store.query(attempt.cypher, timeout_s=timeout_s, max_rows=max_rows)
    return QueryOutcome(
        uid=attempt.uid,
        backend=store.backend,
        cypher=attempt.cypher,
        valid=result.valid,
        error=result.error,
        columns=list(result.columns),
        rows=[list(row) for row in result.rows],
        truncated=result.truncated,
        seconds=result.seconds,
    )
