"""SLDP set matching: the grid index and the vectorised join find exactly the partners a
brute-force pairwise comparison finds, at the tolerance edge, on cell boundaries, below zero,
with duplicates, and for numbers the grid cannot hold."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsgqa.sldp import Point, SLDPSet, match, parse_sldp, point_join, sldp_equals, sldp_score
from dsgqa.sldp.equality import effective_tol, equal
from dsgqa.sldp.grid import CELL_PER_TOL
from dsgqa.sldp.match import Index, cover, signature
from dsgqa.sldp.point_join import flat_cover, flat_rows
from dsgqa.sldp.values import Value

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = effective_tol(0.01)


def brute_cover(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> tuple[list, list]:
    """The definition: an item is covered when some item of the other side equals it."""
    return (
        [any(equal(x, y, tol) for y in b) for x in a],
        [any(equal(y, x, tol) for x in a) for y in b],
    )


def python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Route every set comparison through the per-item index, never the vectorised join."""
    monkeypatch.setattr(match, "_JOIN_MIN_PAIRS", math.inf)


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
def test_vectorised_join_agrees_with_brute_force(case: tuple) -> None:
    given_tol, a, b = case
    tol = effective_tol(given_tol)
    assert flat_cover(a, b, tol) == brute_cover(a, b, tol)


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


@PROPERTY
@given(edge_sets(), st.randoms(use_true_random=False))
def test_large_sets_score_as_the_brute_force_coverage(case: tuple, rng: random.Random) -> None:
    """Padded with shared far-away items so the comparison takes the vectorised join."""
    given_tol, a, b = case
    padding = [_far_item(a[0], i) for i in range(80)]
    big_a, big_b = [*a, *padding], [*b, *padding]
    rng.shuffle(big_a)
    rng.shuffle(big_b)
    answer, solution = SLDPSet(tuple(big_a)), SLDPSet(tuple(big_b))
    distinct = (_distinct(answer.items), _distinct(solution.items))
    found_a, found_b = brute_cover(*distinct, effective_tol(given_tol))
    score = sldp_score(answer, solution, tol=given_tol)
    assert score.precision == sum(found_a) / len(found_a)
    assert score.recall == sum(found_b) / len(found_b)
    assert score.equal == sldp_equals(answer, solution, given_tol) == all(found_a + found_b)


def _far_item(like: Value, serial: int) -> Value:
    if isinstance(like, Point):
        return Point((1000.0 + serial, *([-7.5] * (len(like.coords) - 1))))
    return 1000.0 + serial


def _distinct(items: tuple[Value, ...]) -> tuple[Value, ...]:
    return tuple(dict.fromkeys(items))


@PROPERTY
@given(edge_sets(), st.randoms(use_true_random=False))
def test_join_and_index_give_identical_scores_and_reasons(
    case: tuple, rng: random.Random
) -> None:
    given_tol, a, b = case
    padding = [_far_item(a[0], i) for i in range(80)]
    answer = SLDPSet((*a, *padding[: rng.randint(60, 80)]))
    solution = SLDPSet((*b, *padding))
    joined = sldp_score(answer, solution, given_tol)
    with pytest.MonkeyPatch.context() as patch:
        python_path(patch)
        indexed = sldp_score(answer, solution, given_tol)
    assert joined == indexed


# ----------------------------------------------------------------------------- named cases


def _points(coords: list[tuple[float, ...]]) -> SLDPSet:
    return SLDPSet(tuple(Point(c) for c in coords))


