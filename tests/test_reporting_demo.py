"""The store and the report on a real run folder, written by the real demo benchmark (oracle QA
model, scripted planner), so the reader keeps up with what the flow actually writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from reporting.report import build_report
from reporting.store import load_store, record_run

CLI = Path(sys.executable).parent / "nlp-dsg-benchmark"


@pytest.mark.slow
def test_a_real_demo_run_is_recorded_and_reported(tmp_path):
    done = subprocess.run(
        [str(CLI), "demo", "--run-id", "demo1", "--results-dir", str(tmp_path / "results"),
         "--cache-dir", str(tmp_path / "cache")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    run_dir = tmp_path / "results" / "demo1"
    written_qa = pd.read_csv(run_dir / "qa_results.csv")
    written_planning = pd.read_csv(run_dir / "plan_evaluation.csv")

    stored = record_run(run_dir, tmp_path / "store")

    qa, planning = load_store(tmp_path / "store")
    assert stored == len(written_qa) + len(written_planning) == len(qa) + len(planning)
    assert list(qa["uid"]) == list(written_qa["uid"])
    assert (qa["correct"].astype(bool) == written_qa["correct"]).all()
    assert (planning["success"].astype(bool) == written_planning["success"]).all()
    assert planning["llm_calls"].notna().all()  # joined from the generation logs

    result = build_report(tmp_path / "store", tmp_path / "report")

    assert result.baseline_run is None and result.regressions == []
    oracle = next(m for m in result.headline if m.startswith("oracle:"))
    assert result.headline[oracle]["accuracy"] == written_qa["correct"].mean()
    markdown = result.markdown_path.read_text()
    assert "Success, executability and failure kinds by domain per model" in markdown
    assert "planning_success_heatmap.png" in markdown
    assert "Queries that failed, by kind, per model" in markdown and "query_dialect" in markdown
    queried = qa[qa["pipeline"] != "in_context"]      # in-context answers run no query
    assert queried["rows_json"].str.startswith('{"columns"').all()   # kept in the store too
    # The demo's four pipelines (codegen only where its sandbox can run: CI installs it).
    from dsgqa.code_sandbox import sandbox_problem

    four = {"feedforward", "agentic", "in_context", "codegen"}
    assert set(qa["pipeline"]) == (four if sandbox_problem() is None else four - {"codegen"})
    assert qa["correct"].astype(bool).all()   # the oracle's code is right too
    html = result.html_path.read_text()
    per_question = html.split('<section id="per-question">')[1].split("</section>")[0]
    assert per_question.count('<details class="item') == len(written_qa)  # one each, closed
    # the demo's scripted planner fails some instances: each is listed with its reply
    per_instance = html.split('<section id="per-planning-instance">')[1]
    unsolved = int((~planning["success"].astype("boolean").fillna(False)).sum())
    assert unsolved and per_instance.count('<details class="item wrong">') == unsolved
    assert "<dt>reply</dt>" in per_instance and "<dt>first error</dt>" in per_instance
