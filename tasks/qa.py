"""The QA track's stages as Prefect tasks. Named as the stages are: generate-cypher, run-query,
refine, compare; plus load-questions and load-graph, which feed them."""

from __future__ import annotations

from prefect import task

from dsgqa import stages
from dsgqa.config import QAConfig
from dsgqa.graph_handle import GraphHandle, open_graph
from dsgqa.graphstore import GraphStore
from dsgqa.llm.base import LLMClient
from dsgqa.questions import Question, QuestionSet, load_question_set
from dsgqa.records import CypherAttempt, QueryOutcome, RefinedAnswer, Verdict
from tasks.policies import STAGE_CACHE, retry_transient

_RETRIES = {"retries": 2, "retry_delay_seconds": [1, 5], "retry_condition_fn": retry_transient}


@task(name="load-questions", persist_result=False)
def load_questions(path: str) -> QuestionSet:
    return load_question_set(path)


@task(name="load-graph", persist_result=False, **_RETRIES)
def load_graph(qa: QAConfig) -> GraphHandle:
    """Not cached by Prefect: it returns a live store. The database on disk is the cache (keyed
    by the graph's fingerprint), so a rerun reopens it instead of reloading."""
    return open_graph(qa)


@task(name="generate-cypher", cache_policy=STAGE_CACHE, persist_result=True, **_RETRIES)
def generate_cypher(
    question: Question, model_id: str, schema: str, prompt_hash: str, client: LLMClient
) -> CypherAttempt:
    """Cache key: question, model fingerprint, schema text (generated from the graph, so it
    covers the graph's content and dialect notes) and the prompt templates' hash."""
    return stages.generate_cypher(question, client, schema)


@task(name="run-query", cache_policy=STAGE_CACHE, persist_result=True, **_RETRIES)
def run_query(
    attempt: CypherAttempt,
    graph_fingerprint: str,
    backend: str,
    timeout_s: float,
    max_rows: int,
    store: GraphStore,
) -> QueryOutcome:
    return stages.run_query(store, attempt, timeout_s=timeout_s, max_rows=max_rows)


@task(name="refine", cache_policy=STAGE_CACHE, persist_result=True, **_RETRIES)
def refine(
    question: Question, outcome: QueryOutcome, model_id: str, prompt_hash: str, client: LLMClient
) -> RefinedAnswer:
    return stages.refine(question, outcome, client)


@task(name="compare", persist_result=False)
def compare(question: Question, answer: RefinedAnswer) -> Verdict:
    """Not cached: it is cheap and pure, and a fixed comparator must rescore old answers."""
    return stages.compare(question, answer)
