"""The client interface every model provider implements, and the model configuration.

A client turns a list of chat messages into one reply. `CallContext` tells test and demo clients
(scripted, oracle) which question and stage a call belongs to; real providers ignore it, and it is
never part of a cache key, because a real model only ever sees the messages.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

Message = dict[str, str]

# Every provider a model config may name; each is registered with a client factory in
# `benchcore.llm.providers` (the QA track adds "oracle").
Provider = Literal["openai", "scripted", "oracle"]
PROVIDERS: tuple[str, ...] = Provider.__args__


class LLMError(RuntimeError):
    """A call that cannot succeed by retrying (bad key, unknown model, malformed request)."""


@dataclass(frozen=True)
class CallContext:
    """Which item and stage a call serves; `extra` carries stage data for oracle clients."""

    uid: str
    stage: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LLMReply:
    """One model reply with its token usage; `cached` says it came from the response cache."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class LLMClient(Protocol):
    """Anything that answers chat messages. `config` identifies the model in results and keys."""

    config: ModelConfig

    def complete(self, messages: list[Message], context: CallContext) -> LLMReply: ...


class ModelConfig(BaseModel):
    """How to reach one model. Holds the *name* of the key's environment variable, never the key,
    so a config can be logged, hashed into cache keys and written into results safely."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Model name as the provider knows it, e.g. gpt-4o-mini.")
    provider: Provider = "openai"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int | None = None
    timeout_s: float = 60.0
    max_retries: int = 5
    max_connections: int = 8
    max_consecutive_connection_failures: int = Field(
        default=5, ge=0, description="Stop calling an endpoint after this many calls in a row "
        "could not reach it (each after its retries); its remaining items fail at once. "
        "0: never stop.")
    script: str | None = Field(default=None, description="Reply file for the scripted provider.")
    usd_per_1m_input: float = Field(default=0.0, description="Price, for the cost column.")
    usd_per_1m_output: float = Field(default=0.0, description="Price, for the cost column.")

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
