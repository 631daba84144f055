"""Orchestration figures: LLM throughput under max_connections, orchestration overhead per
item-stage, and a fully cached rerun, for a QA run of N questions against a loopback
OpenAI-compatible server that answers after a fixed latency.

    .venv/bin/python benchmarks/bench_orchestration.py [--questions 300] [--latency 0.2]

- throughput: LLM requests / time the model stages were calling (each burst from its first
  request's start to its last answer); the ideal is max_connections / latency
  (16 / 0.2 s = 80 calls/s).
- overhead: (Prefect run wall time - the same stages called as plain functions) / item-stages
  (4 stages x N questions), both fresh, same server.
- cached rerun: the same Prefect run again (same caches) vs the fresh run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import re
import socket
import socketserver
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import yaml

from benchcore.names import Stage

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEMO_QUESTIONS = ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = ROOT / "questions/demo/apartment_dsg.json"
_QUESTION = re.compile(r"Question: (.*)")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Every pooled connection of the client may open at once (max_connections per model, several
    # models): the default listen backlog of 5 would reset the rest.
    request_queue_size = 1024


class _KeepAliveHandler(socketserver.StreamRequestHandler):
    """HTTP/1.1 with keep-alive, as much of it as the harness's client speaks: a request line,
    headers of which only Content-Length matters, a body; one write per response.

    Not `http.server`: the fake shares the benchmark machine's cores with the harness it
    measures, and `BaseHTTPRequestHandler` (headers parsed by `email.parser`, a write per
    header line) cost 0.20 ms of CPU a call against 0.11 ms here. At 2 x 64 connections that
    was half a core, and when the machine was busy the fake alone fell to 91-93% of the ideal
    rate (95% now), so the harness was charged for the fake's own slowness."""

    model: SlowModel   # set on the subclass each fake makes

    def setup(self) -> None:
        super().setup()
        # Real servers set TCP_NODELAY too; with Nagle on, a keep-alive response whose
        # request arrived in two segments waits ~40 ms for a delayed ACK.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def handle(self) -> None:
        while (request_line := self.rfile.readline(65537)):
            method, length = request_line.split(b" ", 1)[0], 0
            while (header := self.rfile.readline(65537)) not in (b"\r\n", b"\n", b""):
                name, _, value = header.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = self.rfile.read(length) if length else b""
            answer = self.model.answer(method.decode("ascii", "replace"), body)
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s" % (len(answer), answer))


