"""Stage 2: run the model's Cypher read-only, with a time limit and a row cap.

Everything the database says is data: a syntax error, a write attempt or a timeout becomes
`valid=False` with the error text and its kind (`query_error_kind`), never an exception that
would sink the run.

The model writes Neo4j Cypher for Heracles' graph. On the embedded engines (Kuzu, Ladybug) the
query is translated first (`dsgqa.dialect`); Neo4j gets it unchanged. The write guard sees the
model's query before translation and the translated query again inside `GraphStore.query`, so a
rewrite can never turn a refused write into an accepted one.

The rows leave in one canonical order (`dsgqa.canonical_rows`) unless the query orders its
result (an ORDER BY in its final RETURN, `dialect.result_order`): an engine's order for other
queries changes from one execution to the next, and the rows are prompted, cached, compared and
shown from here. An ordered query keeps the engine's order, except that rows tied on every sort
key, when the sort keys are returned columns, are put in canonical order among themselves (the
query defines no order between them). Every pipeline's queries come through here: the
feed-forward run-query stage, the agent's `run_cypher` tool, the reference queries (execution
accuracy, the in-context oracle's rows) and the question generator.
"""

from __future__ import annotations

from typing import Any

from dsgqa.canonical_rows import canonical_rows, canonical_ties
from dsgqa.dialect import (
    KUZU_DIALECT,
    CypherSchemaError,
    CypherSyntaxError,
    DialectError,
    translate,
)
from dsgqa.dialect.result_order import ResultOrder
from dsgqa.execution_match import query_order
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
    executed: str = attempt.cypher
    rewrites: tuple[str, ...] = ()
    distinct_rows = False
    max_hops = None
    if store.backend in KUZU_DIALECT:
        try:
            translation = translate(attempt.cypher, store.backend)  # type: ignore[arg-type]
        except CypherSyntaxError as exc:
            return failed(f"not Cypher: {exc}", "syntax")
        except CypherSchemaError as exc:
            return failed(f"not in the graph: {exc}", "schema")
        except DialectError as exc:
            return failed(f"no {store.backend} equivalent: {exc}", "dialect")
        executed, rewrites, order = translation.query, translation.rewrites, translation.order
        distinct_rows = translation.distinct_rows
        max_hops = translation.max_hops
        refused = write_violation(executed)
        if refused:  # never expected: a rewrite must not introduce a write
            return failed(refused, "refused", executed, rewrites)
    else:  # Neo4j runs the text as written: its order is read from the text
        order = query_order(attempt.cypher)
    result = store.query(executed, timeout_s=timeout_s, max_rows=max_rows,
                         distinct_rows=distinct_rows, max_hops=max_hops)
    kind = "" if result.valid else engine_error_kind(result.error or "", store.backend,
                                                     attempt.cypher)
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
        rows=rows_in_order(result.rows, order),
        truncated=result.truncated,
        seconds=result.seconds,
    )


def rows_in_order(rows: Any, order: ResultOrder | None) -> list[list[Any]]:
    """The rows as the stage hands them on: canonical order for a query that does not order
    its result; the engine's order, ties on returned sort keys made canonical, for one that
    does; the engine's order alone when its sort keys are not all returned."""
    if order is None:
        return canonical_rows(rows)
    if order.keys is None:
        return [list(row) for row in rows]
    return canonical_ties(rows, order.keys)
