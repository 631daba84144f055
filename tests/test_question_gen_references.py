"""Natural references and composition: a description is asked only where it picks out one node,
ties are skipped, names that are not plain words are never used, the set's preamble states
exactly the definitions its questions use, and the PDDL rows with `not` and `any` become the
goals the templates mean. Small synthetic graphs, built here, make each case happen on purpose;
the shipped set's agreement with the independent checker is `test_independent_check.py`'s."""

from __future__ import annotations

from itertools import pairwise
from random import Random

import pytest
import yaml

from dsgqa.question_gen.candidate import Goal
from dsgqa.question_gen.definitions import DEFINITIONS, preamble
from dsgqa.question_gen.generate import generate, write_question_set
from dsgqa.question_gen.templates import composition, pddl_described, references
from dsgqa.question_gen.templates._common import plural
from dsgqa.question_gen.view import GraphView
from dsgqa.questions import load_question_set
from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.scene_graph import SceneEdge, SceneGraph, SceneNode
from tests import external
from tests.independent_check.check import check_set


def scene(objects: list[tuple[str, str, tuple[float, float, float], str]],
          rooms: dict[str, str]) -> SceneGraph:
    """Rooms (symbol -> class), each with one mesh place P<n> holding the objects listed for it:
    (symbol, class, center, room)."""
    nodes = [SceneNode(r, "Room", c, r, (float(i), 0.0, 0.0)) for i, (r, c) in
             enumerate(sorted(rooms.items()))]
    nodes += [SceneNode("P" + r[1:], "MeshPlace", "floor", "", (float(i), 0.0, 0.0))
              for i, r in enumerate(sorted(rooms))]
    edges = [SceneEdge(r, "P" + r[1:], "CONTAINS") for r in rooms]
    for symbol, cls, center, room in objects:
        nodes.append(SceneNode(symbol, "Object", cls, "", center, center, (1.0, 1.0, 0.5)))
        edges.append(SceneEdge("P" + room[1:], symbol, "CONTAINS"))
    edges += [SceneEdge(a, b, "ROOM_CONNECTED") for a, b in pairwise(sorted(rooms))]
    return SceneGraph(tuple(nodes), tuple(edges), source="synthetic")


ROOMS = {"R1": "lounge", "R2": "hallway", "R3": "hallway"}


def names(module, graph: SceneGraph, template: str) -> dict[str, object]:
    """The candidates of one template: name -> (answer, near_tie)."""
    return {c.name: (c.answer, c.near_tie) for c in module.candidates(GraphView.of(graph),
                                                                      Random(0))
            if c.template == template}


def test_the_nearest_of_a_class_is_asked_only_when_it_is_clear():
    clear = scene([("O1", "bicycle", (0, 0, 0), "R1"), ("O2", "box", (1, 0, 0), "R1"),
                   ("O3", "box", (5, 0, 0), "R2")], ROOMS)
    assert names(references, clear, "nearest_described")["box_nearest_the_bicycle"] == ("O2", "")
    tied = scene([("O1", "bicycle", (0, 0, 0), "R1"), ("O2", "box", (1, 0, 0), "R1"),
                  ("O3", "box", (0, 1.02, 0), "R2")], ROOMS)
    _, why = names(references, tied, "nearest_described")["box_nearest_the_bicycle"]
    assert "differ by only" in why          # dropped by the check, never asked
    # With two bicycles, "the bicycle" names nothing: no description starts from it.
    two = scene([("O1", "bicycle", (0, 0, 0), "R1"), ("O4", "bicycle", (9, 0, 0), "R2"),
                 ("O2", "box", (1, 0, 0), "R1"), ("O3", "box", (5, 0, 0), "R2")], ROOMS)
    assert not [n for n in names(references, two, "nearest_described") if "bicycle" in n]


def test_the_room_is_named_by_class_only_when_it_is_the_only_one_of_its_class():
    graph = scene([("O1", "sign", (0, 0, 0), "R1"), ("O2", "sign", (1, 0, 0), "R2"),
                   ("O3", "sign", (2, 0, 0), "R3")], ROOMS)
    view = GraphView.of(graph)
    texts = [c.question for c in references.candidates(view, Random(0))]
    assert "How many sign objects are in the lounge?" in texts
    assert "How many sign objects are in the hallways altogether?" in texts
    assert not [t for t in texts if "in the hallway?" in t]


def test_the_room_holding_the_most_is_skipped_on_a_tie():
    tied = scene([("O1", "sign", (0, 0, 0), "R2"), ("O2", "sign", (1, 0, 0), "R3"),
                  ("O3", "box", (2, 0, 0), "R3")], ROOMS)
    most = names(composition, tied, "most_of_class")
    assert "hallway_hallway_with_most_sign" not in most
    assert most["hallway_hallway_with_most_box"] == ("R3", "")


