"""Neo4j's relationship isomorphism on Kuzu: the `relationship uniqueness` rewrite.

Each case: the model's Neo4j query, the Kuzu query it becomes, and the rows on the example graph,
which must equal a plain-Python enumeration of Neo4j's semantics (every relationship position of
one MATCH binds a different stored relationship; same-layer edges are stored once each way).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest

from dsgqa.dialect import translate
from dsgqa.graphstore import open_graph_store
from dsgqa.scene_graph import load_scene_graph
from tests import external, fidelity_gold

REWRITE = "relationship uniqueness"
_SAME_LAYER = {"Room": "ROOM_CONNECTED", "MeshPlace": "MESH_PLACE_CONNECTED",
               "Object": "OBJECT_CONNECTED", "Place": "PLACE_CONNECTED",
               "Building": "BUILDING_CONNECTED"}


@dataclass(frozen=True)
class Rel:
    """One stored relationship of Heracles' graph."""

    id: int
    type: str
    src: str
    dst: str


@cache
def stored_relationships() -> tuple[dict[str, str], list[Rel]]:
    """Labels by symbol and every relationship Heracles stores, from the JSON alone (read on
    first use, not at import: a clone without the external data still collects)."""
    g = fidelity_gold.load_graph()
    rels: list[Rel] = []
    for parent, children in sorted(g.children.items()):
        rels += [Rel(len(rels) + i, "CONTAINS", parent, c) for i, c in enumerate(sorted(children))]
    for node, around in sorted(g.neighbours.items()):
        kind = _SAME_LAYER[g.nodes[node].label]
        rels += [Rel(len(rels) + i, kind, node, n) for i, n in enumerate(sorted(around))]
    return {s: n.label for s, n in g.nodes.items()}, rels


def node_labels() -> dict[str, str]:
    return stored_relationships()[0]


def relationships() -> list[Rel]:
    return stored_relationships()[1]


@dataclass(frozen=True)
class Hop:
    """One segment of a chain: type, direction ('>' '<' '-') and length range."""

    type: str
    direction: str = "-"
    low: int = 1
    high: int = 1


def steps(node: str, hop: Hop) -> Iterator[tuple[Rel, str]]:
    for rel in relationships():
        if rel.type != hop.type:
            continue
        if rel.src == node and hop.direction in ">-":
            yield rel, rel.dst
        if rel.dst == node and hop.direction in "<-":
            yield rel, rel.src


def walks(start: str, hop: Hop, used: frozenset[int]) -> Iterator[tuple[str, frozenset[int]]]:
    """Ends of the segment from `start` with the relationships it used, never reusing one."""
    def extend(node: str, taken: frozenset[int], length: int):
        if hop.low <= length:
            yield node, taken
        if length == hop.high:
            return
        for rel, there in steps(node, hop):
            if rel.id not in taken:
                yield from extend(there, taken | {rel.id}, length + 1)
    yield from extend(start, used, 0)


