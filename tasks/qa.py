"""The QA track's stages as Prefect tasks, one per (stage, model, pipeline) over the question
batch, or over each chunk of it (`chunk`, `QAConfig.chunk_size`): load-questions, load-graph;
feed-forward generate-cypher, run-query, refine; the agentic pipeline's agent; the in-context
pipeline's in-context; codegen generate-code, run-code, refine; compare; results-table.

Inputs are plain configs, file names and records (they hash and pickle, also to Dask workers);
question sets, clients and database handles are looked up per process from those.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from prefect import task

from benchcore import progress
from benchcore.batch import Outcome, Outcomes
from benchcore.chunks import WHOLE, Chunk
from benchcore.item_cache import ItemCache
from benchcore.llm.base import LLMClient, ModelConfig
from benchcore.llm.process_clients import shared_client
from benchcore.names import Stage
from benchcore.run_config import PipelineConfig, QAConfig, RunOptions
from benchcore.track_summary import TrackSummary
from dsgqa.baseline_model import register_baseline_provider
from dsgqa.code_batches import generate_code_batch, refine_code_batch, run_code_batch
from dsgqa.code_prompt import graph_description
from dsgqa.code_sandbox import SandboxLimits
from dsgqa.graph_handle import GraphInfo, shared_graph
from dsgqa.in_context import scene_text
from dsgqa.oracle import register_oracle_provider
from dsgqa.pipeline_batches import agent_batch, in_context_batch, reference_rows
from dsgqa.questions import QuestionSet, shared_question_set
from dsgqa.records import (
    AgentRun,
    CodeAttempt,
    CodeOutcome,
    CypherAttempt,
    QueryOutcome,
    RefinedAnswer,
    Verdict,
)
from dsgqa.results import ItemResult, summarize_qa_run
from dsgqa.stage_batches import (
    QueryRunner,
    compare_batch,
    generate_cypher_batch,
    refine_batch,
    run_query_batch,
)
from tasks.policies import RETRIES

# Model configs of this track may name the oracle, which answers from the question set, and
# the trivial baselines, which answer every question the same trivial way.
register_oracle_provider()
register_baseline_provider()


def _client(model: ModelConfig, questions: QuestionSet, run: RunOptions) -> LLMClient:
    return shared_client(model, run.llm_cache_dir, questions.by_uid(), questions.fingerprint(),
                         run.keys_at_submission)


@task(name="load-questions", persist_result=False)
def load_questions(path: str) -> QuestionSet:
    """Parsed once per process and file content: the stage tasks read the same set."""
    return shared_question_set(path)


@task(name="load-graph", persist_result=False, **RETRIES)
def load_graph(qa: QAConfig) -> GraphInfo:
    """Loads the graph once (reused across runs by fingerprint) and reports what the prompts
    and cache keys need: fingerprint, generated schema, backend."""
    with progress.step("load-graph"):
        return shared_graph(qa).info()


@task(
    name=Stage.GENERATE_CYPHER,
    task_run_name=f"{Stage.GENERATE_CYPHER}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def generate_cypher(
    questions_file: str, model: ModelConfig, graph: GraphInfo, run: RunOptions,
    chunk: Chunk = WHOLE,
) -> Outcomes[CypherAttempt]:
    questions = shared_question_set(questions_file)
    return Outcomes(generate_cypher_batch(
        chunk.of(questions.questions),
        _client(model, questions, run),
        graph.schema,
        ItemCache(run.stage_cache_dir, Stage.GENERATE_CYPHER),
        run.refreshes(Stage.GENERATE_CYPHER),
    ))


@task(
    name=Stage.RUN_QUERY,
    task_run_name=f"{Stage.RUN_QUERY}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def run_query(
    attempts: Sequence[Outcome[CypherAttempt]],
    model: ModelConfig,
    qa: QAConfig,
    graph: GraphInfo,
    run: RunOptions,
    chunk: Chunk = WHOLE,
) -> Outcomes[QueryOutcome]:
    return Outcomes(run_query_batch(attempts, _query_runner(qa, graph, run),
                                    references=_references(shared_question_set(qa.questions))))


def _query_runner(qa: QAConfig, graph: GraphInfo, run: RunOptions) -> QueryRunner:
    return QueryRunner(shared_graph(qa).store, graph.fingerprint, qa.query_timeout_s,
                        qa.max_rows, ItemCache(run.stage_cache_dir, Stage.RUN_QUERY),
                        run.refreshes(Stage.RUN_QUERY))


def _references(questions: QuestionSet) -> dict[str, str]:
    """uid -> reference Cypher, for execution accuracy."""
    return {q.uid: q.cypher for q in questions.questions if q.cypher}


@task(
    name=Stage.AGENT,
    task_run_name=f"{Stage.AGENT}[{{model.name}}, {{pipeline.label}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def agent(
    questions_file: str, model: ModelConfig, pipeline: PipelineConfig, qa: QAConfig,
    graph: GraphInfo, run: RunOptions, chunk: Chunk = WHOLE,
) -> Outcomes[AgentRun]:
    questions = shared_question_set(questions_file)
    return Outcomes(agent_batch(
        chunk.of(questions.questions),
        _client(model, questions, run),
        graph.schema,
        _query_runner(qa, graph, run),
        pipeline.max_iterations,
        ItemCache(run.stage_cache_dir, Stage.AGENT),
        run.refreshes(Stage.AGENT),
        references=_references(questions),
        max_tool_calls=pipeline.max_tool_calls,
    ))


@task(
    name=Stage.IN_CONTEXT,
    task_run_name=f"{Stage.IN_CONTEXT}[{{model.name}}, {{pipeline.label}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def in_context(
    questions_file: str, model: ModelConfig, pipeline: PipelineConfig, qa: QAConfig,
    graph: GraphInfo, run: RunOptions, chunk: Chunk = WHOLE,
) -> Outcomes[RefinedAnswer]:
    questions = shared_question_set(questions_file)
    items = chunk.of(questions.questions)
    oracle_rows = (reference_rows(items, _query_runner(qa, graph, run))
                   if model.provider == "oracle" else None)
    return Outcomes(in_context_batch(
        items,
        _client(model, questions, run),
        scene_text(qa.scene_graph, pipeline.variant),
        pipeline.variant,
        ItemCache(run.stage_cache_dir, Stage.IN_CONTEXT),
        run.refreshes(Stage.IN_CONTEXT),
        oracle_rows=oracle_rows,
    ))


@task(
    name=Stage.REFINE,
    task_run_name=f"{Stage.REFINE}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def refine(
    questions_file: str,
    outcomes: Sequence[Outcome[QueryOutcome]],
    model: ModelConfig,
    run: RunOptions,
    chunk: Chunk = WHOLE,
) -> Outcomes[RefinedAnswer]:
    questions = shared_question_set(questions_file)
    return Outcomes(refine_batch(
        chunk.of(questions.questions),
        outcomes,
        _client(model, questions, run),
        ItemCache(run.stage_cache_dir, Stage.REFINE),
        run.refreshes(Stage.REFINE),
    ))


@task(
    name=Stage.GENERATE_CODE,
    task_run_name=f"{Stage.GENERATE_CODE}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def generate_code(
    questions_file: str, model: ModelConfig, qa: QAConfig, run: RunOptions,
    chunk: Chunk = WHOLE,
) -> Outcomes[CodeAttempt]:
    questions = shared_question_set(questions_file)
    return Outcomes(generate_code_batch(
        chunk.of(questions.questions),
        _client(model, questions, run),
        graph_description(qa.scene_graph),
        ItemCache(run.stage_cache_dir, Stage.GENERATE_CODE),
        run.refreshes(Stage.GENERATE_CODE),
    ))


@task(
    name=Stage.RUN_CODE,
    task_run_name=f"{Stage.RUN_CODE}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def run_code(
    attempts: Sequence[Outcome[CodeAttempt]], model: ModelConfig, pipeline: PipelineConfig,
    qa: QAConfig, graph: GraphInfo, run: RunOptions, chunk: Chunk = WHOLE,
) -> Outcomes[CodeOutcome]:
    return Outcomes(run_code_batch(
        attempts, qa.scene_graph, graph.fingerprint,
        SandboxLimits(timeout_s=pipeline.code_timeout_s),
        ItemCache(run.stage_cache_dir, Stage.RUN_CODE), run.refreshes(Stage.RUN_CODE),
        references=_references(shared_question_set(qa.questions)),
        query_runner=_query_runner(qa, graph, run),
    ))


@task(
    name=Stage.REFINE,
    task_run_name=f"{Stage.REFINE}[{{model.name}}, codegen]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def refine_code(
    questions_file: str, outcomes: Sequence[Outcome[CodeOutcome]], model: ModelConfig,
    run: RunOptions, chunk: Chunk = WHOLE,
) -> Outcomes[RefinedAnswer]:
    questions = shared_question_set(questions_file)
    return Outcomes(refine_code_batch(
        chunk.of(questions.questions), outcomes, _client(model, questions, run),
        ItemCache(run.stage_cache_dir, Stage.REFINE), run.refreshes(Stage.REFINE),
    ))


@task(name=Stage.COMPARE,
      task_run_name=f"{Stage.COMPARE}[{{model.name}}, {{pipeline}}]{{chunk}}",
      persist_result=False)
def compare(
    questions_file: str, answers: Sequence[Outcome[RefinedAnswer]] | Sequence[Outcome[AgentRun]],
    model: ModelConfig, pipeline: str = "feedforward", chunk: Chunk = WHOLE,
) -> Outcomes[Verdict]:
    return Outcomes(compare_batch(chunk.of(shared_question_set(questions_file).questions),
                                  answers))


@task(name="results-table", persist_result=False)
def write_qa_results(items: list[ItemResult], out_dir: Path) -> TrackSummary:
    return summarize_qa_run(items, out_dir)
