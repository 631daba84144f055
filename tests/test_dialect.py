"""The Neo4j -> Kuzu translator: every rewrite (query in, query out, rows on the example graph),
errors as data, and the write guard on both sides of a translation."""

from __future__ import annotations

import contextlib
import random

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.graphstore import open_graph_store
from dsgqa.graphstore.write_guard import write_violation
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages.run_query import run_query
from tests import external
from tests.test_scene_graph import EXAMPLE

# (rewrite name, Neo4j query, the Kuzu query it becomes, a hand-written Kuzu query with the
# rows Neo4j gives on Heracles' graph). The example graph: rooms R1..R5, mesh places, objects.
REWRITES = [
    ("=~->neo4j_regex_match",
     "MATCH (r:Room) WHERE r.nodeSymbol =~ 'R[12]' RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) WHERE neo4j_regex_match(r.nodeSymbol, 'R[12]') = true "
     "RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) WHERE r.nodeSymbol IN ['R1', 'R2'] RETURN r.nodeSymbol AS s"),
    ("comparison across types->Neo4j's value",
     "MATCH (r:Room) WHERE r.center.x <> 'R1' RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) WHERE CASE WHEN r.center.x IS NULL THEN NULL ELSE true END = true "
     "RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s"),
    ("boolean function in WHERE or WHEN->= true",
     "MATCH (n) WHERE n.nodeSymbol IN ['R1', 'O1'] AND n.center.x > -100 "
     "RETURN n.nodeSymbol AS s",
     "MATCH (n) WHERE (n.nodeSymbol IN ['R1', 'O1']) = true AND n.center.x > -100 "
     "RETURN n.nodeSymbol AS s",
     "MATCH (n) WHERE n.nodeSymbol = 'R1' OR n.nodeSymbol = 'O1' RETURN n.nodeSymbol AS s"),
    ("||->+",
     "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol WITH collect(r.nodeSymbol) AS a "
     "RETURN a || ['x'] AS s",
     "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol SKIP 0 WITH coalesce(collect(r.nodeSymbol), "
     "[]) AS a RETURN a + ['x'] AS s",
     "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol SKIP 0 WITH collect(r.nodeSymbol) AS a "
     "RETURN list_append(a, 'x') AS s"),
    ("a < b < c->a < b AND b < c",
     "MATCH (r:Room) WHERE -100 < r.center.x < 100 RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) WHERE (-100 < r.center.x AND r.center.x < 100) RETURN r.nodeSymbol AS s",
     "MATCH (r:Room) WHERE r.center.x > -100 AND r.center.x < 100 RETURN r.nodeSymbol AS s"),
    ("ORDER BY float->+ 0.0",
     "MATCH (r:Room) WITH r, r.center.x - 1 AS x RETURN r.nodeSymbol AS s, x ORDER BY x",
     "MATCH (r:Room) WITH r, r.center.x - 1 AS x RETURN r.nodeSymbol AS s, x ORDER BY x + 0.0",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, r.center.x - 1 AS x"),
    ("toInteger->CAST",
     "MATCH (o:Object) RETURN toInteger(o.center.x) AS x",
     "MATCH (o:Object) RETURN CAST(sign(CAST(o.center.x AS DOUBLE)) * "
     "floor(abs(CAST(o.center.x AS DOUBLE))) AS INT64) AS x",
     "MATCH (o:Object) RETURN CAST(CASE WHEN o.center.x < 0 THEN ceil(o.center.x) "
     "ELSE floor(o.center.x) END AS INT64)"),
    ("toInteger(boolean)->CASE",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, toInteger(r.class = 'lounge') AS l",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, CASE WHEN (r.class = 'lounge') IS NULL THEN NULL "
     "WHEN r.class = 'lounge' THEN 1 ELSE 0 END AS l",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, CASE WHEN r.class = 'lounge' THEN 1 ELSE 0 END "
     "AS l"),
    ("toFloat->CAST", "RETURN toFloat(2) AS f", "RETURN CAST(2 AS DOUBLE) AS f",
     "RETURN 2.0"),
    ("toFloat(text)->neo4j_to_float", "RETURN toFloat(' 2.5') AS f",
     "RETURN neo4j_to_float(' 2.5') AS f", "RETURN 2.5"),
    ("toInteger(text)->neo4j_to_integer", "RETURN toInteger('3.99') AS f",
     "RETURN neo4j_to_integer('3.99') AS f", "RETURN 3"),
    ("toBoolean(text)->neo4j_to_boolean", "RETURN toBoolean('TRUE') AS f",
     "RETURN neo4j_to_boolean('TRUE') AS f", "RETURN true"),
    ("toString->by type", "RETURN toString(12) AS s", "RETURN CAST(12 AS STRING) AS s",
     "RETURN '12'"),
    ("point->struct",
     "MATCH (o:Object {nodeSymbol: 'O2'}) WITH o.center AS c MATCH (p:Object) "
     "WHERE p.center = point({x: c.x, y: c.y, z: c.z}) RETURN p.nodeSymbol",
     "MATCH (o:Object {nodeSymbol: 'O2'}) WITH o.center AS c MATCH (p:Object) "
     "WHERE p.center = CASE WHEN (CASE WHEN c IS NULL THEN NULL ELSE c.x END IS NULL "
     "OR CASE WHEN c IS NULL THEN NULL ELSE c.y END IS NULL "
     "OR CASE WHEN c IS NULL THEN NULL ELSE c.z END IS NULL) THEN NULL "
     "ELSE {x: CAST(CASE WHEN c IS NULL THEN NULL ELSE c.x END AS DOUBLE), "
     "y: CAST(CASE WHEN c IS NULL THEN NULL ELSE c.y END AS DOUBLE), "
     "z: CAST(CASE WHEN c IS NULL THEN NULL ELSE c.z END AS DOUBLE)} END "
     "RETURN p.nodeSymbol",
     "RETURN 'O2'"),
    ("point.distance->sqrt",
     "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R2'}) "
     "RETURN point.distance(a.center, b.center) AS d",
     "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R2'}) RETURN "
     "sqrt((a.center.x - b.center.x) ^ 2 + (a.center.y - b.center.y) ^ 2 + "
     "(a.center.z - b.center.z) ^ 2) AS d",
     "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R2'}) RETURN "
     "sqrt(pow(a.center.x - b.center.x, 2) + pow(a.center.y - b.center.y, 2) + "
     "pow(a.center.z - b.center.z, 2))"),
    ("shortestPath->SHORTEST",
     "MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*]-(b:Room)) "
     "WHERE b <> a RETURN b.nodeSymbol, length(p)",
     "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* SHORTEST]-(b:Room) "
     "WHERE id(b) <> id(a) RETURN b.nodeSymbol, length(p)",
     "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* SHORTEST 1..30]-(b:Room) "
     "WHERE b <> a RETURN b.nodeSymbol, length(p)"),
    ("allShortestPaths->ALL SHORTEST",
     "MATCH p = allShortestPaths((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*..4]-"
     "(b:Room {nodeSymbol: 'R3'})) RETURN count(p)",
     "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* ALL SHORTEST ..4]-"
     "(b:Room {nodeSymbol: 'R3'}) RETURN count(p)",
     "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* ALL SHORTEST 1..4]-"
     "(b:Room {nodeSymbol: 'R3'}) RETURN count(p)"),
    ("length(path of a list)->size(rels())",
     "MATCH p = (:Room {nodeSymbol: 'R2'})-[:ROOM_CONNECTED*1..2]->(:Room) "
     "WITH collect(p) AS ps UNWIND ps AS q RETURN length(q) AS len, count(*) AS n ORDER BY len",
     "MATCH p = (:Room {nodeSymbol: 'R2'})-[_hops1:ROOM_CONNECTED* TRAIL 1..2]->(:Room) "
     "WITH coalesce(collect(p), []) AS ps UNWIND ps AS q "
     "RETURN size(rels(q)) AS len, count(*) AS n ORDER BY len",
     "UNWIND [[1, 3], [2, 5]] AS x RETURN x[1] AS len, x[2] AS n"),
    ("WITH ORDER BY->SKIP 0",
     "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol DESC RETURN collect(r.nodeSymbol) AS rooms",
     "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol DESC SKIP 0 "
     "RETURN coalesce(collect(r.nodeSymbol), []) AS rooms",
     "RETURN ['R5', 'R4', 'R3', 'R2', 'R1']"),
    ("type->label",
     "MATCH (:Room {nodeSymbol: 'R1'})-[e]->(:MeshPlace) RETURN DISTINCT type(e) AS t",
     "MATCH (:Room {nodeSymbol: 'R1'})-[e]->(:MeshPlace) RETURN DISTINCT label(e) AS t",
     "RETURN 'CONTAINS'"),
    ("labels->[label()]",
     "MATCH (n {nodeSymbol: 'R1'}) RETURN labels(n) AS l",
     "MATCH (n {nodeSymbol: 'R1'}) RETURN [label(n)] AS l",
     "RETURN ['Room']"),
    ("collect->coalesce(collect, [])",
     "MATCH (o:Object {class: 'piano'}) RETURN collect(o.nodeSymbol) AS c",
     "MATCH (o:Object {class: 'piano'}) RETURN coalesce(collect(o.nodeSymbol), []) AS c",
     "RETURN []"),
    ("sum->coalesce(sum, 0)",
     "MATCH (o:Object {class: 'piano'}) RETURN sum(o.center.x) AS s",
     "MATCH (o:Object {class: 'piano'}) RETURN (coalesce(sum(o.center.x), 0) + 0) AS s",
     "RETURN 0.0"),  # Neo4j gives the integer 0; Kuzu's coalesce widens it to DOUBLE
    ("list comprehension->list_filter/list_transform",   # over strings (nodes: positions)
     "MATCH (r:Room) WITH collect(r.nodeSymbol) AS rooms "
     "RETURN [s IN rooms WHERE s <> 'R1' | size(s)] AS others",
     "MATCH (r:Room) WITH coalesce(collect(r.nodeSymbol), []) AS rooms RETURN list_transform("
     "list_filter(rooms, s -> s <> 'R1'), s -> size(s)) AS others",
     "MATCH (r:Room) WHERE r.nodeSymbol <> 'R1' RETURN collect(size(r.nodeSymbol))"),
    ("var-length->TRAIL",
     "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*2..2]-(b:Room) WHERE b = a "
     "RETURN count(*) AS n",
     "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* TRAIL 2..2]-(b:Room) "
     "WHERE id(b) = id(a) RETURN count(*) AS n",
     "MATCH (a:Room {nodeSymbol: 'R1'})-[r1:ROOM_CONNECTED]-(b:Room)-[r2:ROOM_CONNECTED]-(c) "
     "WHERE c = a AND r1 <> r2 RETURN count(*)"),
    ("pattern predicate->EXISTS",
     "MATCH (o:Object) WHERE NOT (o)<-[:CONTAINS]-(:MeshPlace) RETURN count(o) AS n",
     "MATCH (o:Object) WHERE NOT EXISTS { MATCH (o)<-[:CONTAINS]-(:MeshPlace) } "
     "RETURN count(o) AS n",
     "MATCH (o:Object) OPTIONAL MATCH (o)<-[:CONTAINS]-(m:MeshPlace) WITH o, count(m) AS k "
     "WHERE k = 0 RETURN count(o)"),
    ("index->1-based", "RETURN [10, 20, 30][0] AS a, [10, 20, 30][-1] AS b, [10][3] AS c",
     "RETURN list_concat(list_slice([10, 20, 30], 1, 1), CAST([NULL] AS INT64[]))[1] AS a, "
     "list_concat(list_slice([10, 20, 30], -1, -1), CAST([NULL] AS INT64[]))[1] AS b, "
     "list_concat(list_slice([10], 4, 4), CAST([NULL] AS INT64[]))[1] AS c",
     "RETURN 10, 30, NULL"),
    ("index->1-based",   # no typed NULL for a list of lists: a NULL index past its end
     "RETURN [[10], [20]][0] AS a, [[10], [20]][5] AS b",
     "RETURN [[10], [20]][CASE WHEN size([[10], [20]]) > 0 THEN 1 ELSE NULL END] AS a, "
     "[[10], [20]][CASE WHEN size([[10], [20]]) > 5 THEN 6 ELSE NULL END] AS b",
     "RETURN [10], NULL"),
    ("slice->list_slice", "RETURN [10, 20, 30, 40][1..3] AS s",
     "RETURN list_slice([10, 20, 30, 40], 2, 3) AS s", "RETURN [20, 30]"),
    ("substring->1-based", "RETURN substring('kitchen', 0, 3) AS s",
     "RETURN substring('kitchen', 1, 3) AS s", "RETURN 'kit'"),
    ("head/last->index", "RETURN head([1, 2, 3]) AS h, last([1, 2, 3]) AS l",
     "RETURN list_concat([1, 2, 3], CAST([NULL] AS INT64[]))[1] AS h, "
     "list_concat(CAST([NULL] AS INT64[]), [1, 2, 3])[-1] AS l", "RETURN 1, 3"),
    ("head/last->index",   # a list of nodes: no typed NULL to pad with, so a NULL index
     "MATCH (r:Room) WITH collect(r) AS rs RETURN head(rs).nodeSymbol AS h",
     "MATCH (r:Room) WITH coalesce(collect(r), []) AS rs RETURN CASE WHEN (rs[CASE WHEN "
     "size(rs) = 0 THEN NULL ELSE 1 END]) IS NULL THEN NULL ELSE (rs[CASE WHEN size(rs) = 0 "
     "THEN NULL ELSE 1 END]).nodeSymbol END AS h", "MATCH (r:Room) RETURN r.nodeSymbol LIMIT 1"),
    ("label predicate->label()",
     "MATCH (n) WHERE n:Room RETURN count(n) AS n",
     "MATCH (n) WHERE label(n) = 'Room' RETURN count(n) AS n", "RETURN 5"),
    ("label alternation->:A:B",
     "MATCH (n:Room|Building) RETURN count(n) AS n",
     "MATCH (n:Room:Building) RETURN count(n) AS n", "RETURN 5"),
    ("map projection->struct",
     "MATCH (r:Room {nodeSymbol: 'R1'}) RETURN r {.nodeSymbol, .class} AS m",
     "MATCH (r:Room {nodeSymbol: 'R1'}) RETURN {class: r.class, nodeSymbol: r.nodeSymbol} AS m",
     "RETURN {class: 'lounge', nodeSymbol: 'R1'}"),
    ("round(x, precision)->neo4j_round", "RETURN round(1.005, 2) AS r",
     "RETURN neo4j_round(CAST(1.005 AS DOUBLE), CAST(2 AS INT64), '') AS r", "RETURN 1.01"),
    ("round(x)->neo4j_math_round", "RETURN round(-1.5) AS r",
     "RETURN neo4j_math_round(CAST(-1.5 AS DOUBLE)) AS r", "RETURN -1.0"),
    ("reduce->list_reduce", "RETURN reduce(s = 0, x IN [1, 2, 3] | s + x) AS total",
     "RETURN list_reduce(list_concat([0], [1, 2, 3]), (s, x) -> s + x) AS total", "RETURN 6"),
    ("relationships->rels",
     "MATCH p = (:Room {nodeSymbol: 'R1'})-[:CONTAINS]->(m) RETURN size(relationships(p)) AS n "
     "LIMIT 1",
     "MATCH p = (:Room {nodeSymbol: 'R1'})-[:CONTAINS]->(m) RETURN size(rels(p)) AS n LIMIT 1",
     "RETURN 1"),
    ("type predicate->NULL test",
     "MATCH (r:Room) OPTIONAL MATCH (r)-[:ROOM_CONNECTED]->(l:Room {class: 'lounge'}) "
     "RETURN r.nodeSymbol AS s, l.nodeSymbol IS :: STRING NOT NULL AS present",
     "MATCH (r:Room) OPTIONAL MATCH (r)-[:ROOM_CONNECTED]->(l:Room {class: 'lounge'}) "
     "RETURN r.nodeSymbol AS s, l.nodeSymbol IS NOT NULL AS present",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, r.nodeSymbol = 'R2' AS present"),
    ("type predicate->NULL test",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, r.class IS NOT NFD NORMALIZED AS n, "
     "valueType(r.center.x) AS t",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, (neo4j_normalize(r.class, 'NFD') <> r.class) "
     "AS n, CASE WHEN r.center.x IS NULL THEN 'NULL' ELSE 'FLOAT NOT NULL' END AS t",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, false AS n, 'FLOAT NOT NULL' AS t"),
    ("CALL { } subquery->inline clauses",   # OPTIONAL CALL: the outer row kept with NULLs
     "MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m:MeshPlace {class: "
     "'structure'}) RETURN m.nodeSymbol AS m } RETURN r.nodeSymbol AS s, count(m) AS n",
     "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(m:MeshPlace {class: 'structure'}) "
     "WITH r, m.nodeSymbol AS m RETURN r.nodeSymbol AS s, count(m) AS n",
     "MATCH (r:Room) RETURN r.nodeSymbol AS s, CASE r.nodeSymbol WHEN 'R1' THEN 2 "
     "WHEN 'R5' THEN 3 ELSE 0 END AS n"),
]

# Neo4j constructs Kuzu 0.11.3 already runs as Neo4j does: they pass through unchanged.
UNCHANGED = [
    "MATCH (r:Room) RETURN CASE WHEN r.nodeSymbol = 'R1' THEN 'a' ELSE 'b' END AS c",
    "MATCH (r:Room) RETURN CASE r.class WHEN 'lounge' THEN 1 ELSE 0 END AS c",
    "MATCH (r:Room) RETURN coalesce(r.name, 'none') AS n, size(r.class) AS s",
    "MATCH (r:Room) RETURN count(DISTINCT r.class) AS n",
    "MATCH (r:Room) RETURN r.center AS c, r.center.x AS x ORDER BY x",
    "MATCH (r:Room) WHERE r.class STARTS WITH 'hall' RETURN r.nodeSymbol",
    "MATCH (r:Room) WHERE r.nodeSymbol = 'R1' OR r.nodeSymbol = 'R2' RETURN r.nodeSymbol "
    "ORDER BY r.nodeSymbol",
    "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(m:MeshPlace) RETURN r.nodeSymbol, count(m)",
    "UNWIND [3, 1, 2] AS x RETURN x ORDER BY x DESC SKIP 1 LIMIT 1",
    "MATCH (r:Room) WHERE EXISTS { MATCH (r)-[:CONTAINS]->(:MeshPlace) } RETURN count(r) AS n",
    "RETURN any(x IN [1, 2] WHERE x > 1) AS a, all(x IN [1, 2] WHERE x > 0) AS b",
]

@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_union_parts_naming_columns_in_another_order_are_matched_by_name(target) -> None:
    """Neo4j matches UNION parts' columns by name, the engines by position: a later part's
    items are put in the first part's order."""
    query = translate("MATCH (r:Room) RETURN r.class AS a, r.center.x AS b UNION "
                      "MATCH (o:Object) RETURN o.center.x AS b, o.class AS a", target).query
    assert "RETURN o.class AS a, o.center.x AS b" in query


def test_union_parts_are_read_row_by_row() -> None:
    """Each UNION part ends in SKIP 0 (the engines cross a part's columns otherwise) and a
    UNION runs as UNION ALL with its repeated rows dropped by the reader (the engines lose
    rows of a UNION); a UNION ALL keeps its repeats."""
    union = translate("MATCH (r:Room) RETURN r.class AS c UNION MATCH (o:Object) "
                      "RETURN o.class AS c ORDER BY c LIMIT 3", "ladybug")
    assert union.query == ("MATCH (r:Room) RETURN r.class AS c SKIP 0 UNION ALL MATCH "
                           "(o:Object) RETURN o.class AS c ORDER BY c SKIP 0 LIMIT 3")
    assert union.distinct_rows
    union_all = translate("MATCH (r:Room) RETURN r.class AS c SKIP 1 UNION ALL "
                          "MATCH (o:Object) RETURN o.class AS c", "kuzu")
    assert union_all.query == ("MATCH (r:Room) RETURN r.class AS c SKIP 1 UNION ALL "
                               "MATCH (o:Object) RETURN o.class AS c SKIP 0")
    assert not union_all.distinct_rows
    with pytest.raises(CypherSyntaxError, match="Invalid combination"):
        translate("RETURN 1 AS x UNION RETURN 2 AS x UNION ALL RETURN 3 AS x", "ladybug")


@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(n:Room) RETURN n.nodeSymbol AS s UNION "
    "MATCH (r)-->(m:MeshPlace) RETURN m.class AS t } AS n",
    "MATCH (r:Room) RETURN COLLECT { MATCH (r)-->(n:Room) RETURN n.nodeSymbol AS s UNION "
    "MATCH (r)-->(m) RETURN m AS t } AS n",
    "MATCH (r:Room) WHERE EXISTS { MATCH (r)-->(n:Room) RETURN n UNION ALL MATCH (r)-->(m) "
    "RETURN m AS n UNION MATCH (r)<--(b) RETURN b AS n } RETURN r",
    "CALL { MATCH (r:Room) RETURN r.name AS n UNION MATCH (o:Object) RETURN o.class AS c } "
    "RETURN n",
])
def test_union_errors_inside_subqueries(cypher):
    """Neo4j checks a UNION's column names and its mix of UNION and UNION ALL in a subquery
    as at the top: the model's error, not one the translator refuses."""
    with pytest.raises(CypherSyntaxError):
        translate(cypher, "ladybug")


SYNTAX_ERRORS = ["hello world", "MATCH (n RETURN n", "MATCH (n) RETURN", "RETURN 1 +",
                 "MATCH (n) WHERE RETURN n", "SELECT * FROM Room", "MATCH (n)-[->(m) RETURN n",
                 "", "MATCH (o:Object) RETURN o.class,",
                 # Removed before Neo4j 5.25 (Heracles' server), a syntax error there.
                 "MATCH (r:Room) WHERE exists(r.class) RETURN count(r) AS n",
                 "MATCH (r:Room) WHERE exists(r) RETURN count(r) AS n",   # one pattern only
                 "MATCH (r:Room) WHERE exists() RETURN count(r) AS n",
                 "MATCH (r:Room) WHERE exists((r)-->(), (r)<--()) RETURN count(r) AS n",
                 "MATCH (r:Room) RETURN size((r)-[:CONTAINS]->()) AS n",
                 "MATCH (r:Room) RETURN (r)-[:CONTAINS]->() AS n",
                 "MATCH (r:Room) RETURN length(r.nodeSymbol) AS n",
                 "MATCH (r:Room) RETURN toInt('3') AS n",
                 # An aggregate in the ORDER BY of a projection that does not aggregate.
                 "MATCH (o:Object) RETURN o.class AS class ORDER BY count(*) DESC LIMIT 2",
                 "MATCH (o:Object) WITH o ORDER BY max(o.center.x) RETURN o.nodeSymbol AS s",
                 "MATCH p = (r:Room)-->() RETURN rels(p) AS n",
                 "RETURN filter(x IN [1, 2] WHERE x > 1) AS n",
                 # Projections Neo4j 5 rejects when it compiles the query.
                 "MATCH (r:Room) WITH count(*) AS total MATCH (o:Object) "
                 "RETURN o.class AS c, count(*) * 1.0 / total AS share",
                 "MATCH (r:Room) RETURN r.class AS c, r.center.x + count(*) AS v",
                 "MATCH (r:Room) RETURN r.class, r.class",
                 "MATCH (r:Room) WITH r.class RETURN 1 AS x",
                 "MATCH (r:Room) WHERE count(r) > 1 RETURN r.class AS c",
                 "MATCH (r:Room) RETURN r.class AS a UNION MATCH (o:Object) RETURN o.class AS b",
                 # Implicit grouping keys Neo4j's language server reports (CYPHER 5): in a
                 # lambda body, through an expression key (only a variable or a property of
                 # one is a key), in a CALL { } body importing with WITH, in a subquery body.
                 "MATCH (r:Room)-[:CONTAINS]->(m) "
                 "RETURN any(x IN collect(m) WHERE x.class = r.class) AS a",
                 "MATCH (r:Room) RETURN [x IN collect(r.class) | x + size(r.class)] AS a",
                 "MATCH (r:Room)-->(m) WITH r.class AS c, "
                 "[x IN collect(m) WHERE x.class = r.name] AS a RETURN c, a",
                 "MATCH (r:Room)-->(m) WITH r.class AS k, m "
                 "RETURN any(x IN collect(m) WHERE x.class = k) AS a",
                 "MATCH (r:Room)-->(m) RETURN size(r.class), count(*) + size(r.class) AS a",
                 "MATCH (r:Room) RETURN r.center.x AS x, r.center.x * count(*) AS v",
                 "MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) "
                 "RETURN size(r.class) + count(m) AS x } RETURN x",
                 "MATCH (r:Room) CALL () { MATCH (n:Object) RETURN n.class + count(n) AS x } "
                 "RETURN x",
                 "MATCH (r:Room) CALL (r) { MATCH (r)-->(m) RETURN m.class + count(m) AS x } "
                 "RETURN x",
                 "MATCH (r:Room) CALL { WITH 1 AS k MATCH (o:Object) RETURN count(o) + k AS n } "
                 "RETURN n",
                 "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) RETURN m.class + count(m) AS x } "
                 "AS c"]
# Aggregating projections Neo4j 5 accepts: every read outside an aggregate is a projected item,
# a property of a projected variable, a literal or a name the expression binds.
# Lists compared whose elements are never NULL (literals, labels(), split(), collect()).
NULL_FREE_LISTS_COMPARED = [
    "MATCH (r:Room) RETURN labels(r) = ['Room'] AS v",
    "MATCH (r:Room) RETURN split(r.nodeSymbol, 'R') = ['', '1'] AS v",
    "MATCH (r:Room) RETURN collect(r.class) <> ['x'] AS v",
    "RETURN [1, 2] = [1, 2] AS v",
]
GROUPING_ACCEPTED = [
    "MATCH (r:Room) RETURN r.nodeSymbol AS s, size(r.nodeSymbol) + count(*) AS v",
    "MATCH (r:Room) RETURN r AS m, size(r.nodeSymbol) + count(*) AS v",
    "MATCH (r:Room) RETURN r.center AS x, r.center.x * count(*) AS v",
    "MATCH (r:Room) RETURN r.class AS c, [x IN collect(r) | x.class] AS l",
    "MATCH (r:Room) RETURN r.class AS c, reduce(s = 0, x IN collect(r.center.x) | s + x) AS t",
    "MATCH (r:Room) RETURN count(*) + 1 AS k, pi() * count(*) AS p",
    "MATCH (r:Room) WITH *, count(*) AS k RETURN k",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN r, any(x IN collect(m) WHERE x.class = r.class) AS a",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN r.class AS c, "
    "reduce(s = 0, x IN collect(m) | s + size(r.class)) AS a",
    "MATCH (r:Room)-->(m) WITH r, any(x IN collect(m) WHERE x.class = r.class) AS a RETURN r, a",
    "MATCH (r:Room)-->(m) RETURN any(x IN collect(m) WHERE x.class = 'a') AS a",
    "MATCH (r:Room)-->(m) RETURN r.class, count(*) + size(r.class) AS a",
    # What a subquery's body sees from outside is constant there (CALL (r), (*), and EXISTS /
    # COUNT / COLLECT): no implicit grouping key.
    "MATCH (r:Room) CALL (r) { MATCH (r)-->(m) RETURN size(r.class) + count(m) AS x } RETURN x",
    "MATCH (r:Room) CALL (*) { MATCH (r)-->(m) RETURN size(r.class) + count(m) AS x } RETURN x",
    "MATCH (r:Room) CALL (r) { WITH r MATCH (r)-->(m) RETURN size(r.class) + count(m) AS x } "
    "RETURN x",
    "MATCH (r:Room) CALL (r) { MATCH (r)-->(m) WITH m, r.class + count(m) AS x RETURN x } "
    "RETURN x",
]
DIALECT_ERRORS = [
    # Neo4j raises a type error where the engines convert a number to text.
    "MATCH (r:Room) RETURN toUpper(r.center.x) AS s",
    "MATCH (r:Room) RETURN size(r.center.x) AS s",
    "MATCH (r:Room) RETURN replace(r.nodeSymbol, 1, 'a') AS s",
    # A DISTINCT of nodes over sorted rows where the order shows (hash order in the engines).
    "MATCH (o:Object) WITH o ORDER BY o.center.z DESC WITH DISTINCT o LIMIT 3 "
    "RETURN o.nodeSymbol AS s",
    # A property read with a computed key (the engines index lists only).
    "MATCH (o:Object) UNWIND keys(o) AS key RETURN key, o[key] AS v",
    # `||` concatenates two strings or two lists only (Neo4j raises on a string and a number).
    "MATCH (r:Room) RETURN r.nodeSymbol || r.center.x AS s",
    "MATCH (r:Room) WITH collect(r.nodeSymbol) AS a RETURN a || 'x' AS s",
    # Results of two kinds read by a later clause or sorted by: the engines make them one type
    # (a whole column of the final RETURN is held as a struct, `mixed_results.py`).
    "MATCH (r:Room) WITH CASE WHEN r.center.x > 0 THEN r.nodeSymbol ELSE r.center.x END AS v "
    "RETURN v",
    "MATCH (r:Room) RETURN coalesce(r.name, 0) AS v ORDER BY v",
    "MATCH (r:Room) RETURN split(r.nodeSymbol, 'R') = [1] AS v",
    # Lists or maps that may hold NULL: Neo4j's = is NULL there, the engines' true (two written
    # lists of scalars are compared element by element instead).
    "MATCH (r:Room) WITH r, [r.name, r.class] AS l RETURN l = [r.name, r.class] AS v",
    "RETURN {a: 1, b: null} = {a: 1, b: null} AS v",
    "CALL { MATCH (n:Room) RETURN n UNION MATCH (n:Object) WITH n RETURN n } RETURN n",
    "CALL db.labels() YIELD label RETURN label",
    "MATCH (n:Room:Building) RETURN n",
    "MATCH ()-[r]->() RETURN keys(r)",
    "RETURN date()",
    "MATCH (n:Room)-[*1..2]->() RETURN [(n)-->(m) | m.nodeSymbol]",   # anonymous hops: rows repeat
    "RETURN point({latitude: 1.0, longitude: 2.0})",
    "WITH {a: 1} AS m RETURN m {.*}",   # .* of a map (of a node it is the layout's keys)
    # A COLLECT's order kept only where pattern_lists.py rewrites it (not after an UNWIND).
    "MATCH (n:Room) UNWIND [1, 2] AS k RETURN COLLECT { MATCH (n)-->(m) RETURN m "
    "ORDER BY m.nodeSymbol }",
    # ... and its DISTINCT of a value that may be NULL (collect() would skip it).
    "MATCH (n:Room) RETURN size(COLLECT { MATCH (n)-->(m) RETURN DISTINCT m.bbox_dim })",
    # A written list compared element by element, with an element that may be NaN.
    "UNWIND [0.0, 1.0] AS z RETURN [z / z, null] < [1, 2] AS a",
    # A value that may be NaN where Neo4j groups or orders it (NaN with NaN, above numbers).
    "MATCH (r:Room) RETURN r.center.x / 0.0 AS k, count(*) AS n",
    "MATCH (r:Room) WITH sqrt(r.center.x - 5.0) AS d RETURN DISTINCT d",
    # (min and max of a float are computed over collect(); of a map's field of two types, they
    # are not)
    "UNWIND [{v: sqrt(2.0)}, {v: 'x'}] AS m RETURN max(m.v) AS top",
    # Maps one value holds either of, with other keys, or a field NULL in one and a value in
    # another: the engines cast one struct to the other (map_shapes.py); and `/` of a field
    # that is an integer in one map and a float in another (written as floats).
    "UNWIND [1, 2] AS k RETURN CASE WHEN k = 1 THEN {a: 1} ELSE {b: 2} END.a AS x",
    "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(o:Object) WITH r, count(o) AS n "
    "RETURN CASE WHEN n = 0 THEN {count: 'none'} ELSE {count: n} END AS m",
    "UNWIND [1, 2] AS k WITH k, {a: 1} AS m1, {b: 2} AS m2 "
    "RETURN CASE WHEN k = 1 THEN m1 ELSE m2 END AS m",
    "UNWIND [1, 2] AS k RETURN CASE WHEN k = 1 THEN {a: {x: 1}} ELSE {a: {x: 2.5}} END AS m",
    "UNWIND [1, 2] AS k RETURN CASE WHEN k = 1 THEN [{a: 1}] ELSE [{b: 2}] END AS m",
    "RETURN {a: 1} AS m UNION ALL RETURN {b: 2} AS m",
    "RETURN [{a: 1}] + [{b: 2}] AS l",
    "WITH {a: 1} AS m1, {b: 2} AS m2 RETURN [m1, m2] AS l",
    "WITH {n: {x: 1}} AS m UNWIND [1, 2] AS k RETURN CASE WHEN k = 1 THEN m.n ELSE {y: 2} END",
    "WITH collect({a: 1}) AS l RETURN l + {b: 2} AS r",
    "RETURN reduce(acc = {v: 0}, x IN [{v: 1}, {v: 2}] | {w: acc.v + x.v}) AS r",
    "UNWIND [1, 2] AS k RETURN coalesce(CASE WHEN k = 1 THEN {a: 1} END, {b: 2}) AS m",
    "UNWIND [1, 2] AS k RETURN CASE WHEN k = 1 THEN {d: null} ELSE {d: 0.5} END AS m",
    "WITH [{v: 7}, {v: 2.5}] AS ms RETURN ms[0].v / 2 AS x",
    # A RETURN that aggregates always has a row.
    "MATCH (r:Room) WHERE EXISTS { MATCH (r)-->(m) RETURN count(m) AS c } RETURN r",
    # The engines crash joining lists of nodes of different patterns.
    "MATCH (r:Room) RETURN COLLECT { MATCH (r)-->(m) RETURN m UNION MATCH (r)<--(m) RETURN m }",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = open_graph_store("kuzu", load_scene_graph(EXAMPLE),
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


def _rows(store, cypher):
    result = store.query(cypher)
    assert result.valid, f"{cypher}: {result.error}"
    return sorted(map(repr, result.rows))


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize(("rewrite", "neo4j", "kuzu", "reference"), REWRITES,
                         ids=[r[0] for r in REWRITES])
def test_rewrite(store, rewrite, neo4j, kuzu, reference):
    translation = translate(neo4j)
    assert rewrite in translation.rewrites
    assert translation.query == kuzu
    rows, expected = _rows(store, translation.query), _rows(store, reference)
    assert rows == expected
    assert rows, "a rewrite test needs rows to compare"


def test_every_rewrite_is_tested():
    from dsgqa.dialect import parser
    source = "\n".join(path.read_text() for path in parser.GRAMMAR.parent.glob("*.py"))
    named = {r[0] for r in REWRITES}
    for name in named:
        assert f'"{name}"' in source or name.split("->")[0] in source


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize("cypher", UNCHANGED)
def test_supported_constructs_pass_through(store, cypher):
    translation = translate(cypher)
    assert translation.rewrites == ()
    assert store.query(translation.query).valid


def test_kuzu_dialect_reference_queries_still_parse():
    """The demo set's reference queries are written in Kuzu's dialect: they keep working."""
    from dsgqa.questions import load_question_set
    from tests.test_scene_graph import ROOT

    questions = load_question_set(ROOT / "questions/demo/apartment_questions.yaml").questions
    for question in questions:
        translate(question.cypher)


@pytest.mark.parametrize("cypher", SYNTAX_ERRORS)
def test_not_cypher_is_a_syntax_error(cypher):
    with pytest.raises(CypherSyntaxError):
        translate(cypher)


@pytest.mark.parametrize("cypher", NULL_FREE_LISTS_COMPARED)
def test_null_free_lists_are_compared(cypher):
    assert translate(cypher).query


@pytest.mark.parametrize("cypher", GROUPING_ACCEPTED)
def test_grouping_neo4j_accepts_is_translated(cypher):
    assert translate(cypher).query


@pytest.mark.parametrize("cypher, sort", [
    # A part of a sort key reading an alias that redefines a name stays as written
    # (`potentiallyRedefined`): `o` is the string there, and `o.class` raises in Neo4j.
    ("MATCH (o:Object) RETURN o.class AS o, count(*) AS n ORDER BY size(o.class)",
     "ORDER BY size(o.class)"),
    # The whole key, or a part reading no redefining alias, is the alias.
    ("MATCH (o:Object) RETURN o.class AS o, count(*) AS n ORDER BY o.class", "ORDER BY `o`"),
    ("MATCH (o:Object) RETURN o.class AS c, count(*) AS n ORDER BY size(o.class)",
     "ORDER BY size(`c`)"),
    ("MATCH (o:Object) RETURN o.class AS o ORDER BY o.class", "ORDER BY o.class"),
])
def test_order_by_alias_follows_neo4j(cypher, sort):
    assert translate(cypher, "ladybug").query.endswith(sort)


@pytest.mark.parametrize("cypher", DIALECT_ERRORS)
def test_untranslatable_neo4j_is_a_dialect_error(cypher):
    with pytest.raises(DialectError):
        translate(cypher)


# Kuzu reads an EXISTS/COUNT subquery from a node an OPTIONAL MATCH left NULL wrong wherever a
# later operator reads its value (`dialect/null_anchors.py`); as a plain RETURN column it is right.
NULL_ANCHORED = "MATCH (r:Room) OPTIONAL MATCH (r)<-[:CONTAINS]-(b) "


@pytest.mark.parametrize(("tail", "refused"), [
    ("RETURN DISTINCT COUNT { MATCH (b)-->(m) } AS n", True),
    ("RETURN r.nodeSymbol AS r, EXISTS { MATCH (b)-->(m) } AS e ORDER BY e", True),
    ("RETURN r.nodeSymbol AS r ORDER BY size([(b)-->(m) | m])", True),
    ("RETURN COUNT { MATCH (b)-->(m) } AS n, count(*) AS c", True),
    ("WITH r, b WHERE NOT (b)-->() RETURN r.nodeSymbol AS r", True),
    ("MATCH (r)-->(x) WHERE EXISTS { MATCH (b)-->(m) } RETURN x.nodeSymbol AS x", True),
    ("WITH r, b AS c WITH r, COUNT { MATCH (c)-->(m) } AS n RETURN r.nodeSymbol AS r, n", True),
    ("WITH r, collect(b) AS bs WITH r, bs[1] AS c RETURN DISTINCT COUNT { MATCH (c)-->() } AS n",
     True),
    ("UNWIND [b] AS c RETURN DISTINCT COUNT { MATCH (c)-->() } AS n", True),
    ("RETURN r.nodeSymbol AS r, COUNT { MATCH (b)-->(m) } AS n ORDER BY r", False),
    ("WITH r, b ORDER BY r.nodeSymbol SKIP 0 RETURN EXISTS { MATCH (b)-->(m) } AS e", False),
    ("MATCH (b)-->(x) RETURN DISTINCT COUNT { MATCH (b)-->(m) } AS n", False),
    ("WITH r RETURN DISTINCT COUNT { MATCH (r)-->(m) } AS n", False),
    ("WITH r, sum(COUNT { MATCH (b)-->(m) }) AS s WHERE s >= 0 RETURN r.nodeSymbol AS r, s "
     "ORDER BY s", False),
    ("RETURN r.class AS c, collect(EXISTS { MATCH (b)-->() }) AS l", False),
    ("RETURN count(DISTINCT COUNT { MATCH (b)-->() }) AS n", True),
    ("OPTIONAL MATCH (r)-->(q) WHERE EXISTS { MATCH (q)-->() } RETURN DISTINCT q.class AS c",
     False),
    ("OPTIONAL MATCH (r)-->(q) WHERE EXISTS { MATCH (b)-->() } RETURN DISTINCT q.class AS c",
     True),
    ("WITH r, b, r.nodeSymbol AS s RETURN r.nodeSymbol AS x, "
     "EXISTS { MATCH (r)-->(m) WHERE m.nodeSymbol <> s } AS e ORDER BY e", False),
])
def test_subquery_from_a_node_that_may_be_null(tail: str, refused: bool) -> None:
    _refused_on_kuzu_only(NULL_ANCHORED + tail, refused)


# Kuzu's query worker crashes where one grouping projection reads two subqueries from one node
# an OPTIONAL MATCH with a WHERE may leave NULL (`dialect/null_anchors.py`).
FILTERED_OPTIONAL = ("MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(n) "
                     "WHERE n.class = 'floor' ")


@pytest.mark.parametrize(("tail", "refused"), [
    ("RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<--(m) }) AS k, "
     "count(EXISTS { MATCH (n)<--(m) }) AS e", True),
    ("RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<--(m) } + COUNT { MATCH (n)-->(m) }) AS k",
     True),
    ("WITH r, n RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<--(m) }) AS k, "
     "sum(COUNT { MATCH (n)-->(m) }) AS e", True),
    ("RETURN sum(COUNT { MATCH (n)<--(m) }) AS k, count(EXISTS { MATCH (n)<--(m) }) AS e",
     False),
    ("RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<--(m) }) AS k, count(n) AS e", False),
    ("OPTIONAL MATCH (r)<--(b) RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<--(m) }) AS k, "
     "sum(COUNT { MATCH (b)-->(m) }) AS e", False),
])
def test_two_subqueries_from_a_filtered_optional_node_in_one_group(tail: str,
                                                                   refused: bool) -> None:
    _refused_on_kuzu_only(FILTERED_OPTIONAL + tail, refused)


# The map of a node a subquery starts from moves to the WHERE where an engine fails on it
# (`dialect/anchor_maps.py`): an OPTIONAL MATCH's always; a MATCH's on Ladybug, for the
# properties the query reads. The rows are in tests/cypher_fuzz/regressions.py.
@pytest.mark.parametrize(("query", "target", "expected"), [
    ("MATCH (r:Room) OPTIONAL MATCH (r)-->(n {class: 'floor'}) "
     "RETURN r, sum(COUNT { MATCH (n)<--(m) }) AS k",
     "kuzu", " OPTIONAL MATCH (r)-[]->(n) WHERE n.class = 'floor' "),
    ("MATCH (n:Room {class: 'kitchen', name: ''})-->(p) "
     "RETURN n.class AS c, COUNT { MATCH (n)-->(m) } + 1 AS k ORDER BY k",
     "ladybug", "MATCH (n:Room {name: ''})-[]->(p) WHERE n.class = 'kitchen' "),
    ("MATCH (n:Room {class: 'kitchen'})-->(p) "
     "RETURN n.class AS c, COUNT { MATCH (n)-->(m) } + 1 AS k ORDER BY k",
     "kuzu", "MATCH (n:Room {class: 'kitchen'})-[]->(p) "),
    ("MATCH (n:Room {class: 'kitchen'})-->(p) RETURN n.name AS c, COUNT { MATCH (n)-->(m) } AS k",
     "ladybug", "MATCH (n:Room {class: 'kitchen'})-[]->(p) "),
])
def test_property_map_of_a_subquery_s_start_node(query: str, target: str, expected: str) -> None:
    assert expected in translate(query, target).query


# A subquery that reads an outer value beside its pattern's nodes is computed in a WITH of its
# own and read through an UNWIND where the engines fail on it in place
# (`dialect/subquery_values.py`); the rows are in tests/cypher_fuzz/regressions.py.
@pytest.mark.parametrize(("tail", "moved"), [
    ("RETURN sum(COUNT { MATCH (r)-->(m) WHERE p.class = 'floor' }) AS s", True),
    ("RETURN r.nodeSymbol AS x, COUNT { MATCH (r)-->(m) WHERE p.class = 'floor' } + 1 AS c "
     "ORDER BY x", True),
    ("WITH r, p, CASE WHEN p.class = 'floor' THEN COUNT { MATCH (r)-->(m) WHERE m <> p } END "
     "AS v RETURN v", True),
    ("UNWIND [COUNT { MATCH (r)-->(m) }] AS c RETURN c", True),
    ("RETURN r.nodeSymbol AS x, COUNT { MATCH (r)-->(m) WHERE p.class = 'floor' } + 1 AS c",
     False),
    ("RETURN r.nodeSymbol AS x, COUNT { MATCH (r)-->(m) WHERE p.class = 'floor' } AS c, "
     "count(*) AS n", False),
    ("RETURN r.nodeSymbol AS x, sum(COUNT { MATCH (r)-->(m) WHERE m.class = 'floor' }) AS c",
     False),
])
@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_subquery_computed_before_its_clause(tail: str, moved: bool, target: str) -> None:
    query = translate("MATCH (r:Room)-[:CONTAINS]->(p) " + tail, target).query
    assert ("AS _subquery1 UNWIND [_subquery1] AS _value1 " in query) == moved, query


@pytest.mark.parametrize(("target", "expected"), [
    ("kuzu", "RETURN CASE WHEN (rels(p)[CASE WHEN size(rels(p)) > 0 THEN 1 ELSE NULL END]) IS "
             "NULL THEN NULL ELSE struct_extract(rels(p)[CASE WHEN size(rels(p)) > 0 THEN 1 "
             "ELSE NULL END], '_label') END AS t, label(r) AS u"),
    ("ladybug", "RETURN CASE WHEN (rels(p)[CASE WHEN size(rels(p)) > 0 THEN 1 ELSE NULL END]) "
                "IS NULL THEN NULL ELSE label(rels(p)[CASE WHEN size(rels(p)) > 0 THEN 1 ELSE "
                "NULL END]) END AS t, label(r) AS u"),
])
def test_label_of_a_computed_relationship(target: str, expected: str) -> None:
    """Kuzu crashes on label() of anything but a variable (`dialect/computed_labels.py`);
    Ladybug gives a NULL relationship its type, so the read is guarded."""
    query = "MATCH p = (o)<-[r]-(m) RETURN type(relationships(p)[0]) AS t, type(r) AS u"
    assert translate(query, target).query.endswith(expected)


@pytest.mark.parametrize(("query", "target", "expected"), [
    # Kuzu's binder wants a path a WITH passes on named with AS (`dialect/path_items.py`).
    ("MATCH p = (a)-->(b) WITH a, p RETURN length(p) AS l", "kuzu", "WITH a, p AS p RETURN"),
    ("MATCH p = (a)-->(b) WITH a, p RETURN length(p) AS l", "ladybug", "WITH a, p RETURN"),
    ("MATCH p = (a)-->(b) WITH * RETURN length(p) AS l", "kuzu", "WITH a, b, p AS p RETURN"),
    # A variable-length segment's relationships go along (`dialect/path_parts.py`).
    ("MATCH p = (a)-[*1..2]->(b) WITH p RETURN length(p) AS l ORDER BY l", "ladybug",
     "MATCH p = (a)-[_hops1* TRAIL 1..2]->(b) WITH p, _hops1 RETURN"),
    # (a `RETURN *` is written out in Neo4j's column order, the names sorted: star_columns.py)
    ("MATCH p = (a)-[r*1..2]->(b) WITH * RETURN *", "ladybug", "(b) WITH * RETURN a, b, p, r"),
    ("MATCH p = (a)-[*1..2]->(b) WITH * RETURN *", "ladybug",
     "WITH p, a, b, _hops1 RETURN a, b, p"),
])
def test_path_passed_on_by_a_with(query: str, target: str, expected: str) -> None:
    assert expected in translate(query, target).query


# Both engines carry an aggregate of no variable (`count(*)`) into the clauses that read it as the
# aggregate itself: Kuzu drops an OPTIONAL MATCH's or a subquery's WHERE condition on it, and
# both fail on one that reads a property too. The WITH's item is read back through an UNWIND
# (`dialect/free_aggregates.py`); the rows are in tests/cypher_fuzz/regressions.py.
FREE_AGGREGATE = "MATCH (b:Building)-[:CONTAINS]->(n) "


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("tail", "unwound"), [
    ("WITH n, count(*) AS a OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m", True),
    ("WITH n, sum(1) AS a OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m", True),
    ("WITH n, count(*) AS a WITH n, a < 0 AS f OPTIONAL MATCH (n)-->(m) WHERE f RETURN n, m",
     True),
    ("WITH count(*) AS a MATCH (r:Room) OPTIONAL MATCH (r)-->(m) WHERE a < 0 RETURN r, m", True),
    ("WITH n, count(*) AS a RETURN n, EXISTS { MATCH (n)-->(m) WHERE a < m.center.x } AS e",
     True),
    # An aggregate that reads a variable: Ladybug keeps it; Kuzu reads any aggregate a later
    # clause reads through an UNWIND.
    ("WITH n, count(b) AS a OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m", None),
    ("WITH n, min(b.center.x) AS a OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m", None),
    ("WITH n, 1 AS a OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m", False),
    ("MATCH (n)-->(m) RETURN n, count(*) AS a", False),
])
def test_aggregate_of_no_variable_is_read_through_an_unwind(tail: str, unwound: bool | None,
                                                             target: str) -> None:
    query = translate(FREE_AGGREGATE + tail, target).query
    expected = (target == "kuzu") if unwound is None else unwound
    assert ("UNWIND [_aggregate1] AS a " in query) == expected, query


@pytest.mark.parametrize(("target", "unwound"), [("kuzu", True), ("ladybug", False)])
def test_aggregate_read_by_a_later_aggregation_on_kuzu(target: str, unwound: bool) -> None:
    query = translate(FREE_AGGREGATE + "WITH n, count(b) AS a RETURN a, range(0, a) AS r, "
                      "count(*) AS c", target).query
    assert ("UNWIND [_aggregate1] AS a " in query) == unwound, query


def test_the_with_of_an_unwound_aggregate_filters_and_sorts_by_its_new_name() -> None:
    query = translate(FREE_AGGREGATE + "WITH n, count(*) AS a WHERE a > 0 "
                      "WITH n, a ORDER BY a DESC LIMIT 1 RETURN n, a", "ladybug").query
    assert "count(*) AS _aggregate1 WHERE _aggregate1 > 0 UNWIND [_aggregate1] AS a " in query


# Kuzu reads a WITH value built around a subquery that reads an outer value passed as a
# one-element list wrong where a later operator reads it (`dialect/wrapped_subqueries.py`)
# unless the subquery is computed first and read through an UNWIND (`subquery_values.py`),
# which both engines then answer as Neo4j does (tests/cypher_fuzz/regressions.py).
WRAPPED = ("MATCH (n:Object) WITH n, CASE WHEN EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace) "
           "WHERE n.bbox_dim.x > -1.0 } THEN 1 END AS v ")


@pytest.mark.parametrize("query", [
    WRAPPED + "RETURN v, count(*) AS c",
    WRAPPED + "RETURN v AS w, n.nodeSymbol AS s ORDER BY w, s",
    WRAPPED + "WITH n, v WHERE v IS NULL RETURN n.nodeSymbol AS s",
    WRAPPED + "MATCH (n)--(z) RETURN DISTINCT v",
    WRAPPED + "WITH n, v AS w RETURN w, count(*) AS c",
    WRAPPED + "WITH n, v ORDER BY n.nodeSymbol RETURN v",
    WRAPPED + "WITH n, v SKIP 0 RETURN v",
    WRAPPED + "WITH n, v WHERE n.center.x > 2 RETURN n.nodeSymbol AS s, v",
    WRAPPED + "WITH n, v LIMIT 5 RETURN v",
    WRAPPED + "MATCH (n)--(z) WHERE z.center.x > 0 RETURN n.nodeSymbol AS s, v",
    "MATCH (n:Object) WITH n, [EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace) "
    "WHERE n.bbox_dim.x > -1.0 }] AS v RETURN DISTINCT v",
    WRAPPED + "OPTIONAL MATCH (n)<-[:CONTAINS]-(p:Place) RETURN p.nodeSymbol AS p, v",
    "MATCH (n:Object) WITH n, EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace) "
    "WHERE n.bbox_dim.x > -1.0 } AS v RETURN v, count(*) AS c",
    "MATCH (n:Object) RETURN CASE WHEN EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace) "
    "WHERE n.bbox_dim.x > -1.0 } THEN 1 END AS v, count(*) AS c",
    "MATCH (n:Object) WITH n, CASE WHEN EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace) "
    "WHERE m.nodeSymbol <> 'x' } THEN 1 END AS v RETURN v, count(*) AS c",
])
def test_value_around_a_subquery_reading_an_outer_list(query: str) -> None:
    """Translated for both engines: none of these is refused any more."""
    _refused_on_kuzu_only(query, False)


def _refused_on_kuzu_only(query: str, refused: bool) -> None:
    """Ladybug translates `query`; Kuzu refuses it (`dialect`) exactly when `refused`."""
    translate(query, "ladybug")
    if refused:
        with pytest.raises(DialectError):
            translate(query, "kuzu")
    else:
        translate(query, "kuzu")


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_node_null_test_inside_a_subquery_reads_a_property(target: str) -> None:
    query = translate("MATCH (r:Room)-->(x) WITH r, x, r.nodeSymbol AS s "
                      "RETURN EXISTS { MATCH (r)<--(m) WHERE x IS NULL OR s IS NULL } AS e",
                      target).query
    assert "x.nodeSymbol IS NULL" in query and "s.nodeSymbol" not in query


def test_neo4j_target_is_unchanged():
    query = "MATCH p = shortestPath((a)-[*]-(b)) RETURN toInteger(length(p))"
    assert translate(query, "neo4j").query == query


def test_garbage_never_crashes():
    rng = random.Random(11)
    alphabet = "MATCH(n:Room)-[r*1..]->{x: 'a'}, RETURN WITH WHERE point.distance[0]|$ \"`"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        with contextlib.suppress(CypherSyntaxError, DialectError):
            translate(text)


# ------------------------------------------------------------------ the run-query stage

def _attempt(cypher: str) -> CypherAttempt:
    return CypherAttempt(uid="q", model="m", cypher=cypher, raw_reply=cypher, usage=LLMUsage())


WRITES = [
    "CREATE (:Room {nodeSymbol: 'R9'})",
    "MATCH (r:Room) SET r.class = 'x' RETURN r",
    "MATCH (r:Room) DETACH DELETE r",
    "MATCH (r:Room) WITH r CALL { MATCH (x) DELETE x } RETURN r",
    "MATCH (r:Room) WHERE EXISTS { MATCH (r) SET r.name = 'x' } RETURN r",
    "COPY (MATCH (o:Object) RETURN o) TO '/tmp/dsg-leak.csv'",
    "MATCH (r:Room) RETURN r; MATCH (o:Object) DELETE o",
    "CALL query_timeout = 0",
    "MATCH (n) MERGE (m:Room {nodeSymbol: 'R9'}) RETURN m",
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
]


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize("cypher", WRITES)
def test_a_write_stays_refused(store, cypher):
    before = store.checksum()
    outcome = run_query(store, _attempt(cypher))
    assert not outcome.valid and outcome.query_error_kind == "refused"
    assert outcome.cypher_executed == ""
    assert store.checksum() == before


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_no_rewrite_turns_a_write_into_a_read(target):
    """The guard runs on the model's query and on the translated one: a translation of a query
    the guard refuses is refused too, and a translated read never looks like a write."""
    for cypher in WRITES:
        try:
            translated = translate(cypher, target).query
        except (CypherSyntaxError, DialectError):
            continue
        assert write_violation(translated), translated
    for _, neo4j, _, _ in REWRITES:
        assert write_violation(translate(neo4j, target).query) is None


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize(("cypher", "kind"), [
    ("MATCH (n RETURN n", "syntax"),
    ("hello world", "syntax"),
    ("", "syntax"),
    ("CALL { MATCH (n:Room) RETURN n UNION MATCH (n:Object) WITH n RETURN n } RETURN n",
     "dialect"),
    # A point has the fields x, y, z (and crs, srid): Neo4j raises for another.
    ("MATCH (r:Room) RETURN r.center.X", "schema"),
    ("MATCH (r:Room) RETURN foo(r)", "syntax"),
    ("MATCH (r:Room) DELETE r", "refused"),
    ("MATCH (r:Room) RETURN m", "syntax"),
    ("RETURN 1 / 0 AS x", "runtime"),
    ("RETURN range(1, 3, 0) AS x", "runtime"),
    ("RETURN 9223372036854775807 + 1 AS x", "runtime"),
])
def test_error_kinds(store, cypher, kind):
    outcome = run_query(store, _attempt(cypher))
    assert not outcome.valid
    assert outcome.query_error_kind == kind, outcome.error


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize(("cypher", "rows"), [
    # Neo4j warns and answers: a label, type or key no node has matches nothing or is NULL.
    ("MATCH (r:Robot) RETURN count(r) AS n", [[0]]),
    ("MATCH (r:Room) WHERE r.colour = 'red' RETURN count(r) AS n", [[0]]),
    ("MATCH (r:Room) WHERE r.colour IS NULL RETURN count(r) AS n", [[5]]),
    ("MATCH (r:Room) WHERE NOT (r)-[:NEXT_TO]-() RETURN count(r) AS n", [[5]]),
    ("MATCH (r:Room {nodeSymbol: 'R1'}) OPTIONAL MATCH (r)-[:HAS]->(x) RETURN x", [[None]]),
    ("MATCH (r:Room {nodeSymbol: 'R1'})-[:CONTAINS|HAS]->(m:MeshPlace|Chair) "
     "RETURN count(m) > 0 AS some", [[True]]),
    ("MATCH (r:Room) RETURN count { (r)-[:CONTAINS]->(:Chair) } AS n LIMIT 1", [[0]]),
    ("MATCH (o:Object {color: 'red'}) RETURN count(*) AS n", [[0]]),
    ("MATCH (o:Object) RETURN count(o.weight) AS a, collect(o.color) AS b, "
     "properties(o)['color'] AS c LIMIT 1", [[0, [], None]]),
    # Heracles' relationships have no properties at all.
    ("MATCH (:Room {nodeSymbol: 'R1'})-[c:CONTAINS]->(m) RETURN c.nodeSymbol AS s LIMIT 1",
     [[None]]),
    # Names are case-sensitive in Neo4j; the engines would read them as the layout's.
    ("MATCH (r:room) RETURN count(r) AS n", [[0]]),
    ("MATCH (r:Room)-[:contains]->(m) RETURN count(m) AS n", [[0]]),
    ("MATCH (r:Room {nodeSymbol: 'R1'}) RETURN r.NodeSymbol AS s, r {.Class} AS m",
     [[None, {"Class": None}]]),
])
def test_unknown_names_read_as_neo4j(store, cypher, rows):
    outcome = run_query(store, _attempt(cypher))
    assert outcome.valid, outcome.error
    assert outcome.rows == rows


@external.needs(external.EXAMPLE_DSG)
def test_outcome_keeps_both_queries_and_the_rewrites(store):
    cypher = "MATCH (r:Room) WITH r ORDER BY r.nodeSymbol RETURN collect(r.nodeSymbol) AS rooms"
    outcome = run_query(store, _attempt(cypher))
    assert outcome.valid and outcome.query_error_kind == ""
    assert outcome.cypher == cypher
    assert "SKIP 0" in outcome.cypher_executed
    assert outcome.rewrites == ["WITH ORDER BY->SKIP 0", "collect->coalesce(collect, [])"]
    assert outcome.rows == [[["R1", "R2", "R3", "R4", "R5"]]]


class _Neo4jLike:
    backend = "neo4j"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def query(self, cypher, *, timeout_s=10.0, max_rows=200, distinct_rows=False,
              max_hops=None):
        from dsgqa.graphstore.base import QueryResult

        self.seen.append(cypher)
        return QueryResult(columns=["x"], rows=[[1]])


def test_neo4j_gets_the_query_unchanged():
    store = _Neo4jLike()
    cypher = "MATCH p = shortestPath((a)-[*]-(b)) RETURN toInteger(length(p)) AS x"
    outcome = run_query(store, _attempt(cypher))  # type: ignore[arg-type]
    assert store.seen == [cypher]
    assert outcome.cypher_executed == cypher and outcome.rewrites == []


def test_a_translation_leaves_no_reference_cycles() -> None:
    """Stages compute with the cyclic collector paused (benchcore.batch), so a translation
    must leave nothing only the collector can free: the rewriter once kept its own bound
    methods in a dict, 11 cyclic objects a query. Counted in a process of its own: in the
    test session, other threads (Prefect's) make cycles of their own meanwhile."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    script = textwrap.dedent("""
        import contextlib, gc
        from dsgqa.dialect import CypherSyntaxError, DialectError, translate
        queries = [
            "MATCH (o:Object)-[:OBJECT_IN_ROOM]->(r:Room) WHERE o.class = 'chair' "
            "RETURN r.id, count(o) ORDER BY r.id",
            "MATCH (a:Room) WHERE (a)-[:ROOM_CONNECTED]->(:Room) RETURN a.id",
            "MATCH p = shortestPath((a:Room)-[:ROOM_CONNECTED*]-(b:Room)) RETURN length(p)",
            "MATCH (o:Object RETURN o",
        ]
        for query in queries:             # the parser is built once, before counting
            with contextlib.suppress(CypherSyntaxError, DialectError):
                translate(query)
        gc.collect()
        gc.disable()
        for query in queries * 25:
            with contextlib.suppress(CypherSyntaxError, DialectError):
                translate(query)
        print(gc.collect())
    """)
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True, cwd=root)
    assert int(done.stdout.strip()) == 0


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize(("items", "comprehension", "strings"), [
    ("collect(m)", "[x IN ms | x.nodeSymbol][0]", "ms[0]"),
    ("collect(m)", "[x IN ms WHERE x.nodeSymbol <> '' | x.nodeSymbol][0]", "ms[0]"),
    ("collect(m)[..2]", "[x IN ms | x.nodeSymbol]", "ms[..2]"),
    ("tail(collect(m))", "[x IN ms | x.nodeSymbol][0]", "ms[1]"),
])
def test_comprehension_over_collected_nodes_reads_each_row_s_own(store, items, comprehension,
                                                                  strings):
    """On the example graph both engines gave R4 R1's first mesh place from a lambda over a
    list of nodes a WITH passed on, even with a body reading nothing but the element (the
    translation walks positions): the same picks from a list of their symbols are the
    reference."""
    head = "MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace) WITH r, "
    query = f"{head}{items} AS ms RETURN r.nodeSymbol AS r, {comprehension} AS v"
    reference = f"{head}collect(m.nodeSymbol) AS ms RETURN r.nodeSymbol AS r, {strings} AS v"
    assert _rows(store, translate(query).query) == _rows(store, translate(reference).query)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", [
    "RETURN CASE WHEN < 5 THEN 1 END AS x",
    "RETURN CASE WHEN IS NULL THEN 1 END AS x",
    "RETURN CASE WHEN true, false THEN 1 END AS x",
])
def test_a_case_without_a_subject_cannot_leave_it_out(target, cypher):
    """Neo4j 5.18's subject-less WHEN operands belong to a simple CASE only."""
    with pytest.raises(CypherSyntaxError):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_simple_case_over_rand_is_refused(target):
    with pytest.raises(DialectError, match="rand"):
        translate("RETURN CASE toInteger(rand() * 2) WHEN 0, 1 THEN 'a' END", target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "inline"), [
    ("MATCH (r:Room) CALL (r) { RETURN r.nodeSymbol AS s } RETURN s",
     "MATCH (r:Room) WITH r, r.nodeSymbol AS s RETURN s"),
    ("MATCH (r:Room) CALL (*) { RETURN r.nodeSymbol AS s } RETURN s",
     "MATCH (r:Room) WITH r, r.nodeSymbol AS s RETURN s"),
    ("CALL () { MATCH (r:Room) RETURN r } RETURN r", "MATCH (r:Room) WITH r RETURN r"),
    ("MATCH (r:Room) CALL { WITH r OPTIONAL MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n } "
     "RETURN n", "OPTIONAL MATCH (r)-[:CONTAINS]->(m) WITH r, count(*) AS"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n } RETURN n",
     "OPTIONAL MATCH (r)-[:CONTAINS]->(m) WITH r, count(m) AS"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(m) RETURN avg(m.center.z) AS z } "
     "RETURN z", "OPTIONAL MATCH (r)-[:CONTAINS]->(m) WITH r, (avg("),
    ("MATCH (a:Room) CALL { MATCH (o:Object) RETURN count(o) AS n } RETURN a, n",
     "MATCH (o:Object) WITH count(o) AS"),
    # the subquery's own m, named like an outer m it does not import, is a new variable
    ("MATCH (r:Room), (m:Object) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c } "
     "RETURN c", "OPTIONAL MATCH (r)-[:CONTAINS]->(_inner1) WITH m, r, count(_inner1) AS"),
    ("MATCH (r:Room) CALL { MATCH (r:Object) RETURN count(r) AS n } RETURN n",
     "MATCH (_inner1:Object) WITH count(_inner1) AS"),
])
def test_a_call_subquery_is_inlined(target, cypher, inline):
    """CALL { } as the clauses it stands for (`call_subqueries.py`; rows in
    tests/cypher_fuzz/regressions.py)."""
    assert inline in translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "why"), [
    ("CALL { MATCH (r:Room) RETURN r.name AS n UNION MATCH (o:Object) WITH o "
     "RETURN o.name AS n } RETURN n ORDER BY n", "WITH inside a UNION part"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) WITH m LIMIT 2 RETURN m } RETURN m",
     "skips or limits rows inside, run per outer row"),
    ("CALL { CALL { MATCH (r:Room) RETURN r } RETURN r } RETURN r", "another CALL"),
    ("MATCH p = (a:Room)-[*1..2]-(b:Room) CALL { WITH a MATCH (a)-->(m) RETURN count(m) AS n } "
     "RETURN n", "path or variable-length"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) RETURN count(m) AS n ORDER BY n LIMIT 1 } "
     "RETURN n", "ordering or limiting aggregated rows"),
    # Valid Neo4j 5 (a first WITH that reads no outer name imports nothing): the inliner has
    # no form for it.
    ("MATCH (r:Room) CALL { WITH 1 AS k MATCH (o:Object) RETURN k, count(o) AS n } RETURN n",
     "does more than import"),
    ("MATCH (r:Room) WITH r.class AS c CALL { WITH c MATCH (m) WHERE m.class = c "
     "RETURN count(m) AS n } RETURN c, n", "two outer rows may be equal"),
    ("MATCH (r:Room) UNWIND [1, 1] AS k CALL { WITH r MATCH (r)-->(m) RETURN count(m) AS n } "
     "RETURN k, n", "two outer rows may be equal"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) MATCH (m)-->(o) RETURN count(o) AS n } "
     "RETURN n", "anything but a MATCH and OPTIONAL MATCHes"),
])
def test_a_call_subquery_without_a_faithful_inline_form_is_refused(target, cypher, why):
    with pytest.raises(DialectError, match=why):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "what"), [
    ("RETURN 'O[' =~ 'O[' AS v", "Java rejects .Unclosed character class"),
    ("RETURN ']' =~ '[\\\\][^^]' AS v", "Java rejects .Unclosed character class"),
    ("RETURN '{' =~ '{' AS v", "Java rejects .Illegal repetition"),
    ("RETURN 'x{y}' =~ 'x{y}' AS v", "Illegal repetition;"),
    ("RETURN 'a' =~ 'a{,2}' AS v", "Illegal repetition;"),
    ("RETURN 'a' =~ 'a{1' AS v", "Unclosed counted closure"),
    ("RETURN 'a' =~ 'a{1,2,3}' AS v", "Unclosed counted closure"),
    ("RETURN 'a' =~ 'a{2,1}' AS v", "Illegal repetition range"),
    ("RETURN 'a' =~ 'a{99999999999}' AS v", "Illegal repetition range"),
    ("RETURN 'a' =~ '[\\\\b]' AS v", "unsupported escape"),
    ("RETURN 'a' =~ '[\\\\1]' AS v", "unsupported escape"),
    ("RETURN 'a' =~ 'a\\\\U00000061' AS v", "unsupported escape"),
    ("RETURN 'a' =~ '(?(1)a|b)' AS v", "inline modifier"),
    ("RETURN 'ab' =~ '(?P<x>a)(?P=x)' AS v", "inline modifier"),
    ("RETURN 'a' =~ ('\\\\p{IsLatin}') AS v", "Unicode scripts"),
    ("RETURN 'a' =~ '\\\\X' AS v", "grapheme clusters"),
    ("RETURN 'aa' =~ '(?:(?=(a))x|a\\\\1)' AS v", "a group inside a quantifier, a lookaround"),
])
def test_a_regex_python_cannot_match_as_java_is_refused(target, cypher, what):
    """Every =~ goes through Python's re over the pattern as Java reads it (the engines' RE2
    answered lookaround, backreferences and possessive quantifiers false or true with no
    error); a pattern Java rejects, or one that cannot be written exactly, is refused."""
    with pytest.raises(DialectError, match=what):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", [
    "MATCH (o:Object) WHERE o.class =~ '(?i).*chair.*' RETURN o",
    "MATCH (o:Object) WHERE o.nodeSymbol =~ 'O[0-9]+\\\\.?\\\\d{0,2}' RETURN o",
    "MATCH (o:Object) WHERE o.class =~ '(table|chair)s?' RETURN o",
    "MATCH (o:Object) WHERE o.class =~ '[{]?(ch|t)a[]i]{1,2}r}?' RETURN o",
    "MATCH (o:Object) WHERE o.nodeSymbol =~ '(O)\\\\d+\\\\1?' RETURN o",
    # Java's own constructs, written for Python (they were refused before)
    "MATCH (o:Object) WHERE o.name =~ '(?m)^.*$' RETURN count(*) AS n",
    "RETURN 'R1' =~ '\\\\p{Upper}\\\\d' AS v",
    "RETURN 'R1' =~ '\\\\p{Lu}\\\\d' AS v",
    "RETURN 'a' =~ '[a-z&&[^b]]' AS v",
    "RETURN 'b' =~ '[[:alpha:]]' AS v",
    "RETURN 'a.b' =~ '\\\\Qa.b\\\\E' AS v",
    "RETURN 'ab' =~ '(?<x>a)\\\\k<x>' AS v",
    "RETURN 'a' =~ '\\\\141' AS v",
    # a computed pattern is checked when it runs, not by its literal parts
    "MATCH (o:Object) WHERE o.class =~ '\\\\Z' + o.class RETURN o",
    "MATCH (o:Object) WHERE o.class =~ '(' + o.class + ')' RETURN o",
])
def test_a_regex_java_reads_is_matched_by_python(target, cypher):
    assert "neo4j_regex_match(" in translate(cypher, target).query


