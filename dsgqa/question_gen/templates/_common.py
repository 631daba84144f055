"""What the templates share: deterministic sampling, the Cypher fragments for 'in a room', and
the natural names of rooms and objects (a class that is a plain word: "the lounge", "the
hallways", "the bicycle" when it is the only one of its class)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from random import Random
from typing import TypeVar

from dsgqa.question_gen.view import GraphView

T = TypeVar("T")

#: Sets, lists and dicts longer than this make poor questions (and long answers to type).
MAX_ITEMS = 25


def sample(rng: Random, items: Sequence[T], n: int) -> list[T]:
    """Up to `n` of `items`, chosen by `rng`; `items` must already be in a fixed order."""
    items = list(items)
    return items if len(items) <= n else rng.sample(items, n)


def set_fact(kind: str, subject: str, members: Iterable[str]) -> tuple[str, ...]:
    """The fact 'these are the `kind` of `subject`': a count, a listing and a PDDL goal over the
    same members restate it, and so do "within 1 hop" and "within 2 hops" when no node is added
    by the second hop."""
    return (kind, subject, *sorted(members))


def room_objects_match(room: str, obj: str = "o", extra: str = "") -> str:
    """Heracles' pattern for the objects in a room: Room -> place or mesh place -> Object."""
    return (f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:CONTAINS]->()-[:CONTAINS]->"
            f"({obj}:Object{extra})")


def adjacent_room_objects_match(room: str, obj: str = "o", extra: str = "") -> str:
    """The objects in the rooms adjacent to a room: one ROOM_CONNECTED hop, then Heracles'
    room -> place or mesh place -> Object."""
    return (f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED]-(:Room)"
            f"-[:CONTAINS]->()-[:CONTAINS]->({obj}:Object{extra})")


#: Class names a question may use as words ("the lounge", "the storage object"); others
#: (quotes, digits, non-ASCII) are asked about only by nodeSymbol and quoted class.
_WORD = re.compile(r"[a-z]+(?: [a-z]+)*\Z")


def is_word(class_name: str) -> bool:
    return bool(_WORD.match(class_name))


def plural(word: str) -> str:
    """English plural of a class word: hallway -> hallways, box -> boxes, library ->
    libraries."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def rooms_by_class(view: GraphView) -> dict[str, list[str]]:
    """Room class (a word) -> its rooms' nodeSymbols, sorted."""
    found: dict[str, list[str]] = {}
    for room in view.label("Room"):
        if is_word(room.class_name):
            found.setdefault(room.class_name, []).append(room.symbol)
    return found


def unique_objects(view: GraphView) -> dict[str, str]:
    """Object class (a word) -> its only object, for classes with exactly one object."""
    found: dict[str, list[str]] = {}
    for obj in view.label("Object"):
        if is_word(obj.class_name):
            found.setdefault(obj.class_name, []).append(obj.symbol)
    return {cls: members[0] for cls, members in found.items() if len(members) == 1}


def rooms_of_class_match(room_class: str, room: str = "r", extra: str = "") -> str:
    """The objects in the rooms of one class (Heracles' room -> place -> Object)."""
    return (f"MATCH ({room}:Room {{class: '{room_class}'}})-[:CONTAINS]->()-[:CONTAINS]->"
            f"(o:Object{extra})")
