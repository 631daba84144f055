"""The definitions the natural-reference templates rely on, stated once per set in its preamble.

A question that says "the lounge" or "the storage object nearest the bicycle" depends on what
those words mean in a scene graph; repeating that in every question would bury the question, so
each candidate names the definitions it uses (`Candidate.defines`), and the set's `preamble:`
states those its questions use, in this order (`preamble`). The older templates still state
their definitions inline, in the question.
"""

from __future__ import annotations

from collections.abc import Iterable

from dsgqa.question_gen.candidate import ADJACENT_ROOMS, DISTANCE, IN_ROOM

#: key -> the sentence(s) the preamble states.
DEFINITIONS: dict[str, str] = {
    "in_room": IN_ROOM,
    "adjacent": ADJACENT_ROOMS,
    "room_names": (
        "Rooms are named by their `class`: 'the lounge' is the only room whose class is "
        "'lounge', and 'the hallways' (or 'every hallway') are all rooms whose class is "
        "'hallway'; 'a hallway' is any one of them. The same holds for every room class."),
    "object_names": (
        "Objects are named by their `class` too: 'the bicycle' is the only object whose class "
        "is 'bicycle', and 'a storage object' is any object whose class is 'storage'."),
    "distance": DISTANCE,
    "nearest": (
        "'The storage object nearest the bicycle' is the object of class 'storage' whose center "
        "is nearest to the bicycle's center (never the bicycle itself); the same for every "
        "pair of classes."),
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
