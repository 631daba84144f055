"""Neo4j 5's quantified relationships, quantified path patterns and path selectors
(`path_patterns.py`): valid queries are translated or refused as `dialect`, never charged to the
model as "not Cypher"; the ones Neo4j 5 rejects are syntax errors with Neo4j's message.

Each rejected and each accepted query was checked with Neo4j's own semantic analysis
(`@neo4j-cypher/language-support`'s `lintCypherQuery` with a `CYPHER 5` prefix). Rows on the
regression graph are in `tests/cypher_fuzz/regressions.py`.
"""

from __future__ import annotations

import contextlib

import pytest
from lark import Tree

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.dialect.parser import parse
from dsgqa.dialect.path_patterns import Selector, parse_selector, quantifier_bounds

TARGETS = ["kuzu", "ladybug"]
_TYPE = "Type mismatch: expected"
_MIXING = r"Mixing variable-length relationships \('-\[\*\]-'\) with quantified"

REJECTED = [
    # A group variable is a list outside its quantified path pattern.
    ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED]->(y:Room)){1,3} (b:Room) "
     "WHERE y.class = 'hallway' RETURN DISTINCT b.nodeSymbol AS room",
     f"{_TYPE} Map, Node, Relationship, Point, .* but was List<Node>"),
    ("MATCH (a)-[r:ROOM_CONNECTED]->{1,3}(b) RETURN r.w", "but was List<Relationship>"),
    ("MATCH (a) ((x)-->(y)){1,3} (b) WHERE x:Room RETURN a",
     f"{_TYPE} Node or Relationship but was List<Node>"),
    ("MATCH (a) ((x)-->(y)){1,3} (b) RETURN labels(x)", f"{_TYPE} Node but was List<Node>"),
    ("MATCH (a) ((x)-[r]->(y)){1,3} (b) RETURN type(r)",
     f"{_TYPE} Relationship but was List<Relationship>"),
    ("MATCH (a) ((x)-[r]->(y)){1,3} (b) RETURN x['name']",
     "list index must be given as Integer"),
    ("MATCH (a) ((x)-[r]->(y)){1,3} (b) WITH x MATCH (x)-->(c) RETURN c",
     "x defined with conflicting type List<Node>"),
    ("MATCH (x) MATCH ((x)-->(b)){1,3} RETURN b", "Variable `x` already declared"),
    ("MATCH (x) ((a)-->(b)){1,3} (a) RETURN a", "a defined with conflicting type"),
    # Nesting, a variable-length relationship inside or beside, a node alone.
    ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED]->+(y:Room)){1,2} (b:Room) "
     "RETURN DISTINCT b.nodeSymbol AS room", "Quantified path patterns are not allowed to be "
     "nested."),
    ("MATCH (x) (((a)-[r]->(b)){1,2}){1,3} (y) RETURN r", "not allowed to be nested"),
    ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED*1..2]->(y:Room)){1,2} "
     "(b:Room) RETURN DISTINCT b.nodeSymbol AS room", _MIXING),
    ("MATCH (a)-[*]->(b)-->+(c) RETURN c", _MIXING),
    ("MATCH (a)-[*]->(b), (b)-->+(c) RETURN c", _MIXING),
    ("MATCH (a) ((x:Room)){2,4} (b) RETURN x", "needs to have at least one relationship"),
    ("MATCH ((n)-[r]->(m)){0,10} RETURN n", "always evaluates to at least one node pattern"),
    # Quantifiers.
    ("MATCH (a)-[r:T]->{3,1}(b) RETURN b", "lower bound 3 is greater than the upper bound 1"),
    ("MATCH (a)-[r:T]->{0}(b) RETURN b", "must not be limited by 0"),
    ("MATCH (a)-[r:T]->{0,0}(b) RETURN b", "must not be limited by 0"),
    # Selectors.
    ("MATCH p = SHORTEST 1 (:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-+(b:Room {nodeSymbol: "
     "'R2'}), q = SHORTEST 1 (b)-[:ROOM_CONNECTED]-+(:Room {nodeSymbol: 'R5'}) RETURN "
     "length(p) AS first, length(q) AS second", "Multiple path patterns cannot be used"),
    ("MATCH p = SHORTEST 1 (a)-->+(b), (c) RETURN p", "Multiple path patterns"),
    ("MATCH p = shortestPath((:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-+(:Room "
     "{nodeSymbol: 'R5'})) RETURN length(p) AS steps",
     r"shortestPath\(\.\.\.\) requires a pattern containing a single relationship"),
    ("MATCH p = shortestPath((a) ((x)-->(y))+ (b)) RETURN p", "single relationship"),
    ("MATCH p = SHORTEST 1 shortestPath((a)-[*]->(b)) RETURN p",
     "Mixing shortestPath/allShortestPaths with path selectors"),
    ("MATCH p = SHORTEST 0 (a)-[:T]-+(b) RETURN p", "path count needs to be greater than 0"),
    ("MATCH p = SHORTEST 0 GROUPS (a)-->+(b) RETURN p", "group count needs to be greater"),
    ("MATCH p = ANY SHORTEST 2 (a)-->+(b) RETURN p", "not a path selector"),
    ("MATCH p = SHORTEST (a)-->+(b) RETURN p", "not a path selector"),
    # Juxtaposition and sub-paths.
    ("MATCH (x) ((a)-->(b)) (y) RETURN a", "Juxtaposition is currently only supported"),
    ("MATCH (a:A)(b:B) RETURN a", "Juxtaposition"),
    ("MATCH (p = (a)-->(b)) RETURN p", "Sub-path assignment is currently not supported"),
    ("MATCH (:A) (p = (a)-[r]->(b)){1,2} (c) RETURN a",
     "Assigning a path in a quantified path pattern"),
]

