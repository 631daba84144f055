"""What the templates share: deterministic sampling and the Cypher fragment for 'in a room'."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from random import Random
from typing import TypeVar

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
