"""The lexical write guard: what it refuses, and the reads it must let through."""

from __future__ import annotations

import pytest

from dsgqa.graphstore.write_guard import write_violation

REFUSED = [
    "CREATE (n:Object)",
    "match (n) set n.x = 1",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) REMOVE n.name",
    "MERGE (n:Room {nodeSymbol: 'R1'})",
    "DROP TABLE Object",
    "ALTER TABLE Object ADD x INT64",
    "COPY (MATCH (n) RETURN n) TO '/tmp/x.csv'",
    "LOAD FROM 'x.csv' RETURN *",
    "LOAD CSV FROM 'file:///x' AS row RETURN row",
    "INSTALL httpfs",
    "ATTACH 'x.kz' AS other",
    "USE other MATCH (n) RETURN n",
    "EXPORT DATABASE '/tmp/x'",
    "CALL timeout = 0",
    "CALL threads=1",
    "CALL apoc.create.node(['X'], {}) YIELD node RETURN node",
    "CALL project_graph('g', ['Object'], []) RETURN *",
    "CALL { CREATE (n) } RETURN 1",
    "MATCH (n) FOREACH (x IN [1] | SET n.x = x)",
    "RETURN 1; MATCH (n) DELETE n",
    "MATCH (n)\n// harmless\nDELETE n",
    "MATCH (n) RETURN n AS call CALL timeout = 0",   # CALL is never an alias here
    "MATCH (n) WITH n AS x SET n.x = 1",
    "MATCH (n) FINISH SET n.x = 1",
]

ALLOWED = [
    "MATCH (n) RETURN n",
    "MATCH (n) WHERE n.name = 'CREATE TABLE' RETURN n",
    "MATCH (n) WHERE n.name = \"it's SET\" RETURN n",
    "MATCH (n) RETURN n.set, n.`DELETE`, {create: 1, merge: 2}",
    "// CREATE (n)\nMATCH (n) RETURN n",
    "/* DROP TABLE Object */ RETURN 1",
    "MATCH (start:Room)-[*1..2]-(end) RETURN start, end",
    "MATCH (r:Room) WHERE r.class STARTS WITH 'bed' RETURN r",
    "CALL show_tables() RETURN *",
    "CALL table_info('Object') RETURN *",
    "CALL db.labels() YIELD label RETURN label",
    "CALL { MATCH (n) RETURN n } RETURN n",
    "MATCH (n) RETURN n;",
    "MATCH (n) RETURN $set",
    # names given with AS that are write keywords elsewhere, read again as names
    "MATCH (o:Object) RETURN o.name AS comment ORDER BY comment",
    "MATCH (r:Room) WITH r.class AS copy RETURN copy, count(*) AS update ORDER BY update",
    # Neo4j 5's read clauses that may open a query (standalone ORDER BY .. LIMIT, FINISH,
    # OPTIONAL CALL)
    "ORDER BY 1 RETURN 1 AS x",
    "LIMIT 1 RETURN 1 AS x",
    "OFFSET 1 RETURN 1 AS x",
    "FINISH",
    "OPTIONAL CALL { MATCH (m) RETURN m } RETURN m",
]


@pytest.mark.parametrize("cypher", REFUSED)
def test_refused(cypher):
    problem = write_violation(cypher)
    assert problem and "\n" not in problem


@pytest.mark.parametrize("cypher", ALLOWED)
def test_allowed(cypher):
    assert write_violation(cypher) is None
