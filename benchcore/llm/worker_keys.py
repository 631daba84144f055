"""A Dask worker must hold the API keys the run was submitted with."""

from __future__ import annotations

import os
from collections.abc import Collection

from benchcore.dask_worker import current_worker
from benchcore.llm.base import LLMError, ModelConfig


def check_submitted_key(config: ModelConfig, keys_at_submission: Collection[str]) -> None:
    """Refuse to call a model from a Dask worker that lacks the key variable set where the run
    was submitted.

    Why: a keyless client sends a placeholder key (keyless local servers accept it), so a
    worker started without the variable would call the endpoint without the key on every
    request, and a server that serves unauthenticated requests differently would answer,
    silently, for another account or model. A missing key on the submitting machine itself is
    the user's choice (a keyless server) and is left alone."""
    variable = config.api_key_env
    if config.provider != "openai" or variable not in keys_at_submission \
            or os.environ.get(variable):
        return
    worker = current_worker()
    if worker is None:
        return
    address = getattr(worker, "address", None) or "?"
    raise LLMError(f"model {config.name}: the Dask worker at {address} has no ${variable}, "
                   "which is set where the run was submitted; set it in that worker's "
                   "environment and restart the worker")
