"""`nlp-dsg-benchmark compare RUN_A RUN_B`: two recorded runs side by side (headline metrics,
their difference, the items that flipped), unknown run ids as one line naming the known ones,
and the answer comparison under `answers compare`."""

from __future__ import annotations

from pathlib import Path

import pytest

from nlp_dsg_benchmark.cli import main
from reporting.store import record_run
from tests.reporting_runs import write_inputs, write_run

EARLY, LATE = "20260101T020000-aaaaaa", "20260102T020000-bbbbbb"


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two recorded runs of one kind: in the later one gpt-a got q01 and q02 wrong (right
    before), gpt-b got q03 right (wrong before), and the planner failed one more instance."""
    monkeypatch.setenv("COLUMNS", "80")
    results = tmp_path / "results"
    inputs = write_inputs(tmp_path / "inputs")
    store = results / "store"
    record_run(write_run(results, EARLY, inputs, wrong=[("gpt-b", "q03")]), store)
    record_run(write_run(results, LATE, inputs, wrong=[("gpt-a", "q01"), ("gpt-a", "q02")],
                         unsolved=[("gripper", "instance-2")]), store)
    return results


def test_compare_two_runs_shows_metrics_side_by_side_and_the_flips(
    results: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["compare", EARLY, LATE, "--results-dir", str(results)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"Run A: {EARLY}" in out and f"Run B: {LATE}" in out
    lines = out.splitlines()
    # gpt-a's accuracy 1.0 -> 0.8 (a regression), gpt-b's 0.9 -> 1.0.
    assert any("gpt-a" in line and "accuracy" in line and "1.000" in line and "0.800" in line
               and "-0.200" in line and "regression" in line for line in lines), out
    assert any("gpt-b" in line and "accuracy" in line and "0.900" in line and "+0.100" in line
               for line in lines), out
    assert "QA: 3 items flipped: 2 right -> wrong, 1 wrong -> right" in out
    broke = out.split("QA items right in A, wrong in B (2)")[1].split("QA items wrong in A")[0]
    assert "q01" in broke and "q02" in broke and "q03" not in broke
    fixed = out.split("QA items wrong in A, right in B (1)")[1].split("Planning")[0]
    assert "q03" in fixed and "q01" not in fixed
    assert "Planning: 1 item flipped: 1 right -> wrong, 0 wrong -> right" in out
    assert "instance-2" in out
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize(("runs", "expected"), [
    ([EARLY, "nope"], f"unknown run 'nope' in {{store}} (known runs: {EARLY}, {LATE})"),
    (["<a, b>", "<a>"], "neither '<a, b>' nor '<a>' is a run recorded in {store} (known runs: "
     f"{EARLY}, {LATE}); to compare two answers: nlp-dsg-benchmark answers compare A B"),
])
def test_unknown_run_ids_are_one_line_naming_the_known_runs(
    results: Path, capsys: pytest.CaptureFixture[str], runs: list[str], expected: str,
) -> None:
    assert main(["compare", *runs, "--results-dir", str(results)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("nlp-dsg-benchmark compare: "), err
    assert expected.format(store=results / "store") in err
    assert err.count("\n") == 1


def test_no_store_says_so_and_points_to_answers_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["compare", "runA", "runB", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"no results store at {tmp_path / 'store'}" in err
    assert "nlp-dsg-benchmark answers compare A B" in err and err.count("\n") == 1


def test_the_old_answer_flags_on_compare_point_to_answers_compare(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["compare", "(on a b)", "(on a b)", "--pddl"]) == 2
    err = capsys.readouterr().err
    assert "to compare two answers: nlp-dsg-benchmark answers compare A B" in err
    assert err.count("\n") == 1


def test_answers_compare_judges_an_answer_against_a_solution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["answers", "compare", "<O19, o30>", "<o30, O19>"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "equal"
    assert main(["answers", "compare", "(or (holding O19) (holding O30))", "(holding O19)",
                 "--pddl"]) == 1
    assert "f1:        0.667" in capsys.readouterr().out
    assert main(["answers", "compare", "1.05", "1", "--tol", "0.1"]) == 0
