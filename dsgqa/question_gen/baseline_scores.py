"""How the trivial baselines score on a generated set, overall and per tier, beside the oracle.

A set that separates strong models from weak ones gives little away to guessing. Each baseline
(`dsgqa.baseline_answers`) answers every question through the feed-forward pipeline's stages
with its model client (generate-cypher, run-query on the set's own graph, refine) and the
benchmark's scorer (`stages.compare`) judges the answer, so the numbers are the ones a run with
`--provider baseline` gets. The oracle's row is the reference query's answer that the gold check
already computed, judged by the same scorer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchcore.llm.base import ModelConfig
from dsgqa.baseline_answers import BASELINES
from dsgqa.baseline_model import BaselineClient
from dsgqa.graphstore import GraphStore
from dsgqa.question_gen.difficulty import TIERS, tier_of_tags
from dsgqa.questions import Question
from dsgqa.records import LLMUsage, QueryOutcome, RefinedAnswer
from dsgqa.stages.compare import compare
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query

ORACLE = "oracle"


@dataclass(frozen=True)
class ModelScore:
    """Right answers of one model, per tier, out of the set's questions per tier."""

    model: str
    right: Mapping[int, int]
    asked: Mapping[int, int]

    def counts(self, tier: int | None = None) -> tuple[int, int]:
        """(right, asked) in one tier, or over the whole set."""
        if tier is None:
            return sum(self.right.values()), sum(self.asked.values())
        return self.right.get(tier, 0), self.asked.get(tier, 0)

    def share(self, tier: int | None = None) -> float:
        right, asked = self.counts(tier)
        return right / asked if asked else 0.0


def baseline_scores(store: GraphStore, questions: Sequence[Question],
                    oracle_answers: Mapping[str, str]) -> list[ModelScore]:
    """The oracle's score (from `oracle_answers`, uid -> answer) and each baseline's."""
    asked = _per_tier({q.uid: True for q in questions}, questions)
    scores = [ModelScore(ORACLE, _per_tier(_oracle_right(questions, oracle_answers), questions),
                         asked)]
    for name in BASELINES:
        scores.append(ModelScore(name, _per_tier(_baseline_right(store, questions, name),
                                                 questions), asked))
    return scores


def _baseline_right(store: GraphStore, questions: Sequence[Question],
                    name: str) -> dict[str, bool]:
    client = BaselineClient(ModelConfig(name=name, provider="baseline"),
                            {q.uid: q for q in questions})
    outcomes: dict[str, QueryOutcome] = {}   # a baseline writes one query text at most
    right = {}
    for question in questions:
        attempt = generate_cypher(question, client, schema="")
        if attempt.cypher not in outcomes:
            outcomes[attempt.cypher] = run_query(store, attempt)
        outcome = outcomes[attempt.cypher].model_copy(update={"uid": question.uid})
        right[question.uid] = compare(question, refine(question, outcome, client)).correct
    return right


def _oracle_right(questions: Sequence[Question], answers: Mapping[str, str]) -> dict[str, bool]:
    return {q.uid: compare(q, RefinedAnswer(uid=q.uid, answer=answers.get(q.uid, ""),
                                            raw_reply=answers.get(q.uid, ""),
                                            usage=LLMUsage())).correct
            for q in questions}


def _per_tier(right: Mapping[str, bool], questions: Sequence[Question]) -> dict[int, int]:
    counts = dict.fromkeys(TIERS, 0)
    for question in questions:
        tier = tier_of_tags(question.tags)
        if tier is not None and right.get(question.uid):
            counts[tier] += 1
    return counts
