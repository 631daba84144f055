"""The question generator: both gold computations agree on random graphs and on the example
Hydra graph, the oracle scores 100% on what it writes, and the same seed gives the same set."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from benchcore.llm.base import ModelConfig
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.graphstore import open_graph_store
from dsgqa.oracle import OracleClient
from dsgqa.question_gen.candidate import Candidate, Goal
from dsgqa.question_gen.generate import generate, write_question_set
from dsgqa.question_gen.gold import DROP_DISAGREE, DROP_NEAR_TIE, check
from dsgqa.question_gen.templates import CATEGORIES, MODULES
from dsgqa.question_gen.view import GraphView
from dsgqa.questions import Question, load_question_set
from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.scene_graph import SceneGraph, load_scene_graph
from dsgqa.stages.compare import compare
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query
from nlp_dsg_benchmark.cli import main
from tests import external
from tests.question_gen_graphs import scene_graphs
from tests.test_scene_graph import DEMO, ROOT

EXAMPLE = external.path(external.EXAMPLE_DSG)
SHIPPED = ROOT / "questions/generated/example_dsg_questions.yaml"


def oracle_verdicts(store, questions: list[Question]) -> list[tuple[Question, object]]:
    """Each question through the benchmark's stages with the oracle model, and its verdict."""
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"),
                          {q.uid: q for q in questions})
    verdicts = []
    for question in questions:
        attempt = generate_cypher(question, oracle, schema="")
        outcome = run_query(store, attempt)
        verdicts.append((question, compare(question, refine(question, outcome, oracle))))
    return verdicts


def as_questions(records: list[dict], preamble: str = "") -> list[Question]:
    """The records as the loader reads them (the set's preamble copied into each)."""
    extra = {"preamble": preamble} if preamble else {}
    return [Question.model_validate({**r, **extra}) for r in records]


@pytest.fixture(scope="module")
def example() -> SceneGraph:
    return load_scene_graph(EXAMPLE)


@pytest.fixture(scope="module")
def example_store(example, tmp_path_factory):
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, example,
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


@external.needs(external.EXAMPLE_DSG)
def test_shipped_set_is_big_balanced_and_labelled(example):
    shipped = load_question_set(SHIPPED).questions
    assert len(shipped) >= 200
    assert {q.tags[0] for q in shipped} == set(CATEGORIES)
    header = SHIPPED.read_text()
    assert f"fingerprint: {example.fingerprint()}" in header
    assert all(q.cypher for q in shipped)
    assert any(q.correctness_comparator.comparison_type == "PDDL" for q in shipped)


@external.needs(external.EXAMPLE_DSG)
def test_shipped_set_scores_100_percent_with_the_oracle_on_kuzu(example_store):
    verdicts = oracle_verdicts(example_store, list(load_question_set(SHIPPED).questions))
    wrong = [(q.uid, v.mismatch) for q, v in verdicts if not v.correct]
    assert not wrong


@external.needs(external.EXAMPLE_DSG)
def test_shipped_set_is_what_seed_0_generates(example, tmp_path):
    generated = generate(example, seed=0, per_category=30, db_root=tmp_path / "db")
    shipped = load_question_set(SHIPPED).questions
    assert generated.preamble and all(q.preamble == generated.preamble for q in shipped)
    assert as_questions(generated.questions, generated.preamble) == list(shipped)
    # The header and the generator block too (tier counts, baseline scores), but for where
    # the scene graph was read from.
    source = yaml.safe_load(SHIPPED.read_text())["scene_graph"]["source"]
    text = write_question_set(generated, tmp_path / "set.yaml").read_text()
    assert text.replace(example.source, source) == SHIPPED.read_text()


def test_same_seed_same_set_other_seed_other_set(tmp_path):
    demo = load_scene_graph(DEMO)
    first = generate(demo, seed=3, per_category=5, db_root=tmp_path)
    again = generate(demo, seed=3, per_category=5, db_root=tmp_path)
    other = generate(demo, seed=4, per_category=5, db_root=tmp_path)
    assert first.questions == again.questions
    assert first.questions != other.questions
    assert first.report.kept == {c: 5 for c in CATEGORIES}
    # Byte for byte, header included (one pair of generations serves both checks).
    assert write_question_set(first, tmp_path / "a.yaml").read_bytes() == \
        write_question_set(again, tmp_path / "b.yaml").read_bytes()


