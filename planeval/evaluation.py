"""Per-experiment evaluation of LLM planning runs from their generation logs.

Every plan is re-parsed and re-simulated here; nothing the generator wrote about success,
executability or goals is trusted (such fields may exist under `meta`, they are ignored).

Generation-log format (what the planning track writes)
------------------------------------------------------
A log is a JSONL file, one JSON object per line, one line per (instance, run). A directory of
logs is evaluated file by file; a file is one experiment unless records name their own.

    {
      "schema": "planeval.generation/1",        optional, the only version so far
      "experiment": "gpt-4o_blocksworld_ni",     optional; default: the file name without .jsonl
      "domain": "blocksworld_planbench",         folder name under the data directory
      "instance": "instance-3",                  problem file name without .pddl
      "model": "gpt-4o",
      "approach": "non-incremental",             or "incremental"
      "attempts": [                              non-incremental: every complete plan, in order
        {"raw_reply": "...full model reply...",  (more than one = backprompting)
         "actions": ["(unstack b a)", "..."],    optional: the plan the generator extracted
         "feedback": "..."}                      optional: what was sent back (not used)
      ],
      "events": [                                incremental: one entry per model turn, in order
        {"type": "action", "raw_reply": "...", "action": "(pick-up a)"},
        {"type": "look_around", "raw_reply": "..."},
        {"type": "finished", "raw_reply": "..."}
      ],
      "action_goals": ["(pick-up a)", "..."],    optional required action sequence (EAI)
      "error": "...",                            optional: the interaction broke off (e.g. the
                                                 endpoint refused); then nothing is scored
      "meta": {}                                 optional, free-form, ignored
    }

For an attempt the plan is `actions` when given (the generator's reading of the reply, e.g. after
mapping natural language back to PDDL), otherwise `raw_reply`, read by `parse_plan`. For an action
event the action is `action` when given, otherwise `raw_reply`. Both are read with the domain's
action names, by the extraction rules of `planeval.plan_text` (prose is not an action; a reply
with no action is a parsing error). `finished` is the model saying the goal is reached;
`look_around` is the model asking to see the current state.

Errors are not plans
--------------------
A record with an `error`, or with no reply at all (no attempt, or no event), is an item the
model never answered: it gets a row with its `error` and no score (every scoring column empty),
and the overview leaves it out of the rates and counts it in `n_errors`, as the QA track keeps
errored items apart from wrong answers. Scoring it as an empty plan would report an executable
plan that missed the goal for a model that never replied.

What counts (AutoPlanBench's evaluation)
----------------------------------------
non-incremental: an instance is solved when any attempt is a valid plan; the plan that counts is
the first valid attempt, or else the last one. Interaction length = number of attempts.
incremental: the events are replayed on a `Simulator`. A non-executable action is a mistake
(state unchanged); `finished` while the goal holds solves the instance and ends the replay;
`finished` while it does not is a mistake (predicted goal erroneously) and the replay goes on.
Interaction length = action events + finished events (look-arounds not counted); plan length =
executed actions. A look-around counts as "after a mistake" when the event just before it was a
mistake. Unsuccessful instances get one reason: not_executable (the first mistake was a
non-executable action), else not_recog_goal (the goal held at some point), else not_reached_goal.

Per-instance columns (`EVALUATION_COLUMNS`) add the EAI taxonomy's view: `failure_kind` (for
incremental runs the kind of the first non-executable action, else not_recog_goal when the goal
held at some point but the model never said `finished` then, else goal_not_reached) and
`failure_detail` (that first failure in words, as the model's feedback phrases it),
`gold_class` (non-incremental only), goal fractions of the final state, and PlanningLCS/Jaccard
of the plan that counts (incremental: the executed actions) against the gold plan. Domains,
problems and gold plans are looked up in a data directory laid out as `planeval.dataset`
describes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchcore import progress
from benchcore.batch import one_line_error
from planeval.dataset import PlanningData
from planeval.describe import describe_failure, describe_step_result
from planeval.diagnosis import PlanReport, validate_plan
from planeval.errors import PlanevalError
from planeval.failures import FailureKind
from planeval.goals import GoalScore
from planeval.metrics import plan_length_factor, planning_jaccard, planning_lcs
from planeval.pddl import Domain, Problem
from planeval.plan_text import parse_plan
from planeval.simulation import Simulator

SCHEMA = "planeval.generation/1"
EVALUATE_STAGE = "evaluate-plans"
NON_INCREMENTAL = "non-incremental"
INCREMENTAL = "incremental"


class Attempt(BaseModel):
    model_config = ConfigDict(extra="allow")
    raw_reply: str = ""
    actions: list[str] | None = None

    def plan_text(self) -> str:
        return "\n".join(self.actions) if self.actions is not None else self.raw_reply


class Event(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["action", "look_around", "finished"]
    raw_reply: str = ""
    action: str | None = None


class GenerationRecord(BaseModel):
    """One line of a generation log (format in the module docstring)."""

    model_config = ConfigDict(extra="allow")
    schema_: str = Field(default=SCHEMA, alias="schema")
    experiment: str | None = None
    domain: str
    instance: str
    model: str
    approach: Literal["non-incremental", "incremental"]
    attempts: list[Attempt] = []
    events: list[Event] = []
    action_goals: list[str] | None = None
    error: str | None = None
    meta: dict[str, Any] = {}

    def error_message(self) -> str | None:
        """Why no reply can be scored, or None; logs written before `error` was a field kept
        it under `meta`."""
        error = self.error or self.meta.get("error")
        if error:
            return str(error)
        replies = self.attempts if self.approach == NON_INCREMENTAL else self.events
        return None if replies else "no reply in the log"


def read_generation_log(path: str | Path) -> Iterator[tuple[int, GenerationRecord]]:
    """Records of one JSONL log with their line numbers; bad lines raise a one-line error."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PlanevalError(f"{path}: cannot read log ({exc.strerror})") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = GenerationRecord.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise PlanevalError(f"{path}:{number}: not JSON ({exc.msg})") from None
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(part) for part in error["loc"]) or "record"
            raise PlanevalError(f"{path}:{number}: field '{field}': {error['msg']}") from None
        if record.schema_ != SCHEMA:
            raise PlanevalError(
                f"{path}:{number}: field 'schema': unknown version {record.schema_!r}"
            )
        yield number, record


