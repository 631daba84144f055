"""SLDP set matching: the grid index finds exactly the partners a brute-force pairwise
comparison finds, at the tolerance edge, on cell boundaries, below zero and with duplicates."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsgqa.sldp import Point, sldp_equals, sldp_score
from dsgqa.sldp.equality import effective_tol, equal
from dsgqa.sldp.grid import CELL_PER_TOL
from dsgqa.sldp.match import Index, cover, signature
from dsgqa.sldp.values import Value

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = effective_tol(0.01)


def brute_cover(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> tuple[list, list]:
    """The definition: an item is covered when some item of the other side equals it."""
    return (
        [any(equal(x, y, tol) for y in b) for x in a],
        [any(equal(y, x, tol) for x in a) for y in b],
    )


# ----------------------------------------------------------------------------- edge strategy


def _nudged(x: float, ulps: int) -> float:
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.copysign(math.inf, ulps))
    return x


@st.composite
def edge_sets(draw: st.DrawFn) -> tuple[float, tuple[Value, ...], tuple[Value, ...]]:
    """(tolerance as given, a, b): flat sets (numbers, 2-D or 3-D points) whose items sit on
    cell boundaries and around zero, moved from a few shared anchors by exactly the tolerance,
    half of it, or nothing, each give or take a few ulps, so partners are often exactly at the
    edge."""
    given_tol = draw(st.sampled_from([0.01, 0.001, 0.1, 0.25, 1.0, 3.0]))
    tol = effective_tol(given_tol)
    dimension = draw(st.sampled_from([1, 2, 3]))
    steps = st.sampled_from([0.0, tol, -tol, tol / 2, -tol / 2, 1e-20, -1e-20, 2 * tol])
    ulps = st.integers(-2, 2)

    def anchor() -> float:
        unit = draw(st.sampled_from([tol, CELL_PER_TOL * tol, 0.3]))
        return _nudged(draw(st.integers(-6, 6)) * unit, draw(ulps))

    anchors = [
        tuple(anchor() for _ in range(dimension)) for _ in range(draw(st.integers(1, 4)))
    ]

    def item() -> Value:
        coords = list(draw(st.sampled_from(anchors)))
        for i in range(dimension):
            coords[i] = _nudged(coords[i] + draw(steps), draw(ulps))
        return coords[0] if dimension == 1 else Point(tuple(coords))

    def side() -> tuple[Value, ...]:
        items = [item() for _ in range(draw(st.integers(1, 10)))]
        return tuple(items + items[: draw(st.integers(0, 3))])  # exact duplicates too

    return given_tol, side(), side()


# ----------------------------------------------------------------------------- agreement


@PROPERTY
@given(edge_sets())
def test_grid_index_finds_exactly_the_partners(case: tuple) -> None:
    given_tol, a, b = case
    tol = effective_tol(given_tol)
    index = Index(b, tol, equal)
    for x in a:
        expected = [j for j, y in enumerate(b) if equal(x, y, tol)]
        assert sorted(index.partners(x, signature(x))) == expected
        assert index.has_partner(x, signature(x)) == bool(expected)
    assert cover(a, b, tol, equal) == brute_cover(a, b, tol)


# ----------------------------------------------------------------------------- named cases


def test_a_partner_one_rounding_beyond_the_tolerance_is_found() -> None:
    """``0.01000001 - (-1e-20)`` rounds to the tolerance, so the two are equal; a grid query
    reaching from ``x - tol`` (exactly 0) would look in cell 0 and miss cell -1."""
    edge, below_zero = TOL, -1e-20
    assert equal(edge, below_zero, TOL)
    far = [float(k) for k in range(5, 70)]
    for a, b in (((edge, *far), (below_zero, *far)), ((below_zero, *far), (edge, *far))):
        assert cover(a, b, TOL, equal) == brute_cover(a, b, TOL) == ([True] * 66, [True] * 66)
        assert Index(b, TOL, equal).partners(a[0], signature(a[0])) == [0]
    text = ", ".join(map(repr, far))
    assert sldp_equals(f"<0.01000001, {text}>", f"<-1e-20, {text}>")
    assert sldp_score(f"<0.01000001, {text}>", f"<-1e-20, {text}>").equal
