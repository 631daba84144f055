"""Turning a finished batch task back into per-item outcomes, even when the task itself failed
(after its retries): then every item of the batch is recorded with the task's error, and the
run goes on."""

from __future__ import annotations

from prefect.futures import PrefectFuture

from dsgqa.batch import Outcome, one_line_error


def outcomes_or_failures(future: PrefectFuture, uids: list[str]) -> list[Outcome]:
    try:
        return future.result()
    except Exception as error:
        message = one_line_error(error)
        return [Outcome(uid=uid, error=f"batch failed: {message}") for uid in uids]