def neo4j_chains(labels: list[str | None], hops: list[Hop],
                 start: str | None = None) -> list[tuple[str, ...]]:
    """Node sequences of a chain under relationship isomorphism (one row per match)."""
    def fits(node: str, label: str | None) -> bool:
        return label is None or node_labels()[node] == label

    rows: list[tuple[str, ...]] = []

    def go(nodes: tuple[str, ...], used: frozenset[int], i: int) -> None:
        if i == len(hops):
            rows.append(nodes)
            return
        for there, taken in walks(nodes[-1], hops[i], used):
            if fits(there, labels[i + 1]):
                go((*nodes, there), taken, i + 1)

    for node in sorted(node_labels()):
        if fits(node, labels[0]) and (start is None or node == start):
            go((node,), frozenset(), 0)
    return rows


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = open_graph_store("kuzu", load_scene_graph(fidelity_gold.EXAMPLE),
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


def run(store, neo4j: str) -> list[list]:
    translation = translate(neo4j)
    result = store.query(translation.query, max_rows=10_000)
    assert result.valid, f"{translation.query}: {result.error}"
    return result.rows


ROOM = Hop("ROOM_CONNECTED")


@external.needs(external.EXAMPLE_DSG)
def test_two_undirected_hops_never_walk_one_relationship_twice(store):
    neo4j = ("MATCH (a:Room)-[:ROOM_CONNECTED]-(b:Room)-[:ROOM_CONNECTED]-(c:Room) "
             "RETURN count(*) AS n")
    translation = translate(neo4j)
    assert translation.rewrites == (REWRITE,)
    assert translation.query == (
        "MATCH (a:Room)-[_rel1:ROOM_CONNECTED]-(b:Room)-[_rel2:ROOM_CONNECTED]-(c:Room) "
        "WHERE _rel1 <> _rel2 RETURN count(*) AS n")
    expected = len(neo4j_chains(["Room"] * 3, [ROOM, ROOM]))
    assert run(store, neo4j) == [[expected]]
    # Kuzu alone lets both hops bind one relationship: the rewrite is what makes them agree.
    plain = store.query(neo4j)
    assert plain.rows != [[expected]]


@external.needs(external.EXAMPLE_DSG)
def test_going_back_over_the_reverse_relationship_is_allowed(store):
    """Same-layer edges are stored both ways: a -> b -> a uses two relationships."""
    neo4j = ("MATCH (a:Room)-[:ROOM_CONNECTED]-(b:Room)-[:ROOM_CONNECTED]-(a) "
             "RETURN a.nodeSymbol AS a, count(*) AS n")
    expected: dict[str, int] = {}
    for a, _, c in neo4j_chains(["Room"] * 3, [ROOM, ROOM]):
        if a == c:
            expected[a] = expected.get(a, 0) + 1
    assert {a: n for a, n in run(store, neo4j)} == expected
    assert all(n % 2 == 0 for n in expected.values()) and expected


@external.needs(external.EXAMPLE_DSG)
def test_comma_separated_patterns_of_one_match_are_one_pattern(store):
    neo4j = ("MATCH (a:Room)-[:ROOM_CONNECTED]->(b:Room), (c:Room)-[:ROOM_CONNECTED]->(d:Room) "
             "RETURN count(*) AS n")
    edges = sum(1 for r in relationships() if r.type == "ROOM_CONNECTED")
    assert run(store, neo4j) == [[edges * (edges - 1)]]


@external.needs(external.EXAMPLE_DSG)
def test_a_variable_length_segment_and_a_hop(store):
    neo4j = ("MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*1..2]-(b:Room)"
             "-[:ROOM_CONNECTED]-(c:Room) RETURN c.nodeSymbol AS c, count(*) AS n")
    translation = translate(neo4j)
    assert "NOT (_rel2 IN rels(_rel1)) = true" in translation.query
    expected: dict[str, int] = {}
    for *_, c in neo4j_chains(["Room"] * 3, [Hop("ROOM_CONNECTED", "-", 1, 2), ROOM], "R1"):
        expected[c] = expected.get(c, 0) + 1
    assert {c: n for c, n in run(store, neo4j)} == expected


@external.needs(external.EXAMPLE_DSG)
def test_two_variable_length_segments(store):
    neo4j = ("MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*1..2]-(b:Room)"
             "-[:ROOM_CONNECTED*1..2]-(c:Room) RETURN count(*) AS n")
    span = Hop("ROOM_CONNECTED", "-", 1, 2)
    assert run(store, neo4j) == [[len(neo4j_chains(["Room"] * 3, [span, span], "R1"))]]


@external.needs(external.EXAMPLE_DSG)
def test_patterns_inside_count_and_pattern_predicates(store):
    neo4j = ("MATCH (a:Room) RETURN a.nodeSymbol AS a, "
             "COUNT { MATCH (a)-[:ROOM_CONNECTED]-(:Room)-[:ROOM_CONNECTED]-(:Room) } AS n")
    expected = {a: 0 for a, label in node_labels().items() if label == "Room"}
    for a, *_ in neo4j_chains(["Room"] * 3, [ROOM, ROOM]):
        expected[a] += 1
    assert {a: n for a, n in run(store, neo4j)} == expected
    predicate = translate("MATCH (a:Room) WHERE (a)-[:ROOM_CONNECTED]-()-[:ROOM_CONNECTED]-(a) "
                          "RETURN a")
    assert "WHERE _rel1 <> _rel2 }" in predicate.query


@external.needs(external.EXAMPLE_DSG)
def test_hierarchy_hops_keep_their_rows(store):
    neo4j = ("MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace)-[:CONTAINS]->(o:Object) "
             "RETURN count(*) AS n")
    expected = len(neo4j_chains(["Room", "MeshPlace", "Object"],
                                [Hop("CONTAINS", ">"), Hop("CONTAINS", ">")]))
    assert run(store, neo4j) == [[expected]]


@pytest.mark.parametrize("cypher", [
    "MATCH (a:Room)-[:ROOM_CONNECTED]->(b:Room) RETURN count(*)",  # one relationship
    "MATCH (a)-[:CONTAINS]->(m:MeshPlace)-[:MESH_PLACE_CONNECTED]-(n) RETURN count(*)",  # types
    "MATCH (a)-[:CONTAINS]->(o:Object)-[:CONTAINS]->(b:Room) RETURN count(*)",  # endpoints
    "MATCH p = shortestPath((a:Room)-[*]-(b:Room)), (a)-[:ROOM_CONNECTED]-(c) WHERE a <> b "
    "RETURN count(*)",
])
def test_positions_that_cannot_share_a_relationship_are_left_alone(cypher):
    assert REWRITE not in translate(cypher).rewrites


@external.needs(external.EXAMPLE_DSG)
def test_return_star_keeps_the_models_variables(store):
    neo4j = ("MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]->(b)-[:ROOM_CONNECTED]->(c) "
             "WITH * RETURN *")
    translation = translate(neo4j)
    assert translation.query.endswith("WITH a, b, c RETURN a, b, c")
    result = store.query(translation.query)
    assert result.valid and result.columns == ["a", "b", "c"]


def test_named_relationships_keep_their_names():
    translation = translate("MATCH (a)-[r:ROOM_CONNECTED]-(b)-[s:ROOM_CONNECTED]-(c) "
                            "WHERE a.class = 'x' OR c.class = 'y' RETURN r, s")
    assert "WHERE (a.class = 'x' OR c.class = 'y') AND r <> s RETURN" in translation.query


def test_generated_names_avoid_the_models_names():
    translation = translate("MATCH (_rel1)-[:X]-(b)-[:X]-(c) RETURN _rel1")
    assert "_rel2 <> _rel3" in translation.query


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
def test_a_where_moved_after_its_match_keeps_the_relationship_names(target):
    """The outer-value pass moves a MATCH's WHERE, distinct-relationship test and all, to a
    `WITH * ... WHERE` after the MATCH: that WITH keeps `_rel1` and `_rel2` for the test (the
    engines said `_rel1` is not in scope), and a later star still leaves them out."""
    translation = translate("MATCH (a:Room)-->(b)-->(c) WHERE EXISTS { MATCH (c)-->(m) "
                            "WHERE c.bbox_center IS NULL } WITH * RETURN *", target)
    assert "WITH *, [c.bbox_center IS NULL] AS _outer1 WHERE" in translation.query
    assert translation.query.endswith("AND _rel1 <> _rel2 WITH a, b, c RETURN a, b, c")
