"""Difficulty tiers, from what a question's gold computation needs, never from its wording.

Each template declares, on every candidate it proposes, the `Needs` of the computation that
answers it (the same computation its reference Cypher and its Python answer perform):

- `hops`: relationships along the longest chain it follows (0: attributes of named or filtered
  nodes; Room -> place -> Object is 2; "within k hops" is k; a shortest path is its length);
- `aggregate`: it counts or groups rows (a count, a dict of counts);
- `distance`: it computes Euclidean distances between positions (reading a coordinate, or
  comparing one coordinate, is not);
- `order`: it ranks rows or picks an extreme (an ordered list, the nearest, the highest);
- `steps`: further steps that work on another step's result, each named (`STEPS`): a negation,
  an outer join, the closure of "within k hops", a shortest-path search, a lookup whose result
  starts the next step, a goal built from a computed set, a comparison across rooms or groups.

The rule: one point for each of `aggregate`, `distance`, `order` and each step, plus the hops'
points (0 for at most one hop, 1 for two, 2 for three or more). Tier 1 has at most one point (a
single lookup, filter, count or ranking), tier 2 exactly two, tier 3 three or more. A question's
tier is written as the tag `tier:N`, last in its tags.
"""

from __future__ import annotations

from dataclasses import dataclass

TIERS: tuple[int, ...] = (1, 2, 3)

#: The composed steps a template may name, and what each adds to the computation.
STEPS: dict[str, str] = {
    "negation": "keeps the nodes a pattern does not match (no object, no room)",
    "outer_join": "keeps rows the pattern does not reach, with a default (0, 'none')",
    "closure": "collects every node within k hops, over paths of every length up to k",
    "shortest_path": "searches for a shortest path between two nodes",
    "lookup": "finds a node first (the mesh place holding an object) to start the next step",
    "goal": "builds a PDDL goal, one atom per member of a computed set",
    "compare": "compares values computed for several rooms or groups (the most, more than)",
}


@dataclass(frozen=True)
class Needs:
    """What a question's gold computation needs (see the module docstring)."""

    hops: int = 0
    aggregate: bool = False
    distance: bool = False
    order: bool = False
    steps: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = [s for s in self.steps if s not in STEPS]
        if unknown or self.hops < 0:
            raise ValueError(f"not a known need: hops {self.hops}, steps {unknown}")

    def points(self) -> int:
        hop_points = 0 if self.hops <= 1 else 1 if self.hops == 2 else 2
        return hop_points + self.aggregate + self.distance + self.order + len(self.steps)

    @property
    def tier(self) -> int:
        points = self.points()
        return 1 if points <= 1 else 2 if points == 2 else 3


def tier_tag(tier: int) -> str:
    """The tag that carries a question's tier."""
    return f"tier:{tier}"


def tier_of_tags(tags: tuple[str, ...] | list[str]) -> int | None:
    """The tier a question's tags carry (None for a set written before tiers)."""
    for tag in tags:
        if tag.startswith("tier:") and tag[5:].isdigit():
            return int(tag[5:])
    return None
