"""Values of a type no node has, named as a node, and properties read of values with none:
Neo4j 5 rejects the query when it compiles it where it knows the value's type
(`static_types.py`, `scope_errors.py`), a syntax error here too on both engines, and raises on
the rows that reach the read where it does not (`scalar_reads.py`); the valid queries beside
them stay valid. Each verdict was checked with Neo4j's own semantic analysis
(`@neo4j-cypher/language-support`, `lintCypherQuery` with a `CYPHER 5` prefix). And `m[k]` of
a map the query writes, read as a CASE over its keys. The engines' rows and errors are in
`tests/cypher_fuzz/regressions.py`."""

from __future__ import annotations

import contextlib
import re

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.dialect.rewrite import MAP_KEY_READS
from dsgqa.dialect.scalar_reads import REWRITE as SCALAR_READS
from dsgqa.graphstore.error_kind import engine_error_kind

TARGETS = ["kuzu", "ladybug"]
_STORABLE = (r"Boolean, Float, Integer, Number, Point, String, Duration, Date, Time, "
             r"LocalTime, LocalDateTime, DateTime, List<Boolean>, List<Float>, List<Integer>, "
             r"List<Number>, List<Point>, List<String>, List<Duration>, List<Date>, "
             r"List<Time>, List<LocalTime>, List<LocalDateTime> or List<DateTime>")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("cypher", "message"), [
    ("WITH {a: 1} AS row MATCH (row)-[:CONTAINS]->(o) RETURN count(o)",
     r"row defined with conflicting type Map \(expected Node\)"),
    # collected maps, unwound (a list of map literals collect() built is a List<Map>)
    ("MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace) WITH r, collect({place: m, cls: m.class}) "
     "AS rows UNWIND rows AS row MATCH (row)-[:CONTAINS]->(o:Object) "
     "RETURN r.nodeSymbol AS room, count(o) AS objects",
     r"Type mismatch: row defined with conflicting type Map \(expected Node\)"),
    ("MATCH (r:Room) WITH r {.nodeSymbol} AS row MATCH (row)-->(o) RETURN count(o)",
     r"type Map \(expected Node\)"),
    ("MATCH (r:Room) WITH properties(r) AS row MATCH (row)-->(o) RETURN count(o)",
     r"type Map \(expected Node\)"),
    ("WITH 'x' AS row MATCH (row)-->(o) RETURN count(o)", r"type String \(expected Node\)"),
    ("WITH 1 AS row MATCH (row)-->(o) RETURN count(o)", r"type Integer \(expected Node\)"),
    ("WITH 1.5 AS row MATCH (row)-->(o) RETURN count(o)", r"type Float \(expected Node\)"),
    ("WITH true AS row MATCH (row)-->(o) RETURN count(o)", r"type Boolean \(expected Node\)"),
    ("WITH [1] AS row MATCH (row)-->(o) RETURN count(o)",
     r"type List<Integer> \(expected Node\)"),
    ("UNWIND ['a'] AS row MATCH (row)-->(o) RETURN count(o)", r"type String \(expected Node\)"),
    ("MATCH (r:Room) WITH count(r) AS row MATCH (row)-->(o) RETURN count(o)",
     r"type Integer \(expected Node\)"),
    ("MATCH (r:Room) WITH collect(r) AS rs MATCH (rs)-->() RETURN count(*)",
     r"rs defined with conflicting type List<Node> \(expected Node\)"),
    ("MATCH (r:Room) WITH toString(r.nodeSymbol) AS row MATCH (row)-->(o) RETURN count(o)",
     r"type String \(expected Node\)"),
    ("MATCH (r:Room) WITH point({x: 1, y: 2}) AS row MATCH (row)-->(o) RETURN count(o)",
     r"type Point \(expected Node\)"),
    ("MATCH (r:Room) WITH CASE WHEN true THEN {a: 1} ELSE {b: 2} END AS row "
     "MATCH (row)-->(o) RETURN count(o)", r"type Map \(expected Node\)"),
    ("MATCH (r:Room) WITH [x IN [1, 2] | {a: x}] AS rows UNWIND rows AS row "
     "MATCH (row)-->(o) RETURN count(o)", r"type Map \(expected Node\)"),
    # a node's property is any storable value to Neo4j, never a node (`r` shadowed)
    ("MATCH (r:Room) WITH r.nodeSymbol AS r MATCH (r)-[:CONTAINS]->(o) RETURN count(o)",
     f"r defined with conflicting type {_STORABLE} \\(expected Node\\)"),
    ("MATCH (r:Room) WITH r.center AS c MATCH (c)-->(o) RETURN count(o)",
     r"c defined with conflicting type Boolean, Float"),
    # a relationship's pattern, a subquery's, a pattern comprehension's, a CALL's return
    ("MATCH (r:Room) WITH {a: 1} AS row MATCH ()-[row]->(o) RETURN count(o)",
     r"type Map \(expected Relationship\)"),
    ("WITH {a: 1} AS row RETURN EXISTS { (row)-->() } AS e", r"type Map \(expected Node\)"),
    ("WITH {a: 1} AS row RETURN COUNT { MATCH (row)-->() } AS c",
     r"type Map \(expected Node\)"),
    ("WITH {a: 1} AS row RETURN [(row)-->(o) | o] AS l", r"type Map \(expected Node\)"),
    ("WITH {a: 1} AS row OPTIONAL MATCH (row)-->(o) RETURN count(o)",
     r"type Map \(expected Node\)"),
    ("WITH {a: 1} AS row WITH row AS q MATCH (q)-->(o) RETURN count(o)",
     r"q defined with conflicting type Map \(expected Node\)"),
    ("WITH {a: 1} AS row WITH * MATCH (row)-->(o) RETURN count(o)",
     r"type Map \(expected Node\)"),
    ("MATCH (r:Room) CALL (r) { RETURN r.nodeSymbol AS m } MATCH (m)-->() RETURN count(*)",
     r"m defined with conflicting type Boolean, Float"),
])
def test_a_value_no_node_has_named_as_a_node_is_a_syntax_error(target, cypher, message):
    with pytest.raises(CypherSyntaxError, match=message):
        translate(cypher, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", [
    # values that may be nodes to Neo4j: collected or picked nodes, a written NULL, a map's key,
    # a list literal of maps (its elements may be nodes), a parameter-like read
    "MATCH (r:Room) WITH collect(r) AS rs UNWIND rs AS row MATCH (row)-[:CONTAINS]->(o) "
    "RETURN count(o)",
    "MATCH (r:Room) WITH head(collect(r)) AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH collect(r)[0] AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH r AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH CASE WHEN r IS NULL THEN null ELSE r END AS x MATCH (x)-->() "
    "RETURN count(*)",
    "MATCH (r:Room) WITH CASE WHEN r IS NULL THEN null ELSE r END AS x MATCH ()-[x]->() "
    "RETURN count(*)",
    "WITH null AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH {node: r} AS row WITH row.node AS x MATCH (x)-[:CONTAINS]->(o) "
    "RETURN count(o)",
    "MATCH (r:Room) WITH collect({node: r}) AS rows UNWIND rows AS row WITH row.node AS x "
    "MATCH (x)-[:CONTAINS]->(o) RETURN count(o)",
    "UNWIND [{a: 1}] AS row MATCH (row)-->(o) RETURN count(o)",
    "UNWIND [1, 'a'] AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH [collect({k: r})] AS xs UNWIND xs AS x MATCH ()-[x*1..2]->() "
    "RETURN count(*)",
    "MATCH (r:Room) WITH r['nodeSymbol'] AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH (r:Room) WITH r.center.x AS row MATCH (row)-->(o) RETURN count(o)",
    "MATCH p = (r:Room)-->() UNWIND nodes(p) AS n MATCH (n)-[:CONTAINS]->(o) RETURN count(o)",
    "MATCH (a)-[es*1..2]->() UNWIND es AS e MATCH ()-[e]->() RETURN count(*)",
    # the value beside the pattern, not in it; the name taken again by a lambda or a MATCH
    "MATCH (r:Room) WITH r, {a: 1} AS row MATCH (r)-[:CONTAINS]->(o) RETURN row, count(o)",
    "MATCH (r:Room) WITH r.nodeSymbol AS s MATCH (q:Room {nodeSymbol: s}) RETURN count(q)",
    "MATCH (r:Room) WITH r.nodeSymbol AS r MATCH (q:Room) WHERE q.nodeSymbol = r "
    "RETURN count(q)",
    "MATCH (r:Room) WITH r.nodeSymbol AS s RETURN s UNION MATCH (s) RETURN s",
])
def test_a_value_that_may_be_a_node_stays_valid(target, cypher):
    """Translated, or refused as the engines' shortfall (`dialect`), never the model's."""
    with contextlib.suppress(DialectError):
        translate(cypher, target)


