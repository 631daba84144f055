"""On-disk LLM response cache, so a rerun never pays for a reply twice.

Prefect's task cache already skips finished stages, but a task whose inputs changed in an
irrelevant way (or whose cache key could not be computed) would otherwise call the model again.
Keys are sha256 over (provider, model, base_url, messages, sampling params); the API key is never
part of a key or an entry. One JSON file per entry, written atomically, so concurrent threads
and processes can share the cache without a lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from dataclasses import asdict
from pathlib import Path

from benchcore.llm.base import CallContext, LLMClient, LLMReply, Message, ModelConfig


class ResponseCache:
    """A directory of cached replies keyed by request content."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @staticmethod
    def key(config: ModelConfig, messages: list[Message]) -> str:
        blob = json.dumps({"model": config.identity(), "messages": messages}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> LLMReply | None:
        try:
            data = json.loads(self._path(key).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return LLMReply(**{**data, "cached": True})

    def put(self, key: str, reply: LLMReply) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            json.dump({**asdict(reply), "cached": False}, handle)
        os.replace(tmp, path)


class CachedClient:
    """Wraps a client with the response cache and counts fresh vs cached calls."""

    def __init__(self, inner: LLMClient, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.config = inner.config
        self._lock = threading.Lock()
        self.fresh_calls = 0
        self.cached_calls = 0

    def complete(self, messages: list[Message], context: CallContext) -> LLMReply:
        key = self.cache.key(self.config, messages)
        hit = self.cache.get(key)
        if hit is not None:
            self._count(cached=True)
            return hit
        reply = self.inner.complete(messages, context)
        self.cache.put(key, reply)
        self._count(cached=False)
        return reply

    def _count(self, *, cached: bool) -> None:
        with self._lock:
            if cached:
                self.cached_calls += 1
            else:
                self.fresh_calls += 1

