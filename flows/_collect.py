"""Turning a chain of stage futures back into one item's result, failures included.

A failed stage must not sink the run: its error is recorded on the item and the run goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from prefect.futures import PrefectFuture, wait

from dsgqa.questions import Question
from dsgqa.results import ItemResult


@dataclass
class ItemFutures:
    question: Question
    model: str
    attempt: PrefectFuture
    outcome: PrefectFuture
    answer: PrefectFuture
    verdict: PrefectFuture


def _value_or_error(future: PrefectFuture) -> tuple[object | None, str | None]:
    state = future.state
    if state.is_completed():
        return future.result(), None
    try:
        future.result(raise_on_failure=True)
    except Exception as error:
        return None, f"{type(error).__name__}: {error}".splitlines()[0][:300]
    return None, f"stage ended {state.name}"


def collect(items: list[ItemFutures], backend: str) -> list[ItemResult]:
    wait([f for item in items for f in (item.attempt, item.outcome, item.answer, item.verdict)])
    results = []
    for item in items:
        values, error = {}, None
        for stage in ("attempt", "outcome", "answer", "verdict"):
            value, stage_error = _value_or_error(getattr(item, stage))
            values[stage] = value
            if stage_error and error is None:
                error = f"{stage}: {stage_error}"
        results.append(ItemResult(question=item.question, model=item.model, backend=backend,
                                  error=error, **values))
    return results
