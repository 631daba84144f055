"""Execution accuracy: the model's rows against the reference query's rows."""

from __future__ import annotations

import pytest

from dsgqa.execution_match import reference_order, rows_match


@pytest.mark.parametrize(("rows", "reference", "ordered", "expected"), [
    ([[1, "a"], [2, "b"]], [[2, "b"], [1, "a"]], False, True),      # a multiset: order free
    ([[1, "a"], [2, "b"]], [[2, "b"], [1, "a"]], True, False),      # the reference orders
    ([[3.0]], [[3]], False, True),                                 # int and float alike
    ([[2.004]], [[2.0]], False, True),                             # within the SLDP tolerance
    ([[2.5]], [[2.0]], False, False),
    ([[{"x": 1.0, "y": 2.0, "z": 0.001}]], [[{"x": 1, "y": 2, "z": 0}]], False, True),  # points
    ([[["R1", "R2"]]], [[["R1", "R2"]]], False, True),              # lists elementwise
    ([[1], [1]], [[1]], False, False),                              # duplicates count
    ([[1, 2]], [[1]], False, False),                                # column count
    ([], [], False, True),
])
def test_rows_match(rows, reference, ordered, expected) -> None:
    assert rows_match(rows, reference, ordered) is expected


def test_column_names_play_no_part() -> None:
    # rows carry no names: a model aliasing `count(o) AS n` vs `AS objects` still matches
    assert rows_match([[65]], [[65]], ordered=False)


def test_a_one_to_one_pairing_is_found_where_a_greedy_one_fails() -> None:
    """0.995 is near both 1.0 and 0.99; pairing it with 1.0 (the first it meets) would leave
    1.005 with 0.99, 0.015 apart. The pairing 0.995-0.99, 1.005-1.0 exists and is found."""
    assert rows_match([[0.995], [1.005]], [[1.0], [0.99]], ordered=False)
    assert rows_match([["a", 0.995], ["a", 1.005]], [["a", 1.0], ["a", 0.99]], ordered=False)
    assert not rows_match([[0.995], [0.995]], [[0.98], [1.0]], ordered=False)  # none exists


def test_an_exact_twin_is_re_paired_when_another_row_needs_it() -> None:
    """1.0 has an exact twin, but 1.009 is near only that 1.0 (0.992 is 0.017 away): the one
    perfect pairing is 1.0-0.992 and 1.009-1.0, so exact twins are a start, not final."""
    assert rows_match([[1.0], [1.009]], [[1.0], [0.992]], ordered=False)
    assert rows_match([[1.009], [1.0]], [[0.992], [1.0]], ordered=False)


def test_long_tolerance_chains_are_paired_without_recursion() -> None:
    """Row i sits between reference rows i and i+1 and the last row fits only reference row 0,
    so the one perfect pairing shifts every other one: a path longer than the recursion
    limit."""
    n = 1100
    reference = [[i * 0.015] for i in range(n)]
    given = [[i * 0.015 + 0.0075] for i in range(n - 1)] + [[-0.005]]
    assert rows_match(given, reference, ordered=False)
    assert not rows_match([*given[:-1], [-0.5]], reference, ordered=False)


def test_many_rows_in_another_order() -> None:
    rows = [[f"O{i}", i * 0.5, {"x": i, "y": 0.0, "z": 1.0}] for i in range(2000)]
    assert rows_match(rows[::-1], rows, ordered=False)
    nudged = [[s, x + 0.004, p] for s, x, p in rows]
    assert rows_match(nudged, rows, ordered=False)
    assert not rows_match([*nudged[:-1], ["O1999", 1.0, rows[-1][2]]], rows, ordered=False)


