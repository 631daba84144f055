"""What the natural names in a question refer to, by the definitions a set's preamble states
(for any class C, D; the examples are this graph's):

* ROOM_NAMES: "the C" is the only room whose class is C ("the lounge"; a name that fits several
  rooms has no referent: ambiguous); "the Cs" are all rooms whose class is C ("the hallways":
  the plural of a class name, +s, +es, or y -> ies); "a C" is any one of them;
* OBJECT_NAMES: "the C" is the only object of class C ("the bicycle"); a "C object" is any
  object of class C ("a storage object");
* NEAREST: "the C object nearest the D" is the object of class C whose center is nearest the
  D's (never the D itself); a tie has no referent;
* BBOX: an object's bounding box is its `bbox_dim` (the JSON's `bounding_box.dimensions`); its
  volume is their product, its height the extent along z.

The sentences are pinned here word for word: a set that defines the words otherwise is not
recognised.
"""

from __future__ import annotations

from tests.independent_check.answers import Ambiguous
from tests.independent_check.graph import SceneGraph, UnknownNode
from tests.independent_check.phrasings import EUCLIDEAN, IN_ROOM
from tests.independent_check.relations import distance, objects_of_class, ranked

ROOM_NAMES = (
    "Rooms are named by their `class`: for a room class C, 'the C' is the only room whose class "
    "is C, and 'the Cs' or 'every C' (C in the plural) are all rooms whose class is C; 'a C' is "
    "any one of them.")
OBJECT_NAMES = (
    "Objects are named by their `class` too: for an object class C, 'the C' is the only object "
    "whose class is C, and a 'C object' is any object whose class is C.")
NEAREST = (
    "'The C object nearest the D' is the object of class C whose center is nearest to the "
    "center of the D (never the D itself), for any two object classes C and D.")
BBOX = (
    "An object's bounding box is its `bbox_dim`: its extent along x, y and z, in metres. Its "
    "volume is the product of the three extents, in cubic metres; its height is the extent "
    "along z.")
IN_ROOM_DEF = IN_ROOM
EUCLIDEAN_DEF = EUCLIDEAN


def _rooms_of_class(graph: SceneGraph, label: str) -> list[str]:
    return sorted(n.symbol for n in graph.of_kind("room") if n.label == label)


def the_room(graph: SceneGraph, word: str) -> str:
    """'the lounge': the one room of that class."""
    rooms = _rooms_of_class(graph, word)
    if not rooms:
        raise UnknownNode(f"no room of class {word!r}")
    if len(rooms) > 1:
        raise Ambiguous(f"'the {word}' could be any of {', '.join(rooms)}")
    return rooms[0]


def rooms_plural(graph: SceneGraph, words: str) -> list[str]:
    """'hallways': every room whose class the word is the plural of."""
    labels = {n.label for n in graph.of_kind("room")}
    fits = [label for label in labels
            if words in (label + "s", label + "es", label[:-1] + "ies")]
    if len(fits) != 1:
        raise UnknownNode(f"no room class whose plural is {words!r}") if not fits else \
            Ambiguous(f"{words!r} is the plural of {fits}")
    return _rooms_of_class(graph, fits[0])


def rooms_called(graph: SceneGraph, phrase: str) -> list[str]:
    """The rooms a phrase names: 'room R5', 'the lounge', 'the hallways', 'a hallway' (any
    one of them: the union, for 'occurs in a hallway')."""
    if phrase.startswith("room "):
        symbol = phrase.removeprefix("room ")
        graph.node(symbol, "room")
        return [symbol]
    if phrase.startswith("a "):
        rooms = _rooms_of_class(graph, phrase.removeprefix("a "))
        if not rooms:
            raise UnknownNode(f"no room of class {phrase[2:]!r}")
        return rooms
    word = phrase.removeprefix("the ")
    if _rooms_of_class(graph, word):
        return [the_room(graph, word)]
    return rooms_plural(graph, word)


def the_object(graph: SceneGraph, word: str) -> str:
    """'the bicycle': the one object of that class."""
    found = sorted(objects_of_class(graph, word))
    if not found:
        raise UnknownNode(f"no object of class {word!r}")
    if len(found) > 1:
        raise Ambiguous(f"'the {word}' could be any of {len(found)} objects")
    return found[0]


def nearest_the(graph: SceneGraph, label: str, anchor_word: str) -> str:
    """'the <label> object nearest the <anchor>'."""
    anchor = the_object(graph, anchor_word)
    to = graph.nodes[anchor].center
    nodes = [graph.nodes[o] for o in objects_of_class(graph, label) if o != anchor]
    if not nodes:
        raise Ambiguous(f"no {label} object other than the {anchor_word}")
    return ranked(nodes, lambda n: distance(n.center, to), "distance", needed=1)[0].symbol


def volume(graph: SceneGraph, symbol: str) -> float:
    size = graph.nodes[symbol].size
    if size is None:
        raise Ambiguous(f"{symbol} has no bounding box")
    return size[0] * size[1] * size[2]
