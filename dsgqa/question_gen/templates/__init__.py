"""Question templates, one module per category.

Each module has `CATEGORY` and `candidates(view, rng)`: every question it can phrase about the
graph (parameters sampled with `rng` where there are too many), each with its reference Cypher,
its Python answer and what that computation needs (`difficulty.Needs`, which gives its tier).
Which of them end up in a set is `generate.py`'s business.
"""

from __future__ import annotations

from types import ModuleType

from dsgqa.question_gen.templates import (
    adjacency,
    composition,
    counting,
    hierarchy,
    ordered_lists,
    paths,
    pddl_goals,
    position,
    references,
    sets_dicts,
)

#: Categories in the order sets list them.
MODULES: tuple[ModuleType, ...] = (counting, hierarchy, adjacency, position, sets_dicts,
                                   ordered_lists, paths, references, composition, pddl_goals)
CATEGORIES: tuple[str, ...] = tuple(m.CATEGORY for m in MODULES)
