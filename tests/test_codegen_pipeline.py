"""The codegen pipeline: its prompt names only spark_dsg API that exists, replies without code
are `no_code`, code results become rows for execution accuracy, and the pipeline runs through
the real flow with scripted code replies (scored, cached on rerun) or refuses to start where
there is no sandbox."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, PipelineConfig, QAConfig
from dsgqa import code_sandbox
from dsgqa.code_extract import extract_python
from dsgqa.code_prompt import API_NAMES, code_messages, graph_description
from dsgqa.code_rows import point_columns, result_rows
from dsgqa.execution_match import rows_match
from dsgqa.prompts import template
from tests.fake_model import DEMO_GRAPH, demo_subset

PROBLEM = code_sandbox.sandbox_problem()
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None, reason=f"needs the bubblewrap package (bwrap): {PROBLEM}")

COUNT_CHAIRS = """\
def solve_task(scene_graph):
    key = scene_graph.layer_names["OBJECTS"]
    names = scene_graph.get_labelspace(key.layer, key.partition).labels_to_names
    return sum(names.get(n.attributes.semantic_label) == "chair"
               for n in scene_graph.get_layer("OBJECTS").nodes)
"""


def test_the_prompt_names_only_installed_spark_dsg_api() -> None:
    import spark_dsg

    for name in API_NAMES:
        owner, member = name.split(".")
        assert hasattr(getattr(spark_dsg, owner), member), name
    mentioned = set(re.findall(r"\b([A-Z][A-Za-z]+\.[a-z_A-Z]+)\b", template("code_system")))
    assert mentioned <= set(API_NAMES), mentioned - set(API_NAMES)


def test_the_prompt_describes_the_loaded_graph() -> None:
    text = graph_description(str(DEMO_GRAPH))
    assert 'get_layer("ROOMS")' in text and "semantic_label" in text and "chair" in text
    system = code_messages("How many chairs?", text)[0]["content"]
    assert "solve_task(scene_graph)" in system and "```python" in system


def test_only_a_python_block_is_code() -> None:
    assert extract_python("Here:\n```python\nx = 1\n```\nbye") == "x = 1"
    assert extract_python("```py\ny = 2\n```") == "y = 2"
    assert extract_python("def solve_task(g): return 1") == ""
    assert extract_python("```cypher\nMATCH (n) RETURN n\n```") == ""


def test_results_read_as_rows() -> None:
    assert result_rows(8) == [[8]]
    assert result_rows(["a", "b"]) == [["a"], ["b"]]
    assert result_rows([["a", 1], ["b", 2]]) == [["a", 1], ["b", 2]]
    assert result_rows({"kitchen": 2}) == [["kitchen", 2]]


_O1, _O3 = {"x": 1.0, "y": 0.0, "z": 0.0}, {"x": 3.0, "y": 3.0, "z": 1.0}


@pytest.mark.parametrize(("value", "reference", "ordered"), [
    ([1, 0, 0], [[_O1]], False),                                  # RETURN o.center
    ([[1, 0, 0], [3, 3, 1]], [[_O1], [_O3]], True),               # ... ORDER BY
    ([[1, 0, 0]], [[_O1]], False),                                # a list of one position
    ({"O1": [1, 0, 0], "O3": [3, 3, 1]}, [["O1", _O1], ["O3", _O3]], False),
    ([["O1", [1, 0, 0]], ["O2", None]], [["O1", _O1], ["O2", None]], False),
])
def test_a_position_returned_by_code_matches_the_references_point(
        value: object, reference: list[list[object]], ordered: bool) -> None:
    """spark_dsg positions come back as [x, y, z]; where the reference query returns a point
    there, the code's answer is the same answer (never three rows of one number)."""
    read = result_rows(value, point_columns(reference))
    assert rows_match(read, reference, ordered)
    assert not rows_match(result_rows(value), reference, ordered)  # read without the shape


def test_three_numbers_stay_three_rows_where_the_reference_has_no_point() -> None:
    reference = [[1.0], [0.0], [0.0]]
    assert result_rows([1, 0, 0], point_columns(reference)) == [[1], [0], [0]]
    assert rows_match(result_rows([1, 0, 0], point_columns(reference)), reference, True)
    assert not rows_match(result_rows([1, 0, 1], point_columns([[_O1]])), [[_O1]], False)


def _config(tmp_path: Path, script: Path, questions: Path) -> BenchmarkConfig:
    return BenchmarkConfig(
        run_id="code", results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "c"),
        models=[ModelConfig(name="coder", provider="scripted", script=str(script))],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs"),
                    pipelines=[PipelineConfig(kind="codegen", code_timeout_s=10)]),
    )


