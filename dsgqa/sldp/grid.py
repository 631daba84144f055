"""The tolerance grid: which cells may hold the partners of a number.

Numbers are bucketed in cells of width ``4 * tol``; a number ``x`` lives in cell
``floor(x / cell)``, and its partners (``|x - y| <= tol``) lie in the cells from
``floor(x / cell - REACH)`` to ``floor(x / cell + REACH)``: one or two cells per coordinate.

Why the reach is wider than the exact ``tol / cell = 1/4``: the closeness test rounds, so a
partner can be a hair more than ``tol`` away, and ``x / cell`` rounds again. Bounding the cell
index by ``MAX_CELL_INDEX`` keeps all that rounding below ``2**-12`` cells, far inside the
margin of ``1/16``. Computing the reach from ``x - tol`` instead (the obvious way) can miss a
partner: ``0.01000001 - 0.01000001`` is exactly 0, so the query stays in cell 0 while ``-1e-20``
(within tolerance of ``0.01000001``, since the difference rounds to ``tol``) sits in cell -1.

Both the partner index (:mod:`dsgqa.sldp.match`) and the vectorised join
(:mod:`dsgqa.sldp.point_join`) use this rule, so they agree on what a candidate is.
"""

from __future__ import annotations

import math

from dsgqa.sldp.values import Number

#: Cell width in tolerances. Wide cells keep most queries to one cell per coordinate.
CELL_PER_TOL = 4.0
#: How far a query reaches, in cells: ``tol / cell`` plus a margin for rounding.
REACH = 1 / CELL_PER_TOL + 1 / 16
#: Largest cell index (in magnitude) that is gridded; beyond it, rounding would exceed the
#: margin, so such numbers are compared with every candidate instead.
MAX_CELL_INDEX = 2.0**40
#: Cells narrower than this (subnormal tolerances) are not gridded: the closeness test's
#: rounding is then no longer small against the cell.
_MIN_CELL = 2.0**-1000


def cell_width(tol: float) -> float | None:
    """The cell width for ``tol``, or ``None`` when the tolerance is too small or too large
    for the rounding bounds above (0 included: exact matching needs no grid)."""
    cell = CELL_PER_TOL * tol
    return cell if _MIN_CELL <= cell < math.inf else None


def scaled(x: Number, cell: float) -> float | None:
    """``x`` in cell units, or ``None`` when it is too large (or not finite) to grid."""
    try:
        u = x / cell
    except OverflowError:  # an int beyond float range
        return None
    return u if -MAX_CELL_INDEX <= u <= MAX_CELL_INDEX else None


def home_cell(u: float) -> int:
    """The cell of a number already in cell units (see :func:`scaled`)."""
    return math.floor(u)


def query_cells(u: float) -> tuple[int, ...]:
    """The one or two cells that may hold partners of a number in cell units."""
    low, high = math.floor(u - REACH), math.floor(u + REACH)
    return (low,) if low == high else (low, high)
