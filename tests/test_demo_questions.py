"""The demo question set: every reference query answers its solution, and rows_to_sldp's rules."""

from __future__ import annotations

import pytest

from benchcore.names import EMBEDDED_BACKENDS
from dsgqa.graphstore import open_graph_store
from dsgqa.questions import load_question_set
from dsgqa.rows_to_sldp import rows_to_sldp
from dsgqa.scene_graph import load_scene_graph
from dsgqa.sldp import Point, SLDPDict, SLDPList, SLDPSet, parse_sldp, sldp_equals
from tests.test_scene_graph import DEMO, ROOT

QUESTIONS = load_question_set(ROOT / "questions/demo/apartment_questions.yaml").questions


@pytest.fixture(scope="module", params=EMBEDDED_BACKENDS)
def store(request, tmp_path_factory):
    store = open_graph_store(request.param, load_scene_graph(DEMO),
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


def test_set_is_big_and_broad_enough():
    assert len(QUESTIONS) >= 20
    tags = {tag for q in QUESTIONS for tag in q.tags}
    for tag in ("counting", "sets", "ordered_lists", "dicts", "position", "hierarchy",
                "adjacency", "paths", "empty"):
        assert tag in tags
    kinds = (SLDPList, SLDPSet, SLDPDict, Point, int, float, str)
    shapes = {kind for q in QUESTIONS for kind in kinds if isinstance(parse_sldp(q.solution), kind)}
    assert shapes == set(kinds)
    assert all(q.cypher and q.correctness_comparator.comparison_type == "SLDP"
               for q in QUESTIONS)


@pytest.mark.parametrize("question", QUESTIONS, ids=[q.uid for q in QUESTIONS])
def test_reference_query_returns_the_solution(store, question):
    result = store.query(question.cypher)
    assert result.valid, result.error
    assert not result.truncated
    answer = rows_to_sldp(result.columns, result.rows, like=question.solution)
    assert sldp_equals(answer, question.solution), f"{answer} != {question.solution}"


def test_a_subtly_wrong_query_is_scored_wrong(store):
    """Without DISTINCT the rug (two parents) is counted twice: the check must notice."""
    (question,) = [q for q in QUESTIONS if q.name == "distinct_objects_ground_floor"]
    wrong = question.cypher.replace("count(DISTINCT o)", "count(o)")
    result = store.query(wrong)
    assert not sldp_equals(rows_to_sldp(result.columns, result.rows, like=question.solution),
                           question.solution)


@pytest.mark.parametrize(
    ("columns", "rows", "like", "expected"),
    [
        (["n"], [[8]], "3", "8"),
        (["n"], [["living room"], ["kitchen"]], "<a>", '<"living room", kitchen>'),
        (["n"], [["kitchen"], ["living room"]], "<a>", '<"living room", kitchen>'),
        (["n"], [["b"], ["a"]], "[a]", "[b, a]"),
        (["n"], [["b"], ["a"]], None, "<a, b>"),
        (["x", "y", "z"], [[0.5, 1.0, 0.9]], "POINT(0 0 0)", "POINT(0.5 1.0 0.9)"),
        (["c"], [[{"x": 1.0, "y": 2.0, "z": 3.0}]], None, "POINT(1.0 2.0 3.0)"),
        (["k", "v"], [["office", 1], ["kitchen", 2]], "{a: 1}", "{kitchen: 2, office: 1}"),
        (["k", "v"], [["kitchen", 2], ["kitchen", 1]], "{a: 1}", "<[kitchen, 1], [kitchen, 2]>"),
        (["k", "v"], [["kitchen", 2]], None, "<[kitchen, 2]>"),
        (["a", "b"], [[1, 9]], "[1, 2]", "[1, 9]"),
        (["a", "b"], [[1, 9]], "[[1, 2]]", "[[1, 9]]"),
        (["c"], [], "[a]", "[]"),
        (["c"], [], "{a: 1}", "{}"),
        (["c"], [], "3", "<>"),
        (["c"], [[None]], "[a]", "[]"),
        (["c"], [[None]], "3", "null"),
        (["c"], [[["a", "b"]]], "[a]", "[a, b]"),
        (["c"], [[["b", "a"]]], "<a>", "<a, b>"),
        (["c"], [["kitchen"]], "<a>", "<kitchen>"),
        (["n"], [[{"_label": "Object", "nodeSymbol": "O1", "class": "chair"}]], "<O1>", "<O1>"),
        (["p"], [[{"_nodes": [{"_label": "Room", "nodeSymbol": "R1"},
                              {"_label": "Room", "nodeSymbol": "R5"}], "_rels": []}]],
         "[a]", "[R1, R5]"),
        (["c"], [["x"]], "not (valid sldp", "x"),
    ],
)
def test_rows_to_sldp_rules(columns, rows, like, expected):
    assert rows_to_sldp(columns, rows, like=like) == expected
