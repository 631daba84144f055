"""The canonical order of a query's rows: total over every value type, NULLs included, the same
in every process; and the run-query stage handing on rows in it whatever order the engine used,
while an ordered query keeps its order."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from decimal import Decimal
from typing import Any

import pytest

from dsgqa.canonical_rows import canonical_rows, canonical_ties, cell_key, row_key
from dsgqa.conformance import tiny_graph
from dsgqa.execution_match import query_order
from dsgqa.graphstore import open_graph_store
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.stages.run_query import run_query
from tests.conftest import PROJECT_ROOT

# One column holding every kind of value a row may hold, mixed.
MIXED: list[Any] = [
    None, True, False, 0, -0.0, 0.0, 1, 1.0, Decimal("1.0"), Decimal("1.00"), -3, 2.5,
    float("inf"), float("-inf"), float("nan"), 10**30, "", "a", "B", "é", "\ud800",
    b"x", [], [1, 2], [1, None], [[1], "a"], (1, 2), {"x": 1.0, "y": 2.0, "z": 0.0},
    {"y": 2.0, "x": 1.0, "z": 0.0, "w": None}, {"_id": {"offset": 3, "table": 0}, "_label": "Room",
                                               "nodeSymbol": "R3"},
    {"b": 1}, {"a": 2}, {1, 2, 3}, frozenset({"a"}),
]


def test_the_order_is_total_over_mixed_types_and_nulls() -> None:
    keys = [cell_key(v) for v in MIXED]
    for a, b in itertools.combinations(keys, 2):
        assert (a < b) or (b < a) or (a == b)       # any two keys compare, never raise
    # distinct values never share a key: the sorted result cannot depend on the input order
    distinct = {repr(v) for v in MIXED}
    assert len({k for k in keys}) == len(distinct)


def test_sorting_does_not_depend_on_the_order_rows_arrive_in() -> None:
    rows = [[v, i % 3] for i, v in enumerate(MIXED)] + [[None, None], [None, 0]]
    expected = repr(canonical_rows(rows))
    generator = random.Random(7)
    for _ in range(20):
        shuffled = rows[:]
        generator.shuffle(shuffled)
        assert repr(canonical_rows(shuffled)) == expected


def test_nulls_come_last_and_types_keep_their_groups() -> None:
    rows = canonical_rows([[None], [3], ["a"], [True], [{"k": 1}], [[1]], [2.5], [None]])
    assert rows == [[{"k": 1}], [[1]], ["a"], [True], [2.5], [3], [None], [None]]


def test_numbers_order_by_value_across_int_float_and_decimal() -> None:
    rows = canonical_rows([[2], [1.5], [Decimal("0.5")], [float("nan")], [-1], [10**20]])
    assert [r[0] for r in rows[:5]] == [-1, Decimal("0.5"), 1.5, 2, 10**20]
    assert rows[5][0] != rows[5][0]                                   # NaN after the numbers
    assert canonical_rows([[1.0], [1]]) == [[1], [1.0]]                  # equal: int first


def test_a_cell_s_own_list_keeps_its_order() -> None:
    assert canonical_rows([[["b", "a"]], [["a", "b"]]]) == [[["a", "b"]], [["b", "a"]]]


def test_maps_compare_by_content_not_by_the_order_of_their_keys() -> None:
    assert cell_key({"x": 1, "y": 2}) == cell_key({"y": 2, "x": 1})
    assert cell_key({"x": 1, "y": 2}) != cell_key({"x": 1, "y": 3})


def test_ties_on_the_sort_keys_are_made_canonical_in_their_place() -> None:
    rows = [["chair", 8], ["tv", 3], ["lamp", 3], ["sofa", 3], ["bed", 1], ["cup", 1]]
    assert canonical_ties(rows, (1,)) == [["chair", 8], ["lamp", 3], ["sofa", 3], ["tv", 3],
                                          ["bed", 1], ["cup", 1]]
    # 1 and 1.0 are tied for Cypher but not identical: left where the engine put them
    assert canonical_ties([["b", 1.0], ["a", 1]], (1,)) == [["b", 1.0], ["a", 1]]


_IN_A_CHILD = """
import json, sys
from dsgqa.canonical_rows import canonical_rows, row_key
rows = [[{"k%d" % i: i, "z": None}, {"s%d" % i, "t"}] for i in range(40)]
rows += [[frozenset({"a", "b", "c"}), {"y": 1, "x": [2, None]}], [None, "é"]]
# a set's repr follows the hash seed; its key (sorted members) does not
sys.stdout.write(repr([row_key(row) for row in canonical_rows(list(reversed(rows)))]))
"""


def test_the_order_is_the_same_in_every_process_whatever_the_hash_seed() -> None:
    """Sets and dicts iterate in an order that depends on `PYTHONHASHSEED` (strings hash
    differently in each process): the canonical order must not."""
    outputs = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(subprocess.run([sys.executable, "-c", _IN_A_CHILD], env=env, check=True,
                                   capture_output=True, text=True, cwd=PROJECT_ROOT).stdout)
    assert len(outputs) == 1


def test_a_query_the_grammar_cannot_read_but_that_orders_keeps_the_engine_s_order() -> None:
    assert query_order("MATCH (r:Room) RETURN r.x ORDER BY r.x") is not None
    assert query_order("MATCH (r:Room) RETURN r.x") is None
    unreadable = query_order("MATCH (r:Room) RETURN r.x ORDER BY r.x @@@")
    assert unreadable is not None and unreadable.keys is None
    assert query_order("MATCH (a) RETURN a.x AS x ORDER BY x UNION MATCH (b) RETURN b.x AS x "
                       "ORDER BY x") is None                     # a UNION defines no order


class _EngineInAnyOrder:
    """A real Kuzu store whose results come back shuffled, as an engine's unordered rows may:
    each call a new order (the order an ORDER BY query returns is left alone)."""

    def __init__(self, store: Any, seed: int) -> None:
        self._store, self._random = store, random.Random(seed)
        self.backend = store.backend

    def query(self, cypher: str, timeout_s: float, max_rows: int,
              distinct_rows: bool = False, max_hops: int | None = None) -> Any:
        from dataclasses import replace

        result = self._store.query(cypher, timeout_s=timeout_s, max_rows=max_rows,
                                   distinct_rows=distinct_rows, max_hops=max_hops)
        if "ORDER BY" in cypher.upper().split("RETURN")[-1]:
            return result
        rows = list(result.rows)
        self._random.shuffle(rows)
        return replace(result, rows=rows)


QUERIES = {
    "unordered": "MATCH (o:Object) RETURN o.nodeSymbol AS s, o.class AS c",
    "distinct": "MATCH (p:Place)-[:CONTAINS]->(o:Object) RETURN DISTINCT p.nodeSymbol AS p",
    "nodes": "MATCH (o:Object) RETURN o, o.center AS at",
    "union": "MATCH (o:Object) RETURN o.nodeSymbol AS s UNION MATCH (r:Room) "
             "RETURN r.nodeSymbol AS s",
    "ordered": "MATCH (o:Object) RETURN o.nodeSymbol AS s ORDER BY o.center.x DESC",
    "tied": "MATCH (o:Object) RETURN o.class AS c, o.nodeSymbol AS s ORDER BY c",
}


@pytest.fixture(scope="module")
def kuzu(tmp_path_factory) -> Any:
    with open_graph_store("kuzu", tiny_graph(), db_root=tmp_path_factory.mktemp("db")) as store:
        yield store


def _rows(store: Any, cypher: str) -> list[list[Any]]:
    attempt = CypherAttempt(uid="q", model="m", cypher=cypher, raw_reply="", usage=LLMUsage())
    outcome = run_query(store, attempt)
    assert outcome.valid, outcome.error
    return outcome.rows


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_stage_hands_on_the_same_rows_whatever_order_the_engine_used(kuzu, name) -> None:
    cypher = QUERIES[name]
    seen = {json.dumps(_rows(_EngineInAnyOrder(kuzu, seed), cypher), sort_keys=True,
                       default=str) for seed in range(6)}
    assert len(seen) == 1
    rows = _rows(kuzu, cypher)
    if name in ("ordered", "tied"):
        return
    assert rows == sorted(rows, key=row_key)                    # and that is the canonical order


def test_an_ordered_query_keeps_its_order(kuzu) -> None:
    descending = _rows(kuzu, QUERIES["ordered"])
    ascending = _rows(kuzu, QUERIES["ordered"].replace("DESC", "ASC"))
    assert len(descending) > 1 and descending == ascending[::-1]
    tied = _rows(kuzu, QUERIES["tied"])
    assert [r[0] for r in tied] == sorted(r[0] for r in tied)   # the engine's order by class
    for _, run in itertools.groupby(tied, key=lambda r: r[0]):
        run = list(run)
        assert run == sorted(run, key=row_key)                  # ties in canonical order
