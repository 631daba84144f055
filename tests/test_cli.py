"""The command line: a benchmark run through a real OpenAI-compatible HTTP endpoint (loopback),
item failures recorded without sinking the run, and bad input as one line with exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from nlp_dsg_benchmark.cli import main
from tests.conftest import PROJECT_ROOT
from tests.fake_model import ReferenceModel, demo_subset, serve
from tests.fake_openai import FakeOpenAIServer

DEMO_QUESTIONS = PROJECT_ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = PROJECT_ROOT / "questions/demo/apartment_dsg.json"
CLI = Path(sys.executable).parent / "nlp-dsg-benchmark"


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
        (["run", "--model", "m", "--base-url", "localhost:8000/v1", "--questions",
          str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH)],
         "run: --base-url: Value error, must be an http:// or https:// URL with a host"),
        (["run", "--model", "m", "--base-url", "http://user:PASS-0123456@llm.lab/v1",
          "--questions", str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH)],
         "run: --base-url: Value error, holds credentials"),
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
    assert expected in err and "PASS-0123456" not in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


RUN = ["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH)]


@pytest.mark.parametrize(("args", "expected"), [
    *[([*RUN, "--model", "m", "--run-id", run_id], "run: --run-id: run id ")
      for run_id in ("../x", "/abs", ".", "..", "store", "STORE", "store/run_id=r1",
                     "run_id=r1", "a b", "x" * 129)],
    (["demo", "--run-id", "../escape"], "demo: --run-id: run id must be letters"),
    (["rerun", "../x"], "rerun: RUN_ID: run id must be letters"),
    (["run", "--config", "{nul_config}"], "nul.yaml:1: field run_id: run id must be letters"),
    ([*RUN, "--model", "dup", "--model", "dup"], "run: Value error, model 'dup' is listed twice"),
    ([*RUN, "--model", "m" * 300], "run: --model: Value error, model name is 300 characters"),
    ([*RUN, "--model", "a\tb"], "run: --model: Value error, model name holds a control"),
])
def test_names_are_checked_before_any_work(tmp_path: Path, monkeypatch, capsys,
                                           args: list[str], expected: str) -> None:
    """Run ids, model names and repeated models: one line, exit 2, nothing written."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "nul.yaml"
    config.write_text('run_id: "a\\0b"\nmodels: [{name: m, provider: oracle}]\n')
    filled = [a.format(nul_config=config) for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err.strip()
    assert expected in err, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["nul.yaml"]     # no folder, no cache


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_full_disk_is_one_line_naming_the_file(tmp_path: Path, monkeypatch, capsys) -> None:
    """`[Errno 28] No space left on device` while a table is written (tables are written to a
    scratch name and renamed, so the disk is made to refuse that table's write): one line
    naming the file, exit 2, no traceback on the console."""
    import errno

    from benchcore import atomic_files

    monkeypatch.chdir(tmp_path)
    path, _ = demo_subset(tmp_path, {"apt01"})
    real_replace = atomic_files.os.replace

    def full_disk(source, target):
        if str(target).endswith("qa_results.csv"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(source, target)
    monkeypatch.setattr(atomic_files.os, "replace", full_disk)
    code = main(["run", "--questions", str(path), "--scene-graph", str(DEMO_GRAPH),
                 "--model", "m", "--provider", "oracle", "--run-id", "full"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.strip().splitlines()[-1] == (
        "nlp-dsg-benchmark: [Errno 28] No space left on device: 'results/full/qa_results.csv'")
    # In-process after another CLI test, Prefect's console handler may still write to that
    # test's closed stream ("--- Logging error ---" and its traceback): the test harness's,
    # not the run's. Any other traceback is the run's.
    text = captured.err + captured.out
    assert text.count("Traceback") == text.count("--- Logging error ---")


def test_writers_name_the_file_a_full_disk_refused(tmp_path: Path) -> None:
    """A table is written to a scratch file beside it and renamed, so a link to /dev/full would
    just be replaced; a file-size limit of 0 (in a child process) makes the write fail as a
    full disk does, and the error must name the table, not the scratch file."""
    import subprocess
    import sys

    target = tmp_path / "t.csv"
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))\n"
        "import pandas as pd\n"
        "from planeval.tables import write_table\n"
        "try:\n"
        "    write_table(pd.DataFrame({'a': [1]}), sys.argv[1])\n"
        "except OSError as error:\n"
        "    print(error.filename)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.strip() == str(target), done.stderr[-2000:]
    assert not target.exists()


def test_plan_subcommand_names_itself(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["plan", "--help"])
    assert exit_info.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith("usage: nlp-dsg-benchmark plan") and "usage: planeval" not in usage
    assert main(["plan", "overview", "/no/such/dir", "--out", "x.csv"]) == 2
    assert capsys.readouterr().err.startswith("nlp-dsg-benchmark plan: error:")


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_all_numeric_answers_and_a_console_that_fails(tmp_path: Path, monkeypatch,
                                                      capsys) -> None:
    """Three counting questions answered right: every answer a number. A console failure
    after the tables are written never fails the run."""
    monkeypatch.chdir(tmp_path)
    path, _ = demo_subset(tmp_path, {"apt01", "apt02", "apt03"})
    args = ["run", "--questions", str(path), "--scene-graph", str(DEMO_GRAPH),
            "--provider", "oracle", "--model", "reference"]
    assert main([*args, "--run-id", "numbers"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "32" in out and "LLM calls made fresh" in out

    def broken(summary: object, **_: object) -> None:
        raise TypeError("'int' object is not subscriptable")

    monkeypatch.setattr("nlp_dsg_benchmark.console.print_run", broken)
    assert main([*args, "--run-id", "numbers2"]) == 0
    err = capsys.readouterr().err
    assert "run numbers2 finished" in err and "printing them failed" in err
    assert (tmp_path / "results/numbers2/qa_results.csv").is_file()


def test_default_provider_without_a_key_fails_at_once(monkeypatch, capsys) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    started = time.monotonic()
    code = main(["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH),
                 "--model", "oracle"])
    assert code == 2 and time.monotonic() - started < 10
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "set $OPENAI_API_KEY" in err


def test_run_help_says_how_to_pick_the_oracle_and_scripted_models(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    assert "--provider oracle --model NAME" in out and "--provider scripted --script" in out


@pytest.mark.slow
def test_an_echoed_key_is_stored_nowhere_and_the_failure_says_why(tmp_path: Path) -> None:
    """A 401 whose body echoes the key, as it is, JSON-escaped (`\\/`), URL-encoded or inside
    a base64 Basic credential: every item fails, the run fails its error budget with the cause
    counted, in plain lines on a temporary API; the key is in no file and no output, in no
    form."""
    import base64
    from urllib.parse import quote

    key = "gw-LAB/0123456789+abcdef"
    forms = [key, key.replace("/", "\\/"), quote(key, safe=""),
             base64.b64encode(f"user:{key}".encode()).decode()]
    bodies = [b'{"detail": "invalid key %s; Authorization: Bearer %s"}' % (key.encode(),
                                                                            key.encode()),
              b'{"detail": "invalid key \\"%s\\""}' % forms[1].encode(),
              b'{"detail": "invalid: https://gw.lab/v1?key=%s"}' % forms[2].encode(),
              b'{"detail": "invalid credentials %s"}' % forms[3].encode()]
    echo = FakeOpenAIServer(lambda req, n: (401, bodies[(n - 1) % len(bodies)], {}))
    path, _ = demo_subset(tmp_path, {"apt01", "apt02", "apt04", "apt07"})
    env = {**os.environ, "LAB_KEY": key, "PREFECT_API_URL": "http://127.0.0.1:9/api"}
    with echo as server:
        done = subprocess.run(
            [str(CLI), "run", "--questions", str(path), "--scene-graph", str(DEMO_GRAPH),
             "--model", "gpt-x", "--base-url", server.base_url, "--api-key-env", "LAB_KEY",
             "--run-id", "echo"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-2:] == [
        "nlp-dsg-benchmark: qa track: 4/4 items errored (limit 50%); tables written to "
        "results/echo",
        "  4 × HTTP 401: bad or missing API key",
    ]
    assert "Traceback" not in done.stderr + done.stdout
    assert "Error logging to API" not in done.stderr
    assert not any(form in done.stderr + done.stdout for form in forms)
    stored = [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".yaml"]
    assert any(p.name == "qa.parquet" for p in stored)
    assert any(p.name == "prefect.db" for p in stored)        # the API's logs and events
    leaked = [(p, form) for p in stored for form in forms if form.encode() in p.read_bytes()]
    assert leaked == []
    assert "0123456789" not in (tmp_path / "results/echo/qa_results.csv").read_text()


def test_pipelines_and_tool_protocol_from_the_command_line() -> None:
    from nlp_dsg_benchmark.cli import _parser, _run_config

    args = _parser().parse_args([
        "run", "--questions", "q.yaml", "--scene-graph", "g.json", "--model", "m",
        "--provider", "oracle", "--pipeline", "feedforward", "--pipeline", "agentic",
        "--pipeline", "in_context_full", "--tool-protocol", "text"])
    config = _run_config(args)
    assert [p.label for p in config.qa.pipelines] == ["feedforward", "agentic",
                                                     "in_context_full"]
    assert config.models[0].tool_protocol == "text"
    default = _run_config(_parser().parse_args([
        "run", "--questions", "q.yaml", "--scene-graph", "g.json", "--model", "m"]))
    assert [p.label for p in default.qa.pipelines] == ["feedforward"]


def test_rerun_flags_say_what_they_do() -> None:
    """`--stage refine` reruns the whole QA track (named by `--track`); `--only-failed` is the
    older spelling of `--only-errored` (errored items, not wrong answers)."""
    from nlp_dsg_benchmark.cli import _parser, stage_track

    args = _parser().parse_args(["rerun", "r", "--stage", "refine", "--only-failed"])
    assert (stage_track(args.stage), args.only_errored, args.track) == ("qa", True, None)
    assert _parser().parse_args(["rerun", "r", "--track", "planning"]).track == "planning"
    assert stage_track("generate-plan") == "planning"


def test_an_unknown_baseline_is_one_line_before_the_run(capsys, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Not 300 errored items: the name is checked before anything runs."""
    monkeypatch.chdir(tmp_path)   # the run's default cache folder
    code = main(["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph", str(DEMO_GRAPH),
                 "--provider", "baseline", "--model", "oracle"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err == ("nlp-dsg-benchmark: run: unknown baseline 'oracle': provider baseline takes "
                   "the model names zero, empty, ids, common-class")
