"""Several QA pipelines in one run through the real flow: feed-forward, agentic and in-context
side by side in the results, summaries, transcripts and report; and an agentic run killed with
kill -9, then rerun: finished conversations cost nothing, cut ones resume at their missing turn."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.llm.cache import ResponseCache
from benchcore.run_config import BenchmarkConfig, PipelineConfig, QAConfig
from dsgqa.results import transcript_file
from tests.fake_model import (
    DEMO_GRAPH,
    ReferenceAgent,
    cached_asks,
    demo_subset,
    loopback_model,
    serve,
)
from tests.flow_process import start_flow_process

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")

UIDS = {"apt01", "apt02", "apt04", "apt05", "apt06", "apt07"}


def _qa(tmp_path: Path, questions: Path, pipelines: list) -> QAConfig:
    return QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs"), pipelines=pipelines)


def test_three_pipelines_side_by_side(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, _ = demo_subset(tmp_path, UIDS)
    oracle = ModelConfig(name="reference", provider="oracle")
    tiny = ModelConfig(name="tiny-context", provider="oracle", context_tokens=50)
    config = BenchmarkConfig(
        run_id="pipes", results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "c"),
        models=[oracle, tiny],
        qa=_qa(tmp_path, questions, [
            PipelineConfig(kind="feedforward", models=["reference"]),
            PipelineConfig(kind="agentic", models=["reference"]),
            PipelineConfig(kind="in_context", variant="full"),
        ]),
    )
    summary = nlp_dsg_benchmark(config)
    run_dir = tmp_path / "results/pipes"
    rows = pd.read_csv(run_dir / "qa_results.csv", keep_default_na=False)
    by = rows.groupby(["model", "pipeline"])
    assert by.size().to_dict() == {
        ("oracle:reference", "agentic"): 6, ("oracle:reference", "feedforward"): 6,
        ("oracle:reference", "in_context_full"): 6, ("oracle:tiny-context", "in_context_full"): 6}
    reference = rows[rows["model"] == "oracle:reference"]
    assert reference["correct"].all()
    calls = reference.groupby("pipeline")["llm_calls"].unique().to_dict()
    assert {k: list(v) for k, v in calls.items()} == {
        "agentic": [2], "feedforward": [2], "in_context_full": [1]}
    in_context = reference[reference["pipeline"] == "in_context_full"]
    assert (in_context["context_tokens"] > 1_000).all() and (in_context["cypher"] == "").all()
    agentic = reference[reference["pipeline"] == "agentic"]
    assert (agentic["stop_reason"] == "answered_after_query").all()
    assert agentic["transcript"].str.contains(r"\[1\] model: run_cypher").all()
    assert agentic["execution_match"].astype(str).eq("True").all()
    # A prompt larger than the model's context window is an item error, not a call.
    tiny_rows = rows[rows["model"] == "oracle:tiny-context"]
    assert tiny_rows["error"].str.contains("more than model tiny-context's context_tokens 50").all()
    assert summary.qa.errors == 6

    transcript = run_dir / "transcripts" / transcript_file("oracle:reference", "agentic")
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert sorted(line["uid"] for line in lines) == sorted(UIDS)
    roles = [m["role"] for m in lines[0]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert lines[0]["messages"][2]["tool_calls"][0]["function"]["name"] == "run_cypher"

    overall = pd.read_csv(run_dir / "qa_summary.csv")
    assert set(zip(overall["model"], overall["pipeline"], strict=True)) == set(by.size().index)
    by_tag = pd.read_csv(run_dir / "qa_summary_by_tag.csv")
    assert {"pipeline", "tag", "llm_calls", "seconds"} <= set(by_tag.columns)
    html = (run_dir / "report/report.html").read_text()
    assert "Pipelines side by side" in html and "agent transcript" in html
    assert "oracle:reference · agentic" in html


def test_kill_9_mid_conversation_then_rerun_resumes(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, known = demo_subset(tmp_path, UIDS)
    agent = ReferenceAgent(known, latency_s=0.2)
    cache_dir = tmp_path / "cache/llm"
    with serve(agent) as server:
        model = loopback_model("fake-agent", server)
        config = BenchmarkConfig(
            run_id="agent-killed", results_dir=str(tmp_path / "results"),
            cache_dir=str(tmp_path / "cache"), models=[model],
            qa=_qa(tmp_path, questions, ["agentic"]))
        process = start_flow_process(config, tmp_path)
        try:
            # Kill while a second turn is in flight (its first turn is already cached), after
            # at least one conversation's second turn reached the cache.
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (
                    len(agent.asked) >= 7 and agent.asked[-1][1] == 2
                    and any(turn == 2 for _, turn in cached_asks(agent, model, cache_dir))):
                time.sleep(0.02)
            os.killpg(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=30)
        before_kill = list(agent.asked)
        assert len(before_kill) < 2 * len(UIDS), "the kill did not land mid-run"
        cached = cached_asks(agent, model, cache_dir)
        assert len(cached) == len(ResponseCache(cache_dir))

        nlp_dsg_benchmark(config)
        rerun = agent.asked[len(before_kill):]

    # Every turn cached before the kill is not asked again and every other turn is asked
    # once: a finished conversation not at all, a cut one only its second turn.
    assert any(turn == 2 for _, turn in cached)
    assert any((uid, 1) in cached and (uid, 2) not in cached for uid in UIDS)
    assert sorted(rerun) == sorted({(uid, turn) for uid in UIDS for turn in (1, 2)} - cached)
    rows = pd.read_csv(tmp_path / "results/agent-killed/qa_results.csv", keep_default_na=False)
    assert len(rows) == len(UIDS) and rows["correct"].all()
    assert (rows["llm_calls"] == 2).all()


def test_a_query_timed_out_under_load_is_retried_by_the_rerun_in_every_pipeline(
    tmp_path: Path, monkeypatch,
) -> None:
    """A query (the model's or the reference's) that timed out is a wrong answer this time,
    not an error, and not kept: the run is not recorded for reuse, and the rerun, with the load
    gone, queries again and scores right, in every pipeline."""
    from dsgqa import stage_batches
    from dsgqa.records import QueryOutcome
    from flows.benchmark import nlp_dsg_benchmark

    questions, _ = demo_subset(tmp_path, UIDS)
    config = BenchmarkConfig(
        run_id="loaded", results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "c"),
        models=[ModelConfig(name="reference", provider="oracle")],
        qa=_qa(tmp_path, questions, ["feedforward", "agentic", "in_context"]),
    )
    real_run_query = stage_batches.stages.run_query

    def under_load(store, attempt, timeout_s=10.0, max_rows=200):
        if attempt.uid == "apt04":   # the oracle's query is the reference: both time out
            return QueryOutcome(uid=attempt.uid, backend=store.backend, cypher=attempt.cypher,
                                valid=False, error=f"query timed out after {timeout_s:g} s",
                                query_error_kind="timeout")
        return real_run_query(store, attempt, timeout_s=timeout_s, max_rows=max_rows)

    monkeypatch.setattr(stage_batches.stages, "run_query", under_load)
    loaded = nlp_dsg_benchmark(config)
    assert loaded.qa.errors == 0 and loaded.qa.unsettled == 3    # one item per pipeline
    rows = pd.read_csv(tmp_path / "results/loaded/qa_results.csv", keep_default_na=False)
    assert not rows[rows["uid"] == "apt04"]["correct"].any()

    monkeypatch.setattr(stage_batches.stages, "run_query", real_run_query)   # load is gone
    again = nlp_dsg_benchmark(config)
    assert again.reused_finished_at is None and again.qa.unsettled == 0
    rows = pd.read_csv(tmp_path / "results/loaded/qa_results.csv", keep_default_na=False)
    assert rows["correct"].all()
    assert nlp_dsg_benchmark(config).reused_finished_at   # clean now: recorded and reused