@pytest.mark.parametrize(("neo4j", "kuzu"), [
    ("RETURN 0x1F + 0o17 AS a", "RETURN 31 + 15 AS a"),
    ("RETURN 1_000_000 - 0x_FF + 0o_7 AS a", "RETURN 1000000 - 255 + 7 AS a"),
    ("RETURN 1_000.5 + .2_5 AS a", "RETURN 1000.5 + 0.25 AS a"),
    ("MATCH (a)-[*1_0..1_2]->(b) RETURN count(*) AS n", "TRAIL 10..12]"),
])
def test_number_literals_of_every_neo4j_spelling(neo4j: str, kuzu: str) -> None:
    """Neo4j 5 writes integers in decimal, 0x hexadecimal and 0o octal, with underscores between
    digits; an octal literal was charged to the model as a syntax error. A variable-length
    range takes decimal integers only (Cypher5Parser.g4's `pathLength`)."""
    assert kuzu in translate(neo4j, "ladybug").query


def test_a_legacy_leading_zero_literal_is_neo4j_s_error() -> None:
    """`017` is the octal syntax Neo4j 5 no longer reads ("The octal integer literal syntax
    `017` is no longer supported, please use `0o17` instead"), not seventeen."""
    with pytest.raises(CypherSyntaxError, match="no longer supported"):
        translate("RETURN 017 AS a", "ladybug")


