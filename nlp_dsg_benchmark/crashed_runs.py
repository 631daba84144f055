"""`nlp-dsg-benchmark mark-crashed FLOW_RUN_ID`: end a flow run whose machine died.

Nobody is left to report the end of such a run, so the server keeps it Running, and `prefect
flow-run retry` refuses a run that is not in a final state (Prefect 3 has no CLI command that
sets a state). This sets it to Crashed, after which the retry is accepted; a run that already
ended is left alone. The shipped automation (configs/automations/mark-crashed.yaml) does the
same by itself once a run's heartbeats stop.
"""

from __future__ import annotations

import sys
import uuid

_FINAL = {"COMPLETED", "FAILED", "CANCELLED", "CRASHED"}


def mark_crashed_command(flow_run_id: str, message: str) -> int:
    try:
        run_id = uuid.UUID(flow_run_id)
    except ValueError:
        print(f"nlp-dsg-benchmark: {flow_run_id!r} is not a flow run id (a UUID; "
              "`prefect flow-run ls` lists them)", file=sys.stderr)
        return 2
    from prefect import get_client
    from prefect.exceptions import ObjectNotFound
    from prefect.states import Crashed

    with get_client(sync_client=True) as client:
        try:
            run = client.read_flow_run(run_id)
        except ObjectNotFound:
            print(f"nlp-dsg-benchmark: no flow run {run_id} on this server", file=sys.stderr)
            return 2
        state = run.state.type.value if run.state else "unknown"
        if state in _FINAL:
            print(f"flow run {run_id} already ended ({state}); nothing to do")
            return 0
        client.set_flow_run_state(run_id, Crashed(message=message), force=True)
    print(f"flow run {run_id}: {state} -> CRASHED; retry it with "
          f"`prefect flow-run retry {run_id}`")
    return 0
