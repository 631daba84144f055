"""One client per model per process, built from its (picklable) config.

Tasks receive a `ModelConfig`, never a client object: a config hashes, pickles to Dask workers
and logs safely, while a client holds sockets and locks. The per-model concurrency limit is
shared by every client of the process anyway (see openai_chat).
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from benchcore.llm.base import LLMClient, ModelConfig
from benchcore.llm.providers import build_client
from benchcore.llm.worker_keys import check_submitted_key

_CLIENTS: dict[tuple[str, str, str], LLMClient] = {}
_LOCK = threading.Lock()


def shared_client(
    config: ModelConfig, cache_dir: str | Path | None, questions: Mapping[str, Any] | None = None,
    questions_id: str = "", keys_at_submission: Collection[str] = (),
) -> LLMClient:
    """The process's client for this model (and question set, for the oracle); on a Dask
    worker, only when it holds the key variables the run was submitted with."""
    check_submitted_key(config, keys_at_submission)
    slot = (config.model_dump_json(), str(cache_dir), questions_id)
    with _LOCK:
        if slot not in _CLIENTS:
            _CLIENTS[slot] = build_client(
                config, Path(cache_dir) if cache_dir else None, questions
            )
        return _CLIENTS[slot]