@pytest.mark.parametrize("query", [
    "MATCH (o:Object) WITH collect(o.class) AS cs RETURN cs = ['chair'] AS same",
    "MATCH (o:Object) WITH collect(o.class) AS cs WITH cs AS kept RETURN kept <> [] AS other",
])
def test_a_collected_list_is_compared_as_neo4j_does(query: str) -> None:
    """collect() never holds NULL, so `=` of a list a WITH collected needs no refusal."""
    assert "=" in translate(query, "ladybug").query or "<>" in translate(query, "ladybug").query


def test_a_list_that_may_hold_null_is_still_refused_in_a_comparison() -> None:
    with pytest.raises(DialectError):
        translate("MATCH (r:Room) WITH [r.name, null] AS cs RETURN cs = [r.name, null] AS s",
                  "ladybug")


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_subquery_sees_the_types_of_the_variables_around_it(target: str) -> None:
    """`s.center` of an outer node inside EXISTS { } is a 3-D point (refused before: the
    subquery was typed as if it stood alone)."""
    query = ("MATCH (s:Object {class: 'storage'}) WHERE NOT EXISTS { MATCH (c:Object {class: "
             "'seating'}) WHERE point.distance(c.center, s.center) < 1.0 } RETURN s.nodeSymbol")
    assert "(c.center.z - s.center.z) ^ 2" in translate(query, target).query