@pytest.mark.parametrize(("query", "expected"), [
    ("MATCH (r:Room) RETURN r.nodeSymbol ORDER BY r.nodeSymbol", True),
    ("MATCH (r:Room) WITH r ORDER BY r.nodeSymbol RETURN collect(r.nodeSymbol)", False),
    ("MATCH (o:Object) RETURN count(o)", False),
    ("match (r) return r order by r.x desc limit 3", True),
    # an ordered WITH that only order-keeping projections follow orders the rows (Neo4j's
    # plan keeps the sort's order through them, and Heracles shows the model the rows so)
    ("MATCH (r:Room) WITH r ORDER BY r.center.x LIMIT 2 RETURN r.nodeSymbol", True),
    ("MATCH (o:Object) WITH o.class AS c, avg(o.center.z) AS z ORDER BY z DESC LIMIT 3 "
     "WITH c WHERE c <> 'x' RETURN c", True),
    # ...but not through an aggregation, a DISTINCT or another MATCH
    ("MATCH (r:Room) WITH r ORDER BY r.center.x LIMIT 2 RETURN DISTINCT r.class", False),
    ("MATCH (r:Room) WITH r ORDER BY r.center.x LIMIT 2 MATCH (r)-->(m) RETURN m.nodeSymbol",
     False),
    # the words in a string, a comment or a name are not an ORDER BY
    ("MATCH (r:Room) RETURN 'ORDER BY' AS text", False),
    ("MATCH (r:Room) RETURN r.nodeSymbol // ORDER BY r.nodeSymbol", False),
    ("MATCH (r:Room) RETURN r.`order by` AS x", False),
    ("MATCH (r:Room) RETURN r.nodeSymbol AS s ORDER BY s UNION "
     "MATCH (r:Room) RETURN r.name AS s ORDER BY s", False),  # a UNION has no defined order
    ("MATCH (r:Room) RETURN r ORDER BY r.nodeSymbol UNION ALL MATCH (p:Place) RETURN p", False),
    ("not Cypher at all ORDER BY x", False),
    ("MATCH (r:Room) RETURN r.nodeSymbol\nORDER\tBY r.nodeSymbol;", True),
    # no ORDER keyword at all: answered without a parse; any case still counts
    ("MATCH (r:Room) RETURN r.border AS b", False),
    ("MATCH (r:Room) RETURN r.nodeSymbol OrDeR By r.nodeSymbol", True),
])
def test_the_reference_orders_only_through_its_final_return(query, expected) -> None:
    assert (reference_order(query) is not None) is expected


@pytest.mark.parametrize(("query", "keys"), [
    ("MATCH (o:Object) RETURN o.class AS c, count(*) AS n ORDER BY n DESC", (1,)),
    ("MATCH (o:Object) WITH o.class AS c, count(*) AS n ORDER BY n DESC LIMIT 3 RETURN c, n",
     (1,)),
    ("MATCH (o:Object) WITH o.class AS c, count(*) AS n ORDER BY n DESC LIMIT 3 RETURN c",
     None),
    ("MATCH (r:Room) RETURN r.nodeSymbol AS s, r.center.x ORDER BY r.center.x DESC, s", (1, 0)),
    ("MATCH (r:Room) RETURN r.nodeSymbol AS `my s` ORDER BY `my s`", (0,)),
    ("MATCH (r:Room) RETURN r.nodeSymbol ORDER BY r.center.x", None),     # key not returned
    ("MATCH (r:Room) RETURN *, r.nodeSymbol AS s ORDER BY s", None),       # columns unknown
])
def test_the_sort_keys_are_found_among_the_returned_columns(query, keys) -> None:
    from dsgqa.execution_match import reference_order

    assert reference_order(query).keys == keys


def test_rows_tied_on_the_sort_keys_compare_in_any_order() -> None:
    """Neo4j returns rows that tie on every sort key in no defined order: a model's query whose
    engine breaks the tie the other way is still right; the order between ties is not."""
    from dsgqa.execution_match import reference_order

    order = reference_order("MATCH (o:Object) RETURN o.class AS c, count(*) AS n "
                            "ORDER BY n DESC")
    reference = [["chair", 8], ["lamp", 3], ["sofa", 3], ["tv", 3], ["bed", 1]]
    ties_swapped = [["chair", 8], ["tv", 3], ["lamp", 3], ["sofa", 3], ["bed", 1]]
    assert rows_match(ties_swapped, reference, order)
    assert not rows_match(ties_swapped, reference, ordered=True)        # keys unknown: strict
    assert not rows_match([["chair", 8], ["lamp", 3], ["sofa", 3], ["bed", 1], ["tv", 3]],
                          reference, order)                           # a tie left its place
    assert not rows_match([["lamp", 3], ["chair", 8], ["sofa", 3], ["tv", 3], ["bed", 1]],
                          reference, order)
    assert rows_match([["chair", 8.004], ["sofa", 3], ["lamp", 3.0], ["tv", 3], ["bed", 1]],
                      reference, order)                               # within the tolerance


def test_the_very_rows_of_the_reference_match_without_conversion_but_only_when_exact() -> None:
    """The shortcut for identical rows agrees with the SLDP rules: identical rows (NaN and
    infinity included) match; rows equal to Python but not to SLDP (True and 1) do not."""
    rows = [["kitchen", 3, 1.5, float("inf"), {"x": 1.0}], ["hall", 2, float("nan"), 0.0, None]]
    same = [["kitchen", 3, 1.5, float("inf"), {"x": 1.0}], ["hall", 2, float("nan"), 0.0, None]]
    assert rows_match(rows, same, ordered=True) and rows_match(rows, same, ordered=False)
    assert [[True]] == [[1]] and not rows_match([[True]], [[1]], ordered=True)
    assert rows_match([[1]], [[1.0]], ordered=True)   # the SLDP rule, not the shortcut
