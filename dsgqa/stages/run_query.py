"""Stage 2: run the model's Cypher read-only, with a time limit and a row cap.

Everything the database says is data: a syntax error, a write attempt or a timeout becomes
`valid=False` with the error text and its kind (`query_error_kind`), never an exception that
would sink the run.

The model writes Neo4j Cypher for Heracles' graph. On the embedded engines (Kuzu, Ladybug) the
query is translated first (`dsgqa.dialect`); Neo4j gets it unchanged. The write guard sees the
model's query before translation and the translated query again inside `GraphStore.query`, so a
rewrite can never turn a refused write into an accepted one.
"""

from __future__ import annotations

from dsgqa.dialect import KUZU_DIALECT, CypherSyntaxError, DialectError, translate
from dsgqa.graphstore import GraphStore
from dsgqa.graphstore.error_kind import engine_error_kind, guard_kind
from dsgqa.graphstore.write_guard import write_violation
from dsgqa.records import CypherAttempt, QueryOutcome


def run_query(
    store: GraphStore, attempt: CypherAttempt, timeout_s: float = 10.0, max_rows: int = 200
) -> QueryOutcome:
    def failed(error: str, kind: str, executed: str = "",
               rewrites: tuple[str, ...] = ()) -> QueryOutcome:
        return QueryOutcome(uid=attempt.uid, backend=store.backend, cypher=attempt.cypher,
                            cypher_executed=executed, rewrites=list(rewrites), valid=False,
                            error=error, query_error_kind=kind)

    if not attempt.cypher.strip():
        return failed("the model wrote no query", "syntax")
    refused = write_violation(attempt.cypher)
    if refused:
        return failed(refused, guard_kind(refused))
    executed, rewrites = attempt.cypher, ()
    if store.backend in KUZU_DIALECT:
        try:
            translation = translate(attempt.cypher, store.backend)  # type: ignore[arg-type]
        except CypherSyntaxError as exc:
            return failed(f"not Cypher: {exc}", "syntax")
        except DialectError as exc:
            return failed(f"no {store.backend} equivalent: {exc}", "dialect")
        executed, rewrites = translation.query, translation.rewrites
        refused = write_violation(executed)
        if refused:  # never expected: a rewrite must not introduce a write
            return failed(refused, "refused", executed, rewrites)
    result = store.query(executed, timeout_s=timeout_s, max_rows=max_rows)
    kind = "" if result.valid else engine_error_kind(result.error or "", store.backend)
    return QueryOutcome(
        uid=attempt.uid,
        backend=store.backend,
        cypher=attempt.cypher,
        cypher_executed=executed,
        rewrites=list(rewrites),
        valid=result.valid,
        error=result.error,
        query_error_kind=kind,
        columns=list(result.columns),
        rows=[list(row) for row in result.rows],
        truncated=result.truncated,
        seconds=result.seconds,
    )