@pytest.mark.parametrize(("cypher", "guarded"), [
    ("MATCH (o:Object) RETURN o.center.z / 2 AS h", False),   # a non-zero literal
    ("MATCH (o:Object) RETURN o.center.z / 2.0 AS h", False),
    # the engine raises for two integers, but gives NULL for a NULL over 0 (Neo4j raises)
    ("MATCH (r:Room) WITH r, count(*) AS n RETURN 10 / n AS q", True),
    ("MATCH (r:Room) WITH r, count(*) AS n RETURN 10 % n AS q", False),   # null % 0 is NULL
    ("MATCH (r:Room) WITH r, count(*) AS n RETURN r.center.x / toFloat(n) AS q", False),
    ("MATCH (r:Room) WITH r, count(*) AS n RETURN r.center.x / n AS q", True),   # Neo4j raises
    ("UNWIND [0, 2] AS n RETURN CASE WHEN n = 0 THEN 0 ELSE 10 / n END AS q", True),
    ("UNWIND [0, 2] AS n RETURN coalesce(CASE WHEN n = 0 THEN 0 END, 10 % n) AS q", True),
    ("UNWIND [0, 2] AS n RETURN n <> 0 AND 10 / n > 1 AS q", True),
    ("UNWIND [0, 2] AS n RETURN CASE WHEN n = 0 THEN 0 ELSE 1.5 % n END AS q", False),
    ("RETURN all(x IN [-1, 0] WHERE 1.0 / x > 0) AS q", True),   # all() stops at a false
])
def test_integer_divisors_that_may_be_zero_are_guarded(cypher, guarded):
    """Only an integer divisor that may be 0 where Neo4j's raise and the engines' differ goes
    through neo4j_divisor: a float dividend, or a branch Neo4j may not evaluate."""
    assert ("neo4j_divisor(" in translate(cypher, "ladybug").query) == guarded