def test_class_names_that_are_not_plain_words_are_not_used_as_words():
    graph = scene([("O1", 'box "A"', (0, 0, 0), "R1"), ("O2", 'box "A"', (1, 0, 0), "R2"),
                   ("O3", "bicycle", (2, 0, 0), "R1")], {"R1": "lounge", "R2": "hall's"})
    view = GraphView.of(graph)
    for module in (references, composition, pddl_described):
        for candidate in module.candidates(view, Random(0)):
            assert '"' not in candidate.question and "hall's" not in candidate.question


@pytest.mark.parametrize(("word", "plural_form"), [
    ("hallway", "hallways"), ("box", "boxes"), ("library", "libraries"), ("bus", "buses"),
    ("dining room", "dining rooms")])
def test_room_plurals(word, plural_form):
    assert plural(word) == plural_form


def test_the_preamble_states_the_definitions_used_once_and_in_order():
    assert preamble([]) == ""
    text = preamble(["bbox", "in_room", "bbox"])
    assert text == f"{DEFINITIONS['in_room']} {DEFINITIONS['bbox']}"
    with pytest.raises(ValueError, match="no definition"):
        preamble(["guesswork"])


@pytest.mark.parametrize(("rows", "like", "expected"), [
    ([["holding", "O5", ""], ["not", "visited-room", "R1"]],
     "(and (holding O9) (not (visited-room R9)))", "(and (holding O5) (not (visited-room R1)))"),
    ([["safe", "O1", ""], ["any", "holding", "O2"], ["any", "holding", "O3"]],
     "(and (safe O9) (or (holding O8) (holding O7)))",
     "(and (or (holding O2) (holding O3)) (safe O1))"),
    ([["safe", "O1", None], ["not", "safe", "O2"]], "(and (safe O9) (not (safe O8)))",
     "(and (not (safe O2)) (safe O1))"),
])
def test_rows_with_not_and_any_become_nested_goals(rows, like, expected):
    assert rows_to_pddl(rows, like) == expected


def test_a_goal_with_a_negation_and_a_nested_or_prints_as_pddl():
    goal = Goal("and", (("safe", "O1"), ("not", ("visited-room", "R1")),
                        Goal("or", (("holding", "O3"), ("holding", "O2")))))
    assert goal.text() == ("(and (not (visited-room R1)) (or (holding O2) (holding O3)) "
                           "(safe O1))")
    assert goal.symbols() == {"O1", "R1", "O2", "O3"}


@external.needs(external.EXAMPLE_DSG)
def test_the_new_categories_on_the_example_graph_agree_with_the_independent_checker(tmp_path):
    from dsgqa.scene_graph import load_scene_graph

    path = external.require(external.EXAMPLE_DSG)
    generated = generate(load_scene_graph(path), seed=7, per_category=15,
                         categories=["references", "composition", "pddl"],
                         db_root=tmp_path / "db")
    out = write_question_set(generated, tmp_path / "set.yaml")
    loaded = load_question_set(out).questions
    assert {q.tags[0] for q in loaded} == {"references", "composition", "pddl"}
    assert all(q.preamble == yaml.safe_load(out.read_text())["preamble"] for q in loaded)
    verdicts = check_set(out, path)
    assert [(v.uid, v.verdict, v.note) for v in verdicts if v.verdict != "agree"] == []


def test_places_and_buildings_are_asked_about_where_the_graph_has_them(tmp_path):
    from dsgqa.scene_graph import load_scene_graph
    from tests.test_scene_graph import DEMO

    generated = generate(load_scene_graph(DEMO), seed=0, per_category=60,
                         categories=["hierarchy", "adjacency"], db_root=tmp_path / "db")
    out = write_question_set(generated, tmp_path / "set.yaml")
    templates = {q.tags[1] for q in load_question_set(out).questions}
    assert {"place_neighbours", "rooms_of_building", "count_in_building"} <= templates
    verdicts = check_set(out, DEMO)
    assert [(v.uid, v.verdict, v.note) for v in verdicts if v.verdict != "agree"] == []


def test_every_question_leaves_its_definitions_to_the_preamble():
    """No question repeats a definition sentence; each declares the ones it relies on, so that
    the independent checker recognises it with a preamble of its own definitions alone (another
    question's definitions never make up for a missing one)."""
    from dsgqa.question_gen.templates import MODULES
    from dsgqa.scene_graph import load_scene_graph
    from tests.independent_check.phrasings import recognise
    from tests.test_scene_graph import DEMO

    view = GraphView.of(load_scene_graph(DEMO))
    candidates = [c for m in MODULES for c in m.candidates(view, Random(0))]
    assert {c.template for c in candidates} >= {"count_in_building", "place_neighbours",
                                                "mesh_places_within_k", "room_route"}
    for c in candidates:
        assert not [k for k, text in DEFINITIONS.items() if text in c.question], c.question
        assert recognise(c.question, preamble(c.defines)) is not None, (c.defines, c.question)


def test_the_preamble_names_no_class_of_any_graph():
    """The naming definitions speak of a class C, D: a set for any graph may state them."""
    import re

    assert not re.findall(r"'[a-z][a-z ]*'", preamble(DEFINITIONS))