def evaluate_logs(
    logs_dir: str | Path, data_dir: str | Path,
    fallback_gold: Mapping[tuple[str, str], str] | None = None, errors_as_rows: bool = False,
) -> pd.DataFrame:
    """Evaluate every `*.jsonl` under `logs_dir` (or one file) against the data directory;
    `fallback_gold` fills in gold plans the data lacks (see `PlanningData`). A record that
    cannot be evaluated raises, unless `errors_as_rows`: then it is an errored row (its
    `error` says why), as the planning track needs, whose tables keep every item."""
    logs = Path(logs_dir)
    files = [logs] if logs.is_file() else sorted(logs.rglob("*.jsonl"))
    if not logs.exists():
        raise PlanevalError(f"{logs}: no such file or directory")
    if not files:
        raise PlanevalError(f"{logs}: no *.jsonl generation logs found")
    data = PlanningData(data_dir, fallback_gold)
    # Re-simulating hundreds of plans takes seconds: shown as a stage of its own.
    progress.started(EVALUATE_STAGE, sum(_count_lines(path) for path in files))
    rows = [row for path in files for row in evaluate_log(path, data, errors_as_rows)]
    return pd.DataFrame(rows, columns=EVALUATION_COLUMNS)


def evaluate_log(path: str | Path, data: PlanningData,
                 errors_as_rows: bool = False) -> list[dict[str, Any]]:
    """One row per record of one log file (`errors_as_rows`: see `evaluate_logs`)."""
    rows = []
    for number, record in read_generation_log(path):
        try:
            row = evaluate_record(record, data)
        except Exception as exc:
            if not errors_as_rows:
                if isinstance(exc, PlanevalError):
                    raise PlanevalError(f"{path}:{number}: {exc}") from None
                raise
            # A record that was an error already keeps its own cause (e.g. its batch failed).
            row = unevaluated_row(record, record.error_message()
                                  or f"{EVALUATE_STAGE}: {one_line_error(exc)}")
        row["experiment"] = record.experiment or Path(path).stem
        rows.append(row)
        progress.advanced(EVALUATE_STAGE)
    return rows


