"""The question phrasings the checker understands: one regular expression per phrasing, over the
question's whole text with its whitespace collapsed.

A question relies on definitions its set states once, in the set's `preamble:` ("An object is
in a room when ...", what a hop is, how distance is measured); a phrasing names the definition
sentences it relies on (`needs`), and is recognised only when the preamble states each of them
word for word (a set that defines "in a room" differently is not recognised, rather than
answered under the wrong definition).

`register` is how a solver claims a phrasing; `recognise` finds the one phrasing a text has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tests.independent_check.graph import SceneGraph

# Pieces the phrasings share: names, and the sentences that state the answer's form. Each is
# matched literally (escaped), only the names vary.
ID = r"([A-Z][0-9]+)"
CLASS = r"'([^']+)'"
NUMBER = r"(-?[0-9]+(?:\.[0-9]+)?)"
EMPTY_NOTE = r"(?: ?\(an empty set if none\))?"
SET_OF_IDS = r"Answer with a set of nodeSymbols" + EMPTY_NOTE + r"\." + EMPTY_NOTE
LIST_OF_IDS = re.escape("Answer with a list of nodeSymbols.")
ONE_ID = re.escape("Answer with its nodeSymbol.")
A_POINT = re.escape("Answer with a POINT(x y z).")
PDDL_NAMES = re.escape("Use nodeSymbols as the PDDL objects.")

# The definitions a question relies on, as its set's preamble must state them word for word
# (a phrasing's `needs`).
IN_ROOM = ("An object is in a room when the room CONTAINS a place or mesh place that CONTAINS "
           "the object.")
IN_BUILDING = "An object is in a building when the building CONTAINS a room the object is in."
ADJACENT = "Two rooms are adjacent when a ROOM_CONNECTED relationship joins them."
MESH_CONNECTED = ("Two mesh places are connected when a MESH_PLACE_CONNECTED relationship joins "
                  "them.")
PLACE_CONNECTED = "Two places are connected when a PLACE_CONNECTED relationship joins them."
ROOM_HOPS = ("Between rooms, a path follows ROOM_CONNECTED relationships in either direction; "
             "its hop count is their number, and a room is within k hops of another when a path "
             "of at most k hops joins them (a room is never within k hops of itself).")
MESH_HOPS = ("Between mesh places, a path follows MESH_PLACE_CONNECTED relationships in either "
             "direction; its hop count is their number, and a mesh place is within k hops of "
             "another when a path of at most k hops joins them (a mesh place is never within k "
             "hops of itself).")
EUCLIDEAN = "Distances are Euclidean, between the nodes' `center` points, in metres."

Solver = Callable[..., str]


@dataclass(frozen=True)
class Phrasing:
    name: str
    pattern: re.Pattern[str]
    kind: str          # "SLDP" or "PDDL": the form of the answer the text asks for
    solve: Solver      # (graph, *the pattern's groups) -> answer text
    needs: tuple[str, ...] = ()   # definition sentences the set's preamble must state


PHRASINGS: list[Phrasing] = []


def register(pattern: str, kind: str = "SLDP",
             needs: tuple[str, ...] = ()) -> Callable[[Solver], Solver]:
    """Decorator: the solver answers questions whose whole text matches `pattern` (sentences
    joined by single spaces), in a set whose preamble states each of `needs`."""

    def claim(solve: Solver) -> Solver:
        compiled = re.compile(pattern)
        PHRASINGS.append(Phrasing(solve.__name__, compiled, kind, solve,
                                  tuple(normalise(n) for n in needs)))
        return solve

    return claim


def normalise(text: str) -> str:
    return " ".join(text.split())


def recognise(text: str, preamble: str = "") -> tuple[Phrasing, tuple[str, ...]] | None:
    """The phrasing whose pattern matches all of `text` and whose definitions `preamble`
    states, with its groups; None when no phrasing does. Two phrasings matching one text would
    be the checker's own bug."""
    text, preamble = normalise(text), normalise(preamble)
    found = [(p, m.groups()) for p in PHRASINGS
             if (m := p.pattern.fullmatch(text)) and all(n in preamble for n in p.needs)]
    if len(found) > 1:
        raise RuntimeError(f"phrasings {[p.name for p, _ in found]} all match {text!r}")
    return found[0] if found else None


def solve(phrasing: Phrasing, graph: SceneGraph, groups: tuple[str, ...]) -> str:
    return phrasing.solve(graph, *groups)
