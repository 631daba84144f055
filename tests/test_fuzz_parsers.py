"""Fuzzing the parsers that read untrusted model output: whatever the text, each raises only
its own error type (scored as a failure), never anything that would crash a run.

CI runs a bounded number of examples; set FUZZ_EXAMPLES for a longer run, e.g.
`FUZZ_EXAMPLES=20000 pytest tests/test_fuzz_parsers.py`.
"""

from __future__ import annotations

import contextlib
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.graphstore.write_guard import write_violation
from dsgqa.pddl_goal import PDDLGoalError, parse_goal
from dsgqa.sldp import SLDPError, parse_sldp
from planeval.plan_text import parse_plan

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# Text built from each language's own characters and words, so examples reach deep into the
# grammars instead of failing at the first character, plus anything at all.
SLDP_PIECES = st.sampled_from(["<", ">", "[", "]", "{", "}", ":", ",", "POINT(", ")", " ", "1",
                               "-2.5", "1e308", "nan", '"a b"', "kitchen", "\\", "\udcff", "'"])
PDDL_PIECES = st.sampled_from(["(", ")", "and ", "or ", "not ", "imply ", "= ", "in ", "?x ",
                               "forall ", "R1 ", "O2 ", ";c\n", " ", "\x00", "exists "])
PLAN_PIECES = st.sampled_from(["(", ")", "move ", "a b", "\n", "```", "```pddl\n", "1. ",
                               "pick-up(a)", "I cannot help.", ";", "\t", "\udcff"])
CYPHER_PIECES = st.sampled_from(["MATCH ", "(n:Room)", "-[:ROOM_CONNECTED*]-", "RETURN ", "n",
                                 "CREATE ", "DELETE ", "CALL ", "COPY ", "{", "}", "'", "//",
                                 "/*", ";", "shortestPath(", ")", "point.distance(", ",", " ",
                                 "WITH ", "ORDER BY n.x ", "LIMIT 1 ", "collect(", "*"])


def _texts(pieces: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.lists(pieces, max_size=40).map("".join), st.text(max_size=200))


@FUZZ
@given(_texts(SLDP_PIECES))
def test_sldp_parser_raises_only_sldp_errors(text: str) -> None:
    with contextlib.suppress(SLDPError):
        parse_sldp(text)


@FUZZ
@given(_texts(PDDL_PIECES))
def test_pddl_goal_parser_raises_only_goal_errors(text: str) -> None:
    with contextlib.suppress(PDDLGoalError):
        parse_goal(text)


@FUZZ
@given(_texts(PLAN_PIECES))
def test_plan_text_parser_never_raises(text: str) -> None:
    parse_plan(text, actions={"move", "pick-up"})


@FUZZ
@given(_texts(CYPHER_PIECES))
def test_write_guard_answers_every_text_and_translation_never_unguards_it(text: str) -> None:
    refused = write_violation(text)
    assert refused is None or isinstance(refused, str)
    for target in ("kuzu", "ladybug"):  # Ladybug adds passes of its own
        try:
            translated = translate(text, target).query
        except (CypherSyntaxError, DialectError):
            return
        if refused is not None:
            assert write_violation(translated) is not None
