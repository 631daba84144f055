"""The schema text never makes a generated question unanswerable: every bound it states is at
least what each question's gold computation needs, on the shipped set, on generated sets, and
when a model follows the hint literally on the embedded engine."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings

from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.graphstore import open_graph_store
from dsgqa.graphstore.hop_limits import hop_limit, hop_limits, longest_shortest_paths
from dsgqa.question_gen.generate import generate
from dsgqa.question_gen.schema_limits import contradictions, needed_hops, stated_limits
from dsgqa.questions import Question, load_question_set
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.rows_to_sldp import rows_to_sldp
from dsgqa.scene_graph import load_scene_graph
from dsgqa.sldp import sldp_equals
from dsgqa.stages.run_query import run_query
from tests import external
from tests.question_gen_graphs import scene_graphs
from tests.test_scene_graph import DEMO, ROOT

EXAMPLE = external.path(external.EXAMPLE_DSG)
SHIPPED = ROOT / "questions/generated/example_dsg_questions.yaml"


@pytest.fixture(scope="module")
def example_store(tmp_path_factory):
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(EXAMPLE),
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


def question(uid: str, cypher: str, solution: str) -> Question:
    return Question.model_validate({"uid": uid, "question": "?", "solution": solution,
                                    "cypher": cypher, "correctness_comparator": {
                                        "comparison_type": "SLDP", "relation": "equal"}})


@external.needs(external.EXAMPLE_DSG)
def test_shipped_set_needs_no_more_hops_than_the_schema_text_allows(example_store):
    questions = load_question_set(SHIPPED).questions
    text = example_store.schema_description()
    assert not [c.text() for c in contradictions(questions, text)]
    # The check has something to check: the set asks for long mesh-place paths.
    assert max(n for q in questions for n in needed_hops(q).values()) > 10


@external.needs(external.EXAMPLE_DSG)
def test_following_the_hint_literally_answers_every_path_question(example_store):
    """A model that bounds its shortest path by the stated hop limit gets the gold answer."""
    text = example_store.schema_description()
    limits = stated_limits(text)
    paths = [q for q in load_question_set(SHIPPED).questions if "shortestPath" in (q.cypher or "")]
    assert paths
    for q in paths:
        bounded = re.sub(r"\[:(\w+)\*\]", lambda m: f"[:{m[1]}*..{limits[m[1]]}]", q.cypher)
        assert bounded != q.cypher
        attempt = CypherAttempt(uid=q.uid, model="hint", cypher=bounded, raw_reply=bounded,
                                usage=LLMUsage())
        outcome = run_query(example_store, attempt)
        assert outcome.valid, (q.uid, outcome.error)
        got = rows_to_sldp(outcome.columns, outcome.rows, like=q.solution)
        assert sldp_equals(got, q.solution), (q.uid, got, q.solution)


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(graph=scene_graphs())
def test_generated_sets_agree_with_their_schema_text(graph, tmp_path):
    db_root = tmp_path / graph.fingerprint()[:12]
    generated = generate(graph, seed=2, per_category=6, db_root=db_root,
                         categories=("adjacency", "paths"))
    with open_graph_store(DEFAULT_EMBEDDED_BACKEND, graph, db_root=db_root) as store:
        text = store.schema_description()
    questions = [Question.model_validate(r) for r in generated.questions]
    assert not [c.text() for c in contradictions(questions, text)]


def test_demo_set_agrees_with_its_schema_text(tmp_path):
    demo = load_scene_graph(DEMO)
    generated = generate(demo, seed=0, per_category=10, db_root=tmp_path)
    with open_graph_store(DEFAULT_EMBEDDED_BACKEND, demo, db_root=tmp_path) as store:
        text = store.schema_description()
    questions = [Question.model_validate(r) for r in generated.questions]
    assert not [c.text() for c in contradictions(questions, text)]


def test_a_fixed_bound_below_a_gold_hop_count_is_a_contradiction():
    text = ("Notes:\n- Shortest paths: shortestPath((a)-[:TYPE*..10]-(b)).\n"
            "- Always bound variable-length patterns, e.g. -[:CONTAINS*1..3]->.\n")
    assert stated_limits(text) == {"TYPE": 10, "CONTAINS": 3}
    long_path = question("p1", "MATCH p = shortestPath((a:MeshPlace {nodeSymbol: 'P1'})"
                         "-[:MESH_PLACE_CONNECTED*]-(b:MeshPlace {nodeSymbol: 'P9'})) "
                         "RETURN length(p) AS hops", "11")
    route = question("p2", "MATCH p = shortestPath((a)-[:ROOM_CONNECTED*]-(b)) "
                     "RETURN [n IN nodes(p) | n.nodeSymbol]", "[R1, R2, R3]")
    within = question("p3", "MATCH (a)-[:CONTAINS*1..4]->(b) RETURN b", "<O1>")
    assert needed_hops(route) == {"ROOM_CONNECTED": 2}
    found = [(c.uid, c.edge_type, c.needed, c.stated) for c in
             contradictions([long_path, route, within], text)]
    assert found == [("p1", "MESH_PLACE_CONNECTED", 11, 10), ("p3", "CONTAINS", 4, 3)]


def test_the_hop_limits_section_is_read():
    text = ("Hop limits (no shortest path over one relationship type takes more hops in this "
            "graph):\n- MESH_PLACE_CONNECTED: 24\n- ROOM_CONNECTED: 5\n\nNotes:\n- x: 3\n")
    assert stated_limits(text) == {"MESH_PLACE_CONNECTED": 24, "ROOM_CONNECTED": 5}


def test_hop_limits_cover_the_longest_shortest_path_both_ways():
    chain = [("ROOM_CONNECTED", f"R{i}", f"R{i + 1}") for i in range(12)]
    chain += [(t, b, a) for t, a, b in chain]
    # A directed CONTAINS cycle of 4 nodes: 2 hops apart undirected, 3 along the direction.
    cycle = [("CONTAINS", "A", "B"), ("CONTAINS", "B", "C"), ("CONTAINS", "C", "D"),
             ("CONTAINS", "D", "A")]
    assert longest_shortest_paths(chain + cycle) == {"CONTAINS": 3, "ROOM_CONNECTED": 12}
    assert hop_limits(chain + cycle) == {"CONTAINS": 5, "ROOM_CONNECTED": 15}
    assert hop_limit(40, engine_max=30) == 30 and hop_limit(0) == 2


@external.needs(external.EXAMPLE_DSG)
def test_the_schema_text_states_hop_limits_from_the_graph(example_store):
    text = example_store.schema_description()
    assert "*..10" not in text and "*1..3" not in text
    limits = stated_limits(text)
    # The example's longest mesh-place shortest path is 19 hops, its room one 3.
    assert limits == {"CONTAINS": limits["CONTAINS"], "MESH_PLACE_CONNECTED": 24,
                      "ROOM_CONNECTED": 5}


def test_large_graphs_get_a_bound_never_below_the_diameter(monkeypatch):
    import dsgqa.graphstore.hop_limits as module

    grid = []
    for i in range(8):
        for j in range(8):
            for b in ([f"P{i + 1}_{j}"] if i < 7 else []) + ([f"P{i}_{j + 1}"] if j < 7 else []):
                grid += [("MESH_PLACE_CONNECTED", f"P{i}_{j}", b),
                         ("MESH_PLACE_CONNECTED", b, f"P{i}_{j}")]
    tree = [("CONTAINS", "R1", f"P{i}") for i in range(5)]
    tree += [("CONTAINS", f"P{i}", f"O{i}") for i in range(5)] + [("CONTAINS", "P0", "O1")]
    exact = longest_shortest_paths(grid + tree)
    assert exact == {"CONTAINS": 4, "MESH_PLACE_CONNECTED": 14}
    monkeypatch.setattr(module, "EXACT_NODES", 3)
    bound = longest_shortest_paths(grid + tree)
    assert all(exact[t] <= bound[t] <= 2 * exact[t] for t in exact)
