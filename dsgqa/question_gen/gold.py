"""The Cypher side of the gold answers: the reference query, run as a model's query runs.

The query goes through the run-query stage (write guard, Neo4j -> Kuzu translation, time limit,
row cap) on the embedded engine; its rows become an answer shaped like the Python answer
(`rows_to_sldp`, or `rows_to_pddl` for goals), and the two are compared the way the benchmark
scores answers (SLDP equality at its tolerance, or PDDL goal equivalence). Nothing here looks
at the scene graph itself: that is the Python side's job (`view.py` and the templates).
"""

from __future__ import annotations

from dataclasses import dataclass

from dsgqa.graphstore import GraphStore
from dsgqa.pddl_goal import PDDLGoalError, goals_equivalent, parse_goal
from dsgqa.question_gen.candidate import Candidate
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.rows_to_sldp import rows_to_sldp
from dsgqa.sldp import SLDPError, sldp_equals
from dsgqa.stages.compare import SLDP_TOLERANCE
from dsgqa.stages.run_query import run_query

#: Far above any answer a template allows, so a truncated result means a wrong query.
MAX_ROWS = 2000
QUERY_TIMEOUT_S = 30.0

# Why a candidate is dropped; the report counts each.
DROP_NEAR_TIE = "near_tie"
DROP_QUERY_ERROR = "query_error"
DROP_TRUNCATED = "truncated"
DROP_DISAGREE = "disagree"
DROP_DUPLICATE = "duplicate"      # its fact is already asked (`Candidate.fact_key`)
DROP_DEGENERATE = "degenerate"    # a trivial answer beyond the category's cap (`degenerate.py`)
DROP_REASONS = (DROP_NEAR_TIE, DROP_QUERY_ERROR, DROP_TRUNCATED, DROP_DISAGREE, DROP_DUPLICATE,
                DROP_DEGENERATE)


@dataclass(frozen=True)
class Check:
    """The verdict on one candidate: `reason` is '' when kept, else one of `DROP_REASONS`."""

    reason: str
    detail: str = ""
    cypher_answer: str = ""

    @property
    def kept(self) -> bool:
        return not self.reason


def check(store: GraphStore, candidate: Candidate) -> Check:
    """Keep the candidate only when its two gold answers agree and nothing sits near it."""
    if candidate.near_tie:
        return Check(DROP_NEAR_TIE, candidate.near_tie)
    solution = candidate.solution()
    attempt = CypherAttempt(uid=candidate.name, model="gold", cypher=candidate.cypher,
                            raw_reply=candidate.cypher, usage=LLMUsage())
    outcome = run_query(store, attempt, timeout_s=QUERY_TIMEOUT_S, max_rows=MAX_ROWS)
    if not outcome.valid:
        return Check(DROP_QUERY_ERROR, f"{outcome.query_error_kind}: {outcome.error}")
    if outcome.truncated:
        return Check(DROP_TRUNCATED, f"more than {MAX_ROWS} rows")
    if candidate.is_pddl:
        answer = rows_to_pddl(outcome.rows, like=solution)
        same = _goals_agree(answer, solution)
    else:
        answer = rows_to_sldp(outcome.columns, outcome.rows, like=solution)
        same = _sldp_agree(answer, solution)
    if not same:
        return Check(DROP_DISAGREE, f"python {solution} != cypher {answer}", answer)
    return Check("", cypher_answer=answer)


def _sldp_agree(a: str, b: str) -> bool:
    try:
        return sldp_equals(a, b, tol=SLDP_TOLERANCE)
    except SLDPError:
        return False


def _goals_agree(a: str, b: str) -> bool:
    try:
        return goals_equivalent(parse_goal(a), parse_goal(b))
    except PDDLGoalError:
        return False