# ------------------------------------------------------------------ a property of a scalar

_HOLDERS = ("Type mismatch: expected Map, Node, Relationship, Point, Duration, Date, Time, "
            "LocalTime, LocalDateTime or DateTime but was ")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("cypher", "was"), [
    # a value Neo4j types as one without properties: rejected when it compiles
    ("WITH 'a' AS s RETURN s.class", "String"),
    ("MATCH (r:Room) RETURN toString(r.nodeSymbol).class", "String"),
    ("MATCH (r:Room) WITH count(*) AS n RETURN n.x", "Integer"),
    ("WITH {a: 1}.a AS v RETURN v.k", "Integer"),
    ("RETURN {a: 'x'}.a.k", "String"),
])
def test_a_property_of_a_value_neo4j_types_as_a_scalar_is_a_syntax_error(target, cypher, was):
    with pytest.raises(CypherSyntaxError, match=re.escape(_HOLDERS + was)):
        translate(cypher, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("cypher", "read"), [
    # a node's property is storable to Neo4j (it may be a point): its error is per row
    ("MATCH (r:Room) WITH r.nodeSymbol AS s RETURN s.class",
     "neo4j_scalar_property('String', s, 0)"),
    ("MATCH (r:Room) RETURN r.nodeSymbol.class",
     "neo4j_scalar_property('String', r.nodeSymbol, 0)"),
    ("MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace) WITH r.nodeSymbol AS r, count(m) AS places "
     "WHERE places > 10 RETURN r AS room, places, r.class AS kind",
     "neo4j_scalar_property('String', r, 0) AS kind"),
    ("MATCH (o:Object) RETURN o.center.x.y", "neo4j_scalar_property('Double', "),
    # a CASE keeps the rows it does not take away from the read (mode 1 there)
    ("MATCH (r:Room) WITH r.nodeSymbol AS s RETURN CASE WHEN s IS NULL THEN s.class ELSE s END "
     "AS k", "neo4j_scalar_property('String', s, CASE WHEN"),
])
def test_a_property_of_a_stored_scalar_raises_per_row(target, cypher, read):
    translation = translate(cypher, target)
    assert read in translation.query
    assert SCALAR_READS in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room) WITH r.center AS c RETURN c.x",
    "MATCH (r:Room) WITH properties(r) AS p RETURN p.class",
    "MATCH (r:Room) WITH {a: r} AS m RETURN m.a.nodeSymbol",
    "MATCH (r:Room) WITH collect(r)[0] AS f RETURN f.nodeSymbol",
    "MATCH (r:Room) WITH head(collect({k: r.nodeSymbol})) AS f RETURN f.k",
    "MATCH (r:Room) WITH point({x: 1, y: 2}) AS p RETURN p.x",
    "MATCH (o:Object) RETURN o.center.x, o.bbox_center.z",
    # in a lambda Neo4j types the element itself (and may reject the read when it compiles)
    "MATCH (r:Room) WITH collect(r.nodeSymbol) AS ss RETURN [s IN ss | s.k] AS l",
    # the whole sort key equal to an item is its alias (`order_by.py`): no read of a string
    "MATCH (o:Object) RETURN o.class AS o ORDER BY o.class",
    "MATCH (r:Room)-[:CONTAINS]->(x) RETURN r.nodeSymbol AS r, "
    "min(r.nodeSymbol + x.center.x) AS g ORDER BY min(r.nodeSymbol + x.center.x) DESC, r",
])
def test_a_property_of_a_map_node_or_point_is_read_as_written(target, cypher):
    with contextlib.suppress(DialectError):
        assert "neo4j_scalar_property" not in translate(cypher, target).query


