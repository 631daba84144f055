"""Where the external data sets live on this machine (the real Hydra graph, AutoPlanBench's
planning domains).

They are not in the repository (the Hydra graph is GPL-3.0, and both are large), so a public
clone has them only after `scripts/fetch-data.sh`. One lookup, used by the tests, the benchmark
scripts and the engine check, so every caller searches the same places in the same order:

1. `$NLP_DSG_DATA` (a folder holding `dsg/`, `planning/`, ...), when set;
2. `../shared/data` beside the project (the team's machines and CI);
3. `data/external/` inside the project (where the fetch command stores them).
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "NLP_DSG_DATA"
FETCH_COMMAND = "scripts/fetch-data.sh"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
FETCHED = PROJECT_ROOT / "data/external"

# The data sets by the paths callers use.
EXAMPLE_DSG = "dsg/example_dsg.json"
PLANNING = "planning"


def search_roots() -> list[Path]:
    """The folders searched, in order (the environment variable's only when it is set)."""
    named = os.environ.get(DATA_ENV)
    roots = [Path(named).expanduser()] if named else []
    return [*roots, PROJECT_ROOT.parent / "shared/data", FETCHED]


def find(relative: str) -> Path | None:
    """`relative` (a file or folder, e.g. `dsg/example_dsg.json`) in the first root that has
    it, or None."""
    return next((root / relative for root in search_roots() if (root / relative).exists()), None)


def path_or_fetched(relative: str) -> Path:
    """Where `relative` is, or where the fetch command would put it: a path to name in a
    constant at import time without failing when the data is absent."""
    return find(relative) or FETCHED / relative


def missing_message(relative: str) -> str:
    """One line: what is missing, where it was looked for, and the command that fetches it."""
    return (f"external data {relative} not found (${DATA_ENV}, ../shared/data, data/external); "
            f"run {FETCH_COMMAND}")
