"""Execution accuracy: the model's rows against the reference query's rows."""

from __future__ import annotations

import pytest

from dsgqa.execution_match import reference_orders, rows_match


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


@pytest.mark.parametrize(("query", "expected"), [
    ("MATCH (r:Room) RETURN r.nodeSymbol ORDER BY r.nodeSymbol", True),
    ("MATCH (r:Room) WITH r ORDER BY r.nodeSymbol RETURN collect(r.nodeSymbol)", False),
    ("MATCH (o:Object) RETURN count(o)", False),
    ("match (r) return r order by r.x desc limit 3", True),
])
def test_the_reference_orders_only_through_its_final_return(query, expected) -> None:
    assert reference_orders(query) is expected
