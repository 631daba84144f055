"""Tables, records and reports are written whole or not at all, and `rerun --only-errored`
counts the items a run's tables lack, not only the rows that say "error"."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from benchcore.run_folder import QA_RESULTS, items_to_redo
from tests.conftest import PROJECT_ROOT

# Each writer, under a file-size limit of 8 KB (what a filling disk does to a write: the first
# bytes land, the rest fail), over a file that holds "old".
_WRITERS = textwrap.dedent("""
    import resource, signal, sys
    from pathlib import Path
    import pandas as pd
    from benchcore import atomic_files
    from benchcore.run_config import BenchmarkConfig, save_run_config
    from dsgqa.results import write_results
    from planeval import write_table
    from tests.reporting_runs import QA_MODELS, _qa_rows

    out = Path(sys.argv[1])
    qa = pd.concat([_qa_rows(QA_MODELS, set()).assign(pipeline="feedforward")] * 40)
    big = pd.DataFrame({"experiment": ["e" * 40] * 2000, "success": [True] * 2000})
    config = BenchmarkConfig.model_validate({"models": [{"name": "m"}], "cache_dir": "c" * 20_000})
    writers = {
        "qa": lambda: write_results(qa, out / "qa"),
        "plan.csv": lambda: write_table(big, out / "plan.csv"),
        "plan.md": lambda: write_table(big, out / "plan.md"),
        "plan.json": lambda: write_table(big, out / "plan.json"),
        "config": lambda: save_run_config(config, "r", out / "run"),
        "text": lambda: atomic_files.write_text(out / "text.txt", "x" * 20_000),
    }
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.RLIM_INFINITY))
    for name, write in writers.items():
        try:
            write()
            print(name, "written")
        except OSError as error:
            print(name, "failed:", error)
""")
_TARGETS = ["qa/qa_results.csv", "plan.csv", "plan.md", "plan.json", "run/config.json",
            "text.txt"]


def test_a_write_the_disk_cannot_hold_leaves_the_old_file_and_names_the_new_one(
        tmp_path: Path) -> None:
    from benchcore.run_config import BenchmarkConfig, save_run_config

    for target in _TARGETS[:-2]:
        (tmp_path / target).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / target).write_text("old\n")
    (tmp_path / "text.txt").write_text("old\n")
    # The same run's configuration (another cache folder), which the new one may replace.
    save_run_config(BenchmarkConfig.model_validate({"models": [{"name": "m"}]}), "r",
                    tmp_path / "run")
    recorded = (tmp_path / "run/config.json").read_text()
    done = subprocess.run([sys.executable, "-c", _WRITERS, str(tmp_path)], cwd=PROJECT_ROOT,
                          env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    outcome = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    for target in _TARGETS:
        old = recorded if target == "run/config.json" else "old\n"
        assert (tmp_path / target).read_text() == old, target       # never a part
    assert outcome["qa"].startswith("failed: [Errno 27] File too large: ")
    assert str(tmp_path / "qa" / QA_RESULTS) in outcome["qa"]
    assert not list(tmp_path.rglob("*.tmp"))                        # nothing left behind


def test_rows_missing_from_a_table_are_items_to_redo(tmp_path: Path) -> None:
    """A QA table cut short at a line break, and one cut inside a row: the absent and the cut
    rows are to redo, though no row says "error"."""
    expected = {(f"q{i}", "m", "feedforward") for i in range(28)}
    rows = pd.DataFrame({"uid": [f"q{i}" for i in range(13)], "model": "m",
                         "pipeline": "feedforward", "correct": True, "score_f1": 1.0,
                         "error": ""})
    rows.to_csv(tmp_path / QA_RESULTS, index=False)
    todo = items_to_redo(tmp_path, qa=expected)
    assert (todo.errored, todo.missing) == (0, 15)
    text = (tmp_path / QA_RESULTS).read_text()
    (tmp_path / QA_RESULTS).write_text(text[:-8])                   # the last row cut
    assert items_to_redo(tmp_path, qa=expected).missing == 16
    (tmp_path / QA_RESULTS).write_text('uid,model,pipeline,correct,score_f1,error\n"q1,m')
    todo = items_to_redo(tmp_path, qa=expected)
    assert todo.missing == 28 and str(tmp_path / QA_RESULTS) in todo.unreadable[0]


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_rerun_only_errored_redoes_the_rows_a_cut_table_lost(tmp_path, monkeypatch,
                                                              capsys) -> None:
    from nlp_dsg_benchmark.cli import main
    from tests.fake_model import DEMO_GRAPH, demo_subset

    monkeypatch.chdir(tmp_path)
    questions, _ = demo_subset(tmp_path, {"apt01", "apt04", "apt06", "apt07"})
    assert main(["run", "--provider", "oracle", "--model", "reference", "--questions",
                 str(questions), "--scene-graph", str(DEMO_GRAPH), "--run-id", "r1"]) == 0
    table = tmp_path / "results/r1" / QA_RESULTS
    whole = pd.read_csv(table)
    lines = table.read_text().splitlines(keepends=True)
    table.write_text("".join(lines[:3]))     # the header and two rows, as a full disk left it
    capsys.readouterr()
    assert main(["rerun", "r1", "--only-errored"]) == 0
    assert "r1: rerunning; 2 item(s) missing from its tables will be redone" in \
        capsys.readouterr().out
    assert sorted(pd.read_csv(table)["uid"]) == sorted(whole["uid"])
    assert main(["rerun", "r1", "--only-errored"]) == 0
    assert "no errored items" in capsys.readouterr().out
