"""Stage 4 (the scorer): compare the answer with the solution.

SLDP questions use SLDP equality with partial credit; PDDL questions use exact goal equivalence
(equal Blake canonical forms) with clause precision/recall. A malformed answer is a scored
failure (`valid_answer=False`) with the parser's message as the mismatch; a malformed *solution*
is the benchmark's own bug, so it raises.
"""

from __future__ import annotations

from dsgqa.pddl_goal import PDDLGoalError, clause_scores, goals_equivalent, parse_goal
from dsgqa.questions import Question
from dsgqa.records import AgentRun, RefinedAnswer, Verdict
from dsgqa.sldp import SLDPError, parse_sldp, sldp_score

SLDP_TOLERANCE = 0.01


def compare(question: Question, answer: RefinedAnswer | AgentRun) -> Verdict:
    if question.correctness_comparator.comparison_type == "PDDL":
        return _compare_pddl(question, answer)
    return _compare_sldp(question, answer)


def _compare_sldp(question: Question, answer: RefinedAnswer | AgentRun) -> Verdict:
    solution = parse_sldp(question.solution)
    try:
        given = parse_sldp(answer.answer)
    except SLDPError as error:
        return _malformed(question, f"answer is not SLDP: {error}")
    score = sldp_score(given, solution, tol=SLDP_TOLERANCE)
    return Verdict(
        uid=question.uid,
        valid_answer=True,
        correct=score.equal,
        precision=score.precision,
        recall=score.recall,
        f1=score.f1,
        mismatch="" if score.equal else score.reason,
    )


def _compare_pddl(question: Question, answer: RefinedAnswer | AgentRun) -> Verdict:
    solution = parse_goal(question.solution)
    try:
        given = parse_goal(answer.answer)
        equal = goals_equivalent(given, solution)
        score = clause_scores(given, solution)
    except PDDLGoalError as error:
        return _malformed(question, f"answer is not a usable PDDL goal: {error}")
    return Verdict(
        uid=question.uid,
        valid_answer=True,
        correct=equal,
        precision=score.precision,
        recall=score.recall,
        f1=score.f1,
        mismatch="" if equal else score.reason,
    )


def _malformed(question: Question, reason: str) -> Verdict:
    return Verdict(uid=question.uid, valid_answer=False, correct=False, mismatch=reason[:300])
