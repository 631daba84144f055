"""A chatty model through the real flow (loopback server, embedded Kuzu, Prefect): the cases
where a score used to rise because work was skipped, with the counts they must show.

`tests.fake_model.ChattyModel` on the 28 demo questions, feed-forward and agentic (tools
protocol, a server that passes no tool call for 18 of them)."""

from __future__ import annotations

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, QAConfig
from tests.fake_model import DEMO_GRAPH, ChattyModel, demo_subset, serve

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")


@pytest.fixture(scope="module")
def chatty_run(tmp_path_factory) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    from flows.benchmark import nlp_dsg_benchmark

    tmp_path = tmp_path_factory.mktemp("chatty")
    questions, known = demo_subset(tmp_path)
    with serve(ChattyModel(known)) as server:
        model = ModelConfig(name="chatty", base_url=server.base_url,
                            api_key_env="NO_KEY_NEEDED", max_retries=0, timeout_s=10)
        config = BenchmarkConfig(
            run_id="chatty", results_dir=str(tmp_path / "results"),
            cache_dir=str(tmp_path / "cache"), models=[model], report=False,
            qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                        db_root=str(tmp_path / "graphs"), pipelines=["feedforward", "agentic"]))
        summary = nlp_dsg_benchmark(config)
    run_dir = tmp_path / "results/chatty"
    rows = pd.read_csv(run_dir / "qa_results.csv", keep_default_na=False)
    overall = pd.read_csv(run_dir / "qa_summary.csv").set_index("pipeline")
    return rows, overall, summary.qa.notes


def test_an_agent_answering_without_a_query_counts_as_no_match(chatty_run) -> None:
    rows, overall, notes = chatty_run
    agentic = rows[rows["pipeline"] == "agentic"]
    assert agentic["stop_reason"].value_counts().to_dict() == {
        "answered_without_query": 18, "answered_after_query": 10}
    assert int(agentic["cypher_as_text"].astype(str).eq("True").sum()) == 18
    # 10 of 28 ran the reference query; the 18 without a query are no match, not left out.
    assert overall.loc["agentic", "execution_accuracy"] == round(10 / 28, 3)
    assert overall.loc["agentic", "no_query_share"] == round(18 / 28, 3)
    assert overall.loc["feedforward", "execution_accuracy"] == 0.75
    assert overall.loc["feedforward", "no_query_share"] == 0.0
    assert set(rows["served_model"]) == {"fake-model"}   # what the server said answered
    assert notes == ["chatty: 18 of 28 agentic answers ran no query; the server may not parse "
                     "tool calls: try `--tool-protocol text`"]


def test_answers_wrapped_in_prose_are_counted_where_they_were_lost(chatty_run) -> None:
    rows, overall, _notes = chatty_run
    feedforward = overall.loc["feedforward"]
    # 7 bare answers right; 14 in prose ("The answer is X."), 13 of which do not parse as SLDP
    # (the 14th parses, as a wrong string); 7 broken queries.
    assert feedforward[["correct", "correct_lenient", "lost_at_query", "wrong_rows",
                        "lost_at_refine", "invalid_answer"]].tolist() == [7, 21, 7, 0, 14, 13]
    assert (feedforward["accuracy"], feedforward["accuracy_lenient"]) == (0.25, 0.75)
    prose = rows[(rows["pipeline"] == "feedforward") & rows["answer"].str.startswith("The ")]
    assert len(prose) == 14 and prose["correct_lenient"].astype(str).eq("True").all()
    assert (prose["answer_extracted"] != "").all()
    agentic = overall.loc["agentic"]
    assert agentic[["correct", "correct_lenient", "lost_at_query", "lost_at_refine",
                    "invalid_answer"]].tolist() == [10, 10, 18, 0, 18]
