"""Plan generation over batches of instances, with per-item cache keys over the real inputs
(instance texts, model fingerprint, generation settings, prompt/approach code)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchcore import extract
from benchcore.batch import Outcome, one_line_error, run_items
from benchcore.item_cache import ItemCache, item_key, source_version
from benchcore.llm.base import LLMClient
from benchcore.names import Stage
from benchcore.run_config import GenerationSettings, PlanningConfig
from planeval import describe, diagnosis, goals, grounding, parser, plan_text, search, simulation
from planeval.evaluation import NON_INCREMENTAL, SCHEMA
from plangen import approaches, describe_nl, prompts
from plangen.approaches import PLANNER_EXPERIMENT, PLANNER_MODEL, PlanningTask
from plangen.loading import load_planning_tasks, task_fingerprint

# Generation depends on planeval too: its verdicts end backprompting, its texts are the feedback.
_CODE = source_version(approaches, prompts, describe_nl, extract, plan_text, diagnosis, describe,
                       simulation, grounding, parser)
# The planner baseline's plans come from the search and its heuristic: editing either (e.g. the
# order successors are tried in) must not serve plans the old code found.
_PLANNER_CODE = _CODE + source_version(search, goals)
_TASKS: dict[str, list[PlanningTask]] = {}
_TASKS_LOCK = threading.Lock()


def shared_planning_tasks(config: PlanningConfig) -> list[PlanningTask]:
    """Parsed once per process: several batch tasks (one per model) use the same instances."""
    slot = config.model_dump_json()
    with _TASKS_LOCK:
        if slot not in _TASKS:
            _TASKS[slot] = load_planning_tasks(config)
        return _TASKS[slot]


@dataclass(frozen=True)
class BatchOwner:
    """Whom one batch task plans for: the model, approach and experiment its records carry.

    An item left without a record (its whole batch failed, its computation raised, a stop
    came before it) is known only by its uid; this is what its row needs besides, so the
    item is kept as an errored row of its model instead of dropping out of the tables."""

    model: str
    approach: str
    experiment: str

    def record_of(self, outcome: Outcome[dict[str, Any]]) -> dict[str, Any]:
        """The outcome's record, or for an outcome without one an unanswered record (no
        reply, the outcome's error) in the generation-log format `planeval.evaluation` reads."""
        if outcome.ok and outcome.value is not None:
            return outcome.value
        domain, instance = split_key(outcome.uid)
        return {
            "schema": SCHEMA, "experiment": self.experiment, "domain": domain,
            "instance": instance, "model": self.model, "approach": self.approach,
            "attempts": [], "events": [], "messages": [], "meta": {},
            "error": outcome.error or "no record",
        }


def model_owner(config: PlanningConfig, model_label: str) -> BatchOwner:
    """A model's generate-plan batch: the experiment `generate_plans_batch` is given."""
    return BatchOwner(model_label, config.approach, config.experiment_name(model_label))


def planner_owner() -> BatchOwner:
    """The planner baseline's batch (`approaches.planner_baseline`'s records)."""
    return BatchOwner(PLANNER_MODEL, NON_INCREMENTAL, PLANNER_EXPERIMENT)


def split_key(key: str) -> tuple[str, str]:
    """(domain, instance) of a `PlanningTask.key` (`domain/instance`): a domain is one folder
    name, so the first '/' ends it."""
    domain, _, instance = key.partition("/")
    return domain, instance


def _fresh(record: dict[str, Any]) -> int:
    return int(record.get("meta", {}).get("fresh_llm_calls", 0))


def generate_plans_batch(
    tasks: Sequence[PlanningTask], client: LLMClient, settings: GenerationSettings,
    experiment: str, cache: ItemCache | None, refresh: bool = False,
) -> list[Outcome[dict[str, Any]]]:
    version = (client.config.fingerprint(), settings.model_dump(), experiment, _CODE)

    def generate(task: PlanningTask) -> dict[str, Any]:
        try:
            if settings.approach == "incremental":
                return approaches.incremental(task, client, experiment, settings.domain_format,
                                              settings.max_steps)
            return approaches.non_incremental(task, client, experiment, settings.domain_format,
                                              settings.max_attempts)
        except Exception as error:  # the instance is an error, not an unsolved plan
            return approaches.failed_record(task, client.config.label, settings.approach,
                                            experiment, one_line_error(error))

    return run_items(
        Stage.GENERATE_PLAN, tasks, uid_of=lambda t: t.key,
        key_of=lambda t: item_key(Stage.GENERATE_PLAN, task_fingerprint(t), *version),
        compute=generate, cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=_fresh, keep=lambda record: not record.get("error"), one_core=True,
    )


def planner_limits(config: PlanningConfig) -> search.Limits:
    """The planner's per-instance bounds from the run config."""
    return search.Limits(config.planner_node_limit, config.planner_time_limit_s,
                         config.planner_memory_limit_mb)


def _settled(record: dict[str, Any]) -> bool:
    """A search stopped by the clock might finish on a less busy machine: used in this run,
    never cached (as a query that timed out under load)."""
    return record.get("planner", {}).get("limit") != "time"


def planner_batch(
    tasks: Sequence[PlanningTask], limits: search.Limits, cache: ItemCache | None,
    refresh: bool = False,
) -> list[Outcome[dict[str, Any]]]:
    bounds = (limits.nodes, limits.seconds, limits.memory_mb)
    return run_items(
        Stage.PLANNER_PLAN, tasks, uid_of=lambda t: t.key,
        key_of=lambda t: item_key(Stage.PLANNER_PLAN, task_fingerprint(t), *bounds,
                                  _PLANNER_CODE),
        compute=lambda t: approaches.planner_baseline(t, approaches.PLANNER_EXPERIMENT, limits),
        cache=cache, workers=2, refresh=refresh, keep=_settled,
    )
