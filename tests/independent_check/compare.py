"""Checker answer vs gold solution, judged the way the benchmark's scorer judges a model: SLDP
equality with the scorer's absolute tolerance (`dsgqa.sldp`), or PDDL goal equivalence
(`dsgqa.pddl_goal`). The scorer is not the generator, so using it keeps the check independent
while making "agree" mean exactly "a model giving this answer would be scored right"."""

from __future__ import annotations

from dsgqa.pddl_goal import goals_equivalent, parse_goal
from dsgqa.sldp import parse_sldp, sldp_equals

# The scorer's tolerance (dsgqa.stages.compare.SLDP_TOLERANCE; the test pins the two together,
# without importing the stages here).
SLDP_TOLERANCE = 0.01


def same_answer(kind: str, answer: str, gold: str) -> bool:
    if kind == "PDDL":
        return goals_equivalent(parse_goal(answer), parse_goal(gold))
    return sldp_equals(parse_sldp(answer), parse_sldp(gold), tol=SLDP_TOLERANCE)
