"""Real Prefect runs of the `nlp-dsg-benchmark` flow (one harness for the session).

The demo configuration runs both tracks; a second run must make 0 fresh LLM calls and write the
same tables. A scripted model that writes broken, destructive and garbage replies is scored, not
crashed, and cannot change the graph.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from benchcore.llm.base import ModelConfig
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from benchcore.run_config import BenchmarkConfig, PlanningConfig, QAConfig
from dsgqa.graphstore import open_graph_store
from dsgqa.scene_graph import load_scene_graph
from tests.conftest import PROJECT_ROOT

DEMO_QUESTIONS = PROJECT_ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = PROJECT_ROOT / "questions/demo/apartment_dsg.json"
DEMO_PLANNING = PROJECT_ROOT / "questions/planning"

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")


def _demo_config(tmp_path: Path, run_id: str) -> BenchmarkConfig:
    scripted = ModelConfig(name="demo-replies", provider="scripted",
                           script=str(DEMO_PLANNING / "scripted_replies.yaml"))
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="reference-cypher", provider="oracle")],
        qa=QAConfig(questions=str(DEMO_QUESTIONS), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs")),
        planning=PlanningConfig(data_dir=str(DEMO_PLANNING), models=[scripted]),
    )


def _task_runs(flow_run_id, name: str, expected: int) -> list:
    """Task runs of one name; the server records task-run events asynchronously, so poll."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        TaskRunFilter,
        TaskRunFilterName,
    )

    runs: list = []
    with get_client(sync_client=True) as client:
        for _ in range(50):
            runs = client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])),
                task_run_filter=TaskRunFilter(name=TaskRunFilterName(like_=name)), limit=200,
            )
            finished = [r for r in runs if r.start_time and r.end_time]
            if len(finished) >= expected:
                return finished
            time.sleep(0.2)
    return runs


