"""Retry policy shared by the stage tasks.

Stage tasks work on batches and keep per-item results in the item cache (dsgqa/item_cache.py),
so a retried task redoes only unfinished items. Items never raise (their failures are data);
what reaches Prefect is a batch-level fault, such as a database that went away.
"""

from __future__ import annotations

from benchcore.llm.base import LLMError

# Retrying a bad key, an unknown model or a broken input file cannot help.
_PERMANENT = (LLMError, ValueError)


def retry_transient(task, task_run, state) -> bool:
    """Retry unless the error is one that no retry can fix."""
    try:
        state.result()
    except _PERMANENT:
        return False
    except Exception:
        return True
    return False


RETRIES = {"retries": 2, "retry_delay_seconds": [1, 4], "retry_condition_fn": retry_transient}
