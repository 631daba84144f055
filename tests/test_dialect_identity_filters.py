"""A MATCH's filters run after its pattern on Ladybug
(`dsgqa/dialect/pattern_filters.py`): the translations, and on the example graph a sample of
always-true tests that must not change a count on either engine
(`tests/cypher_fuzz/identity_filters.py` runs them all)."""

from __future__ import annotations

import pytest

from dsgqa.dialect import translate
from dsgqa.dialect.pattern_filters import REWRITE
from tests import external
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.identity_filters import anchored, cases
from tests.ladybug_run import require_ladybug

CHAIN = "MATCH (y)-->(c)-->(b)-->(z)"


def _ladybug(query: str) -> str:
    out = translate(query, "ladybug")
    assert REWRITE in out.rewrites
    return out.query


def test_a_match_tests_after_every_element_is_bound() -> None:
    query = _ladybug(f"{CHAIN} WHERE y.class = z.class AND b.class = 'x' RETURN count(*)")
    # a one-node test goes first, with its node; the rest reads every element
    assert query.startswith("MATCH (b) WHERE b.class = 'x' WITH * MATCH (y)-[_rel1]->(c)")
    assert "WHERE CASE WHEN (y IS NULL OR _rel1 IS NULL OR c IS NULL OR _rel2 IS NULL OR " \
           "b IS NULL OR _rel3 IS NULL OR z IS NULL) THEN (y.class = z.class AND " in query


def test_an_anchor_is_matched_first_with_its_labels_and_map() -> None:
    query = _ladybug("MATCH (y)-->(c)-->(b:MeshPlace {nodeSymbol: 'P754'})-->(z) RETURN count(*)")
    assert query.startswith("MATCH (b:MeshPlace {nodeSymbol: 'P754'}) WITH * "
                            "MATCH (y)-[_rel1]->(c)-[_rel2]->(b)-[_rel3]->(z)")
    # two relationships: as planned (every case tried was right)
    assert "WITH *" not in _ladybug("MATCH (c)-->(b {nodeSymbol: 'P754'})-->(z) RETURN count(*)")


def test_anonymous_elements_are_named_for_the_test() -> None:
    query = _ladybug("MATCH (a:Room)-->()-->(o) WHERE o <> a RETURN count(*)")
    assert "(a:Room)-[_rel1]->(_node1)-[_rel2]->(o)" in query
    assert "_node1 IS NULL" in query


def test_a_later_match_comes_after_a_with() -> None:
    query = _ladybug("MATCH (a)<--(b)<--(c) MATCH (c)<--(y), (b)-->(z) RETURN count(*) AS n")
    assert " END WITH a, b, c MATCH (c)" in query
    query = _ladybug("MATCH (b) WHERE id(b) > 0 MATCH (y)-->(b) RETURN count(*)")
    assert "MATCH (b) WHERE id(b) > 0 WITH * MATCH" in query   # nothing to wait for in (b)
    # a correlated subquery after the MATCH extends from it too
    query = _ladybug("MATCH (a:Room)-[r]-(b) WHERE type(r) = 'ROOM_CONNECTED' "
                     "RETURN COUNT { (b)-->()-->() } AS n")
    assert "WHERE label(r) = 'ROOM_CONNECTED' WITH * RETURN COUNT" in query


def test_an_optional_match_or_subquery_leaves_tests_of_outer_nodes() -> None:
    """A CASE reading an outer node made an EXISTS find nothing: such a test stays as it is."""
    query = _ladybug("MATCH (x:Room)-->(w) OPTIONAL MATCH (x)--(c)--(b) WHERE b <> w AND b <> x "
                     "RETURN count(b)")
    assert "WHERE b <> w AND b <> x AND CASE WHEN (_rel1 IS NULL OR c IS NULL OR " \
           "_rel2 IS NULL OR b IS NULL) THEN _rel1 <> _rel2" in query


@pytest.mark.parametrize("query", [
    "MATCH (o:Object) WHERE o:Object AND id(o) > 0 RETURN count(*)",   # no relationship
    "MATCH (y:Room)-[:CONTAINS]->(c) WHERE c.class = 'x' RETURN count(*)",   # one
])
def test_untouched(query: str) -> None:
    assert REWRITE not in translate(query, "ladybug").rewrites


def test_kuzu_is_untouched() -> None:
    assert REWRITE not in translate(f"{CHAIN} WHERE id(b) > 0 RETURN count(*)", "kuzu").rewrites


@external.needs(external.EXAMPLE_DSG)
def test_an_always_true_identity_test_changes_no_count() -> None:
    require_ladybug()
    pairs = cases()[:24]
    queries = sorted({q for pair in pairs for q in pair})
    at = {q: i for i, q in enumerate(queries)}
    graph = str(external.require(external.EXAMPLE_DSG))
    results = run_engines([{"graph": graph, "queries": queries}])
    for backend in BACKENDS:
        rows = results[backend][0]
        for without, with_test in pairs:
            plain, tested = rows[at[without]], rows[at[with_test]]
            assert plain["valid"], (backend, without, plain["error"])
            if tested["valid"]:
                assert tested["rows"] == plain["rows"], (backend, with_test, tested["executed"])
            else:   # a refusal is honest; anything else is a model charged for nothing
                assert tested["kind"] == "dialect", (backend, with_test, tested["error"])


@external.needs(external.EXAMPLE_DSG)
def test_a_chain_fixed_at_one_node_counts_the_same_on_both_engines() -> None:
    require_ladybug()
    queries = anchored()[:12]
    graph = str(external.require(external.EXAMPLE_DSG))
    found = run_engines([{"graph": graph, "queries": queries}])
    for query, kuzu, ladybug in zip(queries, found["kuzu"][0], found["ladybug"][0],
                                    strict=True):
        assert kuzu["valid"] and ladybug["valid"], query
        assert ladybug["rows"] == kuzu["rows"], (query, ladybug["executed"])


def test_the_with_after_a_filtering_match_keeps_a_node_a_later_pattern_names() -> None:
    """A computed node is matched again by id (`MATCH (_node1) WHERE id(_node1) = id(nn)`,
    `computed_nodes.py`) and named in the next pattern; the WITH between must pass `_node1`
    on, or that pattern matches any node (a held-out query lost its answer this way)."""
    query = _ladybug("MATCH (a:Object), (b:Object) WHERE a <> b WITH a, b ORDER BY a.center.x "
                     "WITH a, collect(b)[0] AS nn "
                     "MATCH (ra:Room)-[:CONTAINS]->(:MeshPlace)-[:CONTAINS]->(a) "
                     "MATCH (rb:Room)-[:CONTAINS]->(:MeshPlace)-[:CONTAINS]->(nn) "
                     "WITH DISTINCT a, nn, ra, rb WHERE ra <> rb RETURN count(*) AS n")
    tie = "MATCH (_node1) WHERE id(_node1) = id(nn) WITH "
    assert tie in query
    passed_on = query.split(tie, 1)[1].split(" MATCH ", 1)[0]
    assert passed_on == "*" or "_node1" in passed_on.split(", ")