def _count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip())


def unevaluated_row(record: GenerationRecord, error: str) -> dict[str, Any]:
    """The row of a record with no score: who and which instance, why, every score empty."""
    return {**dict.fromkeys(EVALUATION_COLUMNS), **_identity(record), "error": error}


def _identity(record: GenerationRecord) -> dict[str, Any]:
    return {"experiment": record.experiment, "domain": record.domain,
            "instance": record.instance, "model": record.model, "approach": record.approach}


def evaluate_record(record: GenerationRecord, data: PlanningData) -> dict[str, Any]:
    """Re-simulate one run and compute its per-instance metrics (AutoPlanBench and EAI)."""
    domain = data.domain(record.domain)
    problem = data.problem(record.domain, record.instance)
    gold = data.gold_plan(record.domain, record.instance)
    gold_steps = parse_plan(gold).actions() if gold is not None else None
    base = {
        **_identity(record),
        "gold_length": None if gold_steps is None else len(gold_steps),
    }
    error = record.error_message()
    if error is not None:
        return {**unevaluated_row(record, error), **base}
    if record.approach == NON_INCREMENTAL:
        row = _non_incremental(record, domain, problem, gold)
    else:
        row = _incremental(record, domain, problem)
    if not row["success"] and _stopped_at_a_bound(record):
        row.update(failure_kind=str(FailureKind.LIMIT), failure_step=None, gold_class=None,
                   failure_detail="The planner's search stopped at a bound.")
    plan = row.pop("_plan")
    row["factor_plan_length"] = (
        plan_length_factor(row["plan_length"], base["gold_length"]) if row["success"] else None
    )
    row["planning_lcs"] = None if gold_steps is None else planning_lcs(plan, gold_steps)
    row["planning_jaccard"] = None if gold_steps is None else planning_jaccard(plan, gold_steps)
    return {**base, **row}


def _stopped_at_a_bound(record: GenerationRecord) -> bool:
    """The planner baseline's record says its search stopped at a node, time or memory bound
    (`planner.status == "limit"`): an empty plan for that reason, not a wrong one."""
    planner = (record.model_extra or {}).get("planner")
    return isinstance(planner, dict) and planner.get("status") == "limit"


def _non_incremental(
    record: GenerationRecord, domain: Domain, problem: Problem, gold: str | None
) -> dict[str, Any]:
    reports: list[PlanReport] = []
    for attempt in record.attempts:
        reports.append(
            validate_plan(domain, problem, attempt.plan_text(), gold, record.action_goals)
        )
        if reports[-1].valid:
            break
    report = reports[-1]
    success = report.valid
    reason = None
    if not success:
        reason = (
            "not_executable"
            if not report.executable
            else "not_recog_goal"
            if report.goal_reached_at is not None
            else "not_reached_goal"
        )
    failure = report.failure
    return {
        "success": success,
        "solved_without_mistake": success,
        "reached_goal": report.goal_reached_at is not None,
        "reached_goal_without_stopping": not success and report.goal_reached_at is not None,
        "predicted_goal_erroneously": None,
        "unsuccessful_reason": reason,
        "n_mistakes": sum(not r.valid for r in reports),
        "failure_kind": None if failure is None else str(failure.kind),
        "failure_detail": None if failure is None else describe_failure(report),
        "failure_step": None if failure is None else failure.step,
        "gold_class": None
        if failure is None or failure.gold_class is None
        else str(failure.gold_class),
        "interaction_length": len(reports),
        "plan_length": len(report.steps),
        "n_steps": len(report.steps),
        "n_executed": report.n_executed,
        "execution_success": report.executable,
        "n_look_arounds": None,
        "n_look_arounds_after_mistakes": None,
        **_goal_columns(report.goal),
        "_plan": list(report.steps),
    }