# Valid Neo4j 5 (lint: no error), translated or refused as `dialect`.
ACCEPTED = [
    "MATCH (a)-[:T]->{1,3}(b) RETURN b",
    "MATCH (a)-->{1,3}(b) RETURN b",
    "MATCH (a)-->+(b) RETURN b",
    "MATCH (a)--+(b) RETURN b",
    "MATCH (a)<-[r:T]-*(b) RETURN r",
    "MATCH (a)-[r:T]-{,3}(b) RETURN size(r)",
    "MATCH (a)-[r]->{,}(b) RETURN r",
    "MATCH (a)-[r]->{ 1 , 3 }(b) RETURN r",
    "MATCH (a)-[r:T WHERE r.x > 1]->{2,}(b) RETURN size(r)",
    "MATCH (a)-[r:T {x: 1}]->{2,}(b) RETURN size(r)",
    "MATCH (a)<-->{2}(b) RETURN b",
    "MATCH (a)-->{2}(b)-->{3}(c) RETURN c",
    "MATCH ((a)-->(b)){1,3} RETURN a",
    "MATCH ((a)-->(b) WHERE a.x > 1) RETURN a",
    "MATCH ((a)-->(b) WHERE a.x > 1)+ RETURN a",
    "MATCH (x) ((a)-->(b))+ ((c)-->(d))+ (y) RETURN a",
    "MATCH (x) ((a)-->(b))+ (y)-->(z) RETURN a",
    "MATCH (x)-->(y) ((a)-->(b))+ RETURN a",
    "MATCH (x) ((a)-->(b)-->(c)){1,3} (y) RETURN a",
    "MATCH (a) ((n)-[r]->(m))* RETURN n",
    "MATCH (a) (((x)-->(y)))+ (b) RETURN a",
    "MATCH (x) ((a)-->(b)){1,3} (y) WHERE size(a) > 1 RETURN a",
    "MATCH (a) ((x)-[r]->(y)){2} (b) WITH x RETURN x[0].name",
    "MATCH (a) ((x)-[r]->(y)){2} (b) RETURN *",
    "MATCH (a) ((x)-[r]->(y)){2} (b) WITH * RETURN size(x)",
    "MATCH (a) ((x)-[r]->(y)){2} (b) RETURN [n IN x | n.name] AS xs, [e IN r | type(e)] AS ts",
    "MATCH (a) ((x)-->(y))+ (b) RETURN [x IN x | x.name] AS names",
    "MATCH (a) ((x)-->(y))+ (b) RETURN head(x).name AS n, x[0].name AS m",
    "MATCH (a) ((x)-[r]->(y) WHERE x.v < y.v AND r.w > 0){2} (b) RETURN a",
    "MATCH (a) ((x)-[r]->(y) WHERE a.v < y.v){2} (b) RETURN a",
    "MATCH (a) ((x)-[r]->(y))+ (b) WHERE all(n IN y WHERE n.v > 1) RETURN a",
    "MATCH (a) ((x)-[r]->(y))+ (b) UNWIND x AS n RETURN n.name",
    "MATCH (a) ((x)-[r]->(y)){1,3} (b) WHERE EXISTS { MATCH (n) WHERE n IN x } RETURN a",
    "MATCH (a) ((x)-[r]->(y)){1,3} (b) CALL (x) { RETURN size(x) AS s } RETURN s",
    "MATCH (a) ((x)-[r:!R]->(y))+ (b) RETURN x",
    "MATCH (a) ((x)<-[r]-(y))+ (b) RETURN x",
    "OPTIONAL MATCH (a) ((x)-[r]->(y))+ (b) RETURN x",
    "MATCH (x) WHERE EXISTS { (x) ((a)-->(b))+ (y) } RETURN x",
    "MATCH (x) RETURN COUNT { (x)-->+() } AS c",
    "MATCH (x) WHERE EXISTS { SHORTEST 1 (x)-->+(y) } RETURN x",
    "MATCH p = SHORTEST 1 (a)-->+(b) RETURN p",
    "MATCH p = SHORTEST 1 (a)-->(b) RETURN p",
    "MATCH p = SHORTEST 1 (a)-[*]->(b) RETURN p",
    "MATCH p = ANY SHORTEST (a)-[:T]-{1,5}(b) RETURN p",
    "MATCH p = ALL SHORTEST (a)-[:T]-{1,5}(b) RETURN p",
    "MATCH p = SHORTEST 2 GROUPS (a)-[:T]-+(b) RETURN p",
    "MATCH p = SHORTEST GROUPS (a)-[:T]-+(b) RETURN p",
    "MATCH p = SHORTEST 2 PATHS (a)-[:T]-+(b) RETURN p",
    "MATCH p = ANY 2 PATHS (a)-[:T]-+(b) RETURN p",
    "MATCH p = ANY (a)-[:T]-+(b) RETURN p",
    "MATCH p = ANY PATH (a)-[:T]-+(b) RETURN p",
    "MATCH p = ALL (a)-[:T]-+(b) RETURN p",
    "MATCH p = ALL PATHS (a)-[:T]-+(b), (c) RETURN p",
    "MATCH p = ALL SHORTEST PATHS (a)-[:T]-+(b) RETURN p",
    "MATCH p = SHORTEST 1 PATH GROUP (a)-[:T]-+(b) RETURN p",
    "MATCH SHORTEST 1 (a)-[:T]-+(b) RETURN a",
    "MATCH p = SHORTEST 1 (a)-[:T]-+(a) RETURN p",
    "MATCH p = SHORTEST 1 ((a)-[:T]-(b) WHERE a.x < b.x)+ RETURN p",
    "MATCH p = SHORTEST 1 (x) ((a)-[:T]-(b) WHERE a.x < b.x)+ (y) RETURN p",
    "MATCH SHORTEST 1 (p = (a)-[r]->+(b) WHERE length(p) > 3) RETURN p",
    "MATCH p = SHORTEST 1 (a)-[r:R WHERE r.x > 1]-+(b) RETURN r",
    "OPTIONAL MATCH p = SHORTEST 1 (x)-[:T]-+(y) RETURN p",
    "MATCH p = ALL SHORTEST (a)-[:T]->+(b)-[:S]->(c) RETURN nodes(p)",
    # The grammar's new lookaheads leave arithmetic and names alone.
    "WITH [1, 2] AS l RETURN l[0]-+1 AS y, l[0]-1 AS z, l[0]-{a: 1}.a AS w",
    "MATCH (n) RETURN n {any: 1, all: 2} AS m, all(x IN [1] WHERE x > 0) AS q",
    "MATCH path = (a)-[*]->(b) RETURN path",
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("cypher", "message"), REJECTED)
def test_a_query_neo4j_rejects_is_a_syntax_error(target: str, cypher: str,
                                                 message: str) -> None:
    with pytest.raises(CypherSyntaxError, match=message):
        translate(cypher, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cypher", ACCEPTED)
def test_a_valid_query_is_no_syntax_error(target: str, cypher: str) -> None:
    """Translated, or refused as the engines' shortfall (`dialect`), never the model's."""
    with contextlib.suppress(DialectError):
        translate(cypher, target)


@pytest.mark.parametrize(("text", "selector"), [
    ("SHORTEST 1", Selector("shortest", 1)), ("ANY SHORTEST", Selector("shortest", 1)),
    ("ANY", Selector("shortest", 1)), ("ANY 3 PATHS", Selector("shortest", 3)),
    ("ALL SHORTEST PATHS", Selector("groups", 1)), ("SHORTEST GROUPS", Selector("groups", 1)),
    ("SHORTEST 2 PATH GROUP", Selector("groups", 2)), ("all  paths", Selector("all", 0)),
])
def test_selectors_read_as_neo4j_plans_them(text: str, selector: Selector) -> None:
    """`ANY k` is `SHORTEST k` (Neo4j's planner: "for now we will implement ANY via
    SHORTEST"), `ALL SHORTEST` is `SHORTEST 1 GROUPS` (the Manual, "Partitions")."""
    assert parse_selector(text) == selector


@pytest.mark.parametrize(("quantifier", "bounds"), [
    ("{2}", (2, 2)), ("{1,3}", (1, 3)), ("{2,}", (2, None)), ("{,4}", (0, 4)),
    ("{,}", (0, None)), ("+", (1, None)), ("*", (0, None)),
])
def test_quantifiers_as_the_manual_tabulates_them(quantifier: str,
                                                  bounds: tuple[int, int | None]) -> None:
    root = parse(f"MATCH (a)-[:T]->{quantifier}(b) RETURN b")
    found = next(t for t in root.iter_subtrees() if t.data == "quantified_rel")
    assert quantifier_bounds(found.children[1]) == bounds


def _translated(cypher: str, target: str = "ladybug") -> str:
    return translate(cypher, target).query


@pytest.mark.parametrize(("cypher", "expected"), [
    ("MATCH (:MeshPlace {nodeSymbol: 'P10247'})-[:MESH_PLACE_CONNECTED]-{2}(b:MeshPlace) "
     "RETURN count(DISTINCT b) AS places",
     "MATCH (:MeshPlace {nodeSymbol: 'P10247'})-[:MESH_PLACE_CONNECTED* TRAIL 2..2]-"
     "(b:MeshPlace) RETURN count(DISTINCT b) AS places"),
    ("MATCH (a:Room)-[:ROOM_CONNECTED]->+(b) RETURN count(*) AS n",
     "MATCH (a:Room)-[:ROOM_CONNECTED* TRAIL 1..30]->(b) RETURN count(*) AS n"),
    ("MATCH (a:Room)<-[:ROOM_CONNECTED]-*(b) RETURN count(*) AS n",
     "MATCH (a:Room)<-[:ROOM_CONNECTED* TRAIL 0..30]-(b) RETURN count(*) AS n"),
    ("MATCH (a:Room)-[:ROOM_CONNECTED]-{,3}(b) RETURN count(*) AS n",
     "MATCH (a:Room)-[:ROOM_CONNECTED* TRAIL 0..3]-(b) RETURN count(*) AS n"),
    ("MATCH (a:Room) (()-[:ROOM_CONNECTED]->()){2} (b) RETURN count(*) AS n",
     "MATCH (a:Room)-[:ROOM_CONNECTED* TRAIL 2..2]->(b) RETURN count(*) AS n"),
])
def test_a_quantified_relationship_is_a_variable_length_one(cypher: str, expected: str) -> None:
    """The Manual's table (patterns/reference.adoc, "Variable-length relationships"), with
    the trail semantics the variable-length translation gives."""
    assert _translated(cypher) == expected


def test_a_group_variable_is_the_list_of_the_path_nodes() -> None:
    """x is every repetition's left node (all the path's nodes but the last), y its right one
    (all but the first); the inner labels test those same nodes."""
    cypher = ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED]->(y:Room)){1,3} "
              "(b:Room) RETURN b.nodeSymbol AS room, min(size(y)) AS steps")
    query = _translated(cypher)
    assert query.startswith("MATCH _path1 = (:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* "
                            "TRAIL 1..3]->(b:Room) WHERE ")
    assert "all(_i1 IN range(0, size(rels(_path1)) - 1)" in query   # x: nodes(p)[..-1]
    assert "all(_i2 IN range(1, size(rels(_path1)))" in query   # y: nodes(p)[1..]
    assert "min(size(CASE WHEN nodes(_path1) IS NULL" in query


