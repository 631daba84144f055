"""Reproducibility on threads and on a real Dask cluster: the QA track run twice on threads and
twice through a Dask cluster of two worker processes, each fresh, must give the same verdicts
from the same prompts; a cached rerun makes no LLM call; and one worker against two at the
chunked stages.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_dask_reproducibility.py           # 120 q.
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_dask_reproducibility.py --quick   # 40
    ... --questions 300                # the whole generated set (~9 min on 2 busy cores)
    ... [--latency 0.2] [--connections 8] [--chunk-size 30]

The default, 120 questions (spread evenly over the generated set), takes about 3.5 minutes
on 2 shared cores; the whole set of 300 takes about 2.5 times as long (not re-measured since
the set grew from 240).

Set-up: the generated question set of the example Hydra graph (`--questions` of them, evenly
spread over it when fewer than all) on that graph, 2 models x 2 pipelines (feedforward,
agentic), against a loopback OpenAI-compatible fake (tests/fake_openai.py, in this process)
that answers after `--latency` seconds: the feedforward stages with the question's reference
Cypher and solution, the agent with a `run_cypher` tool call of the reference query and then
an `answer` tool call. The second model writes broken Cypher for 1 question in 7 and a wrong
answer for 1 in 5, so not every verdict is true. Every reply is a pure function of the
request. Each model has max_connections `--connections` (8), so the run is LLM-bound. All
runs share one Prefect test API (its start-up not counted) and write no report.

Runs, in this order:
1. threads 1, threads 2: `task_runner: threads`, each with its own caches and run id;
2. dask 1, dask 2: `task_runner: dask` on a cluster of a `dask scheduler` and two
   `dask worker` processes of 4 threads each (tests/dask_cluster.py), `qa.chunk_size`
   `--chunk-size`, each with its own caches and run id;
3. cached rerun: dask 2's config again on the same cluster, same caches, a new run id;
4. 1-worker 1, 1-worker 2: fresh runs as dask 1 and 2, on a new cluster of one worker process
   (same chunk size). Each worker loads the graph database at its first run, so the first
   run on a cluster is compared with the first (dask 1), the second with the second.

Figures:
- verdicts equal to threads 1: the `correct` column of the run's qa_results rows per
  (model, pipeline, question uid); also the rows' content (answer, executed Cypher, rows,
  error) per key. Up to 3 differences are listed.
- prompt hashes equal to threads 1: the fake keeps a SHA-256 of every request body it
  receives (messages, tools, sampling parameters) per (model, stage, question uid), the
  agent's turns as stages of their own ("agent turn 1", ...); equal when the same hashes
  arrived.
- fresh LLM calls: RunSummary.llm_calls()["fresh"] and the requests the fake received, per
  run; the cached rerun must make 0.
- wall time of each run (the flow call), and its stage tasks' span: first stage task started
  to last ended, over every task run named `<stage>[model]` or `<stage>[model] i/n`, read
  back from the Prefect API; split at the fake's first request and last reply, with each
  model's window of calls (seconds from the span's start). Beside it the requests in flight
  per model: the most at once, and the mean over the model's window. On Dask, the tasks each
  worker ran.
- ideal LLM-bound time: LLM calls per model x latency / max_connections (the models run side
  by side). `max_connections` is cluster-wide (a scheduler-held semaphore per model), so a
  second worker cannot raise a model's calls in flight above it; 1 worker vs 2 shows what a
  second worker adds when the endpoint's limit, and the workers' threads, bound the run. A
  stage task holds a worker thread for its whole chunk, so with more chunk tasks ready than
  the cluster has threads (4 per worker here) some wait: the models' windows of calls then
  overlap less than on threads (there every task runs at once).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pandas as pd
import yaml
from figure_table import Figure, figure_table

from benchcore import external_data
from benchcore.run_summary import RunSummary
from tests.dask_cluster import Cluster, dask_cluster
from tests.fake_openai import FakeOpenAIServer, Reply, chat_reply, tool_call_reply

ROOT = Path(__file__).resolve().parent.parent
GENERATED_QUESTIONS = ROOT / "questions/generated/example_dsg_questions.yaml"
EXAMPLE_GRAPH = external_data.path_or_fetched(external_data.EXAMPLE_DSG)
MODELS = ("fake-a", "fake-b")
PIPELINES = ("feedforward", "agentic")
BROKEN_CYPHER = "MATCH (o:Object RETURN o"
# The rows' content besides the verdict: what the model answered and what its query returned.
CONTENT_COLUMNS = ("answer", "cypher_executed", "n_rows", "rows_json", "error")
_QUESTION = re.compile(r"^Question: (.*)$", re.MULTILINE)

VerdictKey = tuple[str, str, str]   # (model, pipeline, uid)
PromptKey = tuple[str, str, str]    # (model, stage, uid)


class RecordingModel:
    """FakeOpenAIServer responder: answers from the question set after `latency` seconds and
    keeps a hash of every request body per (model, stage, question uid)."""

    def __init__(self, questions: list[dict], latency: float) -> None:
        self.by_text = {" ".join(q["question"].split()): (i, q) for i, q in enumerate(questions)}
        self.latency = latency
        self.prompts: dict[PromptKey, list[str]] = defaultdict(list)
        self.in_flight: Counter[str] = Counter()
        self.peak: Counter[str] = Counter()
        self.spans: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self._lock = threading.Lock()

    def __call__(self, request: dict, n: int) -> Reply:
        model = str(request.get("model", "?"))
        with self._lock:
            self.in_flight[model] += 1
            self.peak[model] = max(self.peak[model], self.in_flight[model])
        started = time.time()   # epoch seconds: compared with the task runs' times
        try:
            time.sleep(self.latency)
            return self._reply(request, model)
        finally:
            with self._lock:
                self.in_flight[model] -= 1
                self.spans[model].append((started, time.time()))

    def _reply(self, request: dict, model: str) -> Reply:
        index, question = self._question(request)
        stage = stage_of(request)
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
        with self._lock:
            self.prompts[(model, stage, question.get("uid", "?"))].append(digest)
        erring = model == MODELS[1]
        broken = erring and index % 7 == 3
        cypher = BROKEN_CYPHER if broken else question.get("cypher", "")
        answer = "unknown" if broken or (erring and index % 5 == 1) \
            else str(question.get("solution", ""))
        if stage == "generate-cypher":
            return chat_reply(f"```cypher\n{cypher}\n```")
        if stage == "refine":
            return chat_reply(f"```\n{answer}\n```")
        if stage == "agent turn 1":
            return tool_call_reply([("run_cypher", json.dumps({"query": cypher}))])
        return tool_call_reply([("answer", json.dumps({"answer": answer}))])

    def _question(self, request: dict) -> tuple[int, dict]:
        user = next((m.get("content") or "" for m in request["messages"]
                     if m.get("role") == "user"), "")
        match = _QUESTION.search(user)
        text = " ".join(match.group(1).split()) if match else ""
        return self.by_text.get(text, (-1, {}))

    def take(self) -> tuple[dict[PromptKey, tuple[str, ...]], Concurrency]:
        """The prompt hashes and the requests in flight per model since the last take."""
        with self._lock:
            prompts = {k: tuple(sorted(v)) for k, v in self.prompts.items()}
            concurrency = Concurrency(dict(self.peak), {
                m: (min(a for a, _ in spans), max(b for _, b in spans),
                    sum(b - a for a, b in spans)) for m, spans in self.spans.items()})
            self.prompts.clear()
            self.peak.clear()
            self.spans.clear()
        return prompts, concurrency


@dataclass(frozen=True)
class Concurrency:
    """Requests in flight per model: the most at once, and per model (first request, last
    reply, summed request seconds), in epoch seconds."""

    peak: dict[str, int]
    spans: dict[str, tuple[float, float, float]]

    def mean(self, model: str) -> float:
        """Requests in flight on average from the model's first request to its last reply."""
        first, last, busy = self.spans.get(model, (0.0, 0.0, 0.0))
        return busy / (last - first) if last > first else 0.0

    def calls_span(self) -> tuple[float, float] | None:
        """First request to last reply over every model."""
        if not self.spans:
            return None
        return (min(f for f, _, _ in self.spans.values()),
                max(last for _, last, _ in self.spans.values()))

    def text(self) -> str:
        if not self.peak:
            return "no requests"
        return "in flight peak/mean " + ", ".join(
            f"{m} {self.peak.get(m, 0)}/{self.mean(m):.1f}" for m in MODELS)


