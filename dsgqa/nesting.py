"""Depth checks for parsed trees (SLDP values, PDDL goals) that untrusted text can nest at will."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def deeper_than(root: T, children: Callable[[T], Iterable[T]], limit: int) -> bool:
    """True when some path below `root` has more than `limit` levels. Iterative, so that
    checking a pathological nesting cannot itself overflow the stack."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children(node))
    return False
