"""The report from recorded runs: flipped items, regression flags, run choice, both formats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reporting.errors import ReportError
from reporting.report import build_report
from reporting.store import record_run
from tests.reporting_runs import EXPERIMENT, write_inputs, write_run

NIGHT1 = "20260101T020000-aaaaaa"
NIGHT2 = "20260102T020000-bbbbbb"


@pytest.fixture
def two_nights(tmp_path: Path) -> Path:
    """Night 2: gpt-a gets q03 wrong (accuracy 100% -> 90%), gpt-b is unchanged, and the planner
    solves gripper/instance-2, which it failed the night before."""
    inputs = write_inputs(tmp_path / "inputs")
    results, store = tmp_path / "results", tmp_path / "store"
    record_run(write_run(results, NIGHT1, inputs, unsolved={("gripper", "instance-2")}), store)
    record_run(write_run(results, NIGHT2, inputs, wrong={("gpt-a", "q03")}), store)
    return store


def test_report_lists_flipped_items_and_flags_the_regression(two_nights, tmp_path):
    result = build_report(two_nights, tmp_path / "report")

    assert (result.run_id, result.baseline_run) == (NIGHT2, NIGHT1)
    assert result.flipped == 2
    assert [(r.model, r.metric) for r in result.regressions] == [
        ("gpt-a", "accuracy"), ("gpt-a", "mean_f1")]
    assert result.regressions[0].before == 1.0 and result.regressions[0].after == 0.9
    assert result.headline["gpt-a"]["accuracy"] == 0.9
    assert result.headline["gpt-a"]["plan_success_rate"] == 1.0
    assert result.headline["gpt-b"] == {"accuracy": 1.0, "mean_f1": 1.0, "qa_items": 10}

    markdown = result.markdown_path.read_text()
    assert "REGRESSION: gpt-a: accuracy fell from 100.0% to 90.0% (10.0 points)" in markdown
    assert re.search(r"\| gpt-a \| q03 \| question_q03 \| .* \| broke \|", markdown)
    assert re.search(rf"\| {EXPERIMENT} \| gripper \| instance-2 \| gpt-a \| fixed \|", markdown)
    assert "2 items flipped (1 broke, 1 fixed)" in markdown
    for png in ("qa_accuracy_by_tag.png", "planning_success_heatmap.png", "trend.png"):
        assert f"]({png})" in markdown
        assert (tmp_path / "report" / png).read_bytes().startswith(b"\x89PNG")

    html = result.html_path.read_text()
    assert "REGRESSION: gpt-a: accuracy fell" in html and "question_q03" in html
    assert html.count('src="data:image/png;base64,') == 3
    assert not re.search(r"(src|href)=\"(https?:)?//", html)  # nothing fetched from anywhere
    assert '<table class="sortable">' in html and "<script>" in html


def test_a_drop_of_exactly_the_threshold_is_not_a_regression(two_nights, tmp_path):
    result = build_report(two_nights, tmp_path / "report", regression_threshold=0.10)

    assert result.regressions == [] and result.flipped == 2
    assert "No headline metric dropped by more than 10 points" in result.markdown_path.read_text()


def test_the_baseline_is_the_previous_run_of_the_same_kind(two_nights, tmp_path):
    other = write_inputs(tmp_path / "other", question_text="questions: other set\n")
    record_run(write_run(tmp_path / "results", "20260103T020000-cccccc", other), two_nights)
    night4 = write_run(tmp_path / "results", "20260104T020000-dddddd",
                       write_inputs(tmp_path / "inputs"))
    record_run(night4, two_nights)

    latest = build_report(two_nights, tmp_path / "latest")
    night3 = build_report(two_nights, tmp_path / "n3", runs=["20260103T020000-cccccc"])
    chosen = build_report(two_nights, tmp_path / "chosen", runs=[NIGHT2, NIGHT1])

    assert (latest.run_id, latest.baseline_run) == ("20260104T020000-dddddd", NIGHT2)
    assert [r.metric for r in latest.regressions] == []  # q03 fixed again: a rise
    assert night3.baseline_run is None
    assert "nothing to compare with" in night3.markdown_path.read_text()
    assert (chosen.run_id, chosen.baseline_run) == (NIGHT2, NIGHT1)  # in run order


def test_models_narrow_the_report(two_nights, tmp_path):
    result = build_report(two_nights, tmp_path / "report", models=["gpt-b"])

    assert list(result.headline) == ["gpt-b"]
    assert result.regressions == [] and result.flipped == 0
    assert "gpt-a" not in result.markdown_path.read_text()


def test_bad_inputs_are_one_line_errors(two_nights, tmp_path):
    with pytest.raises(ReportError, match="no results store"):
        build_report(tmp_path / "missing", tmp_path / "out")
    with pytest.raises(ReportError, match=f"unknown run 'nope' .*{NIGHT1}, {NIGHT2}"):
        build_report(two_nights, tmp_path / "out", runs=["nope"])
    with pytest.raises(ReportError, match=r"unknown model 'gpt-z'.*gpt-a, gpt-b"):
        build_report(two_nights, tmp_path / "out", models=["gpt-z"])
    with pytest.raises(ReportError, match=r"threshold 5\.0 is not a fraction"):
        build_report(two_nights, tmp_path / "out", regression_threshold=5.0)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReportError, match="no recorded runs"):
        build_report(tmp_path / "empty", tmp_path / "out")


def test_planning_errors_are_shown_as_errors_not_as_failed_plans() -> None:
    import pandas as pd

    from reporting import metrics

    planning = pd.DataFrame({
        "model": ["m"] * 3, "domain": ["d"] * 3, "instance": ["i1", "i2", "i3"],
        "success": pd.array([True, False, pd.NA], dtype="boolean"),
        "execution_success": pd.array([True, False, pd.NA], dtype="boolean"),
        "goal_fraction": [1.0, 0.5, float("nan")],
        "failure_kind": ["", "precondition", ""], "error": ["", "", "HTTP 401: bad key"],
    })
    overall = metrics.planning_overall(planning).iloc[0]
    assert (overall["instances"], overall["errors"], overall["solved"]) == (2, 1, 1)
    assert overall["plan_success_rate"] == overall["execution_success_rate"] == 0.5
    by_domain = metrics.planning_by_domain(planning).iloc[0]
    assert by_domain["errors"] == 1 and by_domain["fail_precondition"] == 1
    only_errors = metrics.planning_overall(planning.iloc[2:]).iloc[0]
    assert (only_errors["instances"], only_errors["errors"]) == (0, 1)
    assert pd.isna(only_errors["plan_success_rate"])
