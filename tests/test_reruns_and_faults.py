"""Nightly-run robustness: reruns redo only failed work, a kill -9 loses only in-flight items,
and a flaky endpoint (429s, 500s, latency) still gets every item scored exactly once."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.llm.cache import ResponseCache
from benchcore.run_config import BenchmarkConfig, QAConfig
from nlp_dsg_benchmark.cli import main
from tests.fake_model import DEMO_GRAPH, ReferenceModel, demo_subset, serve
from tests.flow_process import start_flow_process

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")

UIDS = {"apt01", "apt02", "apt04", "apt05", "apt06", "apt07", "apt08", "apt09", "apt10",
        "apt11", "apt12", "apt13"}


def _config(tmp_path: Path, questions: Path, base_url: str, run_id: str, cache: str = "cache",
            max_connections: int = 4) -> BenchmarkConfig:
    model = ModelConfig(name="fake-gpt", base_url=base_url, api_key_env="NO_KEY_NEEDED",
                        max_retries=5, timeout_s=10, max_connections=max_connections)
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / cache),
        models=[model],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs")),
    )


def _rows(tmp_path: Path, run_id: str) -> pd.DataFrame:
    rows = pd.read_csv(tmp_path / "results" / run_id / "qa_results.csv", keep_default_na=False)
    # Timings differ; the rows, answers and scores must not (an unordered query's rows come
    # in the canonical order whatever order the engine returned them in).
    return rows.drop(columns=["seconds"]).sort_values("uid").reset_index(drop=True)


def test_rerun_redoes_only_the_errored_items(tmp_path: Path, monkeypatch, capsys) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    monkeypatch.chdir(tmp_path)
    questions, known = demo_subset(tmp_path, {"apt01", "apt04", "apt06", "apt07"})
    flaky = ReferenceModel(known, refuse={"apt06"})
    with serve(flaky) as server:
        first = nlp_dsg_benchmark(_config(tmp_path, questions, server.base_url, "night"))
        assert first.qa.errors == 1
        flaky.refuse.clear()           # the endpoint has recovered
        before = len(server.requests)
        assert main(["rerun", "night", "--only-errored"]) == 0
        rerun_requests = len(server.requests) - before
    assert rerun_requests == 2          # apt06's two calls; every finished item came from cache
    rows = _rows(tmp_path, "night").set_index("uid")
    assert rows["correct"].all() and (rows["error"] == "").all()
    assert "1 errored item(s) will be redone" in capsys.readouterr().out
    # The older spelling still works; a wrong answer is not an error.
    assert main(["rerun", "night", "--only-failed"]) == 0   # nothing errored any more
    assert "no errored items (wrong answers are not errors)" in capsys.readouterr().out


def _artifact_keys(flow_run_id) -> set[str]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(artifact_filter=ArtifactFilter(
            flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id])))
    return {a.key for a in artifacts}


def _stamps(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns
            for p in folder.rglob("*") if p.is_file()}


def test_a_clean_run_rerun_unchanged_is_reused_and_a_changed_one_is_redone(
    tmp_path: Path, monkeypatch, capsys,
) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    monkeypatch.chdir(tmp_path)
    questions, known = demo_subset(tmp_path, {"apt01", "apt04", "apt07"})
    model = ReferenceModel(known)
    run_dir = tmp_path / "results/clean"
    with serve(model) as server:
        config = _config(tmp_path, questions, server.base_url, "clean")
        first = nlp_dsg_benchmark(config)
        assert first.reused_finished_at is None and first.qa.errors == 0
        asked, written = len(server.requests), _stamps(tmp_path / "results")

        state = nlp_dsg_benchmark(config, return_state=True)
        reused = state.result()
        assert len(server.requests) == asked                 # no LLM call
        assert _stamps(tmp_path / "results") == written      # no file rewritten
        assert reused.reused_finished_at and reused.llm_calls()["fresh"] == 0
        assert reused.qa.overall_records == first.qa.overall_records
        assert reused.report_html == first.report_html
        assert _artifact_keys(state.state_details.flow_run_id) >= {
            "qa-summary", "qa-results", "run-summary", "run-headline"}

        assert main(["rerun", "clean"]) == 0                 # the CLI says why nothing ran
        assert "nothing to redo" in capsys.readouterr().out

        # A table edited by hand: the run is redone from the item cache, the table restored.
        rows = run_dir / "qa_results.csv"
        rows.write_text(rows.read_text().replace("True", "False"))
        redone = nlp_dsg_benchmark(config)
        assert redone.reused_finished_at is None and len(server.requests) == asked
        assert redone.llm_calls()["cached_stages"] > 0
        assert _rows(tmp_path, "clean")["correct"].all()
        assert nlp_dsg_benchmark(config).reused_finished_at   # and recorded again

        # --refresh recomputes the stage whatever the record says (its replies still come
        # from the response cache).
        capsys.readouterr()
        assert main(["rerun", "clean", "--refresh", "refine"]) == 0
        printed = capsys.readouterr().out
        assert "nothing to redo" not in printed and "served from the cache: 6" in printed


def test_kill_9_mid_run_then_rerun_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, known = demo_subset(tmp_path, UIDS)
    model = ReferenceModel(known, latency_s=0.1)
    with serve(model) as server:
        config = _config(tmp_path, questions, server.base_url, "killed", max_connections=2)
        process = start_flow_process(config, tmp_path)
        try:
            deadline = time.monotonic() + 120
            while len(server.requests) < 10 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.killpg(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=30)
        served_before_kill = len(server.requests)
        assert 10 <= served_before_kill < 2 * len(UIDS), "the kill did not land mid-run"
        cached = len(ResponseCache(tmp_path / "cache/llm"))

        nlp_dsg_benchmark(config)        # the rerun, same run id and caches
        rerun_requests = len(server.requests) - served_before_kill
        nlp_dsg_benchmark(_config(tmp_path, questions, server.base_url, "clean", cache="clean"))

    # Every reply that reached the cache before the kill is not asked for again.
    assert rerun_requests == 2 * len(UIDS) - cached
    killed, clean = _rows(tmp_path, "killed"), _rows(tmp_path, "clean")
    pd.testing.assert_frame_equal(killed, clean)
    assert killed["correct"].all()


def test_max_connections_is_saturated_never_exceeded(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, known = demo_subset(tmp_path, UIDS)
    model = ReferenceModel(known, latency_s=0.1)
    with serve(model) as server:
        nlp_dsg_benchmark(_config(tmp_path, questions, server.base_url, "limit",
                                  max_connections=3))
    assert model.max_in_flight == 3


def test_flaky_endpoint_scores_every_item_once(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, known = demo_subset(tmp_path, UIDS)
    model = ReferenceModel(known, latency_s=0.02, every_429=5, every_500=11)
    with serve(model) as server:
        summary = nlp_dsg_benchmark(_config(tmp_path, questions, server.base_url, "flaky",
                                            max_connections=6))
    rows = _rows(tmp_path, "flaky")
    item_stages = 2 * len(UIDS)
    assert len(rows) == len(UIDS) and rows["uid"].is_unique
    assert (rows["error"] == "").all() and rows["correct"].all()
    assert sorted(model.answered.values()) == [1] * item_stages   # no prompt answered twice
    assert len(server.requests) == item_stages + model.faults      # each fault retried once
    assert len(server.requests) <= 1.5 * item_stages
    assert summary.qa.llm_calls["fresh"] == item_stages


def test_unreachable_database_fails_qa_items_but_planning_tables_are_written(
    tmp_path: Path,
) -> None:
    from benchcore.run_config import PlanningConfig
    from benchcore.run_summary import ErrorBudgetExceeded
    from flows.benchmark import nlp_dsg_benchmark
    from tests.conftest import PROJECT_ROOT

    questions, _ = demo_subset(tmp_path, {"apt01", "apt02"})
    planning = PROJECT_ROOT / "questions/planning"
    config = BenchmarkConfig(
        run_id="outage", results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "c"),
        models=[ModelConfig(name="reference-cypher", provider="oracle")],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH), backend="neo4j",
                    neo4j_uri="bolt://127.0.0.1:9", neo4j_user="neo4j"),
        planning=PlanningConfig(data_dir=str(planning), domains=["gripper"],
                                planner_baseline=False, models=[ModelConfig(
                                    name="replies", provider="scripted",
                                    script=str(planning / "scripted_replies.yaml"))]),
    )
    state = nlp_dsg_benchmark(config, return_state=True)
    assert state.is_failed()
    with pytest.raises(ErrorBudgetExceeded, match="qa track: 2/2 items errored"):
        state.result()
    run_dir = tmp_path / "results/outage"
    rows = pd.read_csv(run_dir / "qa_results.csv", keep_default_na=False)
    assert rows["error"].str.contains("database unreachable").all()
    overview = pd.read_csv(run_dir / "plan_overview.csv")
    assert overview["n_instances"].sum() == 3


def test_unanswered_planning_requests_are_errors_not_plans(tmp_path: Path) -> None:
    """An endpoint answering 401 for one instance: that instance is an error (no score, out of
    the rates, counted in n_errors); the others' chatty plans are read and scored."""
    from benchcore.run_config import PlanningConfig
    from flows.benchmark import nlp_dsg_benchmark
    from tests.conftest import PROJECT_ROOT
    from tests.fake_openai import FakeOpenAIServer, chat_reply, error_reply

    data = PROJECT_ROOT / "questions/planning"
    gold = {f"(problem gripper-{i})": (data / f"gripper/adapted_gold_plans/instance-{i}"
                                       "_gold_plan.txt").read_text() for i in (1, 3)}

    def responder(request: dict, n: int):  # type: ignore[no-untyped-def]
        prompt = "\n".join(str(m["content"]) for m in request["messages"])
        plan = next((p for name, p in gold.items() if name in prompt), None)
        if plan is None:
            return error_reply(401, "invalid api key")
        return chat_reply(f"Here is the plan:\n{plan}\nThis achieves the goal.")

    with FakeOpenAIServer(responder) as server:
        model = ModelConfig(name="fake-gpt", base_url=server.base_url,
                            api_key_env="NO_KEY_NEEDED", max_retries=1, timeout_s=10)
        config = BenchmarkConfig(
            run_id="refused", results_dir=str(tmp_path / "results"),
            cache_dir=str(tmp_path / "cache"), models=[model],
            planning=PlanningConfig(data_dir=str(data), domains=["gripper"],
                                    planner_baseline=False),
        )
        summary = nlp_dsg_benchmark(config)
    assert summary.planning.errors == 1
    run_dir = tmp_path / "results/refused"
    evaluation = pd.read_csv(run_dir / "plan_evaluation.csv").set_index("instance")
    refused = evaluation.loc["instance-2"]
    assert "HTTP 401" in refused["error"]
    scored = ["success", "execution_success", "failure_kind", "unsuccessful_reason",
              "goal_fraction", "interaction_length"]
    assert refused[scored].isna().all()                  # not scored as a plan
    assert evaluation.loc[["instance-1", "instance-3"], "success"].all()
    overview = pd.read_csv(run_dir / "plan_overview_overall.csv").iloc[0]
    assert (overview["n_instances"], overview["n_errors"]) == (2, 1)
    assert overview["task_success_rate"] == overview["execution_success_rate"] == 1.0
    assert overview["unsuccessful_bec_not_reached_goal"] == 0
    failures = pd.read_csv(run_dir / "plan_failures.csv")
    assert failures["item"].tolist() == ["gripper/instance-2"]


