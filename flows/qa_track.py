"""The scene-graph QA track: generate-cypher -> run-query -> refine -> compare, per model and
question, then the results table.

Split in two so the benchmark flow can start both tracks before waiting on either: `submit_qa`
schedules every stage and returns at once; `finish_qa` waits and writes the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.artifacts import create_markdown_artifact, create_table_artifact

from dsgqa.config import BenchmarkConfig
from dsgqa.graph_handle import GraphHandle
from dsgqa.llm import build_client
from dsgqa.llm.cache import call_counts
from dsgqa.prompts import CYPHER_TEMPLATES, REFINE_TEMPLATES, prompt_hash
from dsgqa.results import QATrackSummary
from flows._collect import ItemFutures, collect
from tasks.qa import compare, generate_cypher, load_graph, load_questions, refine, run_query
from tasks.results import write_qa_results


@dataclass
class PendingQA:
    graph: GraphHandle
    clients: list[object]
    items: list[ItemFutures]


def submit_qa(config: BenchmarkConfig) -> PendingQA:
    assert config.qa is not None
    qa = config.qa
    questions = load_questions(qa.questions)
    graph = load_graph(qa)
    cypher_hash, refine_hash = prompt_hash(*CYPHER_TEMPLATES), prompt_hash(*REFINE_TEMPLATES)
    clients = [build_client(m, config.llm_cache_dir, questions.by_uid()) for m in config.models]
    pending = []
    for model, client in zip(config.models, clients, strict=True):
        for question in questions.questions:
            attempt = generate_cypher.submit(
                question, model.fingerprint(), graph.schema, cypher_hash, client=client
            )
            outcome = run_query.submit(
                attempt, graph.fingerprint, graph.backend, qa.query_timeout_s, qa.max_rows,
                store=graph.store,
            )
            answer = refine.submit(
                question, outcome, model.fingerprint(), refine_hash, client=client
            )
            verdict = compare.submit(question, answer)
            pending.append(ItemFutures(question, model.label, attempt, outcome, answer, verdict))
    return PendingQA(graph=graph, clients=clients, items=pending)


def finish_qa(pending: PendingQA, run_dir: Path) -> QATrackSummary:
    items = collect(pending.items, pending.graph.backend)
    pending.graph.store.close()
    summary = write_qa_results(items, run_dir, call_counts(pending.clients))
    create_table_artifact(
        table=summary.overall_records, key="qa-summary",
        description=f"QA accuracy per model ({summary.questions} questions)",
    )
    create_markdown_artifact(markdown=summary.markdown, key="qa-results",
                             description=f"QA results table: {summary.paths['markdown']}")
    return summary
