"""The Ladybug-only `WITH ORDER BY->UNWIND barrier` pass: query in, query out, rows on Ladybug.

Ladybug 0.22.0 drops a WITH's ORDER BY (keeping its SKIP/LIMIT) when an aggregation follows;
the pass puts `UNWIND [0] AS _orderN` after such a WITH (dsgqa/dialect/order_barrier.py). The
rows come from Ladybug in one fresh interpreter (`python -m dsgqa.engine_rows`, Kuzu is loaded
here) and must equal both the hand-checked rows and Kuzu's, which never gets the barrier.
"""

from __future__ import annotations

import json

import pytest

from dsgqa.conformance import tiny_graph
from dsgqa.dialect import translate
from dsgqa.dialect.order_barrier import REWRITE
from dsgqa.engine_rows import engine_rows
from dsgqa.graphstore.write_guard import write_violation
from tests.ladybug_run import run_json_lines

OBJECTS = "MATCH (o:Object)"  # tiny graph: x of O1..O5 = 1, 2, 3, 9, 6
ROOM_OBJECT = "MATCH (r:Room)-[:CONTAINS]->(:Place)-[:CONTAINS]->(o:Object)"

# (Neo4j query, the query Ladybug runs, the rows Neo4j gives on the tiny graph)
CASES = [
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 3 RETURN collect(o.nodeSymbol) AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 3 UNWIND [0] AS _order1 "
     "RETURN coalesce(collect(o.nodeSymbol), []) AS s",
     [[["O4", "O5", "O3"]]]),
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 2 RETURN sum(o.center.x) AS s, "
     "count(*) AS n",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 2 UNWIND [0] AS _order1 "
     "RETURN (coalesce(sum(o.center.x), 0) + 0) AS s, count(*) AS n",
     [[15.0, 2]]),
    (f"{OBJECTS} WITH o ORDER BY o.center.x SKIP 1 LIMIT 2 RETURN collect(o.nodeSymbol) AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x SKIP 1 LIMIT 2 UNWIND [0] AS _order1 "
     "RETURN coalesce(collect(o.nodeSymbol), []) AS s",
     [[["O2", "O3"]]]),
    # no SKIP/LIMIT: `SKIP 0` (Kuzu's rule) and the barrier
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC RETURN head(collect(o.nodeSymbol)) AS first",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC SKIP 0 UNWIND [0] AS _order1 "
     "RETURN list_concat(coalesce(collect(o.nodeSymbol), []), CAST([NULL] AS STRING[]))[1] "
     "AS first",
     [["O4"]]),
    # the aggregation in a later WITH, after a filtering WITH
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 3 WITH o WHERE o.class <> 'bed' "
     "WITH collect(o) AS os RETURN [x IN os | x.nodeSymbol] AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 3 UNWIND [0] AS _order1 "
     "WITH o WHERE o.class <> 'bed' WITH coalesce(collect(o), []) AS os "
     "RETURN list_transform(os, x -> x.nodeSymbol) AS s",
     [[["O4", "O3"]]]),
    # WITH * never carries the generated name
    (f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 2 WITH * RETURN collect(o.nodeSymbol) AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 2 UNWIND [0] AS _order1 WITH o "
     "RETURN coalesce(collect(o.nodeSymbol), []) AS s",
     [[["O1", "O2"]]]),
    # grouped: not affected in Ladybug 0.22.0, barred all the same (one rule)
    (f"{ROOM_OBJECT} WITH r, o ORDER BY o.center.x DESC RETURN r.nodeSymbol AS r, "
     "collect(o.nodeSymbol) AS s ORDER BY r",
     f"{ROOM_OBJECT} WITH r, o ORDER BY o.center.x DESC SKIP 0 UNWIND [0] AS _order1 "
     "RETURN r.nodeSymbol AS r, coalesce(collect(o.nodeSymbol), []) AS s ORDER BY r",
     [["R1", ["O1"]], ["R2", ["O3", "O2", "O2"]], ["R3", ["O5"]]]),
    # an ordered WITH over an aggregation, then another aggregation
    (f"{ROOM_OBJECT} WITH r, count(DISTINCT o) AS n ORDER BY n DESC, r.nodeSymbol LIMIT 2 "
     "RETURN collect(r.nodeSymbol) AS s",
     f"{ROOM_OBJECT} WITH r, count(DISTINCT o) AS n ORDER BY n DESC, r.nodeSymbol LIMIT 2 "
     "UNWIND [0] AS _order1 RETURN coalesce(collect(r.nodeSymbol), []) AS s",
     [[["R2", "R1"]]]),
    # nothing to order: the aggregation's empty value, as in Neo4j
    ("MATCH (o:Object {class: 'piano'}) WITH o ORDER BY o.center.x LIMIT 2 "
     "RETURN collect(o.nodeSymbol) AS s, count(*) AS n",
     "MATCH (o:Object {class: 'piano'}) WITH o ORDER BY o.center.x LIMIT 2 "
     "UNWIND [0] AS _order1 RETURN coalesce(collect(o.nodeSymbol), []) AS s, count(*) AS n",
     [[[], 0]]),
    # each part of a UNION gets its own
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 1 RETURN collect(o.nodeSymbol) AS s "
     f"UNION ALL {OBJECTS} WITH o ORDER BY o.center.x LIMIT 1 RETURN collect(o.nodeSymbol) AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 1 UNWIND [0] AS _order1 "
     "RETURN coalesce(collect(o.nodeSymbol), []) AS s SKIP 0 UNION ALL "
     f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 1 UNWIND [0] AS _order2 "
     "RETURN coalesce(collect(o.nodeSymbol), []) AS s SKIP 0",
     [[["O1"]], [["O4"]]]),   # a UNION defines no order: the rows come in canonical order
    # no aggregation after the ordered WITH: no barrier (Ladybug keeps this order)
    (f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 2 RETURN o.nodeSymbol AS s",
     f"{OBJECTS} WITH o ORDER BY o.center.x DESC LIMIT 2 RETURN o.nodeSymbol AS s",
     [["O4"], ["O5"]]),
]
QUERIES = [neo4j for neo4j, _, _ in CASES]


