"""What a template proposes: a phrased question, its reference Cypher and its Python answer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from dsgqa.question_gen.difficulty import Needs
from dsgqa.sldp import Point, SLDPDict, SLDPList, SLDPSet, format_sldp

#: Solutions are printed with this many decimals; SLDP's tolerance (0.01) is far coarser.
DIGITS = 4
#: Two ranked values closer than this are a near-tie: a model reading coordinates rounded to the
#: tolerance could rank them either way, so the question is dropped.
NEAR_TIE = 0.05

# Definitions the questions rely on; the set's preamble states those its questions use, once
# (`definitions.py`), so that every answer follows from the question and the preamble.
IN_ROOM = ("An object is in a room when the room CONTAINS a place or mesh place that CONTAINS "
           "the object.")
IN_BUILDING = "An object is in a building when the building CONTAINS a room the object is in."
ADJACENT_ROOMS = "Two rooms are adjacent when a ROOM_CONNECTED relationship joins them."
MESH_PLACES_CONNECTED = ("Two mesh places are connected when a MESH_PLACE_CONNECTED "
                         "relationship joins them.")
PLACES_CONNECTED = "Two places are connected when a PLACE_CONNECTED relationship joins them."
ROOM_HOPS = ("Between rooms, a path follows ROOM_CONNECTED relationships in either direction; "
             "its hop count is their number, and a room is within k hops of another when a "
             "path of at most k hops joins them (a room is never within k hops of itself).")
MESH_HOPS = ("Between mesh places, a path follows MESH_PLACE_CONNECTED relationships in either "
             "direction; its hop count is their number, and a mesh place is within k hops of "
             "another when a path of at most k hops joins them (a mesh place is never within k "
             "hops of itself).")
DISTANCE = "Distances are Euclidean, between the nodes' `center` points, in metres."
# An instruction about the answer's order, not a definition: it stays in the question.
BY_SYMBOL = "Break ties by nodeSymbol, ascending."


@dataclass(frozen=True)
class Goal:
    """A PDDL goal: one connective over its parts (a single part when there is one). A part is
    an atom (`("safe", "O1")`), a negated atom (`("not", ("visited-room", "R1"))`) or a nested
    `Goal` (an `or` inside an `and`)."""

    connective: str  # "and" | "or"
    atoms: tuple[Any, ...]

    def text(self) -> str:
        parts = sorted(_part_text(a) for a in self.atoms)
        if len(parts) == 1:
            return parts[0]
        return f"({self.connective} {' '.join(parts)})"

    def symbols(self) -> set[str]:
        """Every argument the goal names."""
        found: set[str] = set()
        for part in self.atoms:
            if isinstance(part, Goal):
                found |= part.symbols()
            elif part[0] == "not":
                found |= set(part[1][1:])
            else:
                found |= set(part[1:])
        return found


def _part_text(part: Any) -> str:
    if isinstance(part, Goal):
        return part.text()
    if part[0] == "not":
        return f"(not ({' '.join(part[1])}))"
    return f"({' '.join(part)})"


@dataclass(frozen=True)
class Candidate:
    """One question before the check; `answer` is plain Python data, a `Point` or a `Goal`.

    `near_tie` names why another answer sits within tolerance of this one ('' when clear).
    `fact` names what the question asks about, so that a set asks each fact once: a symmetric
    pair, a count and a listing of the same set, or one set asked as a PDDL goal share it
    (empty: the question text is the fact). `degenerate` says why the answer is a trivial one
    the template recognises ('' when not; `degenerate.py` finds the generic ones). `needs` is
    what its gold computation needs, which sets its difficulty tier (`difficulty.py`); every
    template declares it. `defines` names the definitions (`definitions.py`) the question uses
without stating them: the set's preamble states them once."""

    category: str
    template: str
    name: str
    question: str
    cypher: str
    answer: Any
    tags: tuple[str, ...] = ()
    near_tie: str = ""
    fact: tuple[str, ...] = ()
    degenerate: str = ""
    needs: Needs | None = None
    defines: tuple[str, ...] = ()

    @property
    def tier(self) -> int:
        """The difficulty tier its declared needs give."""
        if self.needs is None:
            raise ValueError(f"template {self.template} declares no needs for {self.name}")
        return self.needs.tier

    def fact_key(self) -> tuple[str, ...]:
        """The fact asked about; two questions with one key restate each other."""
        return self.fact or ("question", self.question)

    @property
    def is_pddl(self) -> bool:
        return isinstance(self.answer, Goal)

    def solution(self) -> str:
        """The solution text: a PDDL goal, or canonical SLDP with floats rounded."""
        if isinstance(self.answer, Goal):
            return self.answer.text()
        return format_sldp(canonical(self.answer))


def canonical(value: Any) -> Any:
    """SLDP value with floats rounded to `DIGITS`, set items and dict keys sorted by text."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"no answer is {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError("no answer is a non-finite number")
        rounded = round(value, DIGITS)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, int | str):
        return value
    if isinstance(value, Point):
        return Point(tuple(canonical(float(c)) for c in value.coords))
    if isinstance(value, list | tuple):
        return SLDPList(tuple(canonical(v) for v in value))
    if isinstance(value, set | frozenset):
        return SLDPSet(tuple(sorted((canonical(v) for v in value), key=format_sldp)))
    if isinstance(value, dict):
        pairs = ((canonical(k), canonical(v)) for k, v in value.items())
        return SLDPDict(tuple(sorted(pairs, key=lambda kv: format_sldp(kv[0]))))
    raise TypeError(f"not an answer value: {type(value).__name__}")


def point(vec: tuple[float, float, float]) -> Point:
    return Point(tuple(float(v) for v in vec))


def ranking_gap(scores: list[float]) -> float:
    """The smallest gap between two scores (inf for fewer than two)."""
    ordered = sorted(scores)
    return min((b - a for a, b in pairwise(ordered)), default=math.inf)


def near_tie(scores: list[float], what: str) -> str:
    """'' when every two scores differ by at least `NEAR_TIE`, else the reason."""
    gap = ranking_gap(scores)
    return f"{what} differ by only {gap:.4f}" if gap < NEAR_TIE else ""


def at_tolerance_edge(value: float, tol: float = 0.01) -> str:
    """'' unless the value rounded to one decimal lands within a hair of the tolerance, where
    float noise decides whether a model that rounded is judged right."""
    off = abs(value - round(value, 1))
    return f"{value:.4f} rounds to the tolerance edge" if abs(off - tol) < 1e-3 else ""


def near_zero(value: float, tol: float = 0.01) -> str:
    """'' unless the value is within ten tolerances of 0, where answering 0 would come close to
    being judged right (a 5-litre volume in cubic metres)."""
    return f"{value:.4f} is within {10 * tol} of 0" if abs(value) < 10 * tol else ""


def q(text: str) -> str:
    """A Cypher string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
