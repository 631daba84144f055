"""What the CLI does to start and end quickly (benchmarks/bench_cli_startup.py), and that none
of it changes a result: the process's end without teardown, the collector paused while it
starts, execution matches that read a reference's order only when it matters, the report's
kept figures, the temporary API's own block-registration memo, the imports before the API
starts."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from dsgqa import stage_batches
from dsgqa.execution_match import reference_order, rows_match
from nlp_dsg_benchmark import startup_gc
from nlp_dsg_benchmark.temporary_api import (
    DATABASE_FILE,
    MEMO_FILE,
    _server_environment,
    forget_memo_without_database,
)
from reporting import plots

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


# -- the process's end ----------------------------------------------------------------------


def test_an_armed_exit_skips_teardown_but_not_exit_handlers_or_output(tmp_path: Path) -> None:
    """Exit handlers registered after the package (Prefect's, logging's) still run and the
    output is flushed; objects left to the interpreter's teardown are not finalized; the exit
    code is the one given."""
    done = _python(f"""
        import atexit, sys
        import nlp_dsg_benchmark
        from nlp_dsg_benchmark.process_exit import end_without_teardown

        class Finalized:
            def __del__(self, _open=open):
                _open({str(tmp_path / "finalized")!r}, "w").close()

        kept = Finalized()
        atexit.register(lambda: open({str(tmp_path / "handler")!r}, "w").close())
        print("buffered", end="")
        end_without_teardown(3)
        sys.exit(3)
        """, tmp_path)
    assert done.returncode == 3, done.stderr
    assert done.stdout == "buffered"
    assert (tmp_path / "handler").exists()
    assert not (tmp_path / "finalized").exists()


def test_an_unarmed_exit_is_pythons_own(tmp_path: Path) -> None:
    done = _python(f"""
        import sys
        import nlp_dsg_benchmark

        class Finalized:
            def __del__(self, _open=open):
                _open({str(tmp_path / "finalized")!r}, "w").close()

        kept = Finalized()
        sys.exit(4)
        """, tmp_path)
    assert done.returncode == 4, done.stderr
    assert (tmp_path / "finalized").exists()


def test_main_with_arguments_never_ends_the_process(monkeypatch) -> None:
    """An in-process caller (a test) passes its arguments: nothing is armed."""
    from nlp_dsg_benchmark import cli, process_exit

    monkeypatch.setattr(cli, "_main", lambda argv, program: 0)
    monkeypatch.setattr(process_exit, "_code", [])
    assert cli.main(["demo"]) == 0
    assert process_exit._code == []
    monkeypatch.setattr(sys, "argv", ["nlp-dsg-benchmark", "compare", "a", "b"])
    assert cli.main() == 0
    assert process_exit._code == []       # not a run
    monkeypatch.setattr(sys, "argv", ["nlp-dsg-benchmark", "demo"])
    assert cli.main() == 0
    assert process_exit._code == [0]


def test_a_failed_run_ends_as_python_ends(monkeypatch) -> None:
    from nlp_dsg_benchmark import cli, process_exit

    monkeypatch.setattr(cli, "_main", lambda argv, program: 2)
    monkeypatch.setattr(process_exit, "_code", [])
    monkeypatch.setattr(sys, "argv", ["nlp-dsg-benchmark", "demo"])
    assert cli.main() == 2
    assert process_exit._code == []


# -- the collector during start-up -----------------------------------------------------------


def test_the_collector_is_paused_until_the_flow_starts_and_resumes_on_errors() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with startup_gc.collector_paused(freeze=False) as start:
        assert not gc.isenabled()
        start.done()
        assert gc.isenabled()
    assert gc.get_freeze_count() == frozen      # only the program freezes
    with pytest.raises(RuntimeError), startup_gc.collector_paused(freeze=True):
        assert not gc.isenabled()
        raise RuntimeError("bad input")
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen      # no flow ran: nothing frozen


def test_the_program_freezes_what_start_up_made() -> None:
    try:
        with startup_gc.collector_paused(freeze=True) as start:
            start.done()
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_a_collector_switched_off_before_stays_off() -> None:
    gc.disable()
    try:
        with startup_gc.collector_paused(freeze=False) as start:
            start.done()
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- execution matches -----------------------------------------------------------------------

ORDERED = "MATCH (r:Room) RETURN r.name AS name, r.area AS area ORDER BY r.area DESC"
UNORDERED = "MATCH (r:Room) RETURN r.name AS name"
CASES = [
    ([["a", 2], ["b", 1]], [["a", 2], ["b", 1]]),          # the very rows
    ([["b", 1], ["a", 2]], [["a", 2], ["b", 1]]),          # another order
    ([["a", 2]], [["a", 2], ["b", 1]]),                    # another count
    ([["a", 2.0000001], ["b", 1]], [["a", 2], ["b", 1]]),  # within the tolerance
    ([["a", 1], ["b", 1]], [["b", 1], ["a", 1]]),          # tied on the sort key
    ([], []),
]


@pytest.mark.parametrize("cypher", [ORDERED, UNORDERED])
@pytest.mark.parametrize(("rows", "reference"), CASES)
def test_matches_reference_is_rows_match_with_the_reference_order(rows, reference,
                                                                   cypher) -> None:
    assert stage_batches.matches_reference(rows, reference, cypher) == rows_match(
        rows, reference, ordered=reference_order(cypher))


def test_the_order_is_not_read_when_it_cannot_matter(monkeypatch) -> None:
    def unread(cypher: str) -> None:
        raise AssertionError("the reference was parsed")

    monkeypatch.setattr(stage_batches, "reference_order", unread)
    assert stage_batches.matches_reference([["a", 2], ["b", 1]], [["a", 2], ["b", 1]], ORDERED)
    assert not stage_batches.matches_reference([["a", 2]], [["a", 2], ["b", 1]], ORDERED)


# -- kept figures ----------------------------------------------------------------------------


def _by_domain(rate: float) -> pd.DataFrame:
    return pd.DataFrame({"domain": ["blocks", "blocks", "grid"],
                         "model": ["m1", "m2", "m1"],
                         "task_success_rate": [rate, 0.5, 1.0]})


def test_a_kept_figure_is_the_figure_drawing_makes(tmp_path: Path) -> None:
    drawn = plots.success_heatmap(_by_domain(0.25))
    with plots.figures_kept_in(tmp_path):
        first = plots.success_heatmap(_by_domain(0.25))
        again = plots.success_heatmap(_by_domain(0.25))
        other = plots.success_heatmap(_by_domain(0.75))
    assert drawn == first == again
    assert other != drawn
    assert len(list(tmp_path.glob("success_heatmap-*.png"))) == 2


def test_a_damaged_kept_figure_is_drawn_again(tmp_path: Path) -> None:
    drawn = plots.success_heatmap(_by_domain(0.25))
    with plots.figures_kept_in(tmp_path):
        plots.success_heatmap(_by_domain(0.25))
        (kept,) = tmp_path.glob("*.png")
        kept.write_bytes(kept.read_bytes()[:100])       # cut short
        assert plots.success_heatmap(_by_domain(0.25)) == drawn
    assert kept.read_bytes() == drawn


def test_the_title_is_part_of_what_a_figure_is_kept_by(tmp_path: Path) -> None:
    by_tag = pd.DataFrame({"tag": ["count", "path"], "model": ["m", "m"],
                           "accuracy": [0.5, 1.0], "mean_f1": [0.6, 1.0]})
    with plots.figures_kept_in(tmp_path):
        one = plots.tag_bars(by_tag, "QA accuracy by category")
        other = plots.tag_bars(by_tag, title="QA accuracy by tag")
    assert one == plots.tag_bars(by_tag, "QA accuracy by category")
    assert other == plots.tag_bars(by_tag)
    assert one != other


def test_the_trend_is_never_kept(tmp_path: Path) -> None:
    trend = pd.DataFrame({"run_id": ["r1", "r2"], "run_date": ["2026-01-01", "2026-01-02"],
                          "model": ["m", "m"], "metric": ["accuracy", "accuracy"],
                          "value": [0.5, 0.75]})
    with plots.figures_kept_in(tmp_path):
        assert plots.trend_lines(trend) is not None
    assert not list(tmp_path.iterdir())


def test_only_the_most_recently_used_figures_are_kept(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(plots, "KEEP", 2)
    with plots.figures_kept_in(tmp_path):
        for number, rate in enumerate((0.1, 0.2, 0.3)):
            plots.success_heatmap(_by_domain(rate))
            for path in tmp_path.glob("*.png"):       # distinct modification times
                stamp = path.stat().st_mtime - 10
                os.utime(path, (stamp, stamp))
            assert len(list(tmp_path.glob("*.png"))) == min(number + 1, 2)


def test_keeping_figures_never_imports_pyplot(tmp_path: Path) -> None:
    """Reading the settings the figures are kept by picks no backend."""
    done = _python(f"""
        import sys
        from pathlib import Path
        import pandas as pd
        from reporting import plots
        frame = pd.DataFrame({{"domain": ["d"], "model": ["m"], "task_success_rate": [1.0]}})
        with plots.figures_kept_in(Path({str(tmp_path)!r})):
            plots.success_heatmap(frame)
        print("matplotlib.pyplot" in sys.modules)
        """, tmp_path)
    assert done.stdout.strip() == "False", done.stderr


# -- the temporary API -----------------------------------------------------------------------


def test_each_database_has_its_own_block_registration_memo(tmp_path: Path,
                                                           monkeypatch) -> None:
    monkeypatch.setenv("PREFECT_MEMO_STORE_PATH", "/elsewhere/memo_store.toml")
    env = _server_environment("http://127.0.0.1:1/api", tmp_path / DATABASE_FILE)
    assert env["PREFECT_SERVER_MEMO_STORE_PATH"] == str(tmp_path / MEMO_FILE)
    assert "PREFECT_MEMO_STORE_PATH" not in env


def test_a_memo_without_its_database_is_forgotten(tmp_path: Path) -> None:
    (tmp_path / MEMO_FILE).write_text('block_auto_registration = "x"\n')
    (tmp_path / DATABASE_FILE).write_bytes(b"")
    forget_memo_without_database(tmp_path)
    assert (tmp_path / MEMO_FILE).exists()
    (tmp_path / DATABASE_FILE).unlink()
    forget_memo_without_database(tmp_path)
    assert not (tmp_path / MEMO_FILE).exists()


def test_a_run_config_is_read_without_pandas(tmp_path: Path) -> None:
    """The CLI reads the configuration and checks the run folder before it starts the
    temporary API: pandas (0.3 s) comes after."""
    done = _python("""
        import sys
        from nlp_dsg_benchmark import cli
        args = cli._parser().parse_args(["demo", "--run-id", "x"])
        config = cli._run_config(args)
        cli._check_run_folder(config)
        cli._reused_as_it_is(config)
        print("pandas" in sys.modules, "prefect" in sys.modules)
        """, tmp_path)
    assert done.stdout.strip() == "False False", done.stderr