@pytest.mark.parametrize("cypher", [
    "MATCH (o:Object) RETURN properties(o) AS p, count(*) AS n",
    "MATCH (o:Object) RETURN DISTINCT o {.*} AS p",
    "MATCH (o:Object) WITH properties(o) AS p, count(*) AS n RETURN p, n",
])
def test_whole_node_maps_as_grouping_keys_are_refused_on_kuzu(cypher):
    """Kuzu splits a group whose key is a struct with a NULL field (an object without a box);
    Ladybug groups it as Neo4j does."""
    with pytest.raises(DialectError, match="whole map"):
        translate(cypher, "kuzu")
    translate(cypher, "ladybug")


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH (r:Room)-->(o:Object) RETURN r AS room, max(o.center.z) - r.center.z AS rise "
     "ORDER BY rise",
     "WITH r AS room, max(o.center.z) - r.center.z AS rise ORDER BY rise + 0.0 SKIP 0 RETURN room, "
     "rise"),
    ("MATCH (r:Room)-->(o:Object) RETURN r, count(o) + size(r.nodeSymbol) LIMIT 2",
     "AS _column1 LIMIT 2 RETURN r, _column1 AS `count(o) + size(r.nodeSymbol)`"),
])
def test_a_return_reading_a_grouped_nodes_property_beside_an_aggregate_becomes_a_with(
        target, cypher, expected):
    """Both engines fail to bind it in a RETURN ("Cannot evaluate expression with type
    PROPERTY") and answer it in a WITH (`grouped_node_reads.py`)."""
    assert expected in translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room)-->(o:Object) RETURN r, count(o) AS n",
    "MATCH (r:Room)-->(o:Object) RETURN r.nodeSymbol AS s, r.center AS c, "
    "max(o.center.z) - r.center.z AS rise",
    "MATCH (r:Room)-->(o:Object) WITH r.center AS c, o RETURN c, max(o.center.z) - c.z AS rise",
])
def test_a_return_the_engines_bind_stays_a_return(target, cypher):
    assert "WITH" not in translate(cypher, target).query.replace("WITH r.center", "")


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", [
    "WITH [[1, null], [1, null]] AS ls UNWIND ls AS l RETURN collect(DISTINCT l) AS c",
    "MATCH (r:Room) WITH r, {s: r.nodeSymbol, b: r.bbox_dim} AS m RETURN collect(DISTINCT m)",
    "MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]->(b:Room) "
    "RETURN collect(DISTINCT [n IN nodes(p) | n.bbox_dim]) AS c",
    # a written map holding a list that may hold NULL
    "MATCH (p:Place) OPTIONAL MATCH (p)-[:CONTAINS]->(o:Object) "
    "RETURN size(collect(DISTINCT {xy: [o.center.x, o.center.y]})) AS n",
])
def test_collect_distinct_of_a_list_or_map_that_may_hold_null_is_refused(target, cypher):
    """The engines' list_distinct keeps every copy of a list or struct holding a NULL
    (`distinct_lists.py`); a written one is keyed, any other refused."""
    with pytest.raises(DialectError, match="may hold NULL"):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH (r:Room)-->(m:MeshPlace) RETURN collect(DISTINCT [m.class, r.class]) AS c",
     "list_distinct(coalesce(collect([m.class, r.class])"),
    ("MATCH (r:Room) RETURN collect(DISTINCT labels(r)) AS c", "list_distinct("),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]->(b:Room) "
     "RETURN collect(DISTINCT [n IN nodes(p) | n.nodeSymbol]) AS c", "list_distinct("),
    ("MATCH (r:Room) OPTIONAL MATCH (r)-->(m:MeshPlace) "
     "RETURN collect(DISTINCT [r.class, m.class]) AS c",
     "_v1: list_filter([m.class], _e1 -> _e1 IS NOT NULL)"),
])
def test_collect_distinct_of_a_list_holding_no_null_is_left_alone(target, cypher, expected):
    assert expected in translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH (r:Room) OPTIONAL MATCH p = (r)-[:ROOM_CONNECTED*2]->(:Room) RETURN count(p) AS n",
     "RETURN count(CASE WHEN _w1 IS NULL THEN NULL ELSE p END) AS n"),
    ("MATCH (r:Room) OPTIONAL MATCH p = (r)-[:CONTAINS]->(m) RETURN r, collect(p) AS ps",
     "collect(CASE WHEN _w1 IS NULL THEN NULL ELSE p END)"),
    ("MATCH (r:Room) OPTIONAL MATCH p = (r)-[:CONTAINS]->(m) RETURN r, count(DISTINCT p) AS n",
     "count(DISTINCT CASE WHEN _w1 IS NULL THEN NULL ELSE p END)"),
    ("MATCH (r:Room) OPTIONAL MATCH p = (r)-[:CONTAINS]->(m) RETURN r, max(length(p)) AS n",
     "max(CASE WHEN _w1 IS NULL THEN NULL ELSE length(p) END)"),
])
def test_an_aggregate_of_an_optional_path_guards_its_argument(target, cypher, expected):
    """A path an OPTIONAL MATCH did not find is NULL inside the aggregate, which skips it
    (`optional_paths.py`); a guard around the aggregate read the witness of no row."""
    assert expected in translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]->(b) WITH collect(p) AS ps "
     "RETURN [q IN ps WHERE length(q) = 2] AS l", "size(rels(q)) = 2"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]->(b) WITH collect(p) AS ps "
     "RETURN length(ps[0]) AS l", "RETURN size(rels(ps[CASE WHEN size(ps) > 0 THEN 1"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]->(b) RETURN length(p) AS l",
     "RETURN length(p) AS l"),
])
def test_length_of_a_path_no_match_names_counts_its_relationships(target, cypher, expected):
    """The engines' LENGTH() takes a path a MATCH binds only; any other path is measured by
    its relationships, as Neo4j's length() is."""
    assert expected in translate(cypher, target).query


