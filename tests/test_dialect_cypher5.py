"""Neo4j 5's newer clauses and expressions (5.9 to 5.24): translated where the engines can say
the same, refused as `dialect` where not, and never charged to the model as "not Cypher".

Each query's validity under `CYPHER 5` was checked with Neo4j's own semantic analysis
(`@neo4j-cypher/language-support`'s `lintCypherQuery`); the rows of the translated queries are
checked on both engines by `tests/cypher_fuzz/regressions.py` and `test_dialect.py`.
"""

from __future__ import annotations

import pytest

from dsgqa.dialect import DialectError, translate

TARGETS = ("kuzu", "ladybug")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "part"), [
    # Standalone ORDER BY / SKIP / OFFSET / LIMIT (5.24) are `WITH * ...` (the Cypher Manual).
    ("MATCH (m:MeshPlace) ORDER BY m.center.x LIMIT 10 MATCH (m)-[:CONTAINS]->(o:Object) "
     "RETURN count(o) AS objects", "MATCH (m:MeshPlace) WITH * ORDER BY m.center.x LIMIT 10"),
    ("MATCH (r:Room) WITH r ORDER BY r.nodeSymbol DESC LIMIT 3 ORDER BY r.nodeSymbol "
     "RETURN collect(r.nodeSymbol) AS l", "LIMIT 3"),
    ("MATCH (r:Room) SKIP 1 LIMIT 2 RETURN r.nodeSymbol AS s", "WITH * SKIP 1 LIMIT 2"),
    # OFFSET is SKIP, wherever SKIP may stand.
    ("MATCH (r:Room) RETURN r.nodeSymbol AS s ORDER BY s OFFSET 3", "ORDER BY s SKIP 3"),
    ("MATCH (r:Room) WITH r ORDER BY r.nodeSymbol OFFSET 3 RETURN r.nodeSymbol AS s",
     "WITH r ORDER BY r.nodeSymbol SKIP 3"),
    # Nothing in scope: a node of the MATCH is named (the engines refuse `WITH *` there, and
    # ignore the LIMIT of a constant's WITH).
    ("MATCH (:Room) LIMIT 2 RETURN count(*) AS n", "MATCH (_rows1:Room) WITH _rows1 LIMIT 2"),
    # GQL's IS label expressions (Neo4j 5).
    ("MATCH (n IS Room|MeshPlace) RETURN count(n) AS n", "(n:Room:MeshPlace)"),
    ("MATCH (a:Room)-[e IS ROOM_CONNECTED]->(b IS Room) RETURN count(e) AS n",
     "[e:ROOM_CONNECTED]"),
    ("MATCH (is:Room) RETURN is.nodeSymbol AS s", "MATCH (is:Room)"),
    # Type predicates and valueType() of known types, NULL read as Neo4j reads it.
    ("MATCH (o:Object) WHERE o.center.z IS :: FLOAT RETURN count(o) AS n",
     "WHERE (o.center.z IS NULL OR o.center.z IS NOT NULL)"),
    ("MATCH (o:Object) RETURN o.class IS NOT :: INTEGER AS a", "o.class IS NOT NULL AS a"),
    ("MATCH (o:Object) RETURN o.class :: INTEGER | FLOAT AS a", "o.class IS NULL AS a"),
    ("MATCH (o:Object) RETURN o.bbox_dim IS TYPED POINT NOT NULL AS a",
     "o.bbox_dim IS NOT NULL AS a"),
    ("MATCH (o:Object) RETURN o.class IS :: ANY AS a, o.class IS :: PROPERTY VALUE AS b",
     "(o.class IS NULL OR o.class IS NOT NULL) AS b"),
    ("MATCH (r:Room) RETURN collect(r.class) IS :: LIST<STRING> AS a",
     "IS NULL OR coalesce(collect(r.class), []) IS NOT NULL"),
    ("RETURN null IS :: NULL AS a", "(NULL IS NULL OR NULL IS NOT NULL) AS a"),
    ("RETURN CASE 1 WHEN IS :: INTEGER THEN 'i' WHEN IS :: STRING THEN 's' END AS x",
     "CASE WHEN (1 IS NULL OR 1 IS NOT NULL) THEN 'i' WHEN 1 IS NULL THEN 's' END"),
    ("MATCH (r:Room) RETURN valueType(r.nodeSymbol) AS a, valueType(null) AS b",
     "CASE WHEN r.nodeSymbol IS NULL THEN 'NULL' ELSE 'STRING NOT NULL' END AS a, 'NULL' AS b"),
    # IS NORMALIZED: a string's normal form; NULL of any other value.
    ("MATCH (r:Room) RETURN r.class IS NFC NORMALIZED AS a",
     "(neo4j_normalize(r.class, 'NFC') = r.class) AS a"),
    ("MATCH (r:Room) RETURN r.center.x IS NOT NORMALIZED AS a", "NULL AS a"),
    # OPTIONAL CALL (5.24): the outer row kept with NULLs.
    ("MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m:MeshPlace) "
     "RETURN 1 AS one } RETURN r.nodeSymbol AS s, one",
     "OPTIONAL MATCH (r)-[:CONTAINS]->(m:MeshPlace) WITH r, CASE WHEN m IS NULL THEN NULL "
     "ELSE 1 END AS one"),
    ("MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m:MeshPlace) "
     "RETURN count(m) AS c } RETURN r.nodeSymbol AS s, c",
     "OPTIONAL MATCH (r)-[:CONTAINS]->(m:MeshPlace) WITH r, count(m)"),
    ("MATCH (r:Room) OPTIONAL CALL () { MATCH (m:MeshPlace {class: 'none'}) "
     "RETURN m.nodeSymbol AS s } RETURN r.nodeSymbol AS room, s",
     "OPTIONAL MATCH (m:MeshPlace {class: 'none'}) WITH m.nodeSymbol AS s MATCH (r:Room)"),
])
def test_a_cypher5_form_is_translated(target: str, neo4j: str, part: str) -> None:
    assert part in translate(neo4j, target).query


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "message"), [
    ("MATCH (r:Room) FINISH", "FINISH"),
    # Type tests whose answer depends on the row.
    ("RETURN [] IS :: LIST<INTEGER> AS a", "type predicate"),
    ("MATCH (r:Room) RETURN collect(r.class) IS :: LIST<STRING NOT NULL> AS a",
     "type predicate"),
    ("RETURN 1 IS :: NOTHING AS a", "type predicate"),
    ("MATCH (n) RETURN n IS :: MAP AS a", "type predicate"),
    # (types the annotator guessed over an operand of unknown type)
    ("MATCH (r:Room) RETURN coalesce(r.x, 1) IS :: INTEGER AS b", "type predicate"),
    ("MATCH (r:Room) WITH r, properties(r) AS p RETURN 'a' + p.x IS :: STRING AS b",
     "type predicate"),
    ("MATCH (r:Room) RETURN valueType(CASE WHEN r.x THEN 1 ELSE r.y END) AS b", "valueType"),
    ("RETURN valueType([1, null]) AS v", "valueType"),
    ("UNWIND [1, 'a'] AS x RETURN x IS NORMALIZED AS v", "IS NORMALIZED"),
    # OPTIONAL CALL bodies that may return no row, other than one MATCH and values.
    ("MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m) WITH m WHERE m.class = 'x' "
     "RETURN m.nodeSymbol AS s } RETURN r.nodeSymbol AS room, s", "OPTIONAL CALL"),
    ("MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN m.nodeSymbol AS s "
     "ORDER BY s LIMIT 1 } RETURN r.nodeSymbol AS room, s", "OPTIONAL CALL"),
    ("MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-->(m) RETURN m.class AS c UNION "
     "MATCH (r)<--(m) RETURN m.class AS c } RETURN r.nodeSymbol AS room, c", "OPTIONAL CALL"),
])
def test_a_cypher5_form_without_an_engine_form_is_a_dialect_error(target: str, neo4j: str,
                                                                   message: str) -> None:
    with pytest.raises(DialectError, match=message):
        translate(neo4j, target)
