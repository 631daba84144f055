"""Printing a finished run: numbers where text is expected, rich markup in answers, and a huge
reply neither break the console nor bloat the Markdown table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchcore.run_folder import QA_COLUMNS
from benchcore.run_summary import RunSummary
from benchcore.track_summary import TrackSummary
from dsgqa.results import write_results
from nlp_dsg_benchmark import console as console_module


def _table(answers: list[str]) -> pd.DataFrame:
    rows = [{column: "" for column in QA_COLUMNS} | {
        "uid": f"q{i}", "model": "m", "valid_cypher": True, "n_rows": 1, "answer": answer,
        "correct": True, "score_f1": 1.0, "tokens": 0, "cost_usd": 0.0, "seconds": 0.0,
        "prompt_tokens": 0, "completion_tokens": 0, "score_precision": 1.0,
        "score_recall": 1.0, "valid_answer": True, "truncated": False,
    } for i, answer in enumerate(answers)]
    return pd.DataFrame(rows, columns=list(QA_COLUMNS))


def _printed(tmp_path: Path, answers: list[str]) -> str:
    paths = write_results(_table(answers), tmp_path)
    track = TrackSummary(paths={k: str(v) for k, v in paths.items()}, units=len(answers),
                         items=len(answers), errors=1, overall_records=[{"model": "[m]"}],
                         markdown="", llm_calls={}, error_causes=[("HTTP 400: [bad]", 1)])
    summary = RunSummary(run_id="r", run_dir=str(tmp_path), qa=track,
                         report_html=str(tmp_path / "[x]/report.html"))
    with console_module.console.capture() as capture:
        console_module.print_run(summary)
    return capture.get()


def test_all_numeric_answers_are_printed(tmp_path: Path) -> None:
    out = _printed(tmp_path, ["8", "5", "32"])
    assert "32" in out and "Scene-graph QA: per question" in out


def test_markup_in_cells_and_paths_is_shown_as_written(tmp_path: Path) -> None:
    out = _printed(tmp_path, ["[seating, storage, sign]", "[bold]x[/bold]"])
    assert "[seating, storage, sign]" in out and "[bold]x[/bold]" in out
    assert "[x]/report.html" in out and "1 × HTTP 400: [bad]" in out and "[m]" in out


def test_markdown_cells_are_capped(tmp_path: Path) -> None:
    huge = "word " * 200_000          # a 1 MB reply
    paths = write_results(_table([huge, "a | b\nc"]), tmp_path)
    markdown = paths["markdown"].read_text()
    assert len(markdown) < 5_000
    assert "a \\| b c" in markdown
    assert len(pd.read_csv(paths["rows_csv"])["answer"][0]) == len(huge)   # the CSV keeps all


def test_markdown_shows_number_like_answers_as_written(tmp_path: Path) -> None:
    """tabulate reads number-like text as numbers; a model's answer must be shown as it said."""
    paths = write_results(_table(["0.10", "1e3", "007"]), tmp_path)
    rows = [line for line in paths["markdown"].read_text().splitlines()
            if line.startswith("| q")]
    answers = [row.split("|")[6].strip() for row in rows]
    assert answers == ["0.10", "1e3", "007"]


def test_the_artifact_shows_the_summaries_and_at_most_50_wrong_rows(tmp_path: Path) -> None:
    from dsgqa.results import ARTIFACT_ROWS, artifact_markdown, summaries

    table = _table([str(i) for i in range(120)])
    table["correct"] = pd.array([i % 2 == 0 if i != 1 else None for i in range(120)],
                                dtype="boolean")
    table.loc[2, "error"] = "HTTP 500"
    text = artifact_markdown(table, *summaries(table))
    assert "## Overall" in text and "## By tag" in text
    assert f"61 of 120 rows wrong or errored; the first {ARTIFACT_ROWS} shown" in text
    per_question = text.split("## Wrong or errored")[1]
    assert per_question.count("| q") == ARTIFACT_ROWS   # one table line per shown row
    assert "| q2 " in per_question and "| q1 " in per_question   # errored; unknown correctness
    assert "| q4 " not in per_question                             # right: not listed


HOSTILE = ["\x1b[2J\x1b[Hcleared", "\x1b]0;pwned\x07title", "\x1b]8;;http://evil.example/\x1b\\"
           "link\x1b]8;;\x1b\\", "\x1b[31mred\x1b[0m", "over\rwrite", "\u202eevil", "\x9b2Jc1"]


def test_no_terminal_control_from_a_value_reaches_the_terminal(tmp_path: Path) -> None:
    from benchcore.terminal_text import printable

    assert [printable(text) for text in HOSTILE] == [
        "cleared", "title", "link", "red", "over write", " evil", "c1"]
    table = _table(HOSTILE)
    table["uid"] = [f"q{i}\x1b[1m" for i in range(len(HOSTILE))]
    table["model"] = "m\x1b]0;x\x07"
    paths = write_results(table, tmp_path)
    track = TrackSummary(paths={k: str(v) for k, v in paths.items()}, units=7, items=7,
                         errors=1, overall_records=[{"model": "m\x1b]0;x\x07"}], markdown="",
                         llm_calls={}, error_causes=[("HTTP 400: \x1b[2Jgone\r", 1)],
                         notes=["note \x1b[5mblink"])
    summary = RunSummary(run_id="r", run_dir=str(tmp_path), qa=track,
                         regressions=["m\x1b[8m hidden"])
    with console_module.console.capture() as capture:
        console_module.print_run(summary)
    out = capture.get()
    assert not any(c in out for c in "\x1b\x07\r\x9b\u202e"), repr(out)
    assert "cleared" in out and "1 × HTTP 400: gone" in out and "blink" in out


def test_a_cli_error_holds_no_terminal_control(tmp_path: Path, capsys) -> None:
    from nlp_dsg_benchmark.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text('questions:\n  - uid: "q\\e]0;pwned\\a\\e[2J"\n    solution: "1"\n'
                   "    correctness_comparator: {comparison_type: SLDP}\n")
    graph = Path(__file__).resolve().parents[1] / "questions/demo/apartment_dsg.json"
    assert main(["run", "--questions", str(bad), "--scene-graph", str(graph),
                 "--model", "m", "--provider", "oracle"]) == 2
    err = capsys.readouterr().err
    assert "question q: field question: field required" in err
    assert not any(c in err for c in "\x1b\x07"), repr(err)
