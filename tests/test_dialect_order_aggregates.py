"""An aggregate repeated in the ORDER BY of an aggregating WITH or RETURN (`order_by.py`).

Neo4j 5 replaces a sort key (or a part of one) equal to a projected expression by its alias
before it resolves names (`NormalizeWithAndReturnClauses.aliasExpression`), comparing the
expressions as its AST does (function names in any case, string literals by value); an
aggregate left after that is an error ("Illegal aggregation expression(s) in order by",
`OrderBy.checkIllegalOrdering`). Which forms Neo4j rejects was read from its own front end
(`@neo4j-cypher/language-support`, `CYPHER 5` prefix). The rows are checked on both engines by
the regression cases (`tests/cypher_fuzz/regressions.py`, `aggregate_in_*order_by*`).
"""

from __future__ import annotations

import pytest

from dsgqa.dialect import CypherSyntaxError, translate

PLACES = "MATCH (n1:MeshPlace) OPTIONAL MATCH (n1)-[:CONTAINS]->(n2:Object) "
SHARE = "avg(n2.center.z / size(n1.nodeSymbol))"
OBJECTS = "MATCH (o:Object) "

# (query, the ORDER BY the translation must end with, on both engines)
AS_COLUMN = [
    # the NaN rank before a float key reads the column too, not the aggregate again
    (f"{PLACES}RETURN n1.nodeSymbol AS n1, {SHARE} AS g0 ORDER BY {SHARE} DESC",
     "ORDER BY CASE WHEN `g0` IS NULL THEN 2 WHEN `g0` <> `g0` THEN 1 ELSE 0 END DESC, "
     "`g0` + 0.0 DESC"),
    (f"{PLACES}RETURN n1.nodeSymbol AS n1, percentileDisc(n2.center.z / size(n1.nodeSymbol), "
     "0.5) AS g0 ORDER BY percentileDisc(n2.center.z / size(n1.nodeSymbol), 0.5) DESC",
     "ORDER BY CASE WHEN `g0` IS NULL THEN 2 WHEN `g0` <> `g0` THEN 1 ELSE 0 END DESC, "
     "`g0` + 0.0 DESC"),
    # Neo4j's AST equality: function names and DISTINCT in any case, strings by value
    (f"{OBJECTS}RETURN o.class AS c, COUNT(o) AS n ORDER BY count(o) DESC, c",
     "ORDER BY `n` DESC, c"),
    (f"{OBJECTS}RETURN o.class AS c, count(distinct o.nodeSymbol) AS n "
     "ORDER BY count(DISTINCT o.nodeSymbol) DESC",
     "ORDER BY `n` DESC"),
    (f"{OBJECTS}RETURN o.class AS c, collect(o.class + 'a') AS n "
     "ORDER BY size(collect(o.class + \"a\")) DESC",
     "ORDER BY size(`n`) DESC"),
    # a part equal to an item, reading no alias that redefines a name
    (f"{OBJECTS}RETURN o.class AS c, count(*) + 1 AS n ORDER BY count(*) + 1 + 2 DESC",
     "ORDER BY `n` + 2 DESC"),
    (f"{OBJECTS}RETURN o.class AS c, count(o) AS n "
     "ORDER BY CASE WHEN count(o) > 3 THEN 0 ELSE 1 END",
     "ORDER BY CASE WHEN `n` > 3 THEN 0 ELSE 1 END"),
]