@needs_sandbox
@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_codegen_through_the_flow_scores_and_caches(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, _ = demo_subset(tmp_path, {"apt01", "apt02", "apt04"})
    script = tmp_path / "replies.yaml"
    script.write_text(yaml.safe_dump({
        "apt01": {"code": f"```python\n{COUNT_CHAIRS}```", "refine": "```\n8\n```"},
        "apt02": {"code": "I would count the rooms.", "refine": "```\n5\n```"},
        "apt04": {"code": "```python\ndef solve_task(g):\n    return g.nothing\n```",
                  "refine": "```\n<fridge>\n```"},
    }))
    config = _config(tmp_path, script, questions)
    summary = nlp_dsg_benchmark(config)
    rows = pd.read_csv(tmp_path / "results/code/qa_results.csv", keep_default_na=False)
    by_uid = rows.set_index("uid")
    assert set(rows["pipeline"]) == {"codegen"}
    assert by_uid.loc["apt01", "correct"] and by_uid.loc["apt01", "valid_cypher"]
    assert str(by_uid.loc["apt01", "execution_match"]) == "True"
    assert by_uid.loc["apt01", "rows_json"] == '[["result"], [8]]' or "8" in \
        by_uid.loc["apt01", "rows_json"]
    assert by_uid.loc["apt02", "code_error_kind"] == "no_code"
    assert by_uid.loc["apt04", "code_error_kind"] == "exception"
    assert "AttributeError" in by_uid.loc["apt04", "query_error"]
    assert str(by_uid.loc["apt04", "execution_match"]) == "False"
    assert (rows["llm_calls"] == 2).all() and (rows["tokens"] > 0).all()
    assert summary.qa.llm_calls["fresh"] == 6

    again = nlp_dsg_benchmark(config.model_copy(update={"run_id": "code2"}))
    assert again.qa.llm_calls["fresh"] == 0


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_without_a_sandbox_codegen_refuses_to_start(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    questions, _ = demo_subset(tmp_path, {"apt01"})
    monkeypatch.setattr(code_sandbox, "sandbox_problem",
                        lambda: "bubblewrap (bwrap) is not installed")
    with pytest.raises(code_sandbox.CodegenRefused, match="bubblewrap"):
        nlp_dsg_benchmark(_config(tmp_path, tmp_path / "none.yaml", questions))
    assert not (tmp_path / "results/code/qa_results.csv").exists()
    assert not (tmp_path / "c/stages").exists()   # no stage ran


@needs_sandbox
def test_the_demo_reference_solutions_are_right() -> None:
    """The codegen oracle's hand-written solutions (`code:` in the demo set) return what,
    printed as the oracle prints it, scores right."""
    from dsgqa.code_rows import rows_of_result
    from dsgqa.questions import load_question_set
    from dsgqa.records import LLMUsage, RefinedAnswer
    from dsgqa.rows_to_sldp import rows_to_sldp
    from dsgqa.stages.compare import compare
    from tests.fake_model import DEMO_QUESTIONS

    questions = load_question_set(DEMO_QUESTIONS).questions
    assert len(questions) == 28
    assert [q.uid for q in questions if not q.code] == []
    for question in questions:
        done = code_sandbox.run_code(question.code, DEMO_GRAPH)
        assert done.ok, (question.uid, done)
        rows = rows_of_result(done.result)
        # as the refine stage names the columns: none when the code found nothing
        answer = rows_to_sldp([f"c{i}" for i in range(len(rows[0]) if rows else 0)], rows,
                              like=question.solution)
        verdict = compare(question, RefinedAnswer(uid=question.uid, answer=answer,
                                                  raw_reply="", usage=LLMUsage()))
        assert verdict.correct, (question.uid, answer, verdict.mismatch)


@needs_sandbox
@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_kill_9_mid_run_then_rerun_asks_only_what_was_not_cached(tmp_path: Path) -> None:
    """A codegen run killed with kill -9 while it refines, then rerun: every reply cached
    before the kill is not asked again, every reply not cached is asked once, and the rerun
    scores every item right. Which replies were cached is read from the cache itself (a reply
    the server sent may not have reached the cache before the kill)."""
    import os
    import signal
    import time

    from benchcore.llm.cache import ResponseCache
    from flows.benchmark import nlp_dsg_benchmark
    from tests.fake_model import ReferenceCoder, cached_asks, loopback_model, serve
    from tests.flow_process import start_flow_process

    uids = {"apt01", "apt02", "apt04", "apt05", "apt06", "apt07"}
    questions, known = demo_subset(tmp_path, uids)
    coder = ReferenceCoder(known, latency_s=0.2)
    cache_dir = tmp_path / "cache/llm"
    with serve(coder) as server:
        model = loopback_model("fake-coder", server)
        config = BenchmarkConfig(
            run_id="code-killed", results_dir=str(tmp_path / "results"),
            cache_dir=str(tmp_path / "cache"), models=[model],
            qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                        db_root=str(tmp_path / "graphs"),
                        pipelines=[PipelineConfig(kind="codegen", code_timeout_s=20)]))
        process = start_flow_process(config, tmp_path)
        try:
            # killed once a refine reply is cached and a third refine is asked
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (
                    sum(stage == "refine" for _, stage in coder.asked) >= 3
                    and len(ResponseCache(cache_dir)) > len(uids)):
                time.sleep(0.02)
            os.killpg(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=30)
        before_kill = list(coder.asked)
        assert len(before_kill) < 2 * len(uids), "the kill did not land mid-run"
        cached = cached_asks(coder, model, cache_dir)
        assert len(cached) == len(ResponseCache(cache_dir))

        nlp_dsg_benchmark(config)
        rerun = coder.asked[len(before_kill):]

    assert {uid for uid, stage in cached if stage == "code"} == uids
    assert any(stage == "refine" for _, stage in cached)
    # what the rerun asks is exactly what was not cached, once each
    assert sorted(rerun) == sorted({(uid, stage) for uid in uids
                                    for stage in ("code", "refine")} - cached)
    rows = pd.read_csv(tmp_path / "results/code-killed/qa_results.csv", keep_default_na=False)
    assert len(rows) == len(uids) and rows["correct"].all()
    assert (rows["llm_calls"] == 2).all()
