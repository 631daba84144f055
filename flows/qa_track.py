"""The scene-graph QA track: generate-cypher -> run-query -> refine -> compare, one task per
(stage, model) over the question set, then the results table.

Split in two so the benchmark flow can start both tracks before waiting on either: `submit_qa`
schedules every stage and returns at once; `finish_qa` waits and writes the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.futures import PrefectFuture
from prefect.utilities.annotations import quote

from benchcore.batch import one_line_error
from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig
from benchcore.track_summary import TrackSummary
from dsgqa.graph_handle import close_shared_graphs
from dsgqa.questions import QuestionSet
from dsgqa.results import ItemResult, QATrackError, assemble_items, failed_items
from flows._collect import outcomes_or_failures
from tasks.qa import (
    compare,
    generate_cypher,
    load_graph,
    load_questions,
    refine,
    run_query,
    write_qa_results,
)


@dataclass
class ModelStages:
    model: ModelConfig
    attempts: PrefectFuture
    outcomes: PrefectFuture
    answers: PrefectFuture
    verdicts: PrefectFuture


@dataclass
class PendingQA:
    questions: QuestionSet | None
    backend: str
    models: list[ModelStages]
    config: BenchmarkConfig
    error: str | None = None


def submit_qa(config: BenchmarkConfig) -> PendingQA:
    """Never raises: a question file or database that cannot be loaded becomes the error of
    every QA item, so the planning track (already running) still gets its tables written."""
    assert config.qa is not None
    qa, run = config.qa, config.run_options()
    try:
        questions = load_questions(qa.questions)
    except Exception as error:
        return PendingQA(None, qa.backend, [], config, f"load-questions: {one_line_error(error)}")
    try:
        graph = load_graph(qa)
    except Exception as error:
        return PendingQA(questions, qa.backend, [], config,
                         f"load-graph: {one_line_error(error)}")
    stages = []
    for model in config.models:
        attempts = generate_cypher.submit(qa.questions, model, graph, run)
        outcomes = run_query.submit(attempts, model, qa, graph, run)
        answers = refine.submit(qa.questions, outcomes, model, run)
        verdicts = compare.submit(qa.questions, answers, model)
        stages.append(ModelStages(model, attempts, outcomes, answers, verdicts))
    return PendingQA(questions=questions, backend=graph.backend, models=stages, config=config)


def finish_qa(pending: PendingQA, run_dir: Path) -> TrackSummary:
    if pending.questions is None:
        raise QATrackError(f"QA track: {pending.error}")
    if pending.error:
        items = failed_items(pending.questions.questions, pending.config.models,
                             pending.backend, pending.error)
    else:
        items = _collect(pending)
    close_shared_graphs()
    # quote(): Prefect would otherwise walk every record of every item looking for futures.
    summary = write_qa_results(quote(items), run_dir)
    create_table_artifact(
        table=summary.overall_records, key="qa-summary",
        description=f"QA accuracy per model ({summary.units} questions)",
    )
    create_markdown_artifact(markdown=summary.markdown, key="qa-results",
                             description=f"QA results table: {summary.paths['markdown']}")
    return summary


def _collect(pending: PendingQA) -> list[ItemResult]:
    assert pending.questions is not None
    uids = [q.uid for q in pending.questions.questions]
    items = []
    for stages in pending.models:
        attempts, outcomes, answers, verdicts = (
            outcomes_or_failures(f, uids)
            for f in (stages.attempts, stages.outcomes, stages.answers, stages.verdicts)
        )
        items += assemble_items(pending.questions.questions, stages.model, pending.backend,
                                attempts, outcomes, answers, verdicts)
    return items
