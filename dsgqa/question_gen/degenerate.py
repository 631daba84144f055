"""Degenerate answers: 0, an empty set, or every node of a kind but at most one.

Such an answer is right for a model that found nothing, or that returned everything, so a set
full of them measures little; `generate.py` keeps only a few per category. Lists are never
degenerate here: "list all rooms by x" is about the order, not the members.
"""

from __future__ import annotations

from typing import Any

from dsgqa.question_gen.candidate import Candidate, Goal
from dsgqa.question_gen.view import GraphView

#: Share of a category's questions that may have a degenerate answer (at least one question).
DEGENERATE_SHARE = 0.05


def degenerate_cap(per_category: int) -> int:
    """How many degenerate answers a category of `per_category` questions may keep."""
    return max(1, int(DEGENERATE_SHARE * per_category))


def why_degenerate(candidate: Candidate, view: GraphView) -> str:
    """'' for an informative answer, else what makes it trivial."""
    if candidate.degenerate:
        return candidate.degenerate
    return _answer(candidate.answer, view)


def _answer(answer: Any, view: GraphView) -> str:
    if isinstance(answer, bool):
        return ""
    if isinstance(answer, int) and answer == 0:
        return "zero"
    if isinstance(answer, Goal):
        if not answer.atoms:
            return "empty goal"
        return _covers(view, answer.symbols())
    if isinstance(answer, set | frozenset | dict) and not answer:
        return "empty"
    if isinstance(answer, set | frozenset):
        return _covers(view, answer)
    return ""


def _covers(view: GraphView, members: set[Any] | frozenset[Any]) -> str:
    """'every other <label>' when the members hold all nodes of one label but at most one."""
    by_label: dict[str, int] = {}
    for member in members:
        node = view.nodes.get(member) if isinstance(member, str) else None
        if node is not None:
            by_label[node.label] = by_label.get(node.label, 0) + 1
    for label, n in sorted(by_label.items()):
        if n >= 2 and n >= len(view.label(label)) - 1:
            return f"every other {label}"
    return ""
