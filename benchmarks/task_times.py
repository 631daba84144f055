"""How long each task of a finished flow run took, read back from the Prefect API: the steps
that are not batch stages (results table, evaluation, store, report) have no progress events,
but every task run has its start and end time.
"""

from __future__ import annotations

from datetime import datetime

from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
from prefect.states import State


def task_seconds(state: State) -> dict[str, float]:
    """Task run name (e.g. `refine[fake-a]`, `build-report-3ac` without its suffix) -> seconds
    from start to end, for the flow run whose final `state` this is."""
    return {name: (end - start).total_seconds() for name, (start, end) in _spans(state).items()}


def task_ends(state: State) -> dict[str, datetime]:
    """Task run name -> when it ended (the last run of that name)."""
    return {name: end for name, (_start, end) in _spans(state).items()}


def _spans(state: State) -> dict[str, tuple[datetime, datetime]]:
    """Task run name -> (first start, last end) over the runs of that name; a retried task's
    tries count as one span."""
    flow_run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
    spans: dict[str, tuple[datetime, datetime]] = {}
    for run in runs:
        if run.start_time is None or run.end_time is None:
            continue
        name = run.name if "[" in run.name else run.name.rsplit("-", 1)[0]
        start, end = spans.get(name, (run.start_time, run.end_time))
        spans[name] = (min(start, run.start_time), max(end, run.end_time))
    return spans
