"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp servers) via the openai SDK.

The SDK already retries what is worth retrying (429, 408, 409, 5xx, timeouts, dropped
connections) with exponential backoff that honours Retry-After; we set how often. Errors that no
retry can fix (400 bad request, 401/403 bad key, 404 unknown model) become one-line `LLMError`s.
A per-model semaphore caps concurrent requests at `max_connections`, and a per-endpoint circuit
breaker (`breaker.py`) stops calling an endpoint that cannot be reached. Reply and error texts are
made storable and free of secrets (`benchcore.text_safety`) before they leave this module.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager

import httpx
import openai

from benchcore.llm.base import (
    CallContext,
    LLMError,
    LLMReply,
    Message,
    ModelConfig,
    ToolCall,
    ToolSpec,
)
from benchcore.llm.breaker import breaker_for
from benchcore.redact import register_secret_env
from benchcore.text_safety import safe_text

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


def check_credentials(config: ModelConfig) -> None:
    """Fail at once, naming the variable to set, when a model would be sent to OpenAI's own
    endpoint without a key: the call could only end in a 401, or, without network, in minutes
    of connection retries."""
    if config.provider == "openai" and config.base_url is None \
            and not os.environ.get(config.api_key_env):
        raise LLMError(
            f"model {config.name}: no API key for api.openai.com: set ${config.api_key_env} "
            "(or give a base URL for a local server; the oracle and scripted models need "
            "provider: oracle / scripted)"
        )


class OpenAIChatClient:
    """Chat completions against any OpenAI-compatible endpoint."""

    def __init__(self, config: ModelConfig) -> None:
        check_credentials(config)
        register_secret_env(config.api_key_env)
        self.config = config
        self._client = openai.OpenAI(
            api_key=os.environ.get(config.api_key_env) or _NO_KEY,
            base_url=config.base_url,
            timeout=config.timeout_s,
            max_retries=config.max_retries,
        )
        self._limit = _connection_limit(config)
        self._breaker = breaker_for(config)

    def complete(
        self, messages: list[Message], context: CallContext, tools: Sequence[ToolSpec] = ()
    ) -> LLMReply:
        started = time.perf_counter()
        self._breaker.check()
        with self._limit:
            self._breaker.check()   # it may have opened while this call waited for a slot
            data = self._create(messages, tools)
        reply = data if isinstance(data, dict) else {}
        message = _first_message(reply)
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        return LLMReply(
            text=safe_text(_text(message.get("content"))),
            prompt_tokens=_count(usage, "prompt_tokens"),
            completion_tokens=_count(usage, "completion_tokens"),
            seconds=time.perf_counter() - started,
            tool_calls=_tool_calls(message),
        )

    def _create(self, messages: list[Message], tools: Sequence[ToolSpec] = ()) -> object:
        """One call with the SDK's retries; failures as one-line `LLMError`s, and every call
        that never reached the server counted by the breaker. The reply is the decoded JSON.

        The SDK's documented raw request (`post` with `cast_to=httpx.Response`) keeps its
        retries, backoff, `Retry-After` and error types but skips building the typed request and
        response models, which cost half of the SDK's ~2 ms of CPU per call: at 64 connections
        and 0.05 s replies that is what bounds the throughput."""
        name, where = self.config.name, self.config.base_url or "api.openai.com"
        client = self._client.with_options(max_retries=0) if self._breaker.suspect \
            else self._client
        body = {"model": name, "messages": messages,
                **({"tools": [tool.wire() for tool in tools]} if tools else {}),
                **{k: v for k, v in self.config.sampling_params().items() if v is not None}}
        try:
            response = client.post("/chat/completions", cast_to=httpx.Response, body=body)
            data = response.json()
        except openai.APIStatusError as error:
            self._breaker.answered()
            raise LLMError(_describe_status_error(self.config, error)) from None
        except openai.APITimeoutError:
            cause = f"model {name}: timed out after {self.config.timeout_s:g} s ({where})"
            self._breaker.failed(cause)
            raise LLMError(cause) from None
        except openai.APIConnectionError as error:
            cause = f"model {name}: cannot reach {where}"
            self._breaker.failed(cause)
            raise LLMError(safe_text(f"{cause} ({error})")) from None
        except ValueError:
            self._breaker.answered()
            raise LLMError(f"model {name}: the reply from {where} is not JSON") from None
        self._breaker.answered()
        return data


# What is missing or malformed in an untrusted reply counts as empty: the item then scores as a
# failure, never a crash.
def _first_message(reply: dict) -> dict:
    """The first choice's message of a chat completion, or {}."""
    choices = reply.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else {}
    message = first.get("message") if isinstance(first, dict) else None
    return message if isinstance(message, dict) else {}


def _count(usage: dict, field: str) -> int:
    value = usage.get(field)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _tool_calls(message: dict) -> tuple[ToolCall, ...]:
    """The message's function calls, as written (arguments stay raw JSON text, checked by the
    caller, since a model may send malformed JSON); a malformed entry keeps what it has, with
    an empty name, so the caller reports it back to the model as an unknown tool."""
    calls = message.get("tool_calls")
    found = []
    for index, call in enumerate(calls if isinstance(calls, list) else []):
        call = call if isinstance(call, dict) else {}
        function = call.get("function") if isinstance(call.get("function"), dict) else {}
        found.append(ToolCall(
            id=safe_text(_text(call.get("id")) or f"call_{index}"),
            name=safe_text(_text(function.get("name"))),
            arguments=safe_text(_text(function.get("arguments"))),
        ))
    return tuple(found)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _describe_status_error(config: ModelConfig, error: openai.APIStatusError) -> str:
    """One line that says what to fix, without echoing the key (masked before the detail is
    cut short, so a cut cannot leave half a key unrecognised)."""
    hints = {
        401: f"bad or missing API key (set ${config.api_key_env})",
        403: f"key in ${config.api_key_env} is not allowed to use this model",
        404: "unknown model or wrong base_url",
        429: "rate limited; retries exhausted",
    }
    hint = hints.get(error.status_code, "request failed")
    detail = safe_text(str(getattr(error, "message", "") or error)).splitlines()[0][:200]
    return f"model {config.name}: HTTP {error.status_code}: {hint}: {detail}"
