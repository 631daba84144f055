"""`nlp-dsg-benchmark report`: exit codes and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from reporting.cli import report_command
from reporting.store import record_run
from tests.reporting_runs import write_inputs, write_run


@pytest.fixture
def store(tmp_path: Path) -> Path:
    inputs = write_inputs(tmp_path / "inputs")
    store = tmp_path / "store"
    record_run(write_run(tmp_path / "results", "20260101T020000-aaaaaa", inputs), store)
    record_run(write_run(tmp_path / "results", "20260102T020000-bbbbbb", inputs,
                         wrong={("gpt-b", "q01"), ("gpt-b", "q02")}), store)
    return store


def test_report_command_writes_the_report_and_names_regressions(store, tmp_path, capsys):
    out = tmp_path / "report"

    code = report_command(["--store", str(store), "--out", str(out)])

    printed = capsys.readouterr().out
    assert code == 0
    assert (out / "report.html").is_file() and (out / "report.md").is_file()
    assert "report for run 20260102T020000-bbbbbb against run 20260101T020000-aaaaaa" in printed
    assert "2 items flipped; 2 regressions" in printed
    assert "REGRESSION: gpt-b: accuracy fell from 100.0% to 80.0%" in printed


def test_fail_on_regression_exits_1(store, tmp_path):
    args = ["--store", str(store), "--out", str(tmp_path / "r")]
    assert report_command([*args, "--fail-on-regression"]) == 1
    assert report_command([*args, "--fail-on-regression", "--models", "gpt-a"]) == 0
    assert report_command([*args, "--fail-on-regression", "--threshold", "0.25"]) == 0


@pytest.mark.parametrize(("extra", "message"), [
    (["--store", "{tmp}/none"], "none: no results store (record a run first)"),
    (["--runs", "nope"], "unknown run 'nope' (recorded runs: 20260101T020000-aaaaaa, "),
    (["--models", "gpt-z"], "unknown model 'gpt-z'"),
    (["--threshold", "abc"], "argument --threshold: invalid float value: 'abc'"),
    (["--threshold", "-0.1"], "regression threshold -0.1 is not a fraction"),
])
def test_bad_input_is_one_line_and_exit_2(store, tmp_path, capsys, extra, message):
    args = ["--store", str(store), "--out", str(tmp_path / "r")]
    args += [a.replace("{tmp}", str(tmp_path)) for a in extra]

    assert report_command(args) == 2

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nlp-dsg-benchmark report: error: ")
    assert message in err


def test_missing_out_is_a_usage_error(capsys):
    assert report_command([]) == 2
    assert "the following arguments are required: --out" in capsys.readouterr().err
