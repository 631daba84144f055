"""The names a run is organised by, defined once: stages (task names, cache folders, the CLI's
`--stage`/`--refresh` choices, `refresh:` in a run config) and graph backends, with the
default one."""

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
    GENERATE_CODE = "generate-code"
    RUN_CODE = "run-code"
    RESULTS_TABLE = "results-table"
    GENERATE_PLAN = "generate-plan"
    PLANNER_PLAN = "planner-plan"
    EVALUATE_PLANS = "evaluate-plans"


QA_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_CYPHER, Stage.RUN_QUERY, Stage.REFINE, Stage.AGENT, Stage.IN_CONTEXT,
    Stage.GENERATE_CODE, Stage.RUN_CODE, Stage.COMPARE, Stage.RESULTS_TABLE,
)
PLANNING_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_PLAN, Stage.PLANNER_PLAN, Stage.EVALUATE_PLANS,
)
# Stages whose per-item results are kept in the item cache, so `--refresh` can recompute them.
CACHED_STAGES: tuple[Stage, ...] = (
    Stage.GENERATE_CYPHER, Stage.RUN_QUERY, Stage.REFINE, Stage.AGENT, Stage.IN_CONTEXT,
    Stage.GENERATE_CODE, Stage.RUN_CODE,
    Stage.GENERATE_PLAN, Stage.PLANNER_PLAN,
)

Backend = Literal["kuzu", "ladybug", "neo4j"]
BACKENDS: tuple[str, ...] = get_args(Backend)
# Backends that run from a database folder (same engine API, Kuzu's Cypher dialect), each in
# child processes of its own: the two engines must never share a process.
EMBEDDED_BACKENDS: tuple[str, ...] = ("ladybug", "kuzu")
# The default everywhere a backend is chosen (run config, CLI, check-engine, question
# generation, engine modules, benchmarks). Ladybug, because Kuzu 0.11.3 (archived, no more
# releases) answers some queries wrongly without an error: a field of a NULL struct read after an
# OPTIONAL MATCH that found nothing gives another row's value, and a SHORTEST path with a node
# filter finds no path where one exists. Ladybug 0.22.0, its maintained fork, gets both right.
DEFAULT_EMBEDDED_BACKEND: Backend = "ladybug"
