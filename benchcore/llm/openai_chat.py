"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp servers).

The request and reply are the OpenAI chat-completions wire format, sent through libcurl handles
(`http_pool`: why not the openai SDK, and the retry policy, which follows the SDK's: 429, 408,
409, 5xx, timeouts and dropped connections are retried with exponential backoff that honours
Retry-After). Errors that no retry can fix (400 bad request, 401/403 bad key, 404 unknown model)
become one-line `LLMError`s. A per-model semaphore caps concurrent requests at
`max_connections`, and a per-endpoint circuit breaker (`breaker.py`) stops calling an endpoint
that cannot be reached. Reply and error texts are made storable and free of secrets
(`benchcore.text_safety`) before they leave this module.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager

from benchcore.dask_worker import current_worker
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
from benchcore.llm.http_pool import (
    DEFAULT_BASE_URL,
    RetryPolicy,
    TransportError,
    base_url_of,
    endpoint_for,
    send,
)
from benchcore.llm.plain_http import warn_plain_http_key
from benchcore.redact import register_secret_env
from benchcore.text_safety import safe_text

_LIMITS: dict[tuple[str, str | None, int], AbstractContextManager[object]] = {}
_LIMITS_LOCK = threading.Lock()

# A placeholder key lets keyless local servers (vLLM, Ollama, llama.cpp) work; OpenAI itself
# rejects it with a clear 401.
_NO_KEY = "no-key-set"


def _connection_limit(config: ModelConfig) -> AbstractContextManager[object]:
    """One limit per (model, endpoint), shared by every client object in the process, or, on a
    Dask worker, by every worker of the cluster (a scheduler-held semaphore), so stage tasks of
    the same model on different workers together stay within `max_connections`. Keyed by the
    limit too: a long-lived process (a Dask or Prefect worker) serves runs with other limits,
    and the first run's limit must not hold for the next."""
    slot = (config.name, config.base_url, config.max_connections)
    with _LIMITS_LOCK:
        if slot not in _LIMITS:
            _LIMITS[slot] = _cluster_semaphore(config) or threading.BoundedSemaphore(
                config.max_connections
            )
        return _LIMITS[slot]


# How long the scheduler keeps a lease of a worker that stopped renewing it (Dask's default
# is 30 s): a worker that dies holding leases blocks every model's calls on the other workers
# that long. Renewed every fifth of it, so a worker is never this long without renewing unless
# its event loop is stuck. The scheduler checks every `lease-validation-interval` (10 s by
# default; docs/deployment.md: set it to 2 s on the scheduler).
CLUSTER_LEASE_TIMEOUT = "10s"


def _cluster_semaphore(config: ModelConfig) -> AbstractContextManager[object] | None:
    """A distributed.Semaphore when this process is a Dask worker, else None."""
    if current_worker() is None:
        return None
    import dask
    from distributed import Semaphore

    # Read when the semaphore is made and registered: this worker's leases time out sooner.
    dask.config.set({"distributed.scheduler.locks.lease-timeout": CLUSTER_LEASE_TIMEOUT})

    name = (f"llm-connections:{config.name}:{config.base_url or 'api.openai.com'}:"
            f"{config.max_connections}")
    return Semaphore(max_leases=config.max_connections, name=name)