def _incremental(record: GenerationRecord, domain: Domain, problem: Problem) -> dict[str, Any]:
    sim = Simulator(domain, problem)
    reached = sim.goal_reached()
    success = predicted_wrongly = previous_was_mistake = False
    first_mistake: str | None = None
    failure_kind: str | None = None
    failure_detail: str | None = None
    mistakes = looks = looks_after_mistake = length = 0
    proposed = 0
    for event in record.events:
        if event.type == "look_around":
            looks += 1
            looks_after_mistake += previous_was_mistake
            previous_was_mistake = False
            continue
        length += 1
        if event.type == "finished":
            if sim.goal_reached():
                success = True
                break
            predicted_wrongly = True
            mistakes += 1
            first_mistake = first_mistake or "wrong_finish"
            previous_was_mistake = True
            continue
        proposed += 1
        result = sim.apply(event.action if event.action is not None else event.raw_reply)
        previous_was_mistake = not result.ok
        if result.ok:
            reached = reached or sim.goal_reached()
        else:
            mistakes += 1
            first_mistake = first_mistake or "not_executable"
            failure_kind = failure_kind or str(result.kind)
            failure_detail = failure_detail or f"Turn {length}: {describe_step_result(result)}"
    reason = None
    if not success:
        reason = (
            "not_executable"
            if first_mistake == "not_executable"
            else "not_recog_goal"
            if reached
            else "not_reached_goal"
        )
        # Only missing `finished` while the goal held: its own label, not goal_not_reached.
        unrecognised = FailureKind.NOT_RECOG_GOAL if reached else FailureKind.GOAL_NOT_REACHED
        failure_kind = failure_kind or str(unrecognised)
        failure_detail = failure_detail or (
            "The goal held at some point, but the model never said `finished` while it held."
            if reached else "The goal was not reached.")
    goal = sim.goal_score(_action_keys(record.action_goals))
    executed = [h.action for h in sim.history if h.ok]
    return {
        "success": success,
        "solved_without_mistake": success and mistakes == 0,
        "reached_goal": reached,
        "reached_goal_without_stopping": reached and not success,
        "predicted_goal_erroneously": predicted_wrongly,
        "unsuccessful_reason": reason,
        "n_mistakes": mistakes,
        "failure_kind": failure_kind,
        "failure_detail": failure_detail,
        "failure_step": None,
        "gold_class": None,
        "interaction_length": length,
        "plan_length": len(executed),
        "n_steps": proposed,
        "n_executed": len(executed),
        "execution_success": proposed == len(executed),
        "n_look_arounds": looks,
        "n_look_arounds_after_mistakes": looks_after_mistake,
        **_goal_columns(goal),
        "_plan": executed,
    }


def _action_keys(actions: list[str] | None) -> list[tuple[str, tuple[str, ...]]]:
    if not actions:
        return []
    return [(s.name, s.args) for text in actions for s in parse_plan(text).steps]


def _goal_columns(goal: GoalScore) -> dict[str, Any]:
    return {
        "goal_fraction": goal.total_fraction,
        "state_goal_fraction": goal.state_fraction,
        "relation_goal_fraction": goal.relation_fraction,
        "action_goal_fraction": goal.action_fraction,
    }


EVALUATION_COLUMNS = [
    "experiment", "domain", "instance", "model", "approach",
    "success", "solved_without_mistake", "reached_goal", "reached_goal_without_stopping",
    "predicted_goal_erroneously", "unsuccessful_reason", "n_mistakes",
    "failure_kind", "failure_detail", "failure_step", "gold_class",
    "interaction_length", "plan_length", "gold_length", "factor_plan_length",
    "n_steps", "n_executed", "execution_success",
    "n_look_arounds", "n_look_arounds_after_mistakes",
    "goal_fraction", "state_goal_fraction", "relation_goal_fraction", "action_goal_fraction",
    "planning_lcs", "planning_jaccard", "error",
]  # fmt: skip
