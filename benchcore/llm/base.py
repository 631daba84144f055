"""The client interface every model provider implements, and the model configuration.

A client turns a list of chat messages into one reply. With `tools` (OpenAI function tools), the
reply may instead, or as well, carry tool calls; the messages then hold the assistant's
`tool_calls` and the `tool` results in the OpenAI chat wire format, so one message list is what
every provider, the response cache and the transcripts see.

`CallContext` tells test and demo clients (scripted, oracle) which question and stage a call
belongs to; real providers ignore it, and it is never part of a cache key, because a real model
only ever sees the messages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from benchcore.run_names import model_name_problem
from benchcore.url_credentials import refuse_credentials

# One chat message in the OpenAI wire format: {"role", "content"}, plus "tool_calls" on an
# assistant message that called tools and "tool_call_id" on a tool result.
Message = dict[str, Any]

# Every provider a model config may name; each is registered with a client factory in
# `benchcore.llm.providers` (the QA track adds "oracle" and the trivial "baseline" models).
Provider = Literal["openai", "scripted", "oracle", "baseline"]
PROVIDERS: tuple[str, ...] = Provider.__args__
# Providers that answer QA questions only: the oracle replies from a question's reference and a
# baseline one fixed way; a planning prompt gets an empty reply, which would be scored as the
# model's parse failures (a planning "oracle" at 0% success).
QA_ONLY_PROVIDERS: frozenset[str] = frozenset({"oracle", "baseline"})


class LLMError(RuntimeError):
    """A call that cannot succeed by retrying (bad key, unknown model, malformed request)."""


@dataclass(frozen=True)
class CallContext:
    """Which item and stage a call serves; `extra` carries stage data for oracle clients."""

    uid: str
    stage: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolSpec:
    """A function the model may call: its name, what it does, and JSON-schema parameters."""

    name: str
    description: str
    parameters: dict[str, Any]

    def wire(self) -> dict[str, Any]:
        """As the chat completions API takes it in `tools`."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters}}


@dataclass(frozen=True)
class ToolCall:
    """One tool call as the model wrote it. `arguments` is the raw JSON text: a model may send
    malformed JSON, which the caller reports back to it rather than crashing on."""

    id: str
    name: str
    arguments: str

    def wire(self) -> dict[str, Any]:
        """As an assistant message's `tool_calls` entry."""
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class LLMReply:
    """One model reply with its token usage; `cached` says it came from the response cache.
    `tool_calls` is empty unless the call offered tools and the model used them.
    `served_model` and `system_fingerprint` are what the server said answered (the response's
    `model` and `system_fingerprint`, '' when it said nothing): the model behind a configured
    name can change, and only these show it."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    tool_calls: tuple[ToolCall, ...] = ()
    served_model: str = ""
    system_fingerprint: str = ""

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def assistant_message(self) -> Message:
        """The reply as the assistant message that continues the conversation."""
        message: Message = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            message["tool_calls"] = [call.wire() for call in self.tool_calls]
        return message


class LLMClient(Protocol):
    """Anything that answers chat messages. `config` identifies the model in results and keys."""

    config: ModelConfig

    def complete(
        self, messages: list[Message], context: CallContext,
        tools: Sequence[ToolSpec] = (),
    ) -> LLMReply: ...


class ModelConfig(BaseModel):
    """How to reach one model. Holds the *name* of the key's environment variable, never the key,
    so a config can be logged, hashed into cache keys and written into results safely."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Model name as the provider knows it, e.g. gpt-4o-mini.")
    provider: Provider = "openai"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    seed: int | None = 0
    max_tokens: int | None = Field(default=None, ge=1)
    timeout_s: float = 60.0
    max_retries: int = 5
    max_connections: int = 8
    max_consecutive_connection_failures: int = Field(
        default=5, ge=0, description="Stop calling an endpoint after this many calls in a row "
        "could not reach it (each after its retries); its remaining items fail at once. "
        "0: never stop.")
    script: str | None = Field(default=None, description="Reply file for the scripted provider.")
    context_tokens: int | None = Field(
        default=None, ge=1, description="The model's context window in tokens; a prompt "
        "estimated larger (e.g. a scene graph in context) is an item error, not a call.")
    tool_protocol: Literal["tools", "text"] = Field(
        default="tools", description="How an agent calls tools: the API's tool calling, or, for "
        "servers without it, the text protocol (a fenced cypher block is a call).")
    usd_per_1m_input: float = Field(default=0.0, description="Price, for the cost column.")
    usd_per_1m_output: float = Field(default=0.0, description="Price, for the cost column.")

    @field_validator("name")
    @classmethod
    def _a_usable_name(cls, value: str) -> str:
        """Checked when the config is read: the name becomes part of file names."""
        problem = model_name_problem(value)
        if problem:
            raise ValueError(f"model name {problem}")
        return value

    @field_validator("base_url")
    @classmethod
    def _an_http_url(cls, value: str | None) -> str | None:
        """A base URL the client can reach, checked when the config is read: a typo such as
        `localhost:8000/v1` (no scheme) is then a config error naming the field, not the
        error of every item."""
        if value is None:
            return value
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  # reading it checks the port's range
        except ValueError as error:
            raise ValueError(f"not a URL: {error}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL with a host, "
                             "e.g. http://localhost:8000/v1")
        refuse_credentials(parts.netloc, "the key's variable (api_key_env), or the whole URL "
                           "in $OPENAI_BASE_URL")
        return value

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.usd_per_1m_input
                + completion_tokens * self.usd_per_1m_output) / 1e6

    @property
    def label(self) -> str:
        """Short name used in result rows: provider and model."""
        return self.name if self.provider == "openai" else f"{self.provider}:{self.name}"

    def sampling_params(self) -> dict[str, Any]:
        """The parameters that change what the model answers (part of the response-cache key)."""
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}

    def identity(self) -> dict[str, Any]:
        """What identifies the model's behaviour: everything but transport settings."""
        return {
            "provider": self.provider,
            "name": self.name,
            "base_url": self.base_url,
            "script": self.script,
            **self.sampling_params(),
        }

    def fingerprint(self) -> str:
        """Identity plus, for a scripted model, its replies' content: editing the script must
        invalidate the cached results made from it."""
        identity = self.identity()
        if self.provider == "scripted" and self.script:
            try:
                identity["script_sha"] = hashlib.sha256(Path(self.script).read_bytes()).hexdigest()
            except OSError:
                identity["script_sha"] = "unreadable"
        blob = json.dumps(identity, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]
