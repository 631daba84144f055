"""The scene graph as prompt text for the in-context pipeline."""

from __future__ import annotations

import pytest

from dsgqa.in_context import estimate_tokens, serialize
from dsgqa.scene_graph import load_scene_graph
from tests.conftest import SHARED

EXAMPLE = SHARED / "data/dsg/example_dsg.json"


@pytest.fixture(scope="module")
def graph():
    return load_scene_graph(EXAMPLE)


def test_compact_lists_every_object_with_its_room_and_every_room(graph) -> None:
    text = serialize(graph, "compact")
    objects = [n for n in graph.nodes if n.label == "Object"]
    rooms = [n for n in graph.nodes if n.label == "Room"]
    assert text.count("\n- (id=O") == len(objects)
    assert text.count("\n- (id=R") == len(rooms)
    assert "- (id=O0, class=seating, pos=(4.54, -7.55, 0.18), room=R1)" in text


def test_full_keeps_every_layer_the_hierarchy_and_each_connection_once(graph) -> None:
    text = serialize(graph, "full")
    assert text.count("\n- (id=") == len(graph.nodes)
    undirected = {frozenset((e.source, e.target)) for e in graph.edges if e.type != "CONTAINS"}
    assert text.count(" -- ") == len(undirected)
    assert "- R1 -- R2" in text and "bbox_dim=" in text


def test_serialization_is_deterministic_and_sized(graph) -> None:
    for variant in ("compact", "full"):
        assert serialize(graph, variant) == serialize(graph, variant)
    compact, full = serialize(graph, "compact"), serialize(graph, "full")
    assert estimate_tokens(compact) < estimate_tokens(full)
    with pytest.raises(ValueError, match="unknown in-context variant"):
        serialize(graph, "huge")  # type: ignore[arg-type]