_ENDS = "WITH * WHERE neo4j_shortest_path_ends(id(a) = id(b)"


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    # A condition on the ends Neo4j applies before the search; OPTIONAL MATCH keeps its rows.
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-"
     "[:ROOM_CONNECTED*]-(b)) WHERE b.class = 'hallway' RETURN b.nodeSymbol",
     f"{_ENDS} AND (b.class = 'hallway'))"),
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) OPTIONAL MATCH p = shortestPath((a)-"
     "[:ROOM_CONNECTED*]-(b)) WHERE b.class = 'hallway' RETURN b.nodeSymbol",
     f"{_ENDS} AND (b.class = 'hallway'))"),
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = allShortestPaths((a)-"
     "[:ROOM_CONNECTED*]-(b)) WHERE b.nodeSymbol <> 'R1' RETURN b.nodeSymbol",
     f"{_ENDS} AND (b.nodeSymbol <> 'R1'))"),
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-"
     "[:ROOM_CONNECTED*]-(b)) WHERE EXISTS { (b)-[:CONTAINS]->(:MeshPlace) } RETURN b",
     f"{_ENDS} AND "),
    # An end's properties and labels written in the path.
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b) MATCH p = shortestPath((a)-[:ROOM_CONNECTED*]-"
     "(b:Room {class: 'hallway'})) RETURN b.nodeSymbol",
     f"{_ENDS} AND (label(b) = 'Room') AND (b.class = 'hallway'))"),
    # A variable a WITH passed on is bound before the search in every plan.
    ("MATCH (a:Room {nodeSymbol: 'R1'}) MATCH (b:Room)-[:CONTAINS]->(m) WITH a, b, m "
     "MATCH p = shortestPath((a)-[:ROOM_CONNECTED*]-(b)) WHERE m.nodeSymbol = 'P1' RETURN b",
     f"{_ENDS} AND (m.nodeSymbol = 'P1'))"),
    # A condition on the relationships of the path is part of the search.
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-[*]-(b)) "
     "WHERE all(r IN relationships(p) WHERE type(r) = 'ROOM_CONNECTED') RETURN b",
     f"{_ENDS})"),
])
def test_a_shortest_path_check_reads_what_neo4j_filters_before_the_search(
        target, cypher, expected):
    """`shortest_ends.py`: Neo4j's planner applies a predicate on the ends before the search,
    whose same-node test never meets a row it rejects."""
    query = translate(cypher, target).query
    assert expected in query
    assert query.index(expected) < query.index(" MATCH p")


