"""The LLM client alone, side by side with the openai SDK: calls/s and CPU per call against the
loopback fake LLM, with no harness around the calls.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_llm_transport.py [--calls 6000]
        [--latency 0.05] [--connections 64]

Two models, each with `connections` threads (as the QA scale run: 2 x 64 at 0.05 s, ideal
2,560 calls/s), post chat completions shaped like the generate-cypher stage's (a 3 KB system
prompt) until `calls` are answered, through:
- `OpenAIChatClient` (benchcore.llm.openai_chat: libcurl handles, retry policy, breaker, limit);
- the openai SDK as the client used it before (`post` with `cast_to=httpx.Response`, the SDK's
  cheapest documented call, its retries on);
- plain `http.client` keep-alive connections: the fake server's own ceiling on this machine.
CPU per call is this process's CPU time over the calls (the fake runs in a child process).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_orchestration import SlowModel
from fake_ceiling import measure_ceiling, request_bodies
from figure_table import Figure, figure_table

from benchcore.llm.base import CallContext, Message, ModelConfig

MODELS = ("fake-a", "fake-b")
SYSTEM = "You translate questions about a 3D scene graph into Cypher. " + "Schema: ... " * 250
PROMPTS = [[{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Question: question {i}"}] for i in range(200)]
CONTEXT = CallContext(uid="q", stage="cypher")

Call = Callable[[list[Message]], object]


def harness_client(model: str, base_url: str, connections: int) -> Call:
    from benchcore.llm.openai_chat import OpenAIChatClient

    client = OpenAIChatClient(ModelConfig(name=model, base_url=base_url,
                                          max_connections=connections))
    return lambda messages: client.complete(messages, CONTEXT)


def sdk_client(model: str, base_url: str, connections: int) -> Call:
    import httpx
    import openai

    client = openai.OpenAI(api_key="no-key-set", base_url=base_url, max_retries=5,
                           http_client=httpx.Client(limits=httpx.Limits(
                               max_connections=connections,
                               max_keepalive_connections=connections)))
    return lambda messages: client.post("/chat/completions", cast_to=httpx.Response,
                                        body={"model": model, "messages": messages,
                                              "temperature": 0, "seed": 0}).json()


def load_arguments(description: str) -> argparse.Namespace:
    """The load both transport benchmarks send: calls, fake latency, connections per model."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--calls", type=int, default=6000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--connections", type=int, default=64)
    return parser.parse_args()


def fake_server(latency: float) -> SlowModel:
    """The loopback fake, knowing the 200 questions of `PROMPTS`."""
    known = {f"q{i}": {"uid": f"q{i}", "question": f"question {i}",
                       "cypher": "MATCH (n) RETURN count(n)", "solution": "1"} for i in range(200)}
    return SlowModel(known, latency)


def on_threads(calls: int, callers: Sequence[Callable[[int], object]]) -> None:
    """One thread per caller, each calling it with the next call's index until `calls` are
    made."""
    counter, lock = iter(range(calls)), threading.Lock()

    def worker(caller: Callable[[int], object]) -> None:
        while True:
            with lock:
                index = next(counter, None)
            if index is None:
                return
            caller(index)

    threads = [threading.Thread(target=worker, args=(caller,)) for caller in callers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def timed(run: Callable[[], object], calls: int) -> tuple[float, float]:
    """(calls/s, ms of this process's CPU per call) of `run`, which makes `calls` calls."""
    cpu, started = time.process_time(), time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    return calls / seconds, (time.process_time() - cpu) / calls * 1000


def rate_figure(label: str, rate: float, cpu_ms: float, ideal: float) -> Figure:
    return Figure(label, f"{rate:,.0f} calls/s = {rate / ideal:.1%} of ideal, "
                         f"{cpu_ms:.2f} ms CPU/call")


def measure(make: Callable[[str, str, int], Call], base_url: str, calls: int,
            connections: int) -> tuple[float, float]:
    """(calls/s, ms of this process's CPU per call) for `calls` calls over both models."""
    clients = [make(model, base_url, connections) for model in MODELS]

    def caller(call: Call) -> Callable[[int], object]:
        return lambda index: call(PROMPTS[index % len(PROMPTS)])

    callers = [caller(clients[k % len(MODELS)]) for k in range(connections * len(MODELS))]
    return timed(lambda: on_threads(calls, callers), calls)


def main() -> None:
    args = load_arguments(__doc__.splitlines()[0])
    ideal = len(MODELS) * args.connections / args.latency
    fake = fake_server(args.latency)
    try:
        rows = [rate_figure(label, *measure(make, fake.base_url, args.calls, args.connections),
                            ideal)
                for label, make in (("OpenAIChatClient (libcurl)", harness_client),
                                    ("openai SDK (raw post)", sdk_client))]
        bodies = request_bodies([f"question {i}" for i in range(len(PROMPTS))], MODELS[0])
        ceiling = measure_ceiling(fake.base_url, bodies, args.calls,
                                  len(MODELS) * args.connections)
        rows.append(Figure("http.client (fake server ceiling)",
                           f"{ceiling.rate:,.0f} calls/s = {ceiling.rate / ideal:.1%} of ideal"))
    finally:
        fake.stop()
    print(f"\nLLM transport: {args.calls:,} calls, {len(MODELS)} models x {args.connections} "
          f"threads, latency {args.latency} s, ideal {ideal:,.0f} calls/s")
    print(figure_table(rows))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