@pytest.mark.parametrize(("error", "kind"), [
    ('Runtime exception: ValueError: Type mismatch: expected a map but was String("R1")',
     "runtime"),
    ("Runtime exception: ValueError: no engine equivalent: a property read of a string or "
     "number that Neo4j may not evaluate (an AND or OR)", "dialect"),
])
def test_the_per_row_type_error_is_the_model_s(error, kind):
    assert engine_error_kind(error, "ladybug") == kind


# ------------------------------------------------------------------ m[key] of a written map

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("cypher", "read"), [
    ("WITH {a: 1, b: 2} AS m UNWIND ['a', 'b'] AS k RETURN k, m[k]",
     "CASE k WHEN 'a' THEN "),
    ("MATCH (r:Room) WITH r, {kitchen: 1, office: 2} AS m RETURN m[r.class] AS v",
     "CASE r.class WHEN 'kitchen' THEN "),
    ("MATCH (r:Room)-[:CONTAINS]->(o:Object) WITH r, count(o) AS n, collect(o.class) AS ks "
     "WITH r, {n: n, m: size(ks)} AS t UNWIND ['n', 'm'] AS k RETURN k, t[k] AS v",
     "CASE k WHEN 'n' THEN "),
])
def test_a_written_map_read_by_a_computed_key_is_a_case_over_its_keys(target, cypher, read):
    translation = translate(cypher, target)
    assert read in translation.query
    assert MAP_KEY_READS in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", [
    # fields of two types (the engines would make the CASE's results one), a key that may be
    # no string, a node's or an unknown map's keys
    "WITH {a: 1, b: 'x'} AS m UNWIND ['a', 'b'] AS k RETURN m[k]",
    "WITH {a: 1, b: 2} AS m UNWIND ['a', 1] AS k RETURN m[k]",
    "MATCH (o:Object) UNWIND keys(o) AS key RETURN key, o[key] AS v",
    "MATCH (r:Room) WITH collect({a: r.nodeSymbol}) + [{b: 1}] AS ms UNWIND ms AS m "
    "UNWIND ['a', 'b'] AS k RETURN m[k]",
])
def test_a_map_whose_keys_or_fields_are_not_known_stays_refused(target, cypher):
    with pytest.raises(DialectError):
        translate(cypher, target)