def test_lone_surrogates_in_replies_are_scored_and_a_rerun_recovers(
    tmp_path: Path, monkeypatch
) -> None:
    """Valid JSON `"\\udcff"` in both stages' replies: the items are scored (invalid), every
    table and the results store are written, and a rerun from the response cache does the same."""
    from tests.fake_openai import FakeOpenAIServer, chat_reply

    monkeypatch.chdir(tmp_path)
    questions, _ = demo_subset(tmp_path, {"apt01", "apt04"})
    with FakeOpenAIServer(lambda req, n: chat_reply("Answer: \udcff")) as server:
        config = _config(tmp_path, questions, server.base_url, "odd")
        config_file = tmp_path / "odd.json"
        config_file.write_text(config.model_dump_json())
        assert main(["run", "--config", str(config_file)]) == 0
        served = len(server.requests)
        assert main(["rerun", "odd"]) == 0
        assert len(server.requests) == served          # the replies came from the cache
    rows = _rows(tmp_path, "odd")
    assert (rows["error"] == "").all() and not rows["valid_answer"].any()
    assert (rows["answer"] == "\ufffd").all()
    assert list((tmp_path / "results/store").glob("run_id=odd/qa.parquet"))


def test_a_dead_endpoint_fails_its_items_at_once(tmp_path: Path) -> None:
    """After 5 calls in a row cannot connect, the model's remaining items fail without a call,
    with the cause counted once for all of them."""
    import socket

    from benchcore.run_summary import ErrorBudgetExceeded
    from flows.benchmark import nlp_dsg_benchmark

    with socket.socket() as probe:          # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    questions, _ = demo_subset(tmp_path, UIDS)
    config = _config(tmp_path, questions, dead, "dead", max_connections=2)
    config.models[0] = config.models[0].model_copy(update={"max_retries": 2})
    started = time.monotonic()
    with pytest.raises(ErrorBudgetExceeded) as caught:
        nlp_dsg_benchmark(config)
    seconds = time.monotonic() - started
    rows = _rows(tmp_path, "dead")
    assert rows["error"].str.contains(f"cannot reach {dead}").all()
    # 5 failures open the breaker; a call in flight then may fail too and count a 6th.
    assert rows["error"].str.contains(r"not called: [56] consecutive").sum() >= len(UIDS) - 6
    assert f"{len(UIDS)} × cannot reach {dead}" in str(caught.value)
    assert seconds < 30