def test_a_shortest_path_check_reads_a_node_predicate_at_the_start():
    """The search tests its node predicates on both ends before its same-node test
    (`ShortestPathSlottedPipe`); Kuzu refuses node predicates on a shortest path."""
    query = translate(
        "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-"
        "[:ROOM_CONNECTED*]-(b)) WHERE none(n IN nodes(p) WHERE n.class = 'kitchen') RETURN b",
        "ladybug").query
    assert f"{_ENDS} AND (NOT (a.class = 'kitchen'))) MATCH p" in query


def test_a_shortest_path_check_copies_a_subquery_condition():
    query = translate(
        "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-"
        "[:ROOM_CONNECTED*]-(b)) WHERE EXISTS { (b)-[:CONTAINS]->(:MeshPlace) } RETURN b",
        "ladybug").query
    assert query.count("EXISTS { MATCH (b)-[:CONTAINS]->(:MeshPlace) }") == 2


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_condition_the_planner_may_apply_after_the_search_refuses_the_row(target):
    """m is bound by the same query graph as the path (consecutive MATCH clauses are one):
    the planner may apply its condition before the search or after it."""
    query = translate(
        "MATCH (a:Room {nodeSymbol: 'R1'}) MATCH (b:Room)-[:CONTAINS]->(m) MATCH p = "
        "shortestPath((a)-[:ROOM_CONNECTED*]-(b)) WHERE m.nodeSymbol = 'P1' RETURN b",
        target).query.replace(") = true", ")")
    assert f"{_ENDS} AND (m.nodeSymbol = 'P1')) AND neo4j_shortest_path_refused(id(a) = id(b) " \
        "AND CASE WHEN (m.nodeSymbol = 'P1') THEN false ELSE true END, 'a shortest path" in query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_zero_length_shortest_path_searches_from_one_and_refuses_one_node(target):
    """`*0..`: between two nodes the search from 1; at one node the zero-length path, which
    the engines cannot give (their lower bound is 1)."""
    query = translate(
        "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-"
        "[:ROOM_CONNECTED*0..4]-(b)) RETURN b.nodeSymbol, length(p)", target).query
    assert "WITH * WHERE neo4j_shortest_path_refused(id(a) = id(b), 'a zero-length" in query
    assert "SHORTEST 1..4]" in query
    assert "SHORTEST 1..]" in translate(
        "MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*0..]-"
        "(b:Room {nodeSymbol: 'R3'})) RETURN length(p)", target).query
    with pytest.raises(DialectError, match="length 0 only"):
        translate("MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[*0]-(b)) RETURN p",
                  target)