def test_a_test_of_two_repetition_nodes_tests_each_step() -> None:
    cypher = ("MATCH p = (:Room) ((x:Room)-[:ROOM_CONNECTED]->(y:Room) WHERE y.center.z < "
              "x.center.z)+ (:Room) RETURN length(p) AS steps, count(*) AS routes")
    assert "all(_i1 IN range(0, length(p) - 1) WHERE" in _translated(cypher)


def test_a_group_beside_other_relationships_gets_a_pattern_of_its_own() -> None:
    """Its path must hold its own nodes only: it is split off in the same MATCH (relationship
    uniqueness spans the MATCH)."""
    cypher = ("MATCH (bd:Building)-[:CONTAINS]->(r:Room) ((x)-[:ROOM_CONNECTED]->(y)){1} (s) "
              "RETURN r.nodeSymbol AS r, [n IN y | n.nodeSymbol] AS ys")
    query = _translated(cypher)
    assert query.startswith("MATCH (bd:Building)-[_rel1:CONTAINS]->(r:Room), _path1 = (r)-"
                            "[_rel2:ROOM_CONNECTED* TRAIL 1..1]->(s) ") \
        or "_path1 = (r)-[" in query


def test_a_selector_post_filter_stays_on_the_shortest_path() -> None:
    """The MATCH's WHERE filters the selected paths (the Manual: a post-filter), as the
    engines' WHERE of a SHORTEST pattern does: no recursive filter is made of it."""
    cypher = ("MATCH p = ALL SHORTEST (:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]->+"
              "(:Room {nodeSymbol: 'R5'}) WHERE none(n IN nodes(p) WHERE n.nodeSymbol = 'R3') "
              "RETURN [n IN nodes(p) | n.nodeSymbol] AS route")
    for target in TARGETS:
        query = _translated(cypher, target)
        assert "ALL SHORTEST 1..]->" in query and " | WHERE" not in query
        assert "all(n IN nodes(p) WHERE" in query


