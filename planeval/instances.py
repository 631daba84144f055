"""Instance analysis: how big each problem is (objects, initial state, goal, gold plan length).

Useful for reading results: success usually falls with plan length and object count.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from planeval.dataset import PlanningData
from planeval.goals import goal_literals
from planeval.grounding import Task
from planeval.plan_text import parse_plan

INSTANCE_COLUMNS = [
    "domain", "instance", "n_objects", "n_constants", "n_init_facts", "n_goal_facts",
    "gold_plan_length",
]  # fmt: skip


def analyze_instances(data_dir: str | Path) -> pd.DataFrame:
    """One row per problem instance of every domain under `data_dir`."""
    data = PlanningData(data_dir)
    rows = []
    for domain_name in data.domain_names():
        domain = data.domain(domain_name)
        for instance in data.instance_names(domain_name):
            problem = data.problem(domain_name, instance)
            gold = data.gold_plan(domain_name, instance)
            rows.append(
                {
                    "domain": domain_name,
                    "instance": instance,
                    "n_objects": len(problem.objects),
                    "n_constants": len(domain.constants),
                    "n_init_facts": len(problem.init),
                    "n_goal_facts": len(goal_literals(Task.of(problem))),
                    "gold_plan_length": None if gold is None else len(parse_plan(gold).steps),
                }
            )
    return pd.DataFrame(rows, columns=INSTANCE_COLUMNS)


def summarize_instances(instances: pd.DataFrame) -> pd.DataFrame:
    """Per domain: number of instances and mean/min/max of each size column."""
    numeric = ["n_objects", "n_init_facts", "n_goal_facts", "gold_plan_length"]
    grouped = instances.groupby("domain", sort=True)
    summary = grouped[numeric].agg(["mean", "min", "max"])
    summary.columns = [f"{column}_{stat}" for column, stat in summary.columns]
    summary.insert(0, "n_instances", grouped.size())
    return summary.reset_index()
