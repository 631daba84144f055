"""The project's own scene graph: a two-floor apartment, written by hand, saved as spark_dsg JSON.

`python -m dsgqa.demo_scene` regenerates questions/demo/apartment_dsg.json. Everything is fixed
data (no randomness), so the file, its fingerprint and the demo solutions never drift.

Layout (x east, y north, metres; ground floor z 0-3, upper floor z 3-6)::

    ground: R1 kitchen (2,2)   R2 living room (8,2)   R3 dining room (8,7)
            R4 guest bathroom (2,7)   R5 entrance hall (5,4.5)
    upper:  R6 master bedroom (2,2)   R7 kids bedroom (8,2)   R8 upstairs bathroom (2,7)
            R9 office (8,7)   R10 landing (5,4.5)

Doors: every ground room opens onto the hall, the living and dining rooms onto each other; the
stairs join hall and landing; every upper room opens onto the landing. Each room has two places
(p1..p20, 1 m west and east of its centre) and one floor mesh place (P101..P110). Realism the
loader must cope with: the rug lies in two rooms' places, the stairs belong to a place on each
floor, and a backpack was seen but never attached to any place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchcore import atomic_files
from dsgqa.scene_graph import Vec3

OUTPUT = Path(__file__).resolve().parent.parent / "questions/demo/apartment_dsg.json"

OBJECT_CLASSES = (
    "unknown", "floor", "chair", "table", "bed", "sofa", "lamp", "fridge", "oven", "sink",
    "microwave", "dishwasher", "armchair", "coffee_table", "tv", "plant", "bookshelf", "rug",
    "toilet", "mirror", "washing_machine", "stairs", "wardrobe", "box", "nightstand", "desk",
    "bathtub", "computer", "backpack",
)
ROOM_CLASSES = ("kitchen", "living_room", "dining_room", "bathroom", "hallway", "bedroom",
                "office")
BUILDING_CLASSES = ("apartment",)

# Bounding-box size (x, y, z) per object class.
SIZES: dict[str, tuple[float, float, float]] = {
    "chair": (0.5, 0.5, 0.9), "table": (1.6, 0.9, 0.75), "bed": (2.0, 1.6, 0.5),
    "sofa": (2.1, 0.9, 0.8), "lamp": (0.3, 0.3, 0.4), "fridge": (0.7, 0.7, 1.8),
    "oven": (0.6, 0.6, 0.9), "sink": (0.6, 0.5, 0.2), "microwave": (0.5, 0.4, 0.3),
    "dishwasher": (0.6, 0.6, 0.85), "armchair": (0.9, 0.9, 0.9), "coffee_table": (1.0, 0.6, 0.4),
    "tv": (1.2, 0.1, 0.7), "plant": (0.4, 0.4, 1.0), "bookshelf": (0.9, 0.35, 2.0),
    "rug": (2.5, 1.8, 0.02), "toilet": (0.4, 0.7, 0.8), "mirror": (0.6, 0.05, 0.8),
    "washing_machine": (0.6, 0.6, 0.85), "stairs": (1.0, 3.0, 3.0), "wardrobe": (1.2, 0.6, 2.0),
    "box": (0.5, 0.4, 0.4), "nightstand": (0.45, 0.4, 0.55), "desk": (1.4, 0.7, 0.75),
    "bathtub": (1.7, 0.75, 0.6), "computer": (0.55, 0.2, 0.45), "backpack": (0.3, 0.2, 0.45),
}

# Room index -> (class, name, centre).
ROOMS: dict[int, tuple[str, str, tuple[float, float, float]]] = {
    1: ("kitchen", "kitchen", (2.0, 2.0, 1.2)),
    2: ("living_room", "living room", (8.0, 2.0, 1.2)),
    3: ("dining_room", "dining room", (8.0, 7.0, 1.2)),
    4: ("bathroom", "guest bathroom", (2.0, 7.0, 1.2)),
    5: ("hallway", "entrance hall", (5.0, 4.5, 1.2)),
    6: ("bedroom", "master bedroom", (2.0, 2.0, 4.2)),
    7: ("bedroom", "kids bedroom", (8.0, 2.0, 4.2)),
    8: ("bathroom", "upstairs bathroom", (2.0, 7.0, 4.2)),
    9: ("office", "office", (8.0, 7.0, 4.2)),
    10: ("hallway", "landing", (5.0, 4.5, 4.2)),
}

# Object index -> (class, name, centre, parent place indices). Room k owns places 2k-1, 2k.
OBJECTS: dict[int, tuple[str, str, tuple[float, float, float], tuple[int, ...]]] = {
    # R1 kitchen (p1, p2)
    1: ("fridge", "", (0.5, 1.0, 0.9), (1,)),
    2: ("oven", "", (1.5, 1.0, 0.5), (1,)),
    3: ("sink", "", (2.5, 1.0, 0.9), (2,)),
    4: ("microwave", "", (3.2, 1.0, 1.1), (2,)),
    5: ("dishwasher", "", (2.0, 1.0, 0.4), (1,)),
    6: ("table", "kitchen table", (2.0, 2.5, 0.75), (2,)),
    7: ("chair", "", (1.5, 2.8, 0.45), (1,)),
    8: ("chair", "", (2.5, 2.8, 0.45), (2,)),
    9: ("lamp", "", (3.5, 3.0, 2.2), (2,)),
    # R2 living room (p3, p4); the rug also lies in the dining room (p5)
    10: ("sofa", "", (7.0, 1.0, 0.4), (3,)),
    11: ("armchair", "", (9.0, 1.0, 0.4), (4,)),
    12: ("coffee_table", "", (8.0, 2.0, 0.3), (3,)),
    13: ("tv", "", (8.0, 3.5, 1.0), (4,)),
    14: ("lamp", "", (6.5, 3.5, 1.5), (3,)),
    15: ("plant", "", (9.5, 3.5, 0.5), (4,)),
    16: ("bookshelf", "", (6.2, 2.4, 1.0), (3,)),
    17: ("rug", "", (8.0, 4.0, 0.01), (4, 5)),
    # R3 dining room (p5, p6)
    18: ("table", "dining table", (8.0, 7.0, 0.75), (5,)),
    19: ("chair", "", (7.3, 6.5, 0.45), (5,)),
    20: ("chair", "", (7.3, 7.5, 0.45), (5,)),
    21: ("chair", "", (8.7, 6.5, 0.45), (6,)),
    22: ("chair", "", (8.7, 7.5, 0.45), (6,)),
    23: ("lamp", "", (8.0, 7.0, 2.2), (6,)),
    24: ("plant", "", (9.5, 8.5, 0.5), (6,)),
    # R4 guest bathroom (p7, p8)
    25: ("toilet", "", (1.0, 8.0, 0.4), (7,)),
    26: ("sink", "", (2.5, 8.0, 0.9), (8,)),
    27: ("mirror", "", (2.5, 8.4, 1.6), (8,)),
    28: ("washing_machine", "", (3.2, 6.2, 0.5), (8,)),
    # R5 entrance hall (p9, p10); the stairs also belong to the landing (p19)
    29: ("stairs", "", (5.0, 5.5, 1.5), (10, 19)),
    30: ("wardrobe", "coat closet", (4.0, 3.8, 1.0), (9,)),
    31: ("plant", "", (6.0, 4.0, 0.5), (10,)),
    32: ("box", "", (4.2, 5.0, 0.2), (9,)),
    # R6 master bedroom (p11, p12)
    33: ("bed", "", (2.0, 1.5, 3.5), (11,)),
    34: ("nightstand", "", (0.8, 1.0, 3.3), (11,)),
    35: ("nightstand", "", (3.2, 1.0, 3.3), (12,)),
    36: ("lamp", "", (0.8, 1.0, 3.8), (11,)),
    37: ("lamp", "", (3.2, 1.0, 3.8), (12,)),
    38: ("wardrobe", "", (3.5, 3.0, 4.0), (12,)),
    39: ("tv", "", (2.0, 3.2, 4.0), (12,)),
    # R7 kids bedroom (p13, p14)
    40: ("bed", "", (7.0, 1.5, 3.4), (13,)),
    41: ("desk", "", (9.0, 1.0, 3.75), (14,)),
    42: ("chair", "", (9.0, 1.6, 3.45), (14,)),
    43: ("bookshelf", "", (9.6, 2.8, 4.0), (14,)),
    44: ("lamp", "", (9.0, 1.0, 4.0), (14,)),
    # R8 upstairs bathroom (p15, p16)
    45: ("toilet", "", (1.0, 8.0, 3.4), (15,)),
    46: ("sink", "", (2.5, 8.0, 3.9), (16,)),
    47: ("bathtub", "", (1.5, 6.2, 3.3), (15,)),
    48: ("mirror", "", (2.5, 8.4, 4.6), (16,)),
    # R9 office (p17, p18)
    49: ("desk", "", (8.0, 8.0, 3.75), (17,)),
    50: ("chair", "", (8.0, 7.4, 3.45), (17,)),
    51: ("computer", "", (8.0, 8.2, 4.0), (17,)),
    52: ("bookshelf", "", (9.5, 7.0, 4.0), (18,)),
    53: ("lamp", "", (7.2, 8.2, 4.0), (17,)),
    54: ("plant", "", (9.5, 8.5, 3.5), (18,)),
    # R10 landing (p19, p20)
    55: ("plant", "", (6.0, 4.0, 3.5), (20,)),
    56: ("box", "toy box", (4.2, 5.0, 3.2), (19,)),
    # seen, never attached to a place
    57: ("backpack", "", (5.5, 5.0, 3.2), ()),
}

ROOM_DOORS = ((1, 5), (2, 5), (3, 5), (4, 5), (2, 3), (5, 10), (10, 6), (10, 7), (10, 8),
              (10, 9))
# Place pairs across those doors (the places inside a room are always connected too).
PLACE_DOORS = ((2, 9), (3, 10), (5, 10), (8, 9), (4, 6), (10, 19), (19, 12), (20, 13),
               (19, 16), (20, 17))
OBJECT_LINKS = ((18, 19), (18, 20), (18, 21), (18, 22), (6, 7), (6, 8), (49, 50), (41, 42),
                (10, 12))
MESH_PLACE_BASE = 100  # mesh place of room k is P(100 + k)


def place_center(index: int) -> tuple[float, float, float]:
    """Places sit 1 m west (odd index) or east (even) of their room's centre, 0.5 m up."""
    room = (index + 1) // 2
    x, y, z = ROOMS[room][2]
    floor = 0.0 if z < 3.0 else 3.0
    return (x - 1.0 if index % 2 else x + 1.0, y, floor + 0.5)


