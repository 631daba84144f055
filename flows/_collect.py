"""Turning a finished batch task back into per-item outcomes, even when the task itself failed
(after its retries): then every item of the batch is recorded with the task's error, and the
run goes on."""

from __future__ import annotations

from prefect.futures import PrefectFuture

from benchcore.batch import Outcome, one_line_error


def outcomes_or_failures(future: PrefectFuture, uids: list[str], label: str = "") -> list[Outcome]:
    """`label` (e.g. the model) goes into the error text, which is all a failed batch leaves."""
    try:
        return list(future.result())
    except Exception as error:
        where = f"{label} batch failed" if label else "batch failed"
        return [Outcome(uid=uid, error=f"{where}: {one_line_error(error)}") for uid in uids]
