"""On-disk LLM response cache, so a rerun never pays for a reply twice.

Prefect's task cache already skips finished stages, but a task whose inputs changed in an
irrelevant way (or whose cache key could not be computed) would otherwise call the model again.
Keys are sha256 over (provider, model, base_url, messages, sampling params); the API key is never
part of a key or an entry. Entries are JSON records appended to a `SegmentStore` (one write
each), so concurrent threads and processes can share the cache without a lock. Replies are
stored storable and free of secrets; two writers' different replies to one key are a logged
conflict (`same_reply`); an entry that cannot be used (unreadable, malformed, or
written before that rule, with a lone surrogate in it) is a miss or is cleaned on the way out,
never an error every rerun repeats.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchcore.llm.base import (
    CallContext,
    LLMClient,
    LLMReply,
    Message,
    ModelConfig,
    ToolCall,
    ToolSpec,
)
from benchcore.segment_store import OneFileLayout, SegmentStore
from benchcore.text_safety import safe_text


def same_reply(a: bytes, b: bytes) -> bool:
    """Whether two entries of one key hold the same reply: the time a call took may differ.
    Two processes that made the same call at once and got different replies (a model sampled
    twice) are a conflict the store logs (`SegmentStore`)."""
    first, second = json.loads(a), json.loads(b)
    for entry in (first, second):
        if isinstance(entry, dict):
            entry.pop("seconds", None)
            entry.pop("cached", None)
    return first == second


class ResponseCache:
    """A folder of cached replies keyed by request content: a `SegmentStore` of JSON entries.
    Entries written one file each (`<key[:2]>/<key>.json`, the earlier layout) are still read."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._store = SegmentStore.shared(self.root, same=same_reply)
        self._one_file = OneFileLayout(self.root, ".json")

    def __len__(self) -> int:
        return len(self._store)

    @staticmethod
    def key(config: ModelConfig, messages: list[Message], tools: Sequence[ToolSpec] = ()) -> str:
        """The conversation so far identifies the reply: an agent's turn N is keyed by every
        message and tool result before it, so a rerun replays a finished conversation and
        resumes a cut one at its first missing turn. Tools join the key only when offered, so
        entries of calls without tools keep their keys."""
        request: dict[str, object] = {"model": config.identity(), "messages": messages}
        if tools:
            request["tools"] = [tool.wire() for tool in tools]
        blob = json.dumps(request, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, key: str) -> LLMReply | None:
        """The cached reply, or None for a missing or unusable entry."""
        try:
            raw = self._store.get(key)
            if raw is None:
                path = self._one_file.path(key)
                if path is None:
                    return None
                with open(path, "rb") as handle:
                    raw = handle.read()
            data = json.loads(raw.decode("utf-8"))
            calls = tuple(ToolCall(**{k: str(v) for k, v in call.items()})
                          for call in data.pop("tool_calls", []))
            reply = LLMReply(**{**data, "cached": True, "tool_calls": calls})
        except (OSError, ValueError, TypeError, AttributeError):
            return None
        if not isinstance(reply.text, str):
            return None
        return replace(reply, text=safe_text(reply.text))

    def put(self, key: str, reply: LLMReply) -> None:
        # Field by field, not `asdict`: its recursive deep copy cost more than the JSON.
        entry = {"text": safe_text(reply.text), "prompt_tokens": reply.prompt_tokens,
                 "completion_tokens": reply.completion_tokens, "seconds": reply.seconds,
                 "cached": False, "served_model": safe_text(reply.served_model),
                 "system_fingerprint": safe_text(reply.system_fingerprint),
                 "tool_calls": [{"id": safe_text(c.id), "name": safe_text(c.name),
                                 "arguments": safe_text(c.arguments)}
                                for c in reply.tool_calls]}
        self._store.put(key, json.dumps(entry).encode("utf-8"))


class CachedClient:
    """Wraps a client with the response cache and counts fresh vs cached calls."""

    def __init__(self, inner: LLMClient, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.config = inner.config
        self._lock = threading.Lock()
        self.fresh_calls = 0
        self.cached_calls = 0

    def complete(
        self, messages: list[Message], context: CallContext, tools: Sequence[ToolSpec] = ()
    ) -> LLMReply:
        key = self.cache.key(self.config, messages, tools)
        hit = self.cache.get(key)
        if hit is not None:
            self._count(cached=True)
            return hit
        reply = self.inner.complete(messages, context, tools)
        self.cache.put(key, reply)
        self._count(cached=False)
        return reply

    def _count(self, *, cached: bool) -> None:
        with self._lock:
            if cached:
                self.cached_calls += 1
            else:
                self.fresh_calls += 1

