"""Run the checker over a question set: one verdict per question, and the tally per category.

Verdicts: `agree` (the checker's answer equals the gold one under the scorer), `disagree`,
`unparsed` (no phrasing recognises the text, or the text names a node the graph lacks), and
`ambiguous` (the text admits more than one answer; the reason says why)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

from dsgqa.pddl_goal import PDDLGoalError
from dsgqa.sldp import SLDPError
from tests.independent_check import solvers, solvers_named  # noqa: F401 - register phrasings
from tests.independent_check.answers import Ambiguous
from tests.independent_check.compare import same_answer
from tests.independent_check.graph import SceneGraph, UnknownNode, load
from tests.independent_check.phrasings import recognise, solve

VERDICTS = ("agree", "disagree", "unparsed", "ambiguous")


@dataclass(frozen=True)
class Verdict:
    uid: str
    category: str
    question: str
    gold: str
    verdict: str
    answer: str | None = None
    note: str = ""        # the phrasing, or why the question is ambiguous / unparsed


def check_question(graph: SceneGraph, question: dict, preamble: str = "") -> Verdict:
    text, gold = str(question["question"]), str(question["solution"]).strip()
    tags = question.get("tags") or ["?"]
    kind = (question.get("correctness_comparator") or {}).get("comparison_type", "SLDP")
    base = dict(uid=str(question["uid"]), category=str(tags[0]), question=" ".join(text.split()),
                gold=gold)
    found = recognise(text, preamble)
    if found is None:
        return Verdict(**base, verdict="unparsed", note="no phrasing matches")
    phrasing, groups = found
    try:
        answer = solve(phrasing, graph, groups)
    except UnknownNode as missing:
        return Verdict(**base, verdict="unparsed", note=str(missing.args[0]))
    except Ambiguous as open_question:
        agrees = open_question.answer is not None and same_answer(kind, open_question.answer, gold)
        shown = "the reading shown" if open_question.answer is not None else "no reading"
        note = f"{open_question.reason}; gold {'matches' if agrees else 'differs from'} {shown}"
        return Verdict(**base, verdict="ambiguous", answer=open_question.answer, note=note)
    if phrasing.kind != kind:
        return Verdict(**base, verdict="disagree", answer=answer,
                       note=f"the text asks for {phrasing.kind}, the gold is {kind}")
    try:
        verdict = "agree" if same_answer(kind, answer, gold) else "disagree"
    except (SLDPError, PDDLGoalError) as unreadable:
        return Verdict(**base, verdict="disagree", answer=answer,
                       note=f"the gold {kind} does not parse: {unreadable}")
    return Verdict(**base, verdict=verdict, answer=answer, note=phrasing.name)


def check_set(questions_path: str | Path, graph_path: str | Path) -> list[Verdict]:
    data = yaml.safe_load(Path(questions_path).read_text())
    graph = load(graph_path)
    preamble = str(data.get("preamble") or "")
    return [check_question(graph, q, preamble) for q in data["questions"]]


def tally(verdicts: list[Verdict]) -> dict[str, Counter[str]]:
    """Category -> verdict -> count, categories in the order they first appear."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        counts[v.category][v.verdict] += 1
    return dict(counts)