_PAIR = "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) "


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    (_PAIR + "RETURN length(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) AS l",
     f"{_ENDS}) OPTIONAL MATCH _sp1 = (a)-[_w1:ROOM_CONNECTED* SHORTEST]-(b) "
     "RETURN CASE WHEN _w1 IS NULL THEN NULL ELSE length(_sp1) END AS l"),
    (_PAIR + "WITH b, shortestPath((a)-[:ROOM_CONNECTED*]-(b)) AS p RETURN length(p) AS l",
     "OPTIONAL MATCH p = (a)-[_w1:ROOM_CONNECTED* SHORTEST]-(b) WITH b, p"),
    (_PAIR + "RETURN shortestPath((a)-[:ROOM_CONNECTED*]-(b))",
     "AS `shortestPath((a)-[:ROOM_CONNECTED*]-(b))`"),
    (_PAIR + "UNWIND nodes(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) AS n RETURN n",
     "UNWIND CASE WHEN _w1 IS NULL THEN NULL ELSE nodes(_sp1) END AS n"),
    (_PAIR + "RETURN [n IN nodes(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) | n.x] AS l",
     f"{_ENDS}) OPTIONAL MATCH _sp1"),
    (_PAIR + "RETURN size(allShortestPaths((a)-[:ROOM_CONNECTED*]-(b))) AS n",
     f"{_ENDS}) RETURN CASE WHEN (a IS NULL OR b IS NULL) THEN NULL ELSE COUNT {{ MATCH _sp1 = "
     "(a)-[:ROOM_CONNECTED* ALL SHORTEST]-(b) } END AS n"),
])
def test_a_shortest_path_expression_is_an_optional_match_before_its_clause(
        target, cypher, expected):
    """`shortest_expressions.py`: Neo4j 5's ShortestPathExpression, the path or NULL, after
    the same-node check its expression makes on every row."""
    assert expected in translate(cypher, target).query.replace(") = true", ")")


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", [
    _PAIR + "RETURN CASE WHEN a <> b THEN length(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) END",
    _PAIR + "RETURN coalesce(null, length(shortestPath((a)-[:ROOM_CONNECTED*]-(b)))) AS l",
    _PAIR + "RETURN [x IN [1] | length(shortestPath((a)-[:ROOM_CONNECTED*]-(b)))] AS l",
    _PAIR + "RETURN b, length(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) AS l LIMIT 2",
])
def test_a_shortest_path_expression_neo4j_may_not_evaluate_refuses_one_node(target, cypher):
    """Where Neo4j may not evaluate the expression on a row (a branch, a lambda's body, an
    item a LIMIT may leave unprojected), a row with one node at both ends is refused."""
    assert "WHERE neo4j_shortest_path_refused(id(a) = id(b), 'a shortestPath() expression" in \
        translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "error", "message"), [
    ("MATCH (a:Room) RETURN length(shortestPath((a)-[:ROOM_CONNECTED*]-(c))) AS l",
     CypherSyntaxError, "Variable `c` not defined"),
    (_PAIR + "RETURN length(shortestPath((a)-[r:ROOM_CONNECTED*]-(b))) AS l",
     CypherSyntaxError, "Variable `r` not defined"),
    ("MATCH (a:Room) RETURN length(shortestPath((a)-[:ROOM_CONNECTED*]-(:Room))) AS l",
     CypherSyntaxError, "requires bound nodes when not part of a MATCH clause"),
    (_PAIR + "WHERE length(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) > 1 RETURN b",
     DialectError, "as an expression in a WHERE"),
    (_PAIR + "RETURN length(shortestPath((a)-[:ROOM_CONNECTED*]-(b:Room))) AS l",
     DialectError, "labels or properties on an end"),
    (_PAIR + "RETURN allShortestPaths((a)-[:ROOM_CONNECTED*]-(b)) AS ps",
     DialectError, "a list of paths"),
])
def test_a_shortest_path_expression_neo4j_rejects_or_the_engines_cannot_hold(
        target, cypher, error, message):
    """The first three are Neo4j's compile errors (lintCypherQuery, CYPHER 5)."""
    with pytest.raises(error, match=message):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH (r:Room) WITH 0 AS x LIMIT 2 RETURN count(*) AS n",
     "MATCH (r:Room) WITH * LIMIT 2 WITH 0 AS x RETURN"),
    ("MATCH (r:Room) WITH DISTINCT 0 AS x RETURN x",
     "WITH 0 AS x, count(*) AS _distinct1 WITH x RETURN"),
])
def test_a_with_of_constants_that_cuts_or_is_distinct_is_split(target, cypher, expected):
    """Both engines ignore the DISTINCT, SKIP and LIMIT of a WITH whose items read no
    variable (`constant_projections.py`)."""
    assert expected in translate(cypher, target).query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_order_by_a_written_list_sorts_by_its_elements(target):
    """Neo4j orders lists element by element (`list_sort_keys.py`)."""
    query = translate("MATCH (r:Room)-->(m) RETURN r, m ORDER BY ([r.class, m.class]) DESC, m",
                      target).query
    assert "ORDER BY r.class DESC, m.class DESC" in query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_shortest_path_expression_in_a_comprehension_is_refused(target):
    """Its end may be the comprehension's own variable (`shortest_expressions.py`)."""
    with pytest.raises(DialectError, match="from its own variable"):
        translate("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) WHERE b <> a "
                  "WITH a, collect(b) AS bs "
                  "RETURN [m IN bs | length(shortestPath((a)-[:ROOM_CONNECTED*]-(m)))] AS ls",
                  target)


@pytest.mark.parametrize(("cypher", "expected"), [
    # A list a WITH carries: '' is searched by position (two lambdas calling size() of a
    # string element over it computed the first wrong on both engines).
    ("MATCH (r:Room) WITH r, split(r.nodeSymbol, '1') AS xs RETURN '' IN xs AS a",
     "list_filter(range(1, size(xs)), _x1 -> size(xs[_x1]) = 0)"),
    # A list computed in place keeps the element lambda (its UDF would run inside it).
    ("MATCH (r:Room) RETURN '' IN split(r.nodeSymbol, '1') AS a",
     "size(list_filter(neo4j_split(r.nodeSymbol, '1'), _x1 -> size(_x1) = 0)) > 0"),
    # A non-empty value is searched with list_contains, no lambda.
    ("MATCH (r:Room) WITH r, split(r.nodeSymbol, '1') AS xs RETURN 'R' IN xs AS a",
     "WHEN list_contains(xs, 'R') = true THEN true"),
])
def test_kuzu_searches_a_list_of_strings_for_empty_text_by_length(cypher, expected):
    assert expected in translate(cypher, "kuzu").query


@pytest.mark.parametrize(("literal", "value"), [
    (r"'O\d+'", r"O\d+"),                 # no escape: the backslash stays (Neo4j's AST builder)
    (r"'\U0001F600'", r"\U0001F600"),     # Cypher has no \U escape
    (r"'a\qb'", r"a\qb"),
    (r"'a\tb\n'", "a\tb\n"),
    (r"'it\'s'", "it's"),
    (r'"say \"hi\""', 'say "hi"'),
    (r"'a\\d'", r"a\d"),                  # an escaped backslash, then d
    (r"'\u0041\uu0042'", "AB"),            # Java reads every u of \uu0042
    (r"'\\u0041'", r"\u0041"),             # the escaped backslash escapes the u too
])
def test_string_literals_read_as_neo4j_reads_them(literal, value):
    from dsgqa.dialect.emit import unquote_string
    assert unquote_string(literal) == value


@pytest.mark.parametrize("cypher", [r"RETURN '\u00zz' AS s", r"RETURN 'a\u12' AS s"])
def test_a_unicode_escape_without_four_digits_is_neo4j_s_error(cypher):
    with pytest.raises(CypherSyntaxError, match="four hexadecimal digits"):
        translate(cypher, "ladybug")