def check_credentials(config: ModelConfig) -> None:
    """Fail at once, naming the variable to set, when a model would be sent to OpenAI's own
    endpoint without a key: the call could only end in a 401, or, without network, in minutes
    of connection retries."""
    if config.provider == "openai" and base_url_of(config.base_url) == DEFAULT_BASE_URL \
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
        warn_plain_http_key(config)
        self.config = config
        self._base_url = base_url_of(config.base_url)
        self._endpoint_args = (config.name, self._base_url.rstrip("/") + "/chat/completions",
                               config.max_connections, _headers(config), config.timeout_s)
        try:
            self._endpoint = endpoint_for(*self._endpoint_args)
        except ValueError as error:   # the proxy variables name a proxy libcurl cannot use
            raise LLMError(safe_text(f"model {config.name}: cannot use the proxy for "
                                     f"{self._base_url}: {_first_line(error)}")) from None
        self._pid = os.getpid()
        self._retries = RetryPolicy(config.max_retries)
        self._single_try = RetryPolicy(0)
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
            served_model=_short_text(reply.get("model")),
            system_fingerprint=_short_text(reply.get("system_fingerprint")),
        )

    def _create(self, messages: list[Message], tools: Sequence[ToolSpec] = ()) -> object:
        """One call with its retries; failures as one-line `LLMError`s, and every call that
        never reached the server counted by the breaker. The reply is the decoded JSON."""
        name, where = self.config.name, self._base_url
        body = {"model": name, "messages": messages,
                **({"tools": [tool.wire() for tool in tools]} if tools else {}),
                **{k: v for k, v in self.config.sampling_params().items() if v is not None}}
        if os.getpid() != self._pid:   # a forked process opens connections of its own
            self._endpoint, self._pid = endpoint_for(*self._endpoint_args), os.getpid()
        try:
            answer = send(self._endpoint, json.dumps(body).encode("utf-8"),
                          self._single_try if self._breaker.suspect else self._retries)
        except TransportError as error:
            if error.unreached:
                cause = (f"model {name}: timed out after {self.config.timeout_s:g} s ({where})"
                         if error.timed_out else
                         f"model {name}: cannot reach {where} ({_first_line(error)})")
                self._breaker.failed(cause)
                raise LLMError(safe_text(cause)) from None
            # The server answered, but what came back could not be read (a malformed header,
            # a body that does not decode): the endpoint is alive, this reply is bad.
            self._breaker.answered()
            raise LLMError(safe_text(f"model {name}: the reply from {where} could not be "
                                     f"read: {_first_line(error)}")) from None
        self._breaker.answered()
        if not 200 <= answer.status < 300:   # redirects are not followed, as the SDK did not
            raise LLMError(_describe_status_error(self.config, answer.status, answer.body))
        try:
            return json.loads(answer.body)
        except ValueError:
            raise LLMError(f"model {name}: the reply from {where} is not JSON") from None


def _headers(config: ModelConfig) -> dict[str, str]:
    """What the SDK sent: the key as a bearer token (a placeholder for keyless local
    servers), JSON both ways, and OpenAI's organization/project when their variables are set."""
    headers = {
        "Authorization": f"Bearer {os.environ.get(config.api_key_env) or _NO_KEY}",
        "Content-Type": "application/json",
        "Accept": "application/json",
        "User-Agent": "nlp-dsg-benchmark",
    }
    for header, variable in (("OpenAI-Organization", "OPENAI_ORG_ID"),
                             ("OpenAI-Project", "OPENAI_PROJECT_ID")):
        if os.environ.get(variable):
            headers[header] = os.environ[variable]
    return headers


def _first_line(error: object) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


# What is missing or malformed in an untrusted reply counts as empty: the item then scores as a
# failure, never a crash.
def _first_message(reply: dict) -> dict:
    """The first choice's message of a chat completion, or {}."""
    choices = reply.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else {}
    message = first.get("message") if isinstance(first, dict) else None
    return message if isinstance(message, dict) else {}


def _short_text(value: object) -> str:
    """A short identifier the server sent (model name, fingerprint); '' when it is missing or
    not text."""
    return safe_text(value)[:200] if isinstance(value, str) else ""


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


def _describe_status_error(config: ModelConfig, status: int, body: bytes) -> str:
    """One line that says what to fix, without echoing the key (masked before the detail is
    cut short, so a cut cannot leave half a key unrecognised)."""
    hints = {
        401: f"bad or missing API key (set ${config.api_key_env})",
        403: f"key in ${config.api_key_env} is not allowed to use this model",
        404: "unknown model or wrong base_url",
        429: "rate limited; retries exhausted",
    }
    hint = hints.get(status, "request failed")
    detail = safe_text(_error_message(body)).strip().splitlines()
    return f"model {config.name}: HTTP {status}: {hint}: {detail[0][:200] if detail else ''}"


def _error_message(body: bytes) -> str:
    """The server's own words: OpenAI's `{"error": {"message": ...}}`, else the body as text."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        return text
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return message if isinstance(message, str) and message else text
