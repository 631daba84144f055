"""The QA stages over batches of questions, with per-item cache keys over their real inputs.

Each function is what one Prefect task runs (tasks/qa.py). Keys:
- generate-cypher: question, model fingerprint, schema text, prompt templates, stage code
- run-query: the Cypher text, graph fingerprint, backend, time limit, row cap, stage code
  (translator grammar and passes included, and the rows' canonical order)
- refine: question, the query outcome's columns/rows/error, model, prompt templates, stage code
- compare: not cached (cheap and pure; a fixed comparator must rescore old answers)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from benchcore import extract
from benchcore.batch import Outcome, carried, run_items
from benchcore.item_cache import ItemCache, item_key, source_version
from benchcore.llm.base import LLMClient
from benchcore.names import Stage
from benchcore.text_safety import safe_text, safe_value
from dsgqa import canonical_rows, execution_match, prompts, records, stages
from dsgqa.dialect import translator_version
from dsgqa.execution_match import _same_rows, reference_order, rows_match
from dsgqa.graphstore import (
    GraphStore,
    base,
    error_kind,
    kuzu_store,
    layout,
    neo4j_store,
    query_worker,
    write_guard,
)
from dsgqa.graphstore.engine import engine_version
from dsgqa.prompts import CYPHER_TEMPLATES, REFINE_TEMPLATES, prompt_hash
from dsgqa.questions import Question
from dsgqa.records import AgentRun, CypherAttempt, QueryOutcome, RefinedAnswer, Verdict
from dsgqa.stages import generate_cypher as generate_module
from dsgqa.stages import refine as refine_module
from dsgqa.stages import run_query as run_query_module

QUERY_WORKERS = 4
# Answers a retry may change: not kept in the item cache, so the next run asks again.
TRANSIENT_QUERY_ERRORS = ("query timed out", "query worker died")
# Everything that shapes a stage's output besides its inputs: editing it invalidates results.
RECORDS_CODE = source_version(records, extract, prompts)
# The rows' order is part of a cached query outcome: the canonical order and the decision
# that a query orders its own result (`execution_match.query_order`, `dialect.result_order`,
# the latter inside `translator_version`) shape it, so cached rows in another order are never
# served as canonical. So does the reading of the engine's values (`graphstore/base.py`'s
# `plain_value`: a path read as a map was cached as one).
QUERY_CODE = source_version(run_query_module, write_guard, kuzu_store, neo4j_store,
                             query_worker, records, error_kind, layout, canonical_rows,
                             execution_match, base) + translator_version()


def keep_query(outcome: QueryOutcome) -> bool:
    """Whether a query's outcome may be cached: not when a retry might change it. That is a
    timeout of any engine (Kuzu's own message, or Neo4j's `TransactionTimedOut`, both of kind
    `timeout`), a query worker that died, or the query path itself failing (a transient
    database error the agent's tool reports as `run-query: …`)."""
    if outcome.valid:
        return True
    error = outcome.error or ""
    return not (outcome.query_error_kind == "timeout"
                or error.startswith((*TRANSIENT_QUERY_ERRORS, f"{Stage.RUN_QUERY}:")))


def short_hash(text: str) -> str:
    """A text's digest as a cache-key part (a schema, a serialized graph)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fresh_calls(usage_holder: CypherAttempt | RefinedAnswer) -> int:
    """1 when the holder's reply was a fresh call, 0 when it came from the response cache."""
    return 0 if usage_holder.usage.cached else 1


def generate_cypher_batch(
    questions: Sequence[Question], client: LLMClient, schema: str, cache: ItemCache | None,
    refresh: bool = False,
) -> list[Outcome[CypherAttempt]]:
    version = (source_version(generate_module), RECORDS_CODE, prompt_hash(*CYPHER_TEMPLATES),
               short_hash(schema), client.config.fingerprint())
    return run_items(
        Stage.GENERATE_CYPHER, questions, uid_of=lambda q: q.uid,
        key_of=lambda q: item_key(Stage.GENERATE_CYPHER, q.fingerprint(), *version),
        compute=lambda q: stages.generate_cypher(q, client, schema),
        cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=fresh_calls, one_core=True,
    )


def run_query_batch(
    attempts: Sequence[Outcome[CypherAttempt]], run: QueryRunner,
    references: Mapping[str, str] | None = None,
) -> list[Outcome[QueryOutcome]]:
    """Each model query's outcome; where `references` (uid -> reference Cypher) has the item,
    the reference runs the same way (guard, translation, limits, cache) and the outcome says
    whether the rows match (`execution_match`)."""
    ready = [a for a in attempts if a.ok]
    done = with_execution_matches(run(ready), run, references or {})
    return _merge(attempts, done, Stage.RUN_QUERY)


class QueryRunner:
    """Runs queries as the run-query stage does (guard, translation, limits), item-cached by
    the query text and `version`: everything that shapes its rows (stage code, graph, backend
    and engine version, the database build, memory and time limits, row cap). A stage that
    keeps such rows in its own cache (the agent's) keys them on the same `version`."""

    def __init__(self, store: GraphStore, graph_fingerprint: str, timeout_s: float,
                 max_rows: int, cache: ItemCache | None, refresh: bool = False) -> None:
        self.store, self.timeout_s, self.max_rows = store, timeout_s, max_rows
        self.cache, self.refresh = cache, refresh
        self.version = (QUERY_CODE, graph_fingerprint, store.backend,
                        engine_version(store.backend), getattr(store, "memory_limit_mb", None),
                        timeout_s, max_rows, getattr(store, "build_id", None))

    def __call__(self, attempts: Sequence[Outcome[CypherAttempt]]
                 ) -> list[Outcome[QueryOutcome]]:
        return run_items(
            Stage.RUN_QUERY, attempts, uid_of=lambda a: a.uid,
            key_of=lambda a: item_key(Stage.RUN_QUERY, a.value.cypher, *self.version),
            compute=lambda a: storable_outcome(stages.run_query(
                self.store, a.value, timeout_s=self.timeout_s, max_rows=self.max_rows)),
            cache=self.cache, workers=QUERY_WORKERS, refresh=self.refresh, keep=keep_query,
        )


def with_execution_matches(
    done: list[Outcome[QueryOutcome]], run: QueryRunner, references: Mapping[str, str],
) -> list[Outcome[QueryOutcome]]:
    """The outcomes with `execution_match` set where the item has a reference query."""
    wanted = {o.uid: references[o.uid] for o in done if references.get(o.uid)}
    if not wanted:
        return done
    reference_attempts = [Outcome(uid=uid, value=reference_attempt(uid, cypher))
                          for uid, cypher in wanted.items()]
    by_uid = {o.uid: o for o in run(reference_attempts)}
    return [_with_execution_match(o, by_uid.get(o.uid), wanted.get(o.uid, "")) for o in done]


_NO_USAGE = records.LLMUsage()


def matches_reference(rows: Sequence[Sequence[Any]], reference: Sequence[Sequence[Any]],
                      reference_cypher: str) -> bool:
    """`rows_match` with the order of `reference_cypher`'s result, read only where it can
    change the verdict: rows of another count never match, and the very rows of the
    reference always do. A cached rerun's answers are mostly one or the other, and reading
    the order first builds the Cypher parser (0.3-0.6 s, which the run-query, agent and
    run-code stages all waited for). Here, not in `execution_match`, whose source is part of
    the query stages' cache keys."""
    if len(rows) != len(reference):
        return False
    if _same_rows(rows, reference):
        return True
    return rows_match(rows, reference, ordered=reference_order(reference_cypher))


def reference_attempt(uid: str, cypher: str) -> CypherAttempt:
    """A question's reference query as an attempt the run-query path can take. Built without
    validation (its fields are a question's validated text): the run-query stage of a cached
    rerun builds one per question and model, and validating them cost more than their cache
    lookups."""
    return CypherAttempt.model_construct(uid=uid, model="reference", cypher=cypher,
                                         raw_reply="", usage=_NO_USAGE)


def _with_execution_match(outcome: Outcome[QueryOutcome], ran: Outcome[QueryOutcome] | None,
                          reference_cypher: str) -> Outcome[QueryOutcome]:
    """The outcome with `execution_match` set. A reference that failed or timed out leaves it
    unset this time, and the item unsettled: a rerun runs the reference again."""
    if ran is not None and not (ran.ok and ran.settled):
        outcome = replace(outcome, settled=False)
    reference = ran.value if ran is not None and ran.ok else None
    if not outcome.ok or reference is None or not reference.valid or reference.truncated:
        return outcome  # nothing trustworthy to compare with
    value = outcome.value
    match = value.valid and not value.truncated and matches_reference(
        value.rows, reference.rows, reference_cypher)
    return replace(outcome, value=value.model_copy(update={"execution_match": match}))


def storable_outcome(outcome: QueryOutcome) -> QueryOutcome:
    """Rows and the database's error text as the tables can store them (a graph's strings or
    an engine message may hold lone surrogates or, echoed back, a secret)."""
    return outcome.model_copy(update={
        "columns": safe_value(outcome.columns), "rows": safe_value(outcome.rows),
        "error": None if outcome.error is None else safe_text(outcome.error),
    })


def refine_batch(
    questions: Sequence[Question], outcomes: Sequence[Outcome[QueryOutcome]],
    client: LLMClient, cache: ItemCache | None, refresh: bool = False,
) -> list[Outcome[RefinedAnswer]]:
    version = (source_version(refine_module), RECORDS_CODE, prompt_hash(*REFINE_TEMPLATES),
               client.config.fingerprint())
    pairs = [(q, o) for q, o in zip(questions, outcomes, strict=True) if o.ok]

    def key(pair: tuple[Question, Outcome[QueryOutcome]]) -> str:
        q, o = pair
        seen = o.value.model_dump(include={"cypher", "valid", "error", "columns", "rows",
                                           "truncated"})
        return item_key(Stage.REFINE, q.fingerprint(), seen, *version)

    done = run_items(
        Stage.REFINE, pairs, uid_of=lambda p: p[0].uid, key_of=key,
        compute=lambda p: stages.refine(p[0], p[1].value, client),
        cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=fresh_calls, one_core=True,
    )
    return _merge(outcomes, done, Stage.REFINE)


def compare_batch(
    questions: Sequence[Question],
    answers: Sequence[Outcome[RefinedAnswer]] | Sequence[Outcome[AgentRun]],
) -> list[Outcome[Verdict]]:
    """Scores any pipeline's answers (a refined answer or an agent's final answer)."""
    pairs = [(q, a) for q, a in zip(questions, answers, strict=True) if a.ok]
    done = run_items(Stage.COMPARE, pairs, uid_of=lambda p: p[0].uid, key_of=lambda p: "",
                     compute=lambda p: stages.compare(p[0], p[1].value), cache=None,
                     workers=1)
    return _merge(answers, done, Stage.COMPARE)


def _merge(previous: Sequence[Outcome], done: list[Outcome], stage: str) -> list[Outcome]:
    """This stage's outcomes in the original order; items that failed earlier carry over."""
    by_uid = iter(done)
    return [next(by_uid) if p.ok else carried(p, stage) for p in previous]