def test_demo_run_scores_and_reruns_from_cache(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    first_state = nlp_dsg_benchmark(_demo_config(tmp_path, "first"), return_state=True)
    first = first_state.result()

    # QA: the oracle answers every demo question correctly through the whole pipeline.
    rows = pd.read_csv(first.qa.paths["rows_csv"])
    assert len(rows) == 28 and rows["correct"].all() and rows["valid_cypher"].all()
    assert rows["execution_match"].all()     # the oracle runs the reference queries
    assert set(rows["backend"]) == {DEFAULT_EMBEDDED_BACKEND} == {"ladybug"}
    # The rows every query returned are readable JSON beside the answer.
    apt01 = json.loads(rows.set_index("uid").loc["apt01", "rows_json"])
    assert apt01["rows"] and len(apt01["columns"]) == len(apt01["rows"][0])
    summary = pd.read_csv(first.qa.paths["summary_csv"])
    assert (summary[[f"query_{k}" for k in ("syntax", "dialect", "schema")]] == 0).all().all()

    # Planning: the scripted replies' known mistakes show up in the overview.
    overall = pd.read_csv(first.planning.paths["overall_csv"]).set_index("model")
    scripted = overall.loc["scripted:demo-replies"]
    assert scripted["n_instances"] == 9
    assert scripted["n_solved_successfully"] == 5   # incl. one fixed by backprompting
    assert scripted["unsuccessful_bec_not_reached_goal"] == 1
    assert scripted["unsuccessful_bec_not_executable"] == 3
    assert scripted["rate_unknown_action"] > 0 and scripted["rate_arity"] > 0
    assert overall.loc["planner:greedy", "n_solved_successfully"] == 9
    evaluation = pd.read_csv(first.planning.paths["evaluation_csv"])
    retried = evaluation.query("model == 'scripted:demo-replies' and instance == 'instance-2' "
                               "and domain == 'blocksworld'")
    assert retried["interaction_length"].tolist() == [2]   # stopped at the first success

    # Both tracks ran side by side: planning started before the QA branch had finished.
    # Planning did not wait for the QA branch (test_tracks_overlap checks the other way).
    flow_run_id = first_state.state_details.flow_run_id
    plans = _task_runs(flow_run_id, "generate-plan", 1)
    refines = _task_runs(flow_run_id, "refine", 1)
    assert min(r.start_time for r in plans) < max(r.end_time for r in refines)

    second = nlp_dsg_benchmark(_demo_config(tmp_path, "second"))
    assert first.llm_calls()["fresh"] > 0
    assert second.llm_calls()["fresh"] == 0
    for key in ("rows_csv", "summary_csv"):
        a = pd.read_csv(first.qa.paths[key]).drop(columns=["seconds"], errors="ignore")
        b = pd.read_csv(second.qa.paths[key]).drop(columns=["seconds"], errors="ignore")
        pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(pd.read_csv(first.planning.paths["overview_csv"]),
                                  pd.read_csv(second.planning.paths["overview_csv"]))


UNTRUSTED_REPLIES = {
    "apt01": {"cypher": "MATCH (o:Object {class: 'chair'}) RETURN count(o)", "refine": "8"},
    "apt02": {"cypher": "MATCH (n) DETACH DELETE n", "refine": "0"},
    "apt03": {"cypher": "CREATE (:Room {nodeSymbol: 'R99'})", "refine": "1"},
    "apt04": {"cypher": "MATCH (o:Object SET o.class = 'x'", "refine": "<>"},
    "apt05": {"cypher": "```cypher\nMATCH (r:Room) RETURN r.name\n```", "refine": "<kitchen,"},
    "apt06": {"cypher": "", "refine": ""},
    # The right rows (other alias, other column order of rows) read wrongly: execution matches,
    # the answer does not.
    "apt07": {"cypher": "MATCH (o:Object) RETURN CASE WHEN o.center.z < 3.0 THEN 'ground' "
                        "ELSE 'upper' END AS level, count(o) AS n",
              "refine": "{ground: 25, upper: 32}"},
}


def test_untrusted_model_output_is_scored_not_crashed(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions = yaml.safe_load(DEMO_QUESTIONS.read_text())
    subset = tmp_path / "questions.yaml"
    keep = [q for q in questions["questions"] if q["uid"] in UNTRUSTED_REPLIES]
    subset.write_text(yaml.safe_dump({"questions": keep}))
    script = tmp_path / "replies.yaml"
    script.write_text(yaml.safe_dump(UNTRUSTED_REPLIES))
    config = BenchmarkConfig(
        run_id="untrusted", results_dir=str(tmp_path / "results"),
        cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="chaos", provider="scripted", script=str(script))],
        qa=QAConfig(questions=str(subset), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs")),
    )
    graph = load_scene_graph(DEMO_GRAPH)
    store = open_graph_store(config.qa.backend, graph, db_root=tmp_path / "graphs")
    before = store.checksum()
    store.close()

    summary = nlp_dsg_benchmark(config)
    rows = pd.read_csv(summary.qa.paths["rows_csv"], keep_default_na=False).set_index("uid")

    assert rows.loc["apt01", "correct"]
    for uid in ("apt02", "apt03", "apt04", "apt06"):
        assert not rows.loc[uid, "valid_cypher"], uid
        assert not rows.loc[uid, "correct"], uid
    assert rows.loc["apt02", "query_error"] and rows.loc["apt03", "query_error"]
    assert rows.loc["apt05", "valid_cypher"] and not rows.loc["apt05", "valid_answer"]
    assert "not SLDP" in rows.loc["apt05", "mismatch"]
    assert (rows["error"] == "").all()   # all scored as failures, none crashed
    # Execution accuracy beside answer correctness: the same query as the reference matches.
    assert str(rows.loc["apt01", "execution_match"]) == "True"
    assert str(rows.loc["apt07", "execution_match"]) == "True" and not rows.loc["apt07", "correct"]
    for uid in ("apt02", "apt03", "apt04", "apt06"):
        assert str(rows.loc[uid, "execution_match"]) == "False", uid

    store = open_graph_store(config.qa.backend, graph, db_root=tmp_path / "graphs")
    assert store.checksum() == before
    store.close()


def test_tracks_overlap(tmp_path: Path) -> None:
    """With a planning model slow enough to notice (an HTTP endpoint answering after 0.3 s),
    the QA branch starts before planning ends and planning starts before QA ends."""
    from benchcore.llm.http_pool import _ENDPOINTS
    from flows.benchmark import nlp_dsg_benchmark
    from tests.fake_openai import FakeOpenAIServer, chat_reply

    def slow_planner(request: dict, n: int):
        time.sleep(0.3)
        return chat_reply("```pddl\n(move rooma roomb)\n```")

    with FakeOpenAIServer(slow_planner) as server:
        config = _demo_config(tmp_path, "overlap").model_copy(update={"planning": PlanningConfig(
            data_dir=str(DEMO_PLANNING), domains=["gripper"], planner_baseline=False,
            max_attempts=2, models=[ModelConfig(name="slow", base_url=server.base_url,
                                                api_key_env="NONE", max_connections=2)])})
        # The database is built beforehand, as on any rerun: the overlap is about the tracks,
        # and a first build (a child process, ~1 s on a loaded machine) could outlast the
        # whole planning track.
        open_graph_store(config.qa.backend, load_scene_graph(DEMO_GRAPH),
                         db_root=Path(config.qa.db_root)).close()
        state = nlp_dsg_benchmark(config, return_state=True)
        # The run's connections are closed when its tracks are done: a process running many
        # flows would otherwise keep every run's sockets.
        used = [e for e in _ENDPOINTS.values() if e.url.startswith(server.base_url)]
        assert used and all(e.connections_made >= 1 and not e._idle for e in used)
    flow_run_id = state.state_details.flow_run_id
    plans = _task_runs(flow_run_id, "generate-plan", 1)
    cyphers = _task_runs(flow_run_id, "generate-cypher", 1)
    refines = _task_runs(flow_run_id, "refine", 1)
    assert min(r.start_time for r in plans) < max(r.end_time for r in refines)
    assert min(r.start_time for r in cyphers) < max(r.end_time for r in plans)


def test_chunked_stages_give_the_same_table_as_one_batch(tmp_path: Path) -> None:
    """With `chunk_size` each stage runs as a task per chunk (named `<stage>[model] i/n`), and
    the tables are the ones a run in one batch writes, from the same item cache."""
    from flows.benchmark import nlp_dsg_benchmark

    def config(run_id: str, chunk_size: int | None) -> BenchmarkConfig:
        demo = _demo_config(tmp_path, run_id)
        assert demo.qa is not None
        return demo.model_copy(update={
            "tracks": ["qa"], "report": False,
            "qa": QAConfig.model_validate({**demo.qa.model_dump(), "chunk_size": chunk_size,
                                           "pipelines": ["feedforward", "in_context"]})})

    chunked_state = nlp_dsg_benchmark(config("chunked", 10), return_state=True)
    chunked = chunked_state.result()
    whole = nlp_dsg_benchmark(config("whole", None))
    assert whole.llm_calls()["fresh"] == 0   # every item from the chunks' cache entries
    a, b = (pd.read_csv(s.qa.paths["rows_csv"]).drop(columns=["seconds"], errors="ignore")
            for s in (chunked, whole))
    assert len(a) == 2 * 28 and a["correct"].all()
    pd.testing.assert_frame_equal(a, b)
    names = {r.name for r in _task_runs(chunked_state.state_details.flow_run_id,
                                        "refine%", 3)}
    assert names == {f"refine[reference-cypher] {i}/3" for i in (1, 2, 3)}


def test_a_failed_track_keeps_the_other_tracks_tables(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """When the planning track raises as it finishes (its evaluation failed beyond its
    retries), the QA track still writes its tables, and the run still fails with the
    planning error (and is not remembered as finished)."""
    import flows.benchmark as benchmark

    def evaluation_fails(*args: object) -> None:
        raise OSError("evaluate-plans: disk full")

    monkeypatch.setattr(benchmark, "finish_planning", evaluation_fails)
    state = benchmark.nlp_dsg_benchmark(_demo_config(tmp_path, "half"), return_state=True)
    assert state.is_failed()
    with pytest.raises(OSError, match="disk full"):
        state.result()
    rows = pd.read_csv(tmp_path / "results/half/qa_results.csv")
    assert len(rows) == 28 and rows["correct"].all()