# ------------------------------------------------------------------ round() of a mixed element

@pytest.mark.parametrize("target", TARGETS)
def test_round_of_an_element_of_a_mixed_list_reads_the_element_as_the_engines_hold_it(target):
    """Neo4j rounds the number (and raises for text); the UDF takes the element as is."""
    query = translate("WITH [['a', 0.5]] AS l RETURN round(l[0][1], 1) AS v", target).query
    assert "neo4j_round(" in query
    assert "CAST(" not in query.split("neo4j_round(", 1)[1].split(",", 1)[0]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room) RETURN round(r.nodeSymbol) AS v",
    "MATCH (r:Room) WITH collect(r.nodeSymbol) AS l RETURN round(l[0], 1) AS v",
])
def test_round_of_text_stays_refused(target, cypher):
    with pytest.raises(DialectError, match="round"):
        translate(cypher, target)


# ------------------------------------------------------------------ reduce() over written lists

@pytest.mark.parametrize("target", TARGETS)
def test_reduce_over_a_list_every_row_holds_the_same_is_folded(target):
    """The engines' lambdas read another row's list: the same list where every row holds
    one written out (`captures.affected`)."""
    translation = translate(
        "MATCH (r:Room) WITH r, [{k: 1, p: 'a'}, {k: 3, p: 'b'}] AS places "
        "RETURN reduce(best = places[0], x IN places | CASE WHEN x.k > best.k THEN x "
        "ELSE best END).p AS p", target)
    assert "list_reduce(" in translation.query


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", [
    # a list per row, a step reading the row, a list that is not the same on every row
    "MATCH (r:Room)-[:CONTAINS]->(m) WITH r, collect({p: m.nodeSymbol}) AS ms "
    "RETURN reduce(best = ms[0], x IN ms | CASE WHEN x.p > best.p THEN x ELSE best END) AS b",
    "MATCH (r:Room) WITH r, [{k: 1}, {k: 2}] AS ms RETURN reduce(best = ms[0], x IN ms | "
    "CASE WHEN x.k * r.center.x > best.k THEN x ELSE best END) AS b",
    "MATCH (r:Room) WITH r, [{k: rand()}, {k: 2.0}] AS ms RETURN reduce(best = ms[0], "
    "x IN ms | CASE WHEN x.k > best.k THEN x ELSE best END) AS b",
    "MATCH (r:Room) WITH r, [{k: r.center.x}, {k: 2.0}] AS ms RETURN reduce(best = ms[0], "
    "x IN ms | CASE WHEN x.k > best.k THEN x ELSE best END) AS b",
])
def test_reduce_over_a_list_rows_hold_apart_stays_refused(target, cypher):
    with pytest.raises(DialectError, match="reduce"):
        translate(cypher, target)
