"""The command line: a benchmark run through a real OpenAI-compatible HTTP endpoint (loopback),
item failures recorded without sinking the run, and bad input as one line with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from nlp_dsg_benchmark.cli import main
from tests.conftest import PROJECT_ROOT
from tests.fake_model import ReferenceModel, demo_subset, serve

DEMO_QUESTIONS = PROJECT_ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = PROJECT_ROOT / "questions/demo/apartment_dsg.json"


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_run_against_openai_compatible_endpoint(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAKE_KEY", "sk-never-logged")
    path, questions = demo_subset(tmp_path, {"apt01", "apt04", "apt07"})
    with serve(ReferenceModel(questions, refuse={"apt07"})) as server:
        code = main(["run", "--questions", str(path), "--scene-graph", str(DEMO_GRAPH),
                     "--model", "fake-gpt", "--base-url", server.base_url,
                     "--api-key-env", "FAKE_KEY", "--run-id", "http"])
    assert code == 0, capsys.readouterr().err
    rows = pd.read_csv(tmp_path / "results/http/qa_results.csv", keep_default_na=False)
    rows = rows.set_index("uid")
    assert rows.loc["apt01", "correct"] and rows.loc["apt04", "correct"]
    assert rows.loc["apt01", "tokens"] == 2 * (11 + 7)   # two calls, usage from the server
    assert "HTTP 400" in rows.loc["apt07", "error"]       # recorded; the run went on
    assert len(server.requests) == 5                      # 2 + 2 + one 400, never retried
    out = capsys.readouterr().out
    assert "0.667" in out and "LLM calls made fresh: 4" in out  # accuracy 2 of 3
    written = "".join(p.read_text() for p in (tmp_path / "results").rglob("*.*")
                      if p.suffix in {".csv", ".md", ".json", ".jsonl", ".html"})
    assert "sk-never-logged" not in written


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["run", "--questions", "{bad}", "--scene-graph", str(DEMO_GRAPH), "--model", "m"],
         "field question: field required"),
        (["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph", "{graph}", "--model", "m"],
         "graph.json"),
        (["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH)],
         "missing --model"),
        (["run", "--config", "{config}"], "field models"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys, args: list[str],
                                      expected: str) -> None:
    bad_questions = tmp_path / "bad.yaml"
    bad_questions.write_text("questions:\n  - uid: q1\n    solution: '1'\n"
                             "    correctness_comparator: {comparison_type: SLDP}\n")
    (tmp_path / "graph.json").write_text("{not json")
    (tmp_path / "config.yaml").write_text("qa: {questions: a, scene_graph: b}\n")
    filled = [a.format(bad=bad_questions, graph=tmp_path / "graph.json",
                       config=tmp_path / "config.yaml") for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err.strip()
    assert expected in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_plan_subcommand_names_itself(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["plan", "--help"])
    assert exit_info.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith("usage: nlp-dsg-benchmark plan") and "usage: planeval" not in usage
    assert main(["plan", "overview", "/no/such/dir", "--out", "x.csv"]) == 2
    assert capsys.readouterr().err.startswith("nlp-dsg-benchmark plan: error:")