def stage_of(request: dict) -> str:
    messages = request["messages"]
    if "tools" in request:
        return f"agent turn {1 + sum(m.get('role') == 'assistant' for m in messages)}"
    system = messages[0].get("content") or ""
    return "generate-cypher" if system.startswith("You translate") else "refine"


@dataclass(frozen=True)
class Run:
    """One run's figures."""

    name: str
    summary: RunSummary
    wall_s: float
    rows: pd.DataFrame
    prompts: dict[PromptKey, tuple[str, ...]]
    in_flight: Concurrency
    stage_span: tuple[float, float] | None   # first stage task started, last ended (epoch)
    tasks_per_worker: tuple[int, ...] = ()

    @property
    def fresh_calls(self) -> int:
        return self.summary.llm_calls()["fresh"]

    @property
    def chunked_s(self) -> float:
        return self.stage_span[1] - self.stage_span[0] if self.stage_span else float("nan")

    def stage_split(self) -> str:
        """The stage tasks' span as: before the first LLM request, from it to the last reply,
        after that."""
        calls = self.in_flight.calls_span()
        if not calls or not self.stage_span:
            return f"stage tasks {self.chunked_s:.1f} s"
        (start, end), (first, last) = self.stage_span, calls
        windows = ", ".join(f"{m} {f - start:.1f}-{t - start:.1f}"
                            for m, (f, t, _) in sorted(self.in_flight.spans.items()))
        return (f"stage tasks {self.chunked_s:.1f} s = {first - start:.1f} before the first "
                f"call + {last - first:.1f} calls + {end - last:.1f} after the last; each "
                f"model's calls at {windows} s")

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.prompts.values())

    def verdicts(self) -> dict[VerdictKey, object]:
        return {key: row["correct"] for key, row in self._by_key().items()}

    def contents(self) -> dict[VerdictKey, tuple]:
        return {key: tuple(row[c] for c in CONTENT_COLUMNS) for key, row in self._by_key().items()}

    def _by_key(self) -> dict[VerdictKey, pd.Series]:
        return {(r["model"], r["pipeline"], r["uid"]): r for _, r in self.rows.iterrows()}


