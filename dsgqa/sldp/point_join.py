"""Set coverage for flat sets of points or numbers, as a vectorised join on the tolerance grid.

Large answers are sets of POINTs copied with rounding or jitter, so exact lookups miss and the
per-item partner search in :mod:`dsgqa.sldp.match` spends its time in the interpreter. Here the
same grid (:mod:`dsgqa.sldp.grid`) is a sort per side and one binary search in numpy: cells are
hashed to 64-bit keys, the other side's keys are sorted, and every query cell is looked up at
once. Hash collisions only add candidates; each candidate pair is then checked with the exact
closeness test, so the answer is the one a pairwise comparison gives.

numpy is imported with this module, which :func:`dsgqa.sldp.match.cover` loads only for large
sets, so importing :mod:`dsgqa.sldp` stays light.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, product

import numpy as np

from dsgqa.sldp.grid import MAX_CELL_INDEX, REACH, cell_width
from dsgqa.sldp.values import NUMBER_TYPES, Point, Value

#: Largest magnitude joined here: up to it every int is exact as a float, and so is the
#: difference of two of them, so numpy's float test agrees with Python's exact int arithmetic.
_MAX_MAGNITUDE = 2.0**52
#: Odd 64-bit multipliers that spread cell indices over the hash (any values would be correct).
_HASH_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9)
#: Candidate pairs checked per batch, which bounds memory when many items share a cell.
_BATCH_PAIRS = 1 << 18


def flat_rows(items: tuple[Value, ...]) -> np.ndarray | None:
    """The items as an (n, dimension) float array when they are all numbers or all points of
    one dimension; ``None`` for anything else (those go through the general index)."""
    if all(type(v) in NUMBER_TYPES for v in items):
        numbers: Iterable[Value] = items
        dimension = 1
    else:
        coords = [v.coords for v in items if type(v) is Point]
        dimensions = set(map(len, coords))
        if len(coords) != len(items) or len(dimensions) != 1:
            return None
        numbers, dimension = chain.from_iterable(coords), dimensions.pop()
        if dimension > len(_HASH_MULTIPLIERS):
            return None
    try:
        flat = np.fromiter(numbers, dtype=np.float64, count=len(items) * dimension)
    except OverflowError:  # an int beyond float range
        return None
    return flat.reshape(len(items), dimension)


def flat_cover(
    a: tuple[Value, ...], b: tuple[Value, ...], tol: float
) -> tuple[list[bool], list[bool]] | None:
    """Which items of ``a`` have a partner in ``b`` and which of ``b`` in ``a``, as
    :func:`dsgqa.sldp.match.cover` defines it; ``None`` when the sets are not flat sets of
    one shape, or the numbers or the tolerance are outside what the grid handles exactly."""
    cell = cell_width(tol)
    if cell is None or not a or not b:
        return None
    rows_a, rows_b = flat_rows(a), flat_rows(b)
    if rows_a is None or rows_b is None or rows_a.shape[1] != rows_b.shape[1]:
        return None
    biggest = max(float(np.abs(rows_a).max()), float(np.abs(rows_b).max()))
    if not (biggest <= _MAX_MAGNITUDE and biggest / cell <= MAX_CELL_INDEX):  # also NaN, inf
        return None
    found_a = np.zeros(len(a), dtype=bool)
    found_b = np.zeros(len(b), dtype=bool)
    for rows, cols in _candidate_pairs(rows_a / cell, rows_b / cell):
        close = (np.abs(rows_a[rows] - rows_b[cols]) <= tol).all(axis=1)
        found_a[rows[close]] = True
        found_b[cols[close]] = True
    return found_a.tolist(), found_b.tolist()


def _hash(cells: np.ndarray) -> np.ndarray:
    """One 64-bit key per row of cell indices (wrapping arithmetic, so any index is fine)."""
    multipliers = np.array(_HASH_MULTIPLIERS[: cells.shape[1]], dtype=np.uint64)
    return (cells.astype(np.int64).view(np.uint64) * multipliers).sum(axis=1, dtype=np.uint64)


def _candidate_pairs(
    units_a: np.ndarray, units_b: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Batches of (row of a, row of b) whose cells make them possible partners: each row of
    ``b`` sits in its home cell, and each row of ``a`` looks in its one or two query cells per
    coordinate (both in cell units)."""
    home_b = _hash(np.floor(units_b))
    order_b = np.argsort(home_b, kind="stable")
    keys_b = home_b[order_b]
    run_end = _run_ends(keys_b)

    low = np.floor(units_a - REACH)
    two = np.floor(units_a + REACH) > low  # the query spans low and low + 1 on that coordinate
    low_keys = _hash(low)
    order_a = np.argsort(low_keys, kind="stable")
    low_keys, two = low_keys[order_a], two[order_a]
    dimension = units_a.shape[1]
    multipliers = _HASH_MULTIPLIERS[:dimension]
    queries, owners = [], []
    for step in product((0, 1), repeat=dimension):
        wanted = np.all(two[:, np.array(step, dtype=bool)], axis=1)
        offset = np.uint64(sum(s * m for s, m in zip(step, multipliers, strict=True)) % 2**64)
        # Adding a constant to sorted keys keeps them sorted up to one wrap-around, so the
        # search below walks the sorted keys of b nearly in order.
        queries.append(low_keys[wanted] + offset)
        owners.append(order_a[wanted])
    query, owner = np.concatenate(queries), np.concatenate(owners)

    start = np.searchsorted(keys_b, query)
    inside = np.minimum(start, len(keys_b) - 1)
    hit = keys_b[inside] == query
    count = np.where(hit, run_end[inside] - start, 0)
    yield from _expand(owner[hit], start[hit], count[hit], order_b)


def _run_ends(keys: np.ndarray) -> np.ndarray:
    """For each position of sorted ``keys``, the end of the run of equal keys it is in."""
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    return np.repeat(ends, ends - starts)


def _expand(
    owner: np.ndarray, start: np.ndarray, count: np.ndarray, order_b: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pairs (owner, each b row of the run from ``start``), in batches of bounded size."""
    ends = np.cumsum(count)
    first = 0
    while first < len(count):
        last = int(np.searchsorted(ends, ends[first] - count[first] + _BATCH_PAIRS, "right"))
        last = max(last, first + 1)
        counts = count[first:last]
        total = int(counts.sum())
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.repeat(owner[first:last], counts)
        yield rows, order_b[np.repeat(start[first:last], counts) + offsets]
        first = last
