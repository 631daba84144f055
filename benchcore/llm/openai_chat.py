"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp servers) via the openai SDK.

The SDK already retries what is worth retrying (429, 408, 409, 5xx, timeouts, dropped
connections) with exponential backoff that honours Retry-After; we set how often. Errors that no
retry can fix (400 bad request, 401/403 bad key, 404 unknown model) become one-line `LLMError`s.
A per-model semaphore caps concurrent requests at `max_connections`.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import AbstractContextManager

import openai

from benchcore.llm.base import CallContext, LLMError, LLMReply, Message, ModelConfig

_LIMITS: dict[tuple[str, str | None], AbstractContextManager[object]] = {}
_LIMITS_LOCK = threading.Lock()

# A placeholder key lets keyless local servers (vLLM, Ollama, llama.cpp) work; OpenAI itself
# rejects it with a clear 401.
_NO_KEY = "no-key-set"


def _connection_limit(config: ModelConfig) -> AbstractContextManager[object]:
    """One limit per (model, endpoint), shared by every client object in the process, or, on a
    Dask worker, by every worker of the cluster (a scheduler-held semaphore), so stage tasks of
    the same model on different workers together stay within `max_connections`."""
    slot = (config.name, config.base_url)
    with _LIMITS_LOCK:
        if slot not in _LIMITS:
            _LIMITS[slot] = _cluster_semaphore(config) or threading.BoundedSemaphore(
                config.max_connections
            )
        return _LIMITS[slot]


def _cluster_semaphore(config: ModelConfig) -> AbstractContextManager[object] | None:
    """A distributed.Semaphore when this process is a Dask worker, else None."""
    try:
        from distributed import Semaphore, get_worker
    except ImportError:
        return None
    try:
        get_worker()
    except ValueError:  # not running inside a Dask worker
        return None
    name = (f"llm-connections:{config.name}:{config.base_url or 'api.openai.com'}:"
            f"{config.max_connections}")
    return Semaphore(max_leases=config.max_connections, name=name)


class OpenAIChatClient:
    """Chat completions against any OpenAI-compatible endpoint."""

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self._client = openai.OpenAI(
            api_key=os.environ.get(config.api_key_env) or _NO_KEY,
            base_url=config.base_url,
            timeout=config.timeout_s,
            max_retries=config.max_retries,
        )
        self._limit = _connection_limit(config)

    def complete(self, messages: list[Message], context: CallContext) -> LLMReply:
        started = time.perf_counter()
        with self._limit:
            try:
                response = self._client.chat.completions.create(
                    model=self.config.name,
                    messages=messages,  # type: ignore[arg-type]
                    **{k: v for k, v in self.config.sampling_params().items() if v is not None},
                )
            except openai.APIStatusError as error:
                raise LLMError(_describe_status_error(self.config, error)) from None
            except openai.APIConnectionError as error:
                where = self.config.base_url or "api.openai.com"
                raise LLMError(f"model {self.config.name}: cannot reach {where}: {error}") from None
        text = response.choices[0].message.content or "" if response.choices else ""
        usage = response.usage
        return LLMReply(
            text=text,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            seconds=time.perf_counter() - started,
        )


def _describe_status_error(config: ModelConfig, error: openai.APIStatusError) -> str:
    """One line that says what to fix, without echoing the key."""
    hints = {
        401: f"bad or missing API key (set ${config.api_key_env})",
        403: f"key in ${config.api_key_env} is not allowed to use this model",
        404: "unknown model or wrong base_url",
        429: "rate limited; retries exhausted",
    }
    hint = hints.get(error.status_code, "request failed")
    detail = str(getattr(error, "message", "") or error).splitlines()[0][:200]
    return f"model {config.name}: HTTP {error.status_code}: {hint}: {detail}"
