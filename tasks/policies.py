"""Cache and retry policies shared by the tasks.

Clients and stores hold locks and sockets that Prefect cannot hash; an unhashable input silently
disables a task's cache, so they are excluded by name and replaced in the key by what identifies
them (the model fingerprint, the graph fingerprint and backend).
"""

from __future__ import annotations

from prefect.cache_policies import INPUTS, TASK_SOURCE

from dsgqa.graphstore import GraphStoreError
from dsgqa.llm.base import LLMError

STAGE_CACHE = (INPUTS - "client" - "store") + TASK_SOURCE

# Non-transient failures: retrying a bad key, an unknown model or a broken file cannot help.
_PERMANENT = (LLMError, GraphStoreError, ValueError)


def retry_transient(task, task_run, state) -> bool:
    """Retry unless the error is one that no retry can fix."""
    try:
        state.result()
    except _PERMANENT:
        return False
    except Exception:
        return True
    return False