def test_a_selector_pre_filter_filters_the_interior_nodes() -> None:
    """The pattern's own tests filter before the selection: a recursive filter on the
    interior nodes and the tests of the end nodes, the left node's of the start and the right
    node's of the end (not both of both)."""
    cypher = ("MATCH p = SHORTEST 1 (:Room {nodeSymbol: 'R3'}) ((x:Room)-[:ROOM_CONNECTED]->"
              "(y:Room WHERE y.nodeSymbol <> 'R2'))+ (:Room {nodeSymbol: 'R4'}) "
              "RETURN [n IN nodes(p) | n.nodeSymbol] AS route")
    query = _translated(cypher)
    assert "SHORTEST 1.. (_r1, _n1 | WHERE" in query
    assert "(label(_node1) = 'Room') AND (label(_node2) = 'Room')" in query
    assert "(_node2.nodeSymbol <> 'R2')" in query
    assert "_node1.nodeSymbol" not in query
    with pytest.raises(DialectError, match="ignore node filters"):
        translate(cypher, "kuzu")


@pytest.mark.parametrize(("cypher", "reason"), [
    ("MATCH p = SHORTEST 2 GROUPS (:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]->+"
     "(:Room {nodeSymbol: 'R5'}) RETURN length(p) AS steps", "k > 1"),
    ("MATCH p = SHORTEST 3 (:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]->+"
     "(:Room {nodeSymbol: 'R5'}) RETURN count(p) AS n", "k > 1"),
    ("MATCH p = ANY SHORTEST (:MeshPlace {nodeSymbol: 'P10247'})-[:MESH_PLACE_CONNECTED]-+"
     "(b:MeshPlace) RETURN length(p) AS steps, count(b) AS places", "may be one node"),
    ("MATCH p = SHORTEST 1 (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-+(a) RETURN p",
     "may be one node"),
    ("MATCH p = SHORTEST 1 (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-{2,4}"
     "(b:Room {nodeSymbol: 'R3'}) RETURN length(p) AS n", "at least two relationships"),
    ("MATCH p = SHORTEST 1 (a:Room {nodeSymbol: 'R1'}) ((x)-[:ROOM_CONNECTED]-(y) WHERE "
     "x.center.x < y.center.x)+ (b:Room {nodeSymbol: 'R3'}) RETURN p", "two of its elements"),
    ("MATCH p = SHORTEST 1 (a:Room {nodeSymbol: 'R1'}) ((x:Room WHERE x.class <> 'hallway')"
     "-[:ROOM_CONNECTED]-(y:Room))+ (b:Room {nodeSymbol: 'R3'}) RETURN length(p) AS n",
     "may fail at the end node"),
    ("MATCH p = SHORTEST 1 (a:Room {nodeSymbol: 'R1'})-[:CONTAINS]->(m) "
     "(()-[:ROOM_CONNECTED]-())+ (b:Room {nodeSymbol: 'R3'}) RETURN p", "more than one"),
    ("MATCH (a) ((x)-->(y)-->(z)){1,3} (b) RETURN a", "more than one relationship"),
    ("MATCH (a) ((x)-->(y)){1,3} (b) RETURN *", "`\\*` projection"),
    ("MATCH (a:Room) ((x)-->(y WHERE y.v = a.v)){1,3} (b) RETURN a", "of its own MATCH"),
])
def test_a_form_without_an_engine_equivalent_is_refused(cypher: str, reason: str) -> None:
    for target in TARGETS:
        with pytest.raises(DialectError, match=reason):
            translate(cypher, target)


