"""The SLDP value types, the error and score types, and what every other part shares.

Values are immutable because parses are memoized and shared between comparisons.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from dsgqa.nesting import deeper_than

Number: TypeAlias = int | float

#: Deepest nesting accepted; keeps the recursive comparison far from Python's recursion limit.
MAX_DEPTH = 64
NUMBER_TYPES = (int, float)


class SLDPError(ValueError):
    """Malformed SLDP text (with line, column and what was expected) or an unusable value."""


@dataclass(frozen=True, slots=True)
class Point:
    """A 2-D or 3-D point; equal to another point when every coordinate is within tolerance."""

    coords: tuple[Number, ...]


class _Collection:
    """What lists and sets share: iterating and measuring their items. Only a mixin: the two
    stay different types, so a list never equals a set."""

    __slots__ = ()
    items: tuple[Value, ...]

    def __iter__(self) -> Iterator[Value]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class SLDPList(_Collection):
    """An ordered sequence: ``[a, b]``."""

    items: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class SLDPSet(_Collection):
    """An unordered collection: ``<a, b>``. Items are kept as written (duplicates included)
    because element equality has a tolerance, so no hash-based set could hold them."""

    items: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class SLDPDict:
    """A mapping ``{k: v}`` as written; keys must be distinct after normalisation."""

    items: tuple[tuple[Number | str, Value], ...] = ()
    by_key: dict[Any, tuple[Number | str, Value]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        index: dict[Any, tuple[Number | str, Value]] = {}
        for key, value in self.items:
            key_id = _key_id(key)
            if key_id in index:
                # Imported here: printing needs the grammar's word pattern, and the parser
                # needs these types, so a module-level import would be circular.
                from dsgqa.sldp.format import format_sldp

                raise SLDPError(f"duplicate dict key {format_sldp(key)}")
            index[key_id] = (key, value)
        object.__setattr__(self, "by_key", index)

    def __len__(self) -> int:
        return len(self.items)


class SLDPString(str):
    """A string *value* returned by :func:`parse_sldp` (when the whole answer is one string).

    The comparators read a plain ``str`` argument as SLDP *text*; this subclass marks text that
    was already parsed, so ``sldp_score(parse_sldp('"chair, red"'), ...)`` compares the string
    ``chair, red`` instead of parsing it again (which would fail on the comma)."""

    __slots__ = ()


Value: TypeAlias = int | float | str | Point | SLDPList | SLDPSet | SLDPDict


@dataclass(frozen=True, slots=True)
class Score:
    """A verdict with partial credit; ``reason`` is ``"equal"`` or names the first mismatch."""

    equal: bool
    precision: float
    recall: float
    f1: float
    reason: str


def _key_id(key: Number | str) -> Any:
    """The identity of a dict key: normalised text, or the number (3 and 3.0 are one key)."""
    if isinstance(key, str):
        return ("s", norm(key))
    if type(key) in NUMBER_TYPES and key == key:
        return ("n", key)
    raise SLDPError(f"dict keys must be numbers or strings, not {kind_of(key)}")


def norm(text: str) -> str:
    """Strings compare after ``strip()`` + ``casefold()``."""
    return text.strip().casefold()


def kind_of(value: Any) -> str:
    """The SLDP kind of a value, for messages and for "different kinds are never equal"."""
    kind = type(value)
    if kind in NUMBER_TYPES:
        return "number"
    return {str: "string", Point: "point", SLDPList: "list", SLDPSet: "set", SLDPDict: "dict"}.get(
        kind, kind.__name__
    )


def _children(value: Value) -> tuple[Value, ...]:
    if isinstance(value, SLDPList | SLDPSet):
        return value.items
    if isinstance(value, SLDPDict):
        return tuple(v for _, v in value.items)
    return ()


def check_depth(value: Value) -> None:
    """Refuse values nested deeper than ``MAX_DEPTH`` (the comparison recurses)."""
    if deeper_than(value, _children, MAX_DEPTH):
        raise SLDPError(f"value nested deeper than {MAX_DEPTH} levels")
