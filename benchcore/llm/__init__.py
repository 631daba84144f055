"""LLM access for both tracks: one client interface, several providers, one response cache.

Caching, retries and concurrency limits live in this layer (as in inspect_ai's model layer), so
stages and Prefect tasks never deal with them.
"""

from benchcore.llm.base import CallContext, LLMClient, LLMError, LLMReply, ModelConfig
from benchcore.llm.cache import CachedClient, ResponseCache
from benchcore.llm.providers import build_client

__all__ = [
    "CachedClient",
    "CallContext",
    "LLMClient",
    "LLMError",
    "LLMReply",
    "ModelConfig",
    "ResponseCache",
    "build_client",
]