def test_a_shortest_path_filtered_on_its_nodes_is_refused_on_kuzu() -> None:
    """Kuzu 0.11.3's ALL SHORTEST ignores a node filter as its SHORTEST does (the four paths
    from R1 to R3 through R2 with a filter excluding R2), so both are refused there."""
    cypher = ("MATCH p = allShortestPaths((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*]-"
              "(b:Room {nodeSymbol: 'R3'})) WHERE all(n IN nodes(p) WHERE n.nodeSymbol <> 'R2') "
              "RETURN length(p) AS n")
    with pytest.raises(DialectError, match="ignore node filters"):
        translate(cypher, "kuzu")
    assert "ALL SHORTEST 1..30 (_r1, _n1 | WHERE" in _translated(cypher)


def test_a_shortest_paths_relationship_variable_is_a_list() -> None:
    """`size(r)` of `shortestPath((a)-[r*]-(b))` reads the list (`rels(r)`), as a
    variable-length relationship's elsewhere (the engines refused SIZE of a recursive
    relationship)."""
    cypher = ("MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[r:ROOM_CONNECTED*]-"
              "(b:Room {nodeSymbol: 'R3'})) RETURN size(r) AS s")
    assert "size(rels(r))" in _translated(cypher)


@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room) RETURN COUNT { (a)((r)-[:CONTAINS]->(b)){1,2}(c) } AS n",
    "MATCH (r:Room) WHERE EXISTS { (a)((r)-[:CONTAINS]->(b)){1,2}(c) } RETURN r",
    "MATCH (r:Room) RETURN COUNT { MATCH (a)((r)-[:CONTAINS]->(b)){1,2}(c) RETURN c } AS n",
    "MATCH (h:Room) RETURN COUNT { (a)-[h:CONTAINS]->{1,2}(c) } AS n",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN COUNT { (r)((m)-[:CONTAINS]->(y)){1,2}(c) } AS n",
    "UNWIND [1] AS b MATCH (r:Room) WHERE EXISTS { (r)((x)-[:CONTAINS]->(b)){1,2}(c) } RETURN r",
    # a WITH's WHERE sees the names before the WITH too
    "MATCH (r:Room) WITH r AS room WHERE EXISTS { (room)((r)-[:CONTAINS]->(b)){1,2}(c) } "
    "RETURN room",
    # nested: the inner body sees the outer body's group variable x
    "MATCH (r:Room) RETURN COUNT { (r)((x)-[:CONTAINS]->(y)){1,2}(c) "
    "WHERE EXISTS { (c)((x)-->(z)){1,1}(w) } } AS n",
])
def test_a_subquery_group_variable_named_like_an_outer_one_is_neo4j_s_error(cypher) -> None:
    """Neo4j declares the group variables in the EXISTS / COUNT / COLLECT body, where the
    outer names are visible: "Variable `r` already declared" (its language server also
    reports the shadowing)."""
    with pytest.raises(CypherSyntaxError, match="already declared"):
        translate(cypher, "ladybug")