ILLEGAL = [
    # no item equals the aggregate
    f"{OBJECTS}RETURN o.class AS c, count(o) AS n ORDER BY max(o.center.x) DESC",
    f"{OBJECTS}WITH o.class AS c, count(o) AS n ORDER BY sum(o.center.x) RETURN c, n",
    f"{OBJECTS}RETURN DISTINCT o.class AS c, count(o) AS n ORDER BY count(o.nodeSymbol)",
    f"{OBJECTS}RETURN o.class AS c, count(o) AS n "
    "ORDER BY size([x IN collect(o.center.x) WHERE x > 0 | x]) DESC",
    # `count(*) + 1` is no part of `(2 + count(*)) + 1` (Neo4j's own example)
    f"{OBJECTS}RETURN o.class AS c, count(*) + 1 AS n ORDER BY 2 + count(*) + 1 DESC",
    # a part equal to an item but reading a variable an alias shadows: in the ORDER BY the
    # name is the alias, so the two differ
    f"{PLACES}RETURN n1.nodeSymbol AS n1, max(size(n1.nodeSymbol)) AS g0 "
    "ORDER BY max(size(n1.nodeSymbol)) + 1 DESC",
    f"{OBJECTS}WITH o, o.class AS c RETURN c AS o, count(o) AS n ORDER BY count(o) + 1",
]

# Neo4j answers these: an aggregate projected on its own, in a whole key even where it reads
# a shadowed name, inside a comprehension, in a subquery; a star projection is not checked.
VALID = [
    f"{PLACES}RETURN n1.nodeSymbol AS n1, max(size(n1.nodeSymbol) + n2.center.z) AS g0 "
    "ORDER BY max(size(n1.nodeSymbol) + n2.center.z) DESC",
    f"{PLACES}WITH n1.nodeSymbol AS n1, {SHARE} AS g0 ORDER BY {SHARE} DESC RETURN n1, g0",
    f"{PLACES}RETURN n1.nodeSymbol AS n1, {SHARE} ORDER BY {SHARE} DESC",
    f"{OBJECTS}RETURN o.class AS c, collect(o.center.x) AS xs "
    "ORDER BY size([x IN collect(o.center.x) WHERE x > 0 | x]) DESC",
    f"{OBJECTS}RETURN o.class AS c, count(o) AS n "
    "ORDER BY COUNT { MATCH (p:Object) WHERE p.class = c } DESC",
    f"{OBJECTS}RETURN o.class AS o ORDER BY o.class",
    f"{OBJECTS}RETURN o.class AS c, count(o) AS n ORDER BY c, n DESC",
]


@pytest.mark.parametrize(("query", "order"), AS_COLUMN)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_a_sort_key_equal_to_an_item_reads_its_column(query: str, order: str,
                                                       target: str) -> None:
    assert translate(query, target).query.endswith(order)   # type: ignore[arg-type]


def test_with_order_by_reads_the_column_on_both_engines() -> None:
    query = f"{PLACES}WITH n1.nodeSymbol AS n1, {SHARE} AS g0 ORDER BY {SHARE} DESC RETURN n1, g0"
    ladybug = translate(query, "ladybug").query
    assert "ORDER BY CASE WHEN `g0` IS NULL THEN 2 WHEN `g0` <> `g0` THEN 1 ELSE 0 END DESC, " \
        "`g0` + 0.0 DESC" in ladybug
    # Kuzu reads a WITH's aggregate back through an UNWIND (`free_aggregates.py`)
    kuzu = translate(query, "kuzu").query
    assert "ORDER BY CASE WHEN _aggregate1 IS NULL THEN 2 WHEN _aggregate1 <> _aggregate1 " \
        "THEN 1 ELSE 0 END DESC, _aggregate1 + 0.0 DESC" in kuzu


@pytest.mark.parametrize("query", ILLEGAL)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_an_aggregate_no_item_stands_for_is_neo4j_s_error(query: str, target: str) -> None:
    with pytest.raises(CypherSyntaxError, match="Illegal aggregation expression"):
        translate(query, target)   # type: ignore[arg-type]


@pytest.mark.parametrize("query", VALID)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_forms_neo4j_answers_are_translated(query: str, target: str) -> None:
    translate(query, target)   # type: ignore[arg-type]


def test_an_aggregate_in_the_order_by_of_a_projection_without_one_keeps_its_error() -> None:
    with pytest.raises(CypherSyntaxError, match="Cannot use aggregation in ORDER BY"):
        translate(f"{OBJECTS}RETURN o.class AS c ORDER BY count(*) DESC", "ladybug")
