"""Does the schema text a model sees let it answer every question of a set?

The schema text gives hints with numbers in them (hop limits, example bounds of variable-length
patterns). A model that follows a hint whose number is below what a question's gold computation
needs gets no rows and cannot answer, so a set and a schema text contradict each other when any
stated limit is below a question's need. This module reads both sides from text only: the limits
from the schema text, the needs from each question's reference Cypher and solution.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from dsgqa.graphstore.schema_description import HOP_LIMITS_HEADER
from dsgqa.questions import Question
from dsgqa.sldp import SLDPError, SLDPList, parse_sldp

#: A variable-length relationship pattern: `[:TYPE*]`, `[r:TYPE*1..3]`, `[:TYPE*..10]`.
_VAR_LENGTH = re.compile(r"\[\s*\w*\s*:\s*(\w+)\s*\*\s*(\d*)\s*(?:\.\.\s*(\d*))?\s*\]")
_LIMIT_LINE = re.compile(r"^- (\w+): (\d+)\s*$")
#: The placeholder the schema text uses for "any relationship type".
ANY_TYPE = "TYPE"


@dataclass(frozen=True)
class Contradiction:
    """A question that needs `needed` hops over `edge_type` where the text states `stated`."""

    uid: str
    edge_type: str
    needed: int
    stated: int

    def text(self) -> str:
        return (f"{self.uid}: needs {self.needed} {self.edge_type} hops, the schema text "
                f"bounds them at {self.stated}")


def stated_limits(schema_text: str) -> dict[str, int]:
    """The smallest bound the text states for each relationship type (`ANY_TYPE` for a bound
    stated for every type): the hop-limits section and every numeric upper bound of a
    variable-length pattern in the text (an example with `*..10` is a limit a model obeys)."""
    limits: dict[str, int] = {}

    def state(edge_type: str, bound: int) -> None:
        limits[edge_type] = min(bound, limits.get(edge_type, bound))

    in_section = False
    for line in schema_text.splitlines():
        if line == HOP_LIMITS_HEADER:
            in_section = True
            continue
        found = _LIMIT_LINE.match(line) if in_section else None
        if found:
            state(found[1], int(found[2]))
        else:
            in_section = False
        for edge_type, _, upper in _VAR_LENGTH.findall(line):
            if upper.isdigit():
                state(edge_type, int(upper))
    return limits


def needed_hops(question: Question) -> dict[str, int]:
    """Hops over each relationship type the question's gold computation follows: a bounded
    pattern needs its upper bound; an unbounded one (a shortest path) needs the hop count the
    solution states (a number, or a list of the nodes along the path)."""
    needs: dict[str, int] = {}
    for edge_type, _, upper in _VAR_LENGTH.findall(question.cypher or ""):
        need = int(upper) if upper.isdigit() else _solution_hops(question.solution)
        if need is not None:
            needs[edge_type] = max(need, needs.get(edge_type, 0))
    return needs


def contradictions(questions: Iterable[Question], schema_text: str) -> list[Contradiction]:
    """Every question whose need exceeds a limit the schema text states for its type."""
    limits = stated_limits(schema_text)
    found = []
    for question in questions:
        for edge_type, needed in sorted(needed_hops(question).items()):
            stated = min((limits[t] for t in (edge_type, ANY_TYPE) if t in limits), default=None)
            if stated is not None and stated < needed:
                found.append(Contradiction(question.uid, edge_type, needed, stated))
    return found


def _solution_hops(solution: str) -> int | None:
    try:
        value = parse_sldp(solution)
    except (SLDPError, ValueError):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, SLDPList):
        return max(len(value.items) - 1, 0)
    return None
