"""The question phrasings the checker understands: one regular expression per phrasing, over the
question's whole text with its whitespace collapsed, so that the definition sentences a
question states are part of what must match (a question that defines "in a room" differently
is not recognised, rather than answered under the wrong definition).

A question may rely on definitions its set states once, in the set's `preamble:`; a phrasing
names the definition sentences it relies on (`needs`), and is recognised only when the preamble
states each of them word for word.

`register` is how a solver claims a phrasing; `recognise` finds the one phrasing a text has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tests.independent_check.graph import SceneGraph

# Pieces the phrasings share: names, and the sentences that state a definition or the answer's
# form. Each is matched literally (escaped), only the names vary.
ID = r"([A-Z][0-9]+)"
CLASS = r"'([^']+)'"
NUMBER = r"(-?[0-9]+(?:\.[0-9]+)?)"
RELATION = r"([A-Z_]+_CONNECTED)"
IN_ROOM = re.escape("An object is in a room when the room CONTAINS a place or mesh place that "
                    "CONTAINS the object.")
ADJACENT = re.escape("Two rooms are adjacent when a ROOM_CONNECTED relationship joins them.")
EUCLIDEAN = re.escape("Distances are Euclidean, between the nodes' `center` points, in metres.")
WITHIN = (r"A node is within k hops of another when a chain of at most k " + RELATION
          + r" relationships \(followed in either direction\) joins them; the node itself does"
          r" not count\.")
HOPS = (r"A path's hop count is its number of " + RELATION
        + r" relationships, followed in either direction\.")
EMPTY_NOTE = r"(?: ?\(an empty set if none\))?"
SET_OF_IDS = r"Answer with a set of nodeSymbols" + EMPTY_NOTE + r"\." + EMPTY_NOTE
LIST_OF_IDS = re.escape("Answer with a list of nodeSymbols.")
ONE_ID = re.escape("Answer with its nodeSymbol.")
A_POINT = re.escape("Answer with a POINT(x y z).")
PDDL_NAMES = re.escape("Use nodeSymbols as the PDDL objects.")

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
