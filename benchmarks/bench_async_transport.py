"""Would an asyncio transport reach the QA scale target here? The same load as
`bench_llm_transport.py` (2 models x 64 connections, 0.05 s fake latency, 3 KB prompts) sent by
aiohttp, in the two shapes a harness could take:

- every call a task on one event loop (the whole stage written for asyncio);
- the stage's threads, as today, each handing its call to one event-loop thread and waiting
  (only the transport replaced).

    pip install aiohttp   # or: pip install -e .[bench]
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_async_transport.py [--calls 6000]

No retries, limits or redaction: an upper bound for the transport, to read against
`OpenAIChatClient` alone in `bench_llm_transport.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from pathlib import Path

from bench_llm_transport import MODELS, SYSTEM
from bench_orchestration import SlowModel
from figure_table import Figure, figure_table


class AsyncTransport:
    """One aiohttp session per model (at most `connections` each) on a private event loop."""

    def __init__(self, base_url: str, connections: int) -> None:
        import aiohttp

        self.url = base_url + "/chat/completions"
        self.loop = asyncio.new_event_loop()

        async def sessions() -> dict[str, aiohttp.ClientSession]:
            return {m: aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=connections))
                    for m in MODELS}

        self.sessions = self.loop.run_until_complete(sessions())

    async def post(self, model: str, body: bytes) -> object:
        async with self.sessions[model].post(
                self.url, data=body, headers={"Content-Type": "application/json"}) as response:
            return json.loads(await response.read())

    def close(self) -> None:
        async def close() -> None:
            for session in self.sessions.values():
                await session.close()

        self.loop.run_until_complete(close())
        self.loop.close()


def _body(model: str, index: int) -> bytes:
    messages = [{"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Question: question {index % 200}"}]
    return json.dumps({"model": model, "messages": messages}).encode()


def on_the_loop(transport: AsyncTransport, calls: int, connections: int) -> None:
    async def run() -> None:
        counter = iter(range(calls))

        async def caller(model: str) -> None:
            for index in counter:
                await transport.post(model, _body(model, index))

        await asyncio.gather(*(caller(MODELS[k % len(MODELS)])
                               for k in range(connections * len(MODELS))))

    transport.loop.run_until_complete(run())


def from_threads(transport: AsyncTransport, calls: int, connections: int) -> None:
    loop_thread = threading.Thread(target=transport.loop.run_forever, daemon=True)
    loop_thread.start()
    counter, lock = iter(range(calls)), threading.Lock()

    def caller(model: str) -> None:
        while True:
            with lock:
                index = next(counter, None)
            if index is None:
                return
            asyncio.run_coroutine_threadsafe(transport.post(model, _body(model, index)),
                                             transport.loop).result()

    threads = [threading.Thread(target=caller, args=(MODELS[k % len(MODELS)],))
               for k in range(connections * len(MODELS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    transport.loop.call_soon_threadsafe(transport.loop.stop)
    loop_thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=6000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args()
    ideal = len(MODELS) * args.connections / args.latency
    known = {f"q{i}": {"uid": f"q{i}", "question": f"question {i}",
                       "cypher": "MATCH (n) RETURN count(n)", "solution": "1"} for i in range(200)}
    fake = SlowModel(known, args.latency)
    rows = []
    try:
        for label, shape in (("aiohttp, every call a task on one loop", on_the_loop),
                             ("aiohttp, stage threads hand calls to a loop thread",
                              from_threads)):
            transport = AsyncTransport(fake.base_url, args.connections)
            try:
                cpu, started = time.process_time(), time.perf_counter()
                shape(transport, args.calls, args.connections)
                rate = args.calls / (time.perf_counter() - started)
                cpu_ms = (time.process_time() - cpu) / args.calls * 1000
            finally:
                transport.close()
            rows.append(Figure(label, f"{rate:,.0f} calls/s = {rate / ideal:.1%} of ideal, "
                                      f"{cpu_ms:.2f} ms CPU/call"))
    finally:
        fake.stop()
    print(f"\nasyncio transport: {args.calls:,} calls, {len(MODELS)} models x "
          f"{args.connections} connections, latency {args.latency} s, ideal {ideal:,.0f} calls/s")
    print(figure_table(rows))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
