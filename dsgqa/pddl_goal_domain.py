"""PDDL goals compared under the state constraints of Heracles' goal vocabulary.

Goal equivalence (`dsgqa.pddl_goal`) treats every atom as an independent proposition, but in the
scene an object is in one room at a time: `(object-in-room O1 R5)` already means
`(not (object-in-room O1 R1))`. A model asked to move every chair from R1 to R5 that writes the
move as `(and (object-in-room O1 R5) (not (object-in-room O1 R1)))` states the same goal as
`(object-in-room O1 R5)`, and is right. So two goals are compared as `A and C` against `B and C`,
where `C` says, for every object either goal places in two or more rooms, that it is in at most
one of them. Goals that name no object in two rooms are compared exactly as before.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from dsgqa.pddl_goal import And, Atom, Formula, Not, parse_goal
from planeval.formula import children

#: Predicates that hold for at most one value of their last argument per value of the others.
FUNCTIONAL = frozenset({"object-in-room"})


def state_constraints(*goals: Formula) -> list[Formula]:
    """`(not (and (p x a) (p x b)))` for every functional atom pair the goals mention."""
    places: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for goal in goals:
        for atom in _atoms(goal):
            if atom.predicate in FUNCTIONAL and atom.terms:
                places[(atom.predicate, *atom.terms[:-1])].add(atom.terms[-1])
    return [Not(And((Atom(key[0], (*key[1:], a)), Atom(key[0], (*key[1:], b)))))
            for key, values in sorted(places.items())
            for a, b in combinations(sorted(values), 2)]


def constrained(answer: Formula | str, solution: Formula | str) -> tuple[Formula, Formula]:
    """The two goals, each conjoined with the state constraints over both (unchanged when
    there are none)."""
    a = parse_goal(answer) if isinstance(answer, str) else answer
    b = parse_goal(solution) if isinstance(solution, str) else solution
    extra = state_constraints(a, b)
    if not extra:
        return a, b
    return And((a, *extra)), And((b, *extra))


def _atoms(formula: Formula) -> list[Atom]:
    if isinstance(formula, Atom):
        return [formula]
    return [atom for child in children(formula) for atom in _atoms(child)]
