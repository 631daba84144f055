"""Queries Neo4j 5 rejects when it compiles them are the model's syntax errors here too
(`compile_errors.py`), and the valid queries beside them are not.

Each rejected query and each accepted one was checked with Neo4j's own semantic analysis
(`@neo4j-cypher/language-support`'s `lintCypherQuery` with a `CYPHER 5` prefix) and against
Neo4j 5's front-end source, which the module's docstrings name.
"""

from __future__ import annotations

import contextlib

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate

_CONCLUDE = "Query cannot conclude with"

REJECTED = [
    # An aggregate in what a lambda evaluates per element (the list it walks may be one).
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN r.nodeSymbol AS s, "
     "any(x IN collect(m.class) WHERE count(m) > 30) AS l ORDER BY s",
     r"Invalid use of aggregating function count\(\.\.\.\) in this context"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN r.nodeSymbol AS s, "
     "[x IN collect(m.class) WHERE x = 'floor' | size(collect(m))] AS l",
     r"aggregating function collect\(\.\.\.\)"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN reduce(t = 0, x IN collect(m.class) | t + "
     "count(m)) AS l", r"aggregating function count\(\.\.\.\)"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN [1] | stDev(x)] AS l",
     r"aggregating function stDev\(\.\.\.\)"),
    ("MATCH (r:Room) RETURN [(r)-->(m) WHERE count(m) > 1 | m] AS l",
     r"aggregating function count\(\.\.\.\)"),
    ("MATCH (n) RETURN all(x IN [1, 2, 3] WHERE count(*) = 0) AS a",
     "Can't use aggregating expressions inside of expressions executing over lists"),
    ("MATCH (n) RETURN [x IN [1, 2, 3] | count(*)] AS a", "Can't use aggregating expressions"),
    # A query or a CALL { } body that ends in a returning CALL, a MATCH or a WITH; a RETURN
    # before another clause.
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c }",
     f"{_CONCLUDE} CALL"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) }", f"{_CONCLUDE} MATCH"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) WITH m } RETURN r",
     f"{_CONCLUDE} WITH"),
    ("MATCH (r:Room) RETURN r MATCH (m) RETURN m", "RETURN can only be used at the end"),
]

ACCEPTED = [
    # Neo4j puts a WITH * between OPTIONAL MATCH and MATCH before it checks the query
    # (`insertWithBetweenOptionalMatchAndMatch`): its "MATCH cannot follow OPTIONAL MATCH" is
    # never reached.
    "OPTIONAL MATCH (r:Room {nodeSymbol: 'R1'}) MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n",
    "MATCH (r:Room) RETURN count(*) AS n UNION OPTIONAL MATCH (r:Room {nodeSymbol: 'R9'}) "
    "MATCH (m:MeshPlace) RETURN count(*) AS n",
    "OPTIONAL MATCH (r:Room) UNWIND [1] AS x MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n",
    # Aggregates as the list a lambda walks, as reduce()'s start, around a lambda, or inside a
    # subquery the lambda holds.
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN collect(m) | x.class] AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN any(x IN collect(m) WHERE x.class = 'a') AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN reduce(t = count(m), x IN collect(m.class) | t + 1) "
    "AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN count([x IN [1] | x]) AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN collect([x IN [m] | x.class]) AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN [1] | COUNT { (r)-->() }] AS l",
    "MATCH (r:Room) RETURN size([(r)-->(m) | m]) AS l, count(*) AS c",
    # A unit subquery may end a query; a CALL whose body returns, followed by a RETURN.
    "MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c } RETURN c",
]


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "message"), REJECTED)
def test_a_query_neo4j_rejects_is_a_syntax_error(target, cypher, message):
    with pytest.raises(CypherSyntaxError, match=message):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", ACCEPTED)
def test_a_valid_query_beside_them_is_no_syntax_error(target, cypher):
    """Translated, or refused as the engines' shortfall (`dialect`), never the model's."""
    with contextlib.suppress(DialectError):
        translate(cypher, target)
