"""Providers by name, and the client a model config asks for, wrapped in the response cache.

A provider is a function `(config, questions) -> LLMClient`. The core registers the two that need
nothing but the config (`openai`, `scripted`); a track registers its own (the QA track's oracle
answers from its question set), so the core never imports a track.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from benchcore.llm.base import PROVIDERS, LLMClient, ModelConfig
from benchcore.llm.cache import CachedClient, ResponseCache

ProviderFactory = Callable[[ModelConfig, Mapping[str, Any]], LLMClient]
_FACTORIES: dict[str, ProviderFactory] = {}


def register_provider(name: str, factory: ProviderFactory) -> None:
    """Make `provider: name` in a model config build its clients with `factory`."""
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {name!r}: add it to PROVIDERS first")
    _FACTORIES[name] = factory


def _openai(config: ModelConfig, questions: Mapping[str, Any]) -> LLMClient:
    from benchcore.llm.openai_chat import OpenAIChatClient

    return OpenAIChatClient(config)


def _scripted(config: ModelConfig, questions: Mapping[str, Any]) -> LLMClient:
    from benchcore.llm.scripted import ScriptedClient

    return ScriptedClient.from_file(config)


register_provider("openai", _openai)
register_provider("scripted", _scripted)


def build_client(
    config: ModelConfig,
    cache_dir: Path | None,
    questions: Mapping[str, Any] | None = None,
) -> CachedClient | LLMClient:
    """The provider's client; with a cache dir, wrapped in the on-disk response cache."""
    factory = _FACTORIES.get(config.provider)
    if factory is None:
        raise ValueError(
            f"provider {config.provider!r} is not registered in this process "
            "(the QA track registers 'oracle' and 'baseline' when its tasks are imported)"
        )
    client = factory(config, questions or {})
    # Only real models are response-cached: scripted and oracle replies depend on more than the
    # messages (the uid, the attempt, the reference answers) and cost nothing to recompute.
    if cache_dir is None or config.provider != "openai":
        return client
    return CachedClient(client, ResponseCache(cache_dir))