@pytest.mark.parametrize(("neo4j", "ladybug", "rows"), CASES)
def test_ladybug_translation(neo4j, ladybug, rows) -> None:
    translation = translate(neo4j, "ladybug")
    assert translation.query == ladybug
    assert (REWRITE in translation.rewrites) == ("_order1" in ladybug)
    assert write_violation(translation.query) is None  # the guard still reads the rewrite


@pytest.mark.parametrize("neo4j", QUERIES)
def test_kuzu_never_gets_the_barrier(neo4j) -> None:
    translation = translate(neo4j, "kuzu")
    assert "UNWIND [0]" not in translation.query and REWRITE not in translation.rewrites
    # The other differences between the targets: a star is spelled out, Kuzu reads a WITH's
    # aggregates back through an UNWIND (`free_aggregates`) and guards a field of a value that
    # may be NULL (`null_struct`: a list element read by position).
    if "*" not in neo4j and "_aggregate" not in translation.query \
            and "IS NULL THEN NULL ELSE (" not in translation.query:
        assert translate(neo4j, "ladybug").query.replace(" UNWIND [0] AS _order1", "").replace(
            " UNWIND [0] AS _order2", "") == translation.query


def test_the_generated_name_avoids_the_query_s_names() -> None:
    query = ("UNWIND [1, 2] AS _order1 WITH _order1 ORDER BY _order1 DESC LIMIT 1 "
             "RETURN collect(_order1) AS s")
    assert "UNWIND [0] AS _order2 " in translate(query, "ladybug").query


def test_return_star_never_shows_the_generated_name() -> None:
    query = (f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 2 WITH count(*) AS n, "
             "collect(o) AS os RETURN *")
    text = translate(query, "ladybug").query
    # The star is spelled out for the count's own generated name (`free_aggregates`).
    assert "UNWIND [0] AS _order1 " in text and text.endswith("RETURN n, os")
    query = f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 2 WITH *, 1 AS one RETURN count(*)"
    assert "UNWIND [0] AS _order1 WITH o, 1 AS one RETURN" in translate(query, "ladybug").query


def test_an_aggregate_inside_a_subquery_needs_no_barrier() -> None:
    query = (f"{OBJECTS} WITH o ORDER BY o.center.x LIMIT 2 "
             "RETURN o.nodeSymbol, COUNT { MATCH (o)<-[:CONTAINS]-(p:Place) } AS parents")
    assert REWRITE not in translate(query, "ladybug").rewrites


@pytest.fixture(scope="module")
def ladybug_rows() -> list[dict]:
    """Every case on Ladybug, from one `python -m dsgqa.engine_rows` run (tiny graph)."""
    results = run_json_lines("dsgqa.engine_rows", "--backend", "ladybug",
                             stdin=json.dumps(QUERIES), timeout=300)
    assert len(results) == len(QUERIES)
    return results


@pytest.fixture(scope="module")
def kuzu_rows(tmp_path_factory) -> list[dict]:
    return list(engine_rows("kuzu", tiny_graph(), QUERIES, tmp_path_factory.mktemp("tiny")))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_ladybug_gives_neo4j_s_rows(ladybug_rows, kuzu_rows, case) -> None:
    _, ladybug, rows = CASES[case]
    result = ladybug_rows[case]
    assert result["valid"], result["error"]
    assert result["executed"] == ladybug
    assert result["rows"] == rows
    assert kuzu_rows[case]["rows"] == rows, kuzu_rows[case]["executed"]
