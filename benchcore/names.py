"""The names a run is organised by, defined once: stages (task names, cache folders, the CLI's
`--stage`/`--refresh` choices, `refresh:` in a run config) and graph backends."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, get_args


class Stage(StrEnum):
    """A stage of either track; its value is the Prefect task's name and its cache folder."""

    GENERATE_CYPHER = "generate-cypher"
    RUN_QUERY = "run-query"
    REFINE = "refine"
    COMPARE = "compare"
    AGENT = "agent"
    IN_CONTEXT = "in-context"
    RESULTS_TABLE = "results-table"
    GENERATE_PLAN = "generate-plan"
    PLANNER_PLAN = "planner-plan"
    EVALUATE_PLANS = "evaluate-plans"


QA_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_CYPHER, Stage.RUN_QUERY, Stage.REFINE, Stage.AGENT, Stage.IN_CONTEXT,
    Stage.COMPARE, Stage.RESULTS_TABLE,
)
PLANNING_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_PLAN, Stage.PLANNER_PLAN, Stage.EVALUATE_PLANS,
)
# Stages whose per-item results are kept in the item cache, so `--refresh` can recompute them.
CACHED_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_CYPHER, Stage.RUN_QUERY, Stage.REFINE, Stage.AGENT, Stage.IN_CONTEXT,
    Stage.GENERATE_PLAN, Stage.PLANNER_PLAN,
)

Backend = Literal["kuzu", "ladybug", "neo4j"]
BACKENDS: tuple[str, ...] = get_args(Backend)
# Backends that run in-process from a database folder (same engine API, Kuzu's Cypher dialect).
EMBEDDED_BACKENDS: tuple[str, ...] = ("kuzu", "ladybug")
