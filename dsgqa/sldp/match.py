"""Finding equal partners fast: the index behind set equality, set scores and list LCS.

Tolerance makes element equality non-transitive, so partners are never consumed greedily:
each element is checked against every candidate near it, found by bucketing on a tolerance
grid, so the usual case is O(n log n) rather than O(n^2). The full equality is passed in
(``equal``) because it in turn uses this index for sets inside values. Large flat sets of
numbers or points are covered by the vectorised join in :mod:`dsgqa.sldp.point_join` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any, TypeAlias

from dsgqa.sldp.grid import cell_width, home_cell, query_cells, scaled
from dsgqa.sldp.values import NUMBER_TYPES, Number, Point, SLDPDict, SLDPList, Value, norm

Signature: TypeAlias = tuple[Any, tuple[Number, ...] | None]
Equal: TypeAlias = Callable[[Value, Value, float], bool]
_POINT_SHAPES = {2: "p2", 3: "p3"}
#: Sets this large (product of sizes) are joined in numpy when flat; below, numpy's fixed
#: cost per call outweighs the interpreter's per-item cost.
_JOIN_MIN_PAIRS = 4096


def close(a: Number, b: Number, tol: float) -> bool:
    """Numbers within the absolute tolerance (inclusive)."""
    if a == b:
        return True
    try:
        return abs(a - b) <= tol
    except OverflowError:  # an int beyond float range against a float: far apart
        return False


def signature(value: Value) -> Signature:
    """(shape, numbers) of a value.

    The shape is everything tolerance cannot change (kinds, lengths, normalised strings and
    keys), so equal values always share it. The numbers are the numeric leaves in a canonical
    order, or ``None`` when a set with numbers inside makes the order ambiguous (the shape
    decides which case applies). Two values of one shape are equal exactly when their numbers
    are pairwise within tolerance, which turns set matching into a near-neighbour search."""
    kind = type(value)
    if kind is Point:
        return _POINT_SHAPES[len(value.coords)], value.coords
    if kind in NUMBER_TYPES:
        return "n", (value,)
    if kind is str:
        return ("s", norm(value)), ()
    if kind is SLDPDict:
        keyed = sorted(value.by_key.items())
        sigs = [signature(v) for _, (_, v) in keyed]
        shape = ("d", tuple((k, s) for (k, _), (s, _) in zip(keyed, sigs, strict=True)))
        return shape, _concat(sigs)
    sigs = [signature(v) for v in value.items]
    if kind is SLDPList:
        return ("l", tuple(s for s, _ in sigs)), _concat(sigs)
    shape = ("S", frozenset(s for s, _ in sigs))
    return shape, () if all(nums == () for _, nums in sigs) else None


def _concat(sigs: list[Signature]) -> tuple[Number, ...] | None:
    if any(nums is None for _, nums in sigs):
        return None
    return tuple(x for _, nums in sigs for x in nums)


class Index:
    """The items of one side of a set comparison, indexed so partners are found fast.

    Exact hits (same shape, same numbers) are one dict lookup; that is the common case, since
    answers usually copy values from the database. Otherwise items are bucketed on the
    tolerance grid (:mod:`dsgqa.sldp.grid`) over their first three numbers (built on first
    need), so a query visits one to eight cells. Items whose numbers cannot be gridded
    (infinities, huge magnitudes) stay in a per-shape overflow list, and items with ambiguous
    numbers (sets of numbers inside) are compared in full within their shape."""

    def __init__(
        self,
        items: tuple[Value, ...],
        tol: float,
        equal: Equal,
        sigs: list[Signature] | None = None,
    ) -> None:
        self.items = items
        self.tol = tol
        self.equal = equal
        self.cell = cell_width(tol)
        self.sigs = sigs if sigs is not None else [signature(v) for v in items]
        self.exact: dict[Signature, list[int]] = {}
        for index, sig in enumerate(self.sigs):
            self.exact.setdefault(sig, []).append(index)
        self._grid: dict[Any, list[int]] | None = None
        self._overflow: dict[Any, list[int]] = {}

    def _scaled(self, nums: tuple[Number, ...]) -> list[float] | None:
        """The first three numbers in cell units, or ``None`` if any cannot be gridded."""
        cell = self.cell
        if cell is None:
            return None
        units = [scaled(x, cell) for x in nums[:3]]
        return None if None in units else units

    def _build_grid(self) -> dict[Any, list[int]]:
        grid: dict[Any, list[int]] = {}
        for index, (shape, nums) in enumerate(self.sigs):
            if not nums:  # None or (): never looked up on the grid
                continue
            units = self._scaled(nums)
            if units is None:
                self._overflow.setdefault(shape, []).append(index)
            else:
                grid.setdefault((shape, tuple(map(home_cell, units))), []).append(index)
        self._grid = grid
        return grid

    def _near(self, shape: Any, nums: tuple[Number, ...]) -> list[int]:
        """Indices on the grid cells around ``nums`` (a superset of the partners)."""
        grid = self._grid if self._grid is not None else self._build_grid()
        units = self._scaled(nums)
        if units is None:
            return [i for i, sig in enumerate(self.sigs) if sig[0] == shape]
        spans = map(query_cells, units)
        found = [i for key in product(*spans) for i in grid.get((shape, key), ())]
        return found + self._overflow.get(shape, [])

    def partners(self, value: Value, sig: Signature, exact_first: bool = False) -> list[int]:
        """Indices of the items equal to ``value``; with ``exact_first``, exact twins alone
        when there are any (enough to know ``value`` is covered, and the cheap common case)."""
        shape, nums = sig
        hits = self.exact.get(sig, [])
        if nums is None:
            return [i for i in hits if self.equal(value, self.items[i], self.tol)]
        if (hits and exact_first) or not nums or self.tol == 0:
            return hits
        return self._near_partners(shape, nums, first_only=False)

    def has_partner(self, value: Value, sig: Signature) -> bool:
        shape, nums = sig
        hits = self.exact.get(sig, [])
        if nums is None:
            return any(self.equal(value, self.items[i], self.tol) for i in hits)
        if hits or not nums or self.tol == 0:
            return bool(hits)
        return bool(self._near_partners(shape, nums, first_only=True))

    def _near_partners(self, shape: Any, nums: tuple[Number, ...], first_only: bool) -> list[int]:
        tol, sigs = self.tol, self.sigs
        found = []
        for i in self._near(shape, nums):
            if all(close(x, y, tol) for x, y in zip(nums, sigs[i][1], strict=True)):
                if first_only:
                    return [i]
                found.append(i)
        return found


def cover(
    a: tuple[Value, ...], b: tuple[Value, ...], tol: float, equal: Equal, stop_early: bool = False
) -> tuple[list[bool], list[bool]] | None:
    """Which items of ``a`` have a partner in ``b``, and which of ``b`` in ``a``.

    One pass over ``a`` against an index of ``b`` marks both sides at once: an exact hit marks
    its twins, an inexact query marks every partner it finds. Only ``b`` items left unmarked
    are then looked up in an index of ``a``, built just if needed. With ``stop_early`` the
    result is ``None`` at the first item without a partner (equality needs every item).

    Large flat sets (numbers, or points of one dimension) take the vectorised join of
    :mod:`dsgqa.sldp.point_join` instead, which finds the same partners."""
    if len(a) * len(b) >= _JOIN_MIN_PAIRS:
        # Imported here: numpy is only worth loading for large sets.
        from dsgqa.sldp.point_join import flat_cover

        flat = flat_cover(a, b, tol)
        if flat is not None:
            if stop_early and not (all(flat[0]) and all(flat[1])):
                return None
            return flat
    index_b = Index(b, tol, equal)
    sigs_a = [signature(v) for v in a]
    found_a = [False] * len(a)
    found_b = [False] * len(b)
    for i, value in enumerate(a):
        partners = index_b.partners(value, sigs_a[i], exact_first=True)
        if not partners and stop_early:
            return None
        found_a[i] = bool(partners)
        for j in partners:
            found_b[j] = True
    if not all(found_b):
        index_a = Index(a, tol, equal, sigs_a)
        for j, value in enumerate(b):
            if found_b[j]:
                continue
            found_b[j] = index_a.has_partner(value, index_b.sigs[j])
            if not found_b[j] and stop_early:
                return None
    return found_a, found_b
