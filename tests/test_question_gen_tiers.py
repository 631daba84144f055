"""Difficulty tiers and trivial baselines: every template declares what its gold computation
needs, the tier follows from that by one rule, categories take their tiers in turn, and on the
shipped set every baseline scores low, overall and per tier, through the benchmark's stages."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
import yaml

from benchcore.llm.base import ModelConfig
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.baseline_answers import BASELINES
from dsgqa.baseline_model import BaselineClient
from dsgqa.graphstore import open_graph_store
from dsgqa.question_gen.balance import Passed, balanced
from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.difficulty import TIERS, Needs, tier_of_tags, tier_tag
from dsgqa.question_gen.templates import MODULES
from dsgqa.question_gen.view import GraphView
from dsgqa.questions import Question, load_question_set
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages.compare import compare
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query
from tests import external
from tests.test_question_gen_facts import candidates_by_text
from tests.test_scene_graph import DEMO, ROOT

EXAMPLE = external.path(external.EXAMPLE_DSG)
SHIPPED = ROOT / "questions/generated/example_dsg_questions.yaml"
#: The most any trivial baseline may answer right on the shipped set, overall and in each tier.
#: Degenerate answers (0, empty) are capped at 5% of a category (one of its 30 questions), so
#: `zero` and `empty` can get at most 10 of 300 (3.3%) from them; 10% leaves room for a few
#: chance hits of `ids` or `common-class`, and fails once guessing solves one question in ten.
BASELINE_BOUND = 0.10


@pytest.mark.parametrize(("needs", "tier"), [
    (Needs(), 1),
    (Needs(hops=1, aggregate=True), 1),
    (Needs(hops=2), 1),
    (Needs(hops=2, aggregate=True), 2),
    (Needs(distance=True, order=True), 2),
    (Needs(steps=("shortest_path",), hops=2), 2),
    (Needs(hops=3, aggregate=True), 3),
    (Needs(hops=2, distance=True, order=True), 3),
    (Needs(hops=25, steps=("shortest_path",)), 3),
])
def test_the_tier_rule(needs: Needs, tier: int) -> None:
    assert needs.tier == tier


def test_an_unknown_step_is_refused() -> None:
    with pytest.raises(ValueError, match="steps"):
        Needs(steps=("guesswork",))
    assert tier_of_tags(("counting", "count_by_class", tier_tag(2))) == 2
    assert tier_of_tags(("counting", "tiered")) is None


def test_every_template_declares_what_its_candidates_need() -> None:
    view = GraphView.of(load_scene_graph(DEMO))
    tiers: Counter = Counter()
    for module in MODULES:
        for candidate in module.candidates(view, Random(0)):
            assert candidate.needs is not None, candidate.name
            tiers[candidate.tier] += 1
    assert set(tiers) == set(TIERS)


def passed(name: str, tier: int, fact: str = "", trivial: str = "") -> Passed:
    needs = {1: Needs(), 2: Needs(hops=2, aggregate=True), 3: Needs(hops=3, order=True)}[tier]
    return Passed(Candidate("c", "t", name, f"{name}?", "", 1, fact=(fact or name,),
                            needs=needs), trivial)


def test_tiers_take_turns_until_the_category_is_full() -> None:
    pool = ([passed(f"a{i}", 1) for i in range(10)] + [passed(f"b{i}", 2) for i in range(5)]
            + [passed(f"c{i}", 3) for i in range(2)])
    chosen = balanced(pool, quota=9, cap=1, asked=set()).chosen
    assert Counter(p.candidate.tier for p in chosen) == {1: 4, 2: 3, 3: 2}
    assert [p.candidate.name for p in chosen] == ["a0", "a1", "a2", "a3", "b0", "b1", "b2",
                                                  "c0", "c1"]   # in the order they passed


def test_choosing_keeps_one_question_a_fact_and_the_degenerate_cap() -> None:
    pool = [passed("a0", 1, "f"), passed("b0", 2, "f"), passed("a1", 1, trivial="zero"),
            passed("a2", 1, trivial="empty"), passed("a3", 1, "asked")]
    selection = balanced(pool, quota=5, cap=1, asked={("asked",)})
    assert [p.candidate.name for p in selection.chosen] == ["a0", "a1"]
    assert [p.candidate.name for p in selection.duplicates] == ["b0", "a3"]
    assert [p.candidate.name for p in selection.degenerate] == ["a2"]


@pytest.fixture(scope="module")
def shipped() -> list[Question]:
    return list(load_question_set(SHIPPED).questions)


@pytest.fixture(scope="module")
def generator() -> dict:
    return yaml.safe_load(SHIPPED.read_text())["generator"]


@external.needs(external.EXAMPLE_DSG)
def test_each_question_carries_the_tier_its_template_declared(shipped) -> None:
    proposed = candidates_by_text(GraphView.of(load_scene_graph(EXAMPLE)), seed=0)
    for q in shipped:
        assert q.tags[-1] == tier_tag(proposed[q.question].tier), q.uid


def test_shipped_set_fills_every_tier_each_category_can_have(shipped, generator) -> None:
    written = Counter((q.tags[0], tier_of_tags(q.tags)) for q in shipped)
    assert {c: {t: written[(c, t)] for t in TIERS} for c in generator["categories"]} \
        == generator["tiers"]
    empty = [(c, t) for c, by_tier in generator["tiers_passed"].items()
             for t, n in by_tier.items() if n and not written[(c, t)]]
    assert not empty, f"tiers that passed the check but have no question: {empty}"
    per_tier = Counter(tier_of_tags(q.tags) for q in shipped)
    assert min(per_tier.values()) >= len(shipped) / len(TIERS) / 2   # no tier starved


def baseline_right(store, questions: list[Question], name: str) -> Counter:
    """Right answers per tier: the baseline through the feed-forward stages and the scorer."""
    model = BaselineClient(ModelConfig(name=name, provider="baseline"),
                           {q.uid: q for q in questions})
    right: Counter = Counter()
    for q in questions:
        outcome = run_query(store, generate_cypher(q, model, schema=""))
        right[tier_of_tags(q.tags)] += compare(q, refine(q, outcome, model)).correct
    return right


@external.needs(external.EXAMPLE_DSG)
def test_every_baseline_scores_low_on_the_shipped_set(shipped, generator, tmp_path) -> None:
    asked = Counter(tier_of_tags(q.tags) for q in shipped)
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(EXAMPLE),
                             db_root=tmp_path)
    try:
        scores = {name: baseline_right(store, shipped, name) for name in BASELINES}
    finally:
        store.close()
    for name, right in scores.items():
        stated = generator["right_answers"][name]
        assert stated == {"all": right.total(), **{t: right[t] for t in TIERS}}, name
        assert right.total() <= BASELINE_BOUND * len(shipped), (name, right)
        for tier in TIERS:
            assert right[tier] <= BASELINE_BOUND * asked[tier], (name, tier, right)
    assert generator["right_answers"]["oracle"]["all"] == len(shipped)
