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

The road not taken, kept as its measurement: aiohttp reached 91-95% of the ideal at 0.32 ms
of CPU a call; libcurl under the stage's own threads (the transport since) reaches 97% at
0.15 ms, with the stages left as they are.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from bench_llm_transport import (
    MODELS,
    PROMPTS,
    fake_server,
    load_arguments,
    on_threads,
    rate_figure,
    timed,
)
from figure_table import figure_table


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
    return json.dumps({"model": model, "messages": PROMPTS[index % len(PROMPTS)]}).encode()


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

    def caller(model: str) -> Callable[[int], object]:
        def call(index: int) -> object:
            coroutine = transport.post(model, _body(model, index))
            return asyncio.run_coroutine_threadsafe(coroutine, transport.loop).result()
        return call

    on_threads(calls, [caller(MODELS[k % len(MODELS)])
                       for k in range(connections * len(MODELS))])
    transport.loop.call_soon_threadsafe(transport.loop.stop)
    loop_thread.join()


def main() -> None:
    args = load_arguments(__doc__.splitlines()[0])
    ideal = len(MODELS) * args.connections / args.latency
    fake = fake_server(args.latency)
    rows = []
    try:
        for label, shape in (("aiohttp, every call a task on one loop", on_the_loop),
                             ("aiohttp, stage threads hand calls to a loop thread",
                              from_threads)):
            transport = AsyncTransport(fake.base_url, args.connections)
            try:
                rate, cpu_ms = timed(lambda shape=shape, transport=transport:
                                     shape(transport, args.calls, args.connections), args.calls)
            finally:
                transport.close()
            rows.append(rate_figure(label, rate, cpu_ms, ideal))
    finally:
        fake.stop()
    print(f"\nasyncio transport: {args.calls:,} calls, {len(MODELS)} models x "
          f"{args.connections} connections, latency {args.latency} s, ideal {ideal:,.0f} calls/s")
    print(figure_table(rows))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
