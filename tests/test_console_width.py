"""A finished run printed in an 80-column (or narrower) terminal: no line wider than the
terminal, no header word cut in pieces, at most 50 per-question rows unless --verbose, and one
line per run with --quiet. The demo, run through the command line, is checked the same way."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from benchcore.run_folder import QA_COLUMNS
from benchcore.run_summary import RunSummary
from benchcore.track_summary import TrackSummary
from dsgqa.results import write_results
from nlp_dsg_benchmark import console as console_module
from nlp_dsg_benchmark.cli import main

PIPELINES = ("feedforward", "agentic", "in_context")


def _rows(questions: int, wrong: set[str] = frozenset()) -> pd.DataFrame:
    rows = [{column: "" for column in QA_COLUMNS} | {
        "uid": f"q{i:03d}", "model": "openai:gpt-4o-mini-2024-07-18", "pipeline": pipeline,
        "valid_cypher": True, "n_rows": 3, "answer": "<kitchen, \"living room\", office>",
        "correct": f"q{i:03d}" not in wrong, "score_f1": 1.0, "tokens": 10, "cost_usd": 0.0,
        "seconds": 0.1, "prompt_tokens": 5, "completion_tokens": 5, "score_precision": 1.0,
        "score_recall": 1.0, "valid_answer": True, "truncated": False,
    } for pipeline in PIPELINES for i in range(questions)]
    return pd.DataFrame(rows, columns=list(QA_COLUMNS))


def _summary(tmp_path: Path, questions: int, wrong: set[str] = frozenset()) -> RunSummary:
    table = _rows(questions, wrong)
    paths = write_results(table, tmp_path)
    overall = pd.read_csv(paths["summary_csv"]).to_dict(orient="records")
    qa = TrackSummary(paths={k: str(v) for k, v in paths.items()}, units=questions,
                      items=len(table), errors=0, overall_records=overall, markdown="",
                      llm_calls={"fresh": 3})
    plan_record = {c: 0.5 for c in console_module.PLANNING_COLUMNS} | {
        "experiment": "openai:gpt-4o-mini-2024-07-18_non-incremental_pddl", "n_instances": 9}
    planning = TrackSummary(paths={"markdown": str(tmp_path / "plan_overview.md")}, units=9,
                            items=9, errors=1, overall_records=[plan_record], markdown="",
                            llm_calls={})
    return RunSummary(run_id="r1", run_dir=str(tmp_path), qa=qa, planning=planning)


def _printed(summary: RunSummary, verbose: bool = False) -> str:
    with console_module.console.capture() as capture:
        if verbose:
            console_module.print_run(summary, verbose=True)
        else:
            console_module.print_run(summary)
    return capture.get()


def header_texts(out: str) -> list[list[str]]:
    """Each table's column headers as printed, the pieces of a wrapped header joined by a
    space: a header cut inside a word reads `executi on`."""
    tables, block = [], None
    for line in out.splitlines():
        if line.startswith("┏"):
            block = []
        elif line.startswith("┡") and block is not None:
            columns = zip(*(row.split("┃")[1:-1] for row in block), strict=True)
            tables.append([" ".join(p.strip() for p in pieces if p.strip())
                           for pieces in columns])
            block = None
        elif block is not None:
            block.append(line)
    return tables


def _known_words() -> set[str]:
    names = [*QA_COLUMNS, *console_module.QA_SUMMARY_COLUMNS, *console_module.PLANNING_COLUMNS,
             "lost_at", "failed_queries", "system", "metric", "run_A", "run_B", "change", "flag"]
    return {word for name in names for word in re.split(r"[_ ]", name) if word}


def assert_fits(out: str, width: int) -> None:
    """No line wider than `width`; every header made of whole words of the column names."""
    assert max(len(line) for line in out.splitlines()) <= width, out
    tables = header_texts(out)
    assert tables, out
    known = _known_words()
    for headers in tables:
        for header in headers:
            broken = [w for w in re.split(r"[_ ]", header) if w and w not in known]
            assert not broken, f"header {header!r} is cut inside a word:\n{out}"


@pytest.mark.parametrize("width", [80, 60, 40])
def test_tables_fit_the_terminal_without_cutting_a_header_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    out = _printed(_summary(tmp_path, 5))
    assert_fits(out, width)
    for word in ("accuracy", "execution", "successfully", "precondition"):
        assert word in out


def test_at_most_50_question_rows_wrong_ones_first_and_where_the_rest_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    summary = _summary(tmp_path, 40, wrong={"q035", "q039"})   # 120 rows, 6 wrong
    out = _printed(summary)
    shown = re.findall(r"^│ (q\d{3}) ", out, flags=re.MULTILINE)
    assert len(shown) == console_module.ROW_LIMIT
    assert shown.count("q035") == 3 and shown.count("q039") == 3     # every pipeline's
    assert "70 of 120 rows not shown" in out
    assert str(tmp_path / "qa_results.csv") in out.replace("\n", "")
    assert "Scene-graph QA: summary" in out and "Planning: overview" in out
    everything = _printed(summary, verbose=True)
    assert len(re.findall(r"^│ (q\d{3}) ", everything, flags=re.MULTILINE)) == 120
    assert "rows not shown" not in everything


def test_quiet_prints_one_line_per_run(tmp_path: Path) -> None:
    from nlp_dsg_benchmark.run_line import run_line

    line = run_line(_summary(tmp_path, 5, wrong={"q001"}))
    assert "\n" not in line
    assert line.startswith(f"run r1: {tmp_path}; QA accuracy: ")
    assert "openai:gpt-4o-mini-2024-07-18 0.800" in line                  # feed-forward
    assert "openai:gpt-4o-mini-2024-07-18 · agentic 0.800" in line
    assert "planning success: openai:gpt-4o-mini-2024-07-18_non-incremental_pddl" in line
    assert line.endswith("errors: 1")


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_the_demo_reads_well_at_80_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The demo through the CLI at COLUMNS=80; then `--quiet` (one line) and a comparison of
    two demo runs (nothing flipped, every change 0)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["demo", "--run-id", "demo-a"]) == 0
    out = capsys.readouterr().out
    assert_fits(out, 80)
    # 28 questions x 3 pipelines, or 4 with codegen where its sandbox can run; 50 shown.
    shown = re.search(r"(\d+) of (\d+) rows not shown", out)
    assert shown and int(shown[2]) in (84, 112) and int(shown[1]) == int(shown[2]) - 50
    assert "qa_results.csv" in out
    assert main(["demo", "--run-id", "demo-b", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("run demo-b: results/demo-b; QA accuracy: ")
    assert main(["compare", "demo-a", "demo-b"]) == 0
    out = capsys.readouterr().out
    assert_fits(out, 80)
    assert "QA: no item flipped." in out and "Planning: no item flipped." in out
    assert "+0.000" in out and "-0." not in out
