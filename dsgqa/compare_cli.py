"""``nlp-dsg-benchmark answers compare A B [--pddl]``: judge one answer against one solution by
hand.

A is the answer and B the solution (the order matters for precision and recall). Prints
``equal`` or ``not equal``, then the scores and the reason. Exit status: 0 equal, 1 not equal,
2 malformed input (one line on stderr naming the side, never a traceback).
"""

from __future__ import annotations

import sys

from benchcore.terminal_text import printable
from dsgqa.pddl_goal import PDDLGoalError, clause_scores, parse_goal
from dsgqa.sldp import Score, SLDPError, parse_sldp, sldp_score

EXIT_EQUAL, EXIT_NOT_EQUAL, EXIT_MALFORMED = 0, 1, 2


def _check_side(text: str, side: str, pddl: bool) -> None:
    """Parse one side alone so the error message can say which side is broken (the parse is
    memoized, so scoring the text afterwards does not parse it again)."""
    try:
        parse_goal(text) if pddl else parse_sldp(text)
    except (SLDPError, PDDLGoalError) as exc:
        language = "PDDL goal" if pddl else "SLDP"
        raise ValueError(f"{side} is not valid {language}: {exc}") from None


def _report(score: Score) -> str:
    return "\n".join(
        [
            "equal" if score.equal else "not equal",
            f"precision: {score.precision:.3f}",
            f"recall:    {score.recall:.3f}",
            f"f1:        {score.f1:.3f}",
            f"reason:    {score.reason}",
        ]
    )


def compare_command(a: str, b: str, pddl: bool = False, tol: float = 0.01) -> int:
    """Compare answer ``a`` with solution ``b``, print the verdict, return the exit status."""
    try:
        _check_side(a, "answer (A)", pddl)
        _check_side(b, "solution (B)", pddl)
        score = clause_scores(a, b) if pddl else sldp_score(a, b, tol)
    except ValueError as exc:  # SLDPError, PDDLGoalError (goal too large), bad tolerance
        print(f"error: {printable(str(exc))}", file=sys.stderr)
        return EXIT_MALFORMED
    print(printable(_report(score), keep_newlines=True))
    return EXIT_EQUAL if score.equal else EXIT_NOT_EQUAL
