"""The loopback fake LLM's own top rate on this machine, with no harness in front of it.

The QA scale benchmark's throughput is judged against an ideal (models x max_connections /
latency) that assumes the fake answers instantly after its latency. On a small machine the
fake itself (a thread per connection in one process, JSON in and out) may not get there; this
measures how far it gets with the cheapest client there is, so the harness's rate can be read
against what is reachable at all.

The load: `threads` threads, each with one keep-alive `http.client` connection, posting
chat-completion requests shaped like the harness's (the generate-cypher system prompt, the
question in the user message, so the fake does its usual lookup) until `calls` are answered.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Ceiling:
    calls: int
    threads: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0


def request_bodies(question_texts: Sequence[str], model: str) -> list[bytes]:
    """One chat-completion request per question, as the generate-cypher stage sends them."""
    return [json.dumps({
        "model": model,
        "messages": [
            {"role": "system", "content": "You translate questions about a 3D scene graph "
                                          "into Cypher."},
            {"role": "user", "content": f"Schema: ...\nQuestion: {text}"},
        ],
        "temperature": 0,
    }).encode() for text in question_texts]


def measure_ceiling(base_url: str, bodies: Sequence[bytes], calls: int, threads: int
                    ) -> Ceiling:
    """Wall time for `calls` requests over `threads` keep-alive connections (start to last
    answer). Raises if any answer is not a 200."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/") + "/chat/completions"
    counter = iter(range(calls))
    lock = threading.Lock()
    failures: list[str] = []
    start = threading.Barrier(threads + 1)

    def worker() -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        start.wait()
        try:
            while True:
                with lock:
                    index = next(counter, None)
                if index is None:
                    return
                connection.request("POST", path, body=bodies[index % len(bodies)],
                                   headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    failures.append(f"HTTP {response.status}")
                    return
        finally:
            connection.close()

    pool = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    start.wait()
    started = time.perf_counter()
    for thread in pool:
        thread.join()
    seconds = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"fake server ceiling: {failures[0]}")
    return Ceiling(calls=calls, threads=threads, seconds=seconds)
