"""LLM access for both tracks: one client interface, several providers, one response cache.

Caching, retries and concurrency limits live in this layer (as in inspect_ai's model layer), so
stages and Prefect tasks never deal with them.
"""

from dsgqa.llm.base import CallContext, LLMClient, LLMError, LLMReply, ModelConfig
from dsgqa.llm.cache import CachedClient, ResponseCache
from dsgqa.llm.factory import build_client

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
