"""Stage 4 (the scorer): compare the answer with the solution.

SLDP questions use SLDP equality with partial credit; PDDL questions use exact goal equivalence
(equal Blake canonical forms) with clause precision/recall, under the scene's state constraints
(`dsgqa.pddl_goal_domain`: an object is in one room at a time). A malformed answer is a scored
failure (`valid_answer=False`) with the parser's message as the mismatch; a malformed *solution*
is the benchmark's own bug, so it raises.

Beside the strict verdict (the headline), an answer that is not right as given is read
leniently (`dsgqa.lenient_answer`: the SLDP value or goal inside prose) and scored again into
`answer_extracted` / `correct_lenient`. Not only malformed answers: SLDP reads bare words as a
string, so "The answer is coffee_table." parses, as a wrong string. A right answer's lenient
verdict is its strict one, so `correct_lenient` is never below `correct`.
"""

from __future__ import annotations

from dsgqa.lenient_answer import lenient_answer
from dsgqa.pddl_goal import PDDLGoalError, clause_scores, goals_equivalent, parse_goal
from dsgqa.pddl_goal_domain import constrained
from dsgqa.questions import Question
from dsgqa.records import AgentRun, RefinedAnswer, Verdict
from dsgqa.sldp import SLDPError, parse_sldp, sldp_score

SLDP_TOLERANCE = 0.01


def compare(question: Question, answer: RefinedAnswer | AgentRun) -> Verdict:
    strict = _compare(question, answer.answer)
    if strict.correct:
        return strict.model_copy(update={"correct_lenient": True})
    pddl = _is_pddl(question)
    extracted = lenient_answer(answer.answer, pddl) or lenient_answer(answer.raw_reply, pddl)
    if extracted is None or extracted == answer.answer.strip():
        return strict
    lenient = _compare(question, extracted)
    return strict.model_copy(update={"answer_extracted": extracted,
                                     "correct_lenient": lenient.correct})


def _is_pddl(question: Question) -> bool:
    return question.correctness_comparator.comparison_type == "PDDL"


def _compare(question: Question, answer: str) -> Verdict:
    if _is_pddl(question):
        return _compare_pddl(question, answer)
    return _compare_sldp(question, answer)


def _compare_sldp(question: Question, answer: str) -> Verdict:
    solution = parse_sldp(question.solution)
    try:
        given = parse_sldp(answer)
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


def _compare_pddl(question: Question, answer: str) -> Verdict:
    solution = parse_goal(question.solution)
    try:
        given, solution = constrained(parse_goal(answer), solution)
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
