"""`python -m nlp_dsg_benchmark.flow_run_outcome FLOW_RUN_ID`: how a flow run ended and why.

`prefect deployment run --watch` ends with "Flow run finished in state 'Failed'"; the cause
("28 × no API key ...") is only in the worker's log, on another machine perhaps. This reads the
flow run from the Prefect API and prints its final state, the first line of its state message,
the most common failure causes with their counts and the run's results folder.
`scripts/orchestrate.sh run NAME --watch` calls it once the watch returns.

The results folder is found from what the server keeps, not from the flow's return value (that
is a pickled object, usually not persisted, and unreadable without the code): the error budget's
message names the folder; otherwise it is recomputed from the run's parameters as the flow does
(`results_dir / run_id`, relative paths against the deployment's working directory).

Exit status: 0 when the run completed, 1 when it did not (failed, crashed, cancelled, still
going), 2 when it cannot be read.
"""

from __future__ import annotations

import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchcore.failure_causes import describe_causes
from benchcore.terminal_text import printable
from nlp_dsg_benchmark.run_folder_causes import (
    Causes,
    folder_causes,
    message_causes,
    message_run_dir,
)

TOP_CAUSES = 5
_WORKING_DIRECTORY_STEP = "prefect.deployments.steps.set_working_directory"


@dataclass(frozen=True)
class FlowRunOutcome:
    """What the server and the run folder say about one flow run."""

    flow_run_id: str
    name: str
    state_type: str            # COMPLETED, FAILED, CRASHED, ...
    state_name: str            # what the UI shows: Completed, Failed, Crashed, ...
    message: str
    run_dir: Path | None
    causes: dict[str, Causes] = field(default_factory=dict)   # track ("qa", ...) -> causes

    @property
    def completed(self) -> bool:
        return self.state_type == "COMPLETED"


def read_outcome(flow_run_id: uuid.UUID) -> FlowRunOutcome:
    """The flow run's outcome from the Prefect API (raises prefect's ObjectNotFound)."""
    from prefect import get_client

    with get_client(sync_client=True) as client:
        run = client.read_flow_run(flow_run_id)
        base = _working_directory(client, run.deployment_id)
    state = run.state
    message = (state.message or "") if state else ""
    run_dir = _run_dir(message, run.parameters, run.expected_start_time, str(run.id), base)
    causes = folder_causes(run_dir, TOP_CAUSES) if run_dir and run_dir.is_dir() else {}
    if not causes and message_causes(message):
        causes = {"run": message_causes(message)}
    return FlowRunOutcome(
        flow_run_id=str(run.id), name=run.name,
        state_type=state.type.value if state else "UNKNOWN",
        state_name=(state.name or state.type.value.title()) if state else "Unknown",
        message=message, run_dir=run_dir, causes=causes,
    )


def _working_directory(client: Any, deployment_id: uuid.UUID | None) -> Path:
    """Where a deployment's runs start (its pull step), against which the run configuration's
    relative results folder resolves; this process's directory for a run of no deployment."""
    if deployment_id is not None:
        try:
            deployment = client.read_deployment(deployment_id)
        except Exception:   # deleted since: the run's own record is still worth reading
            return Path.cwd()
        for step in deployment.pull_steps or []:
            directory = (step.get(_WORKING_DIRECTORY_STEP) or {}).get("directory")
            if directory and "{{" not in directory:
                return Path(directory)
    return Path.cwd()


def _run_dir(message: str, parameters: dict[str, Any], started: Any, flow_run_id: str,
             base: Path) -> Path | None:
    """The run's results folder: as its error-budget message names it, else as the flow derives
    it from its parameters (benchcore.run_config.resolve_config, resolved_run_id)."""
    named = message_run_dir(message)
    if named:
        return base / named
    from benchcore.run_config import BenchmarkConfig, resolve_config

    try:
        given = parameters.get("config")
        config_file = parameters.get("config_file")
        if config_file is not None and not Path(config_file).is_absolute():
            config_file = str(base / config_file)
        config = resolve_config(
            BenchmarkConfig.model_validate(given) if given is not None else None, config_file)
    except (ValueError, OSError):   # ConfigError and pydantic's ValidationError included
        return None
    return base / config.results_dir / config.resolved_run_id(started, flow_run_id)


def outcome_lines(outcome: FlowRunOutcome) -> list[str]:
    """The short summary: state, the message's first line, top causes, results folder."""
    lines = [f"flow run {outcome.name!r} ({outcome.flow_run_id}): {outcome.state_name}"]
    first = outcome.message.strip().splitlines()[0] if outcome.message.strip() else ""
    if first:
        lines.append(f"  {printable(first)}")
    if outcome.causes:
        lines.append("top failure causes:")
        for track, causes in outcome.causes.items():
            lines.extend(f"  {track}: {printable(line)}" for line in describe_causes(causes))
    elif not outcome.completed:
        lines.append("no errored items recorded (the message above and the worker's log say "
                     "more)")
    if outcome.run_dir is None:
        lines.append("results folder: unknown")
    else:
        missing = "" if outcome.run_dir.is_dir() else " (not on this machine, or never written)"
        lines.append(f"results folder: {outcome.run_dir}{missing}")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m nlp_dsg_benchmark.flow_run_outcome FLOW_RUN_ID",
              file=sys.stderr)
        return 2
    try:
        flow_run_id = uuid.UUID(args[0])
    except ValueError:
        print(f"flow_run_outcome: {args[0]!r} is not a flow run id (a UUID; "
              "`prefect flow-run ls` lists them)", file=sys.stderr)
        return 2
    import httpx
    from prefect.exceptions import ObjectNotFound
    from prefect.settings import PREFECT_API_URL

    try:
        outcome = read_outcome(flow_run_id)
    except ObjectNotFound:
        print(f"flow_run_outcome: no flow run {flow_run_id} on this server", file=sys.stderr)
        return 2
    except (httpx.HTTPError, OSError) as error:
        print(f"flow_run_outcome: cannot read flow run {flow_run_id} from the Prefect API at "
              f"{PREFECT_API_URL.value()}: {error}", file=sys.stderr)
        return 2
    print("\n".join(outcome_lines(outcome)))
    return 0 if outcome.completed else 1


if __name__ == "__main__":
    sys.exit(main())