def _grid_points(count: int) -> list[tuple[float, float, float]]:
    """Points 1 apart, so no two are partners, with both signs."""
    return [(float(i % 13 - 6), float(i // 13 - 6), 0.5) for i in range(count)]


@pytest.mark.parametrize("join", [True, False])
def test_points_exactly_at_the_tolerance_are_equal(
    join: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not join:
        python_path(monkeypatch)
    base = _grid_points(100)
    at_edge = [(x + 0.01, y - 0.01, z + 0.01) for x, y, z in base]
    beyond = [*at_edge[:-1], (base[-1][0] + 0.0100001, *base[-1][1:])]
    assert sldp_equals(_points(at_edge), _points(base))
    score = sldp_score(_points(beyond), _points(base))
    assert not score.equal
    assert (score.precision, score.recall) == (0.99, 0.99)


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


@pytest.mark.parametrize("join", [True, False])
def test_sets_straddling_zero_and_cell_boundaries(
    join: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not join:
        python_path(monkeypatch)
    cell = CELL_PER_TOL * TOL
    boundaries = [k * cell for k in range(-40, 40)]
    below = [(x - 0.006, -x - 0.004) for x in boundaries]  # partners across the boundary
    above = [(x + 0.004, -x + 0.006) for x in boundaries]
    assert sldp_equals(_points(below), _points(above))
    too_far = [(x + 0.011, -x) for x in boundaries]
    assert sldp_score(_points(too_far), _points(below)).f1 == 0.0


@pytest.mark.parametrize("join", [True, False])
def test_duplicates_and_near_duplicates_do_not_need_partners_of_their_own(
    join: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mutual inclusion, not one-to-one pairing: three near copies of one point all equal the
    one solution point, and no solution point has to be used only once."""
    if not join:
        python_path(monkeypatch)
    base = _grid_points(90)
    crowded = [p for x, y, z in base for p in ((x, y, z), (x + 0.008, y, z), (x, y, z))]
    assert sldp_equals(_points(crowded), _points(base))
    assert sldp_score(_points(crowded), _points(base)).equal
    missing_one = sldp_score(_points(crowded[3:]), _points(base))
    assert (missing_one.precision, missing_one.recall) == (1.0, 89 / 90)


def test_many_items_in_one_cell_are_checked_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(point_join, "_BATCH_PAIRS", 5)
    rng = random.Random(3)
    a = tuple(Point((rng.uniform(0, 0.02), rng.uniform(0, 0.02))) for _ in range(60))
    b = tuple(Point((rng.uniform(0, 0.03), rng.uniform(0, 0.03))) for _ in range(70))
    assert flat_cover(a, b, TOL) == brute_cover(a, b, TOL)


@pytest.mark.parametrize(
    "items",
    [
        (1.0, Point((1.0, 2.0))),  # numbers and points together
        (Point((1.0, 2.0)), Point((1.0, 2.0, 3.0))),  # two dimensions
        (Point((1.0, 2.0)), "a"),
        (2**1100, 1.0),  # an int beyond float range
    ],
)
def test_sets_the_join_cannot_hold_go_through_the_index(items: tuple) -> None:
    assert flat_rows(items) is None
    assert flat_cover(items, items, TOL) is None


@pytest.mark.parametrize(
    "coords",
    [
        [(1e300, 0.0), (-1e300, 1.0)],  # beyond the grid's range
        [(2**53 + 1, 0), (2**53 + 3, 0)],  # ints that floats cannot hold exactly
        [(math.inf, 0.0), (-math.inf, 1.0)],
    ],
)
def test_magnitudes_beyond_the_grid_are_still_compared_exactly(
    coords: list[tuple[float, ...]],
) -> None:
    padding = _grid_points(80)
    solution = [(x, y, 0.0) for x, y in coords] + padding
    answer = [(x, y + 0.005, 0.0) for x, y in coords] + padding
    assert flat_cover(tuple(map(Point, answer)), tuple(map(Point, solution)), TOL) is None
    assert sldp_equals(_points(answer), _points(solution))
    # As floats both would be 2**53; as the ints they are, they are 1 apart.
    exact_ints = _points([(2**53 + 1, 0, 0), *padding])
    assert not sldp_equals(exact_ints, _points([(2**53, 0, 0), *padding]), tol=0.5)


def test_large_jittered_text_sets_compare_equal_both_ways() -> None:
    rng = random.Random(5)
    points = [(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(0, 3)) for _ in range(500)]
    moved = [tuple(c + rng.choice([-0.002, 0.002]) for c in p) for p in points]
    rng.shuffle(moved)

    def text(ps: list[tuple[float, ...]]) -> str:
        return "<" + ", ".join(f"POINT({x!r} {y!r} {z!r})" for x, y, z in ps) + ">"

    answer, solution = text(moved), text(points)
    assert sldp_equals(answer, solution) and sldp_equals(solution, answer)
    assert not sldp_equals(answer, solution, tol=0.001)
    assert flat_cover(parse_sldp(answer).items, parse_sldp(solution).items, TOL) is not None
