"""The definitions the questions rely on, stated once per set in its preamble.

What "in a room", "adjacent", a hop or a distance means, and what "the lounge" or "the storage
object nearest the bicycle" refers to, would bury the question if every question repeated it;
so each candidate names the definitions it uses (`Candidate.defines`), and the set's
`preamble:` states those its questions use, in this order (`preamble`). A question keeps what
is its own: what to answer and in which form ("Answer with a set of nodeSymbols", a tie-break
rule for a list).

The sentences name no room or object class: they hold for every scene graph, so a set
generated for another graph names no class it lacks. `C` and `D` stand for any class.
"""

from __future__ import annotations

from collections.abc import Iterable

from dsgqa.question_gen.candidate import (
    ADJACENT_ROOMS,
    DISTANCE,
    IN_BUILDING,
    IN_ROOM,
    MESH_HOPS,
    MESH_PLACES_CONNECTED,
    PLACES_CONNECTED,
    ROOM_HOPS,
)

#: key -> the sentence(s) the preamble states.
DEFINITIONS: dict[str, str] = {
    "in_room": IN_ROOM,
    "in_building": IN_BUILDING,
    "adjacent": ADJACENT_ROOMS,
    "mesh_connected": MESH_PLACES_CONNECTED,
    "place_connected": PLACES_CONNECTED,
    "room_hops": ROOM_HOPS,
    "mesh_hops": MESH_HOPS,
    "room_names": (
        "Rooms are named by their `class`: for a room class C, 'the C' is the only room whose "
        "class is C, and 'the Cs' or 'every C' (C in the plural) are all rooms whose class is "
        "C; 'a C' is any one of them."),
    "object_names": (
        "Objects are named by their `class` too: for an object class C, 'the C' is the only "
        "object whose class is C, and a 'C object' is any object whose class is C."),
    "distance": DISTANCE,
    "nearest": (
        "'The C object nearest the D' is the object of class C whose center is nearest to the "
        "center of the D (never the D itself), for any two object classes C and D."),
    "bbox": (
        "An object's bounding box is its `bbox_dim`: its extent along x, y and z, in metres. "
        "Its volume is the product of the three extents, in cubic metres; its height is the "
        "extent along z."),
}


def preamble(keys: Iterable[str]) -> str:
    """The preamble stating the definitions named by `keys` ('' for none)."""
    wanted = set(keys)
    unknown = wanted - set(DEFINITIONS)
    if unknown:
        raise ValueError(f"no definition for {', '.join(sorted(unknown))}")
    return " ".join(text for key, text in DEFINITIONS.items() if key in wanted)
