"""Turning a planning config into parsed, prompt-ready tasks (one per instance)."""

from __future__ import annotations

import hashlib

from benchcore import progress
from benchcore.run_config import PlanningConfig
from planeval import PlanningData
from planeval.pddl import Problem
from plangen.approaches import PlanningTask

LOAD_STAGE = "load-planning"


def load_planning_tasks(config: PlanningConfig) -> list[PlanningTask]:
    """Every selected instance, parsed once. The few-shot example for an instance is the first
    other instance of its domain that has a gold plan (never the instance itself)."""
    data = PlanningData(config.data_dir)
    tasks = []
    chosen = config.domains or data.domain_names()
    unknown = [d for d in chosen if d not in data.domain_names()]
    if unknown:
        raise ValueError(f"{config.data_dir}: no domain {unknown[0]!r} (domains: "
                         f"{', '.join(data.domain_names())})")
    for domain_name in chosen:
        domain = data.domain(domain_name)
        domain_dir = data.domain_dir(domain_name)
        domain_pddl = (domain_dir / "domain.pddl").read_text()
        names = data.instance_names(domain_name)[: config.max_instances_per_domain]
        progress.started(LOAD_STAGE, len(names))   # parsing 500 instances takes seconds
        for name in names:
            problem_pddl = (domain_dir / "adapted_instances" / f"{name}.pddl").read_text()
            example = _example(data, domain_name, names, name) if config.few_shot else None
            tasks.append(PlanningTask(
                domain_name=domain_name, instance=name, domain=domain, domain_pddl=domain_pddl,
                problem=data.problem(domain_name, name), problem_pddl=problem_pddl,
                gold_plan=data.gold_plan(domain_name, name), example=example,
            ))
            progress.advanced(LOAD_STAGE)
    return tasks


def _example(
    data: PlanningData, domain: str, names: list[str], current: str
) -> tuple[Problem, str, str] | None:
    for other in names:
        gold = data.gold_plan(domain, other)
        if other != current and gold:
            path = data.domain_dir(domain) / "adapted_instances" / f"{other}.pddl"
            return data.problem(domain, other), path.read_text(), gold
    return None


def task_fingerprint(task: PlanningTask) -> str:
    """What a generation depends on from the data side: the texts the prompts are made of."""
    digest = hashlib.sha256()
    for part in (task.key, task.domain_pddl, task.problem_pddl, task.gold_plan or ""):
        digest.update(part.encode())
    if task.example is not None:
        digest.update(task.example[1].encode() + task.example[2].encode())
    return digest.hexdigest()[:16]
