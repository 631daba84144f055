"""The scene-graph QA track, one task per (stage, model, pipeline) over the question set, then
the results table. Pipelines: feed-forward generate-cypher -> run-query -> refine -> compare;
agentic agent -> compare; in-context in-context -> compare; codegen generate-code -> run-code
-> refine -> compare.

Split in two so the benchmark flow can start both tracks before waiting on either: `submit_qa`
schedules every stage and returns at once; `finish_qa` waits and writes the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.futures import PrefectFuture
from prefect.utilities.annotations import quote

from benchcore.batch import Outcome, one_line_error
from benchcore.chunks import Chunk, chunks
from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, PipelineConfig, QAConfig, RunOptions
from benchcore.track_summary import TrackSummary
from dsgqa.graph_handle import GraphInfo, close_shared_graphs
from dsgqa.questions import QuestionSet
from dsgqa.results import (
    ItemResult,
    QATrackError,
    assemble_agent_items,
    assemble_codegen_items,
    assemble_in_context_items,
    assemble_items,
    failed_items,
)
from flows._artifacts import publish_qa
from flows._collect import outcomes_or_failures
from tasks.qa import (
    agent,
    compare,
    generate_code,
    generate_cypher,
    in_context,
    load_graph,
    load_questions,
    refine,
    refine_code,
    run_code,
    run_query,
    write_qa_results,
)


@dataclass
class PipelineStages:
    """One (model, pipeline)'s submitted stages, in order (the last is compare), for each chunk
    of the question set."""

    model: ModelConfig
    pipeline: PipelineConfig
    chunks: list[tuple[Chunk, list[PrefectFuture]]]


@dataclass
class PendingQA:
    questions: QuestionSet | None
    backend: str
    models: list[PipelineStages]
    config: BenchmarkConfig
    error: str | None = None

    def answerers(self) -> list[tuple[ModelConfig, str]]:
        assert self.config.qa is not None
        return [(m, p.label) for m in self.config.models
                for p in self.config.qa.pipelines_for(m)]


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
    parts = chunks(len(questions.questions), qa.chunk_size)
    stages = [PipelineStages(model, pipeline, [
                  (chunk, _submit(pipeline, model, qa, graph, run, chunk)) for chunk in parts])
              for model in config.models for pipeline in qa.pipelines_for(model)]
    return PendingQA(questions=questions, backend=graph.backend, models=stages, config=config)


def _submit(pipeline: PipelineConfig, model: ModelConfig, qa: QAConfig, graph: GraphInfo,
            run: RunOptions, chunk: Chunk) -> list[PrefectFuture]:
    if pipeline.kind == "agentic":
        answered = [agent.submit(qa.questions, model, pipeline, qa, graph, run, chunk)]
    elif pipeline.kind == "in_context":
        answered = [in_context.submit(qa.questions, model, pipeline, qa, graph, run, chunk)]
    elif pipeline.kind == "codegen":
        code = generate_code.submit(qa.questions, model, qa, run, chunk)
        ran = run_code.submit(code, model, pipeline, qa, graph, run, chunk)
        answered = [code, ran, refine_code.submit(qa.questions, ran, model, run, chunk)]
    else:
        attempts = generate_cypher.submit(qa.questions, model, graph, run, chunk)
        outcomes = run_query.submit(attempts, model, qa, graph, run, chunk)
        answered = [attempts, outcomes, refine.submit(qa.questions, outcomes, model, run, chunk)]
    return [*answered, compare.submit(qa.questions, answered[-1], model, pipeline.label, chunk)]


def finish_qa(pending: PendingQA, run_dir: Path) -> TrackSummary:
    if pending.questions is None:
        raise QATrackError(f"QA track: {pending.error}")
    if pending.error:
        items = failed_items(pending.questions.questions, pending.answerers(),
                             pending.backend, pending.error)
    else:
        items = _collect(pending)
    close_shared_graphs()
    # quote(): Prefect would otherwise walk every record of every item looking for futures.
    summary = write_qa_results(quote(items), run_dir)
    publish_qa(summary)
    return summary


def _collect(pending: PendingQA) -> list[ItemResult]:
    assert pending.questions is not None
    uids = [q.uid for q in pending.questions.questions]
    questions = pending.questions.questions
    items = []
    for submitted in pending.models:
        done = _stage_outcomes(submitted, uids)
        model, pipeline = submitted.model, submitted.pipeline
        if pipeline.kind == "agentic":
            items += assemble_agent_items(questions, model, pending.backend, pipeline.label,
                                          *done)
        elif pipeline.kind == "in_context":
            items += assemble_in_context_items(questions, model, pipeline.label, *done)
        elif pipeline.kind == "codegen":
            items += assemble_codegen_items(questions, model, pipeline.label, *done)
        else:
            items += assemble_items(questions, model, pending.backend, *done,
                                    pipeline=pipeline.label)
    return items


def _stage_outcomes(submitted: PipelineStages, uids: list[str]) -> list[list[Outcome]]:
    """Each stage's outcomes over the whole question set, the chunks' in order (a failed
    chunk task: each of its own items with the task's error)."""
    stages = len(submitted.chunks[0][1])
    return [[outcome for chunk, futures in submitted.chunks
             for outcome in outcomes_or_failures(futures[k], chunk.of(uids))]
            for k in range(stages)]
