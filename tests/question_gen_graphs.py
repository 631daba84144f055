"""Small random scene graphs in Heracles' layers, for the generator's property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from dsgqa.scene_graph import SceneEdge, SceneGraph, SceneNode

CLASSES = ("chair", "table", "box", "sign", "lamp")
ROOM_CLASSES = ("kitchen", "hallway", "office")


@st.composite
def scene_graphs(draw: st.DrawFn) -> SceneGraph:
    """1-4 rooms, 1-7 mesh places, 0-2 places, 2-9 objects; random CONTAINS (zero to two
    parents) and same-layer edges; coordinates on a 0.1 m grid, so exact ties happen."""
    coord = st.integers(-60, 60).map(lambda v: v / 10)
    vec = st.tuples(coord, coord, coord)
    rooms = [f"R{i}" for i in range(1, draw(st.integers(1, 4)) + 1)]
    meshes = [f"P{i}" for i in range(1, draw(st.integers(1, 7)) + 1)]
    places = [f"p{i}" for i in range(1, draw(st.integers(0, 2)) + 1)]
    objects = [f"O{i}" for i in range(1, draw(st.integers(2, 9)) + 1)]
    nodes = [SceneNode(r, "Room", draw(st.sampled_from(ROOM_CLASSES)), "", draw(vec))
             for r in rooms]
    nodes += [SceneNode(m, "MeshPlace", "floor", "", draw(vec)) for m in meshes]
    nodes += [SceneNode(p, "Place", "unknown", "", draw(vec)) for p in places]
    for o in objects:
        center = draw(vec)
        nodes.append(SceneNode(o, "Object", draw(st.sampled_from(CLASSES)), o, center,
                               center, (0.5, 0.5, 0.5)))
    edges: list[SceneEdge] = []
    holders = meshes + places
    for child in holders:
        for parent in draw(st.lists(st.sampled_from(rooms), max_size=2, unique=True)):
            edges.append(SceneEdge(parent, child, "CONTAINS"))
    for child in objects:
        for parent in draw(st.lists(st.sampled_from(holders), max_size=2, unique=True)):
            edges.append(SceneEdge(parent, child, "CONTAINS"))
    for layer, edge_type in ((rooms, "ROOM_CONNECTED"), (meshes, "MESH_PLACE_CONNECTED"),
                             (places, "PLACE_CONNECTED")):
        pairs = [(a, b) for a in layer for b in layer if a < b]
        if pairs:
            for a, b in draw(st.lists(st.sampled_from(pairs), unique=True,
                                      max_size=len(pairs))):
                edges.append(SceneEdge(a, b, edge_type))
    return SceneGraph(tuple(nodes), tuple(edges), source="synthetic")