@pytest.mark.parametrize("cypher", [
    "MATCH (r:Room) RETURN COUNT { (r)((x)-[:CONTAINS]->(b)){1,2}(c) } AS n",   # r referenced
    "MATCH (r:Room) RETURN COUNT { (r)((x)-[:CONTAINS]->(y)){1,2}(r) } AS n",
    "MATCH (r:Room) RETURN COUNT { (r)-[h:CONTAINS]->{1,2}(c) } AS n",
    "MATCH (r:Room) WITH r.class AS k RETURN k, COUNT { (a)((r)-[:CONTAINS]->(b)){1,2}(c) } AS n",
    "MATCH (r:Room) CALL { MATCH (a)((r)-[:CONTAINS]->(b)){1,2}(c) RETURN count(*) AS n } "
    "RETURN r, n",                                  # a CALL body imports nothing here
    "MATCH (r:Room) RETURN COUNT { (r)((x)-[:CONTAINS]->(y)){1,2}(c) "
    "WHERE EXISTS { (c)((q)-->(z)){1,1}(w) } } AS n",
])
def test_a_subquery_group_variable_of_a_new_name_is_answered(cypher) -> None:
    translate(cypher, "ladybug")


_UNMATCHED_HOPS = ("MATCH (r:Room) OPTIONAL MATCH (r)-[e:CONTAINS*1..2]->(x:Object) "
                   "RETURN size(e) AS n, e IS NULL AS none, count(e) AS c")


