"""PDDL answers are scored under the scene's state constraints: an object is in one room at a
time, so a move goal that also says where the object no longer is states the same goal."""

from __future__ import annotations

import pytest

from dsgqa.questions import Comparator, Question
from dsgqa.records import LLMUsage, RefinedAnswer
from dsgqa.stages.compare import compare

MOVE = "(and (object-in-room O1 R5) (object-in-room O2 R5))"


def _verdict(solution: str, answer: str):
    question = Question(uid="q", question="Move them.", solution=solution,
                        correctness_comparator=Comparator(comparison_type="PDDL"))
    return compare(question, RefinedAnswer(uid="q", answer=answer, raw_reply=answer,
                                           usage=LLMUsage()))


@pytest.mark.parametrize("answer", [
    MOVE,
    "(and (object-in-room O1 R5) (not (object-in-room O1 R1)) (object-in-room O2 R5)"
    " (not (object-in-room O2 R1)))",
    "(and (object-in-room O2 R5) (object-in-room O1 R5) (not (object-in-room O2 R3)))",
])
def test_saying_where_a_moved_object_no_longer_is_changes_nothing(answer):
    verdict = _verdict(MOVE, answer)
    assert verdict.correct and verdict.f1 == 1.0, verdict


@pytest.mark.parametrize("answer", [
    "(object-in-room O1 R5)",                                          # O2 left out
    "(and (object-in-room O1 R5) (object-in-room O2 R1))",             # O2 to the wrong room
    "(and (object-in-room O1 R5) (object-in-room O2 R5) (not (object-in-room O2 R5)))",
    "(and (object-in-room O1 R5) (object-in-room O2 R5) (not (holding O1)))",  # another fact
])
def test_a_different_move_is_still_wrong(answer):
    assert not _verdict(MOVE, answer).correct


def test_goals_without_an_object_in_two_rooms_compare_as_before():
    assert not _verdict("(safe O1)", "(and (safe O1) (not (safe O2)))").correct
    assert _verdict("(or (holding O1) (holding O2))", "(or (holding O2) (holding O1))").correct
