"""Builds the client a model config asks for, wrapped in the shared response cache."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dsgqa.llm.base import LLMClient, ModelConfig
from dsgqa.llm.cache import CachedClient, ResponseCache


def build_client(
    config: ModelConfig,
    cache_dir: Path | None,
    questions: Mapping[str, Any] | None = None,
) -> CachedClient | LLMClient:
    """The provider's client; with a cache dir, wrapped in the on-disk response cache."""
    client: LLMClient
    if config.provider == "openai":
        from dsgqa.llm.openai_chat import OpenAIChatClient

        client = OpenAIChatClient(config)
    elif config.provider == "scripted":
        from dsgqa.llm.scripted import ScriptedClient

        client = ScriptedClient.from_file(config)
    else:
        from dsgqa.llm.oracle import OracleClient

        client = OracleClient(config, questions or {})
    # Only real models are response-cached: scripted and oracle replies depend on more than the
    # messages (the uid, the attempt, the reference answers) and cost nothing to recompute.
    if cache_dir is None or config.provider != "openai":
        return client
    return CachedClient(client, ResponseCache(cache_dir))