def build() -> Any:
    """The apartment as a `spark_dsg.DynamicSceneGraph` (the bindings are imported lazily)."""
    import spark_dsg as sd

    graph = sd.DynamicSceneGraph()
    graph.add_layer(3, 1, "MESH_PLACES")
    graph.set_labelspace(sd.Labelspace(dict(enumerate(OBJECT_CLASSES))), 2, 0)
    graph.set_labelspace(sd.Labelspace(dict(enumerate(ROOM_CLASSES))), 4, 0)
    graph.set_labelspace(sd.Labelspace(dict(enumerate(BUILDING_CLASSES))), 5, 0)

    def attrs(kind: Any, position: Vec3, name: str = "", label: int | None = None) -> Any:
        node = kind()
        node.position = list(position)
        node.name = name
        if label is not None:
            node.semantic_label = label
        return node

    building = attrs(sd.SemanticNodeAttributes, (5.0, 4.5, 3.0), "two-floor apartment", 0)
    graph.add_node(5, sd.NodeSymbol("B", 0), building)
    for k, (cls, name, center) in ROOMS.items():
        graph.add_node(4, sd.NodeSymbol("R", k),
                       attrs(sd.RoomNodeAttributes, center, name, ROOM_CLASSES.index(cls)))
        graph.insert_edge(sd.NodeSymbol("B", 0), sd.NodeSymbol("R", k))
        mesh = attrs(sd.Place2dNodeAttributes, (center[0], center[1], center[2] - 1.2),
                     f"P{MESH_PLACE_BASE + k}", OBJECT_CLASSES.index("floor"))
        # spark_dsg leaves these uninitialised (the saved file would change on every run).
        mesh.ellipse_centroid = [center[0], center[1], center[2] - 1.2]
        mesh.ellipse_matrix_compress = [[1.0, 0.0], [0.0, 1.0]]
        mesh.ellipse_matrix_expand = [[1.0, 0.0], [0.0, 1.0]]
        graph.add_node(3, sd.NodeSymbol("P", MESH_PLACE_BASE + k), mesh, 1)
        graph.insert_edge(sd.NodeSymbol("R", k), sd.NodeSymbol("P", MESH_PLACE_BASE + k))
        for p in (2 * k - 1, 2 * k):
            graph.add_node(3, sd.NodeSymbol("p", p), attrs(sd.PlaceNodeAttributes,
                                                           place_center(p), f"p{p}"))
            graph.insert_edge(sd.NodeSymbol("R", k), sd.NodeSymbol("p", p))
        graph.insert_edge(sd.NodeSymbol("p", 2 * k - 1), sd.NodeSymbol("p", 2 * k))
    for i, (cls, name, center, parents) in OBJECTS.items():
        node = attrs(sd.ObjectNodeAttributes, center, name, OBJECT_CLASSES.index(cls))
        node.bounding_box = sd.BoundingBox(list(SIZES[cls]), list(center))
        graph.add_node(2, sd.NodeSymbol("O", i), node)
        for p in parents:
            graph.insert_edge(sd.NodeSymbol("p", p), sd.NodeSymbol("O", i))
    for a, b in ROOM_DOORS:
        graph.insert_edge(sd.NodeSymbol("R", a), sd.NodeSymbol("R", b))
        if (a <= 5) == (b <= 5):  # floor mesh places touch within a floor only
            graph.insert_edge(sd.NodeSymbol("P", MESH_PLACE_BASE + a),
                              sd.NodeSymbol("P", MESH_PLACE_BASE + b))
    for a, b in PLACE_DOORS:
        graph.insert_edge(sd.NodeSymbol("p", a), sd.NodeSymbol("p", b))
    for a, b in OBJECT_LINKS:
        graph.insert_edge(sd.NodeSymbol("O", a), sd.NodeSymbol("O", b))
    return graph


def write(path: Path = OUTPUT) -> Path:
    """Save the apartment; re-indented so the committed file diffs line by line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    build().save(str(path), include_mesh=False)
    data = json.loads(path.read_text())
    return atomic_files.write_text(path, json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    print(f"wrote {write()}")