class SlowModel:
    """Answers each prompt with the reference Cypher / solution after `latency` seconds.

    Runs in a child process, as a real endpoint would: sharing the benchmark's interpreter
    (and GIL) would charge the server's own JSON work to the client. `GET /stats` returns the
    answer times, `DELETE /stats` clears them."""

    def __init__(self, questions: dict[str, dict], latency: float) -> None:
        self.by_text = {q["question"]: q for q in questions.values()}
        self.latency = latency
        self.times: list[float] = []
        self.lock = threading.Lock()
        handler = type("Handler", (_KeepAliveHandler,), {"model": self})
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.process = multiprocessing.get_context("fork").Process(
            target=self.httpd.serve_forever, daemon=True
        )
        self.process.start()
        self.httpd.socket.close()  # the child owns the listening socket now

    def answer(self, method: str, body: bytes) -> bytes:
        """The response body: a chat completion after the latency for a POST, the answer
        times for GET /stats, and DELETE /stats clears them."""
        if method == "GET":
            with self.lock:
                return json.dumps(self.times).encode()
        if method == "DELETE":
            with self.lock:
                self.times.clear()
            return b"[]"
        request = json.loads(body)
        time.sleep(self.latency)
        with self.lock:
            self.times.append(time.perf_counter())
        return json.dumps({
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": self.reply(request)}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }).encode()

    @staticmethod
    def question_text(request: dict) -> str:
        match = _QUESTION.search(request["messages"][-1]["content"])
        return match.group(1).strip() if match else ""

    def reply(self, request: dict) -> str:
        question = self.by_text.get(self.question_text(request))
        if question is None:
            return "?"
        if request["messages"][0]["content"].startswith("You translate"):
            return f"```cypher\n{question['cypher']}\n```"
        return f"```\n{question['solution']}\n```"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def _stats(self, method: str) -> list[float]:
        request = urllib.request.Request(self.base_url + "/stats", method=method)
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    def clear(self) -> None:
        self._stats("DELETE")

    def stop(self) -> None:
        self.process.kill()
        self.process.join()

    def rate(self) -> float:
        """Calls/s while a stage is calling the model: the run has two LLM bursts
        (generate-cypher, refine) with the queries in between; split at the largest gap."""
        times = sorted(self._stats("GET"))
        gaps = [b - a for a, b in itertools.pairwise(times)]
        cut = gaps.index(max(gaps)) + 1
        bursts = [times[:cut], times[cut:]]
        busy = sum(b[-1] - b[0] + self.latency for b in bursts if b)
        return len(times) / busy


def synthetic_questions(n: int, folder: Path, source: Path = DEMO_QUESTIONS
                        ) -> tuple[Path, dict[str, dict]]:
    """N questions cycling over a question set (the demo's), each with its own uid and text."""
    base = yaml.safe_load(source.read_text())["questions"]
    questions = []
    for i in range(n):
        q = dict(base[i % len(base)])
        q["uid"] = f"s{i:04d}"
        q["question"] = f"{q['question']} [variant {i}]"
        questions.append(q)
    path = folder / "questions.yaml"
    path.write_text(yaml.safe_dump({"questions": questions}))
    return path, {q["uid"]: q for q in questions}


def config_for(folder: Path, questions: Path, base_url: str, cache: str, connections: int,
               models: tuple[str, ...] = ("slow",), scene_graph: Path = DEMO_GRAPH):
    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, QAConfig

    return BenchmarkConfig(
        run_id=cache, results_dir=str(folder / "results"), cache_dir=str(folder / cache),
        models=[ModelConfig(name=name, base_url=base_url, max_connections=connections,
                            api_key_env="NONE") for name in models],
        qa=QAConfig(questions=str(questions), scene_graph=str(scene_graph),
                    db_root=str(folder / "graphs")),
    )


def plain_pipeline(config) -> float:
    from benchcore.item_cache import ItemCache
    from benchcore.llm.process_clients import shared_client
    from dsgqa.graph_handle import close_shared_graphs, shared_graph
    from dsgqa.questions import load_question_set
    from dsgqa.stage_batches import (
        QueryRunner,
        compare_batch,
        generate_cypher_batch,
        refine_batch,
        run_query_batch,
    )

    started = time.perf_counter()
    run, qa, model = config.run_options(), config.qa, config.models[0]
    questions = load_question_set(qa.questions)
    graph = shared_graph(qa)
    client = shared_client(model, run.llm_cache_dir)
    attempts = generate_cypher_batch(questions.questions, client, graph.schema,
                                     ItemCache(run.stage_cache_dir, Stage.GENERATE_CYPHER))
    outcomes = run_query_batch(attempts, QueryRunner(
        graph.store, graph.fingerprint, qa.query_timeout_s, qa.max_rows,
        ItemCache(run.stage_cache_dir, Stage.RUN_QUERY)))
    answers = refine_batch(questions.questions, outcomes, client,
                           ItemCache(run.stage_cache_dir, Stage.REFINE))
    verdicts = compare_batch(questions.questions, answers)
    assert all(v.ok and v.value.correct for v in verdicts), "plain pipeline mis-scored"
    close_shared_graphs()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()

    from prefect.testing.utilities import prefect_test_harness

    from flows.benchmark import nlp_dsg_benchmark
    from nlp_dsg_benchmark.environment import heartbeats_off_for_temporary_api

    # As the CLI runs against a temporary API (heartbeats cost up to 1 s per flow run there).
    with tempfile.TemporaryDirectory() as tmp, prefect_test_harness(server_startup_timeout=120), \
            heartbeats_off_for_temporary_api(temporary=True):
        folder = Path(tmp)
        questions, known = synthetic_questions(args.questions, folder)
        model = SlowModel(known, args.latency)
        item_stages = 4 * args.questions

        plain = plain_pipeline(config_for(folder, questions, model.base_url, "plain",
                                          args.connections))
        model.clear()
        config = config_for(folder, questions, model.base_url, "prefect", args.connections)
        started = time.perf_counter()
        fresh = nlp_dsg_benchmark(config)
        fresh_s = time.perf_counter() - started
        rate = model.rate()
        assert fresh.qa.errors == 0 and fresh.qa.overall_records[0]["accuracy"] == 1.0
        started = time.perf_counter()
        cached = nlp_dsg_benchmark(config)
        cached_s = time.perf_counter() - started
        assert cached.llm_calls()["fresh"] == 0
        started = time.perf_counter()
        nlp_dsg_benchmark(config.model_copy(update={"report": False}))
        cached_no_report_s = time.perf_counter() - started
        model.stop()

    ideal = args.connections / args.latency
    print(f"QA run: {args.questions} questions, {2 * args.questions} LLM calls, "
          f"latency {args.latency} s, max_connections {args.connections}")
    print(f"  throughput      {rate:6.1f} calls/s = {rate / ideal:.0%} of ideal {ideal:.0f}/s "
          f"(goal >= 80%)")
    print(f"  fresh run       {fresh_s:6.2f} s with Prefect, {plain:.2f} s as plain calls")
    print(f"  overhead        {(fresh_s - plain) / item_stages * 1000:6.2f} ms per item-stage "
          f"({item_stages} item-stages; goal <= 15 ms)")
    print(f"  cached rerun    {cached_s:6.2f} s = {cached_s / fresh_s:.1%} of fresh (goal <= 10%)")
    print(f"  cached rerun without the HTML report step: {cached_no_report_s:.2f} s = "
          f"{cached_no_report_s / fresh_s:.1%} of fresh")


if __name__ == "__main__":
    main()