def test_an_optional_variable_length_relationship_keeps_its_null_on_kuzu() -> None:
    """Kuzu's `rels()` of the NULL an unmatched OPTIONAL MATCH binds is `[]` (Neo4j: NULL, so
    `size(e)` is NULL and `count(e)` skips it): there the list keeps the NULL."""
    query = translate(_UNMATCHED_HOPS, "kuzu").query
    assert "size(CASE WHEN e IS NULL THEN NULL ELSE rels(e) END)" in query
    assert "count(CASE WHEN e IS NULL THEN NULL ELSE rels(e) END)" in query


@pytest.mark.parametrize(("target", "cypher"), [
    ("ladybug", _UNMATCHED_HOPS),   # Ladybug's rels() of NULL is NULL
    ("kuzu", _UNMATCHED_HOPS.replace("OPTIONAL ", "")),   # never NULL
    ("kuzu", "MATCH (r:Room) OPTIONAL MATCH (r)-[e:CONTAINS*1..2]->(x:Object) "
             "WITH r, e MATCH (r)-[f:CONTAINS*1..2]->(y) RETURN size(f) AS n"),
])
def test_a_variable_length_relationship_no_null_reaches_is_read_plainly(target, cypher) -> None:
    query = translate(cypher, target).query
    assert "CASE WHEN" not in query and "size(rels(" in query


def test_the_lowered_tree_holds_no_new_syntax() -> None:
    """Every later pass reads the classic forms only."""
    from dsgqa.dialect.parser import parse_text
    from dsgqa.dialect.rewrite import Rewriter
    cypher = ("MATCH (a:Room) ((x)-[:ROOM_CONNECTED]->(y)){1} ((u)-[:ROOM_CONNECTED]->(v)){1} "
              "(b) RETURN [n IN x | n.nodeSymbol] AS xs, size(v) AS n")
    root, text = parse_text(cypher)
    result = Rewriter(text, "ladybug").run(root)
    assert not any(isinstance(t, Tree) and t.data in ("paren_path", "quantified_rel",
                                                      "path_selector")
                   for t in result.iter_subtrees())


@pytest.mark.parametrize(("cypher", "executed", "hops"), [
    # a trail keeps the engines' 30 levels without a bound (each level costs), and gets the
    # bound the model wrote when larger
    ("MATCH (a:Room)-[:ROOM_CONNECTED*]-(b) RETURN count(DISTINCT b) AS n", "* TRAIL 1..30]", None),
    ("MATCH (a:Room)-[:ROOM_CONNECTED*2..]-(b) RETURN count(DISTINCT b) AS n", "* TRAIL 2..30]",
     None),
    ("MATCH (a:Room)-[:ROOM_CONNECTED*..50]-(b) RETURN count(DISTINCT b) AS n", "* TRAIL ..50]",
     50),
    # a shortest path may go as deep as the graph needs: its search stops when it arrives
    ("MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*]-"
     "(b:Room {nodeSymbol: 'R5'})) RETURN length(p) AS n", "* SHORTEST]", 1000),
    # beyond the deepest allowed, the engine refuses the bound (dialect)
    ("MATCH (a:Room)-[*..5000]-(b) RETURN count(*) AS n", "* TRAIL ..5000]", 1000),
])
def test_variable_length_bounds_say_how_deep_the_engine_goes(cypher: str, executed: str,
                                                            hops: int | None) -> None:
    for target in ("kuzu", "ladybug"):
        out = translate(cypher, target)
        assert executed in out.query
        assert out.max_hops == hops
