"""The checker's answers as text the scorer reads (SLDP or a PDDL goal), written here rather
than by the project's converters, and the one way a solver says a question has no single
answer."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class Ambiguous(Exception):
    """The question's text admits more than one answer on this graph. `answer` is the reading
    the checker finds most plausible (shown beside the gold answer), or None."""

    def __init__(self, reason: str, answer: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.answer = answer


@dataclass(frozen=True)
class Point:
    """A 3-D point, so that it prints as `POINT(x y z)` and not as a list."""

    x: float
    y: float
    z: float


def sldp(value: object) -> str:
    """SLDP text: ints and floats, bare or quoted words, `Point`s, lists, sets (frozenset,
    printed sorted so output is stable) and dicts."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return value if BARE_WORD.match(value) else '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, Point):
        return f"POINT({value.x!r} {value.y!r} {value.z!r})"
    if isinstance(value, frozenset | set):
        return "<" + ", ".join(sorted(sldp(v) for v in value)) + ">"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(sldp(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{sldp(k)}: {sldp(v)}" for k, v in sorted(value.items())) + "}"
    raise TypeError(f"no SLDP form for {type(value).__name__}")


def atom(predicate: str, *arguments: str) -> str:
    return "(" + " ".join((predicate, *arguments)) + ")"


def conjunction(atoms: Iterable[str]) -> str:
    """`(and ...)`; one atom alone; `(and)` (true) for none."""
    items = sorted(atoms)
    return items[0] if len(items) == 1 else "(and" + "".join(" " + a for a in items) + ")"


def disjunction(atoms: Iterable[str]) -> str:
    """`(or ...)`; one atom alone; `(or)` (false) for none."""
    items = sorted(atoms)
    return items[0] if len(items) == 1 else "(or" + "".join(" " + a for a in items) + ")"