def question_subset(n: int, folder: Path) -> tuple[Path, list[dict]]:
    """The generated set, or `n` of its questions evenly spread over it (so every category
    is in), as a question file of the same header."""
    document = yaml.safe_load(GENERATED_QUESTIONS.read_text())
    questions = document["questions"]
    if n >= len(questions):
        return GENERATED_QUESTIONS, questions
    picked = [questions[i * len(questions) // n] for i in range(n)]
    path = folder / "questions.yaml"
    path.write_text(yaml.safe_dump({**document, "questions": picked}, sort_keys=False))
    return path, picked


def make_config(args: argparse.Namespace, folder: Path, questions: Path, base_url: str,
                run_id: str, cache: str, dask_address: str | None = None):
    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, QAConfig

    on_dask = dask_address is not None
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(folder / "results"), cache_dir=str(folder / cache),
        models=[ModelConfig(name=name, base_url=base_url, max_connections=args.connections,
                            api_key_env="NDB_BENCH_NO_KEY") for name in MODELS],
        qa=QAConfig(questions=str(questions), scene_graph=str(EXAMPLE_GRAPH),
                    db_root=str(folder / "graphs"), pipelines=list(PIPELINES),
                    chunk_size=args.chunk_size if on_dask else None),
        report=False, task_runner="dask" if on_dask else "threads", dask_address=dask_address,
    )


def run_once(name: str, config, fake: RecordingModel, workers: Cluster | None = None) -> Run:
    from flows.benchmark import nlp_dsg_benchmark

    fake.take()
    executed = executed_per_worker(workers)
    started_at = datetime.now().astimezone()
    started = time.perf_counter()
    summary = nlp_dsg_benchmark(config)
    wall_s = time.perf_counter() - started
    prompts, in_flight = fake.take()
    rows = pd.read_csv(summary.qa.paths["rows_csv"], keep_default_na=False)
    tasks = tuple(b - a for a, b in zip(executed, executed_per_worker(workers), strict=True))
    print(f"  {name}: {wall_s:.1f} s, {summary.llm_calls()['fresh']} fresh LLM calls",
          file=sys.stderr, flush=True)
    return Run(name, summary, wall_s, rows, prompts, in_flight, stage_span(started_at), tasks)


def executed_per_worker(workers: Cluster | None) -> tuple[int, ...]:
    """How many tasks each worker of the cluster has run so far (by worker name)."""
    if workers is None:
        return ()
    with workers.client() as client:
        counts = client.run(lambda dask_worker: (dask_worker.name,
                                                 dask_worker.state.executed_count))
    return tuple(count for _name, count in sorted(counts.values()))


def stage_span(since: datetime) -> tuple[float, float] | None:
    """First start and last end (epoch seconds) over the stage task runs (names
    `<stage>[model]...`) that started after `since`, from the Prefect API: the flow's and a
    Dask subflow's alike."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import TaskRunFilter, TaskRunFilterStartTime

    runs, page = [], 200   # the API's largest page
    with get_client(sync_client=True) as client:
        while len(runs) % page == 0:
            batch = client.read_task_runs(task_run_filter=TaskRunFilter(
                start_time=TaskRunFilterStartTime(after_=since)), limit=page, offset=len(runs))
            runs += batch
            if not batch:
                break
    spans = [(r.start_time, r.end_time) for r in runs
             if "[" in r.name and r.start_time and r.end_time]
    if not spans:
        return None
    return (min(start for start, _ in spans).timestamp(), max(end for _, end in spans).timestamp())


@contextmanager
def cluster(folder: Path, workers: int) -> Iterator[Cluster]:
    from prefect.settings import PREFECT_API_URL

    with dask_cluster(folder, PREFECT_API_URL.value(), workers=workers) as running:
        yield running


@dataclass(frozen=True)
class Runs:
    """The four fresh runs (threads 1, 2, dask 1, 2), the cached rerun, and the two runs on
    one worker (the first on a new cluster, as dask 1 is, then the second, as dask 2 is)."""

    fresh: list[Run]
    rerun: Run
    one_worker: list[Run]


def all_runs(args: argparse.Namespace, folder: Path) -> Runs:
    from prefect.testing.utilities import prefect_test_harness

    from nlp_dsg_benchmark.environment import heartbeats_off_for_temporary_api

    questions, known = question_subset(args.questions, folder)
    fake = RecordingModel(known, args.latency)
    with prefect_test_harness(server_startup_timeout=120), \
            heartbeats_off_for_temporary_api(temporary=True), FakeOpenAIServer(fake) as server:
        def config(run_id: str, address: str | None = None, cache: str | None = None):
            return make_config(args, folder, questions, server.base_url, run_id,
                               cache or run_id, address)

        runs = [run_once(f"threads {i}", config(f"threads-{i}"), fake) for i in (1, 2)]
        with cluster(folder / "dask-2w", workers=2) as two:
            runs += [run_once(f"dask {i}", config(f"dask-{i}", two.address), fake, two)
                     for i in (1, 2)]
            rerun = run_once("cached rerun", config("dask-2-rerun", two.address,
                                                    cache="dask-2"), fake, two)
        with cluster(folder / "dask-1w", workers=1) as one:
            one_worker = [run_once(f"1-worker {i}", config(f"one-worker-{i}", one.address),
                                   fake, one) for i in (1, 2)]
    return Runs(runs, rerun, one_worker)


def differences(base: dict, other: dict) -> tuple[int, int, list[str]]:
    """Equal keys, all keys, and up to 3 examples of differences."""
    keys = sorted(set(base) | set(other))
    unequal = [k for k in keys if base.get(k) != other.get(k)]
    examples = [f"{'/'.join(k)}: {_short(base.get(k))} vs {_short(other.get(k))}"
                for k in unequal[:3]]
    return len(keys) - len(unequal), len(keys), examples


def _short(value: object) -> str:
    text = "missing" if value is None else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def comparison_figures(runs: Runs) -> list[Figure]:
    base, rerun, rows = runs.fresh[0], runs.rerun, []
    for run in [*runs.fresh[1:], rerun, *runs.one_worker]:
        for what, get, target in (("verdicts", Run.verdicts, True),
                                  ("row contents", Run.contents, False),
                                  ("prompt hashes", lambda r: r.prompts, True)):
            if what == "prompt hashes" and run is rerun:
                continue   # no prompt reaches the fake on a cached rerun
            equal, total, examples = differences(get(base), get(run))
            value = f"{equal:,} / {total:,}" + "".join(f"; {e}" for e in examples)
            rows.append(Figure(f"{what} equal: {run.name} vs {base.name}", value,
                               "all" if target else "-", equal == total if target else None))
    return rows


def call_figures(runs: Runs, calls: int) -> list[Figure]:
    rerun = runs.rerun
    rows = [Figure(f"fresh LLM calls: {run.name}",
                   f"{run.fresh_calls:,} (fake received {run.requests:,})",
                   f"= {calls:,}", run.fresh_calls == calls == run.requests)
            for run in [*runs.fresh, *runs.one_worker]]
    rows.append(Figure("fresh LLM calls: cached rerun (dask 2's caches, new run id)",
                       f"{rerun.fresh_calls} (fake received {rerun.requests}; "
                       f"{rerun.summary.llm_calls()['cached_stages']:,} item stages cached)",
                       "= 0", rerun.fresh_calls == 0 == rerun.requests))
    return rows


def time_figures(args: argparse.Namespace, runs: Runs, calls: int) -> list[Figure]:
    ideal_s = calls / len(MODELS) * args.latency / args.connections
    every = [*runs.fresh, runs.rerun, *runs.one_worker]
    rows = [Figure(f"wall time: {run.name}",
                   f"{run.wall_s:.1f} s ({run.stage_split()}; {run.in_flight.text()}"
                   f"{_workers(run)})") for run in every]
    rows.append(Figure("ideal LLM-bound time", f"{ideal_s:.1f} s ({calls // len(MODELS):,} "
                       f"calls per model x {args.latency} s / {args.connections} connections)"))
    for one, two in zip(runs.one_worker, runs.fresh[2:], strict=True):
        rows.append(Figure(
            f"stage tasks, 1 vs 2 workers ({one.name} vs {two.name})",
            f"{one.wall_s:.1f} vs {two.wall_s:.1f} s wall, {one.chunked_s:.1f} vs "
            f"{two.chunked_s:.1f} s stage tasks = {one.chunked_s / two.chunked_s:.2f}x; ideal "
            f"/ stage tasks {ideal_s / one.chunked_s:.0%} vs {ideal_s / two.chunked_s:.0%}"))
    return rows


def _workers(run: Run) -> str:
    if not run.tasks_per_worker:
        return ""
    return "; Dask tasks per worker " + " + ".join(str(n) for n in run.tasks_per_worker)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 questions instead of 120.")
    parser.add_argument("--questions", type=int, default=None)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--chunk-size", type=int, default=30)
    args = parser.parse_args()
    if args.questions is None:
        args.questions = 40 if args.quick else 120
    if not EXAMPLE_GRAPH.is_file():
        parser.error(external_data.missing_message(external_data.EXAMPLE_DSG))
    with tempfile.TemporaryDirectory() as tmp:
        runs = all_runs(args, Path(tmp))
    first = runs.fresh[0]
    n = len(first.rows) // (len(MODELS) * len(PIPELINES))
    calls = n * len(MODELS) * 4   # feedforward 2 calls, agentic 2 turns per question
    rows = [Figure("questions x models x pipelines",
                   f"{n} x {len(MODELS)} x {len(PIPELINES)} = {len(first.rows):,} items"),
            Figure("accuracy (threads 1)", _accuracy(first)),
            *comparison_figures(runs), *call_figures(runs, calls),
            *time_figures(args, runs, calls)]
    print(f"\nReproducibility, threads vs Dask: {n} questions, latency {args.latency} s, "
          f"max_connections {args.connections} per model, chunk size {args.chunk_size}")
    print(figure_table(rows))


def _accuracy(run: Run) -> str:
    correct = run.rows["correct"].astype(str).str.lower() == "true"
    shares = correct.groupby([run.rows["model"], run.rows["pipeline"]]).mean()
    return ", ".join(f"{m}/{p} {s:.0%}" for (m, p), s in shares.items())


if __name__ == "__main__":
    sys.exit(main())