@external.needs(external.EXAMPLE_DSG)
def test_a_wrong_reference_query_is_dropped_as_a_disagreement(example_store):
    candidate = Candidate("counting", "count_by_room", "objects_in_R1", "How many objects?",
                          "MATCH (:Room {nodeSymbol: 'R1'})-[:CONTAINS]->()-[:CONTAINS]->"
                          "(o:Object) RETURN count(o)", 27)  # count(o) counts O in 2 places twice
    assert check(example_store, candidate).reason == DROP_DISAGREE
    right = candidate.__class__(**{**candidate.__dict__,
                                   "cypher": candidate.cypher.replace("(o)", "(DISTINCT o)")})
    assert check(example_store, right).kept


@external.needs(external.EXAMPLE_DSG)
def test_a_near_tie_is_dropped_without_asking_the_database(example_store):
    candidate = Candidate("position", "nearest", "n", "Which?", "not even cypher", "O1",
                          near_tie="the two nearest differ by only 0.0010")
    assert check(example_store, candidate).reason == DROP_NEAR_TIE


@external.needs(external.EXAMPLE_DSG)
def test_a_pddl_goal_is_checked_by_equivalence(example_store):
    goal = Goal("or", (("holding", "O43"),))
    candidate = Candidate("pddl", "grab", "bike", "Grab the bicycle.",
                          "MATCH (o:Object {class: 'bicycle'}) RETURN o.nodeSymbol", goal)
    assert check(example_store, candidate).kept
    wrong = Goal("or", (("holding", "O42"),))
    assert check(example_store, Candidate(**{**candidate.__dict__, "answer": wrong})).reason \
        == DROP_DISAGREE


@pytest.mark.parametrize(
    ("rows", "like", "expected"),
    [
        ([["O1"], ["O2"]], "(or (holding O9) (holding O8))", "(or (holding O1) (holding O2))"),
        ([["O1", "R2"]], "(and (object-in-room O3 R1) (object-in-room O4 R1))",
         "(object-in-room O1 R2)"),
        ([[["R1", "R3"]]], "(and (visited-room R9) (visited-room R8))",
         "(and (visited-room R1) (visited-room R3))"),
        ([["safe", "O1"], ["holding", "O2"]], "(and (safe O3) (holding O4))",
         "(and (holding O2) (safe O1))"),
        ([], "(and (safe O1) (safe O2))", "(and)"),
    ],
)
def test_rows_to_pddl(rows, like, expected):
    assert rows_to_pddl(rows, like=like) == expected


def test_cli_writes_a_set_the_benchmark_loads(tmp_path, capsys):
    out = tmp_path / "set.yaml"
    code = main(["questions", "generate", "--scene-graph", str(DEMO), "--out", str(out),
                 "--per-category", "2", "--db-root", str(tmp_path / "db")])
    assert code == 0
    assert len(load_question_set(out).questions) == 2 * len(CATEGORIES)
    printed = capsys.readouterr().out
    assert "dropped:" in printed and "questions in" in printed


def test_cli_refuses_an_unknown_category_in_one_line(tmp_path, capsys):
    code = main(["questions", "generate", "--scene-graph", str(DEMO), "--out",
                 str(tmp_path / "x.yaml"), "--category", "poetry"])
    assert code == 2
    assert "unknown categories poetry" in capsys.readouterr().err


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(graph=scene_graphs())
def test_random_graphs_both_gold_answers_agree_and_the_oracle_scores_100(graph, tmp_path):
    db_root = tmp_path / graph.fingerprint()[:12]
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, graph, db_root=db_root)
    try:
        view = GraphView.of(graph)
        for module in MODULES:
            for candidate in module.candidates(view, Random(1)):
                verdict = check(store, candidate)
                assert verdict.reason in ("", DROP_NEAR_TIE), (
                    f"{candidate.name}: {verdict.reason} {verdict.detail}\n{candidate.cypher}")
        generated = generate(graph, seed=1, per_category=3, db_root=db_root)
        verdicts = oracle_verdicts(store, as_questions(generated.questions))
    finally:
        store.close()
    assert all(v.correct for _, v in verdicts), [(q.uid, v.mismatch) for q, v in verdicts
                                                 if not v.correct]


def test_generated_yaml_round_trips(tmp_path):
    demo = load_scene_graph(DEMO)
    generated = generate(demo, seed=0, per_category=2, db_root=tmp_path)
    path = write_question_set(generated, Path(tmp_path / "set.yaml"))
    loaded = list(load_question_set(path).questions)
    assert as_questions(generated.questions, generated.preamble) == loaded
