"""Engine conformance: Cypher with known answers over a tiny scene graph.

A benchmark must never mis-score a correct query, so before trusting an engine (or a new version
of one) we ask it questions whose answers are known by hand. Ladybug 0.22.0 is the motivating
case: it drops `ORDER BY ... LIMIT` before an aggregation (`top2_then_sum` gives 8, not 16).

The cases go through the same `GraphStore.query` path the benchmark uses (read-only workers,
write guard), so the check covers our plumbing as well as the engine.

The tiny graph (13 nodes, 18 edges in the file; Heracles' layout stores the 6 same-layer edges
in both directions, so the database holds 24 relationships)::

    B0 building --CONTAINS--> R1 kitchen, R2 living_room, R3 bedroom
    R1 -> P1;  R2 -> P2, P3;  R3 -> P4                    (CONTAINS)
    P1 -> O1 chair;  P2 -> O2 chair;  P3 -> O2, O3 table;  P4 -> O5 bed   (O2 has two parents)
    O4 lamp has no parent
    R1 - R2 - R3 (ROOM_CONNECTED), P1 - P2 - P3 - P4 (PLACE_CONNECTED), O1 - O2 (OBJECT_CONNECTED)
    x of O1..O5 = 1, 2, 3, 9, 6
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.dialect import (
    KUZU_DIALECT,
    CypherSchemaError,
    CypherSyntaxError,
    DialectError,
    translate,
)
from dsgqa.graphstore import GraphStoreError, open_graph_store
from dsgqa.scene_graph import SceneEdge, SceneGraph, SceneNode


def tiny_graph() -> SceneGraph:
    """The hand-checked graph in the module docstring."""

    def node(symbol: str, label: str, cls: str, x: float, y: float = 0.0, z: float = 0.0):
        bbox = ((x, y, z), (0.5, 0.5, 0.5)) if label == "Object" else (None, None)
        return SceneNode(symbol, label, cls, symbol, (x, y, z), *bbox)

    nodes = [
        node("B0", "Building", "apartment", 3),
        node("R1", "Room", "kitchen", 1), node("R2", "Room", "living_room", 2.5),
        node("R3", "Room", "bedroom", 6),
        node("P1", "Place", "floor", 1), node("P2", "Place", "floor", 2),
        node("P3", "Place", "floor", 3), node("P4", "Place", "floor", 6),
        node("O1", "Object", "chair", 1), node("O2", "Object", "chair", 2, 1),
        node("O3", "Object", "table", 3, 1), node("O4", "Object", "lamp", 9, 9, 1),
        node("O5", "Object", "bed", 6, 2),
    ]
    contains = [("B0", "R1"), ("B0", "R2"), ("B0", "R3"), ("R1", "P1"), ("R2", "P2"),
                ("R2", "P3"), ("R3", "P4"), ("P1", "O1"), ("P2", "O2"), ("P3", "O2"),
                ("P3", "O3"), ("P4", "O5")]
    edges = [SceneEdge(a, b, "CONTAINS") for a, b in contains] + [
        SceneEdge("R1", "R2", "ROOM_CONNECTED"), SceneEdge("R2", "R3", "ROOM_CONNECTED"),
        SceneEdge("P1", "P2", "PLACE_CONNECTED"), SceneEdge("P2", "P3", "PLACE_CONNECTED"),
        SceneEdge("P3", "P4", "PLACE_CONNECTED"), SceneEdge("O1", "O2", "OBJECT_CONNECTED"),
    ]
    return SceneGraph(tuple(nodes), tuple(edges), source="conformance tiny graph")


@dataclass(frozen=True)
class Case:
    """One query and its known rows. `ordered=False` compares rows as a multiset; a `set` in
    an expected cell accepts a list in any order. `neo4j` overrides the query for that dialect.
    `translated`: the query is Neo4j Cypher as a model writes it, run through
    `dsgqa.dialect.translate` on the embedded engines (as the run-query stage does)."""

    name: str
    cypher: str
    expected: list[list[Any]]
    ordered: bool = False
    neo4j: str | None = None
    translated: bool = False

    def query_for(self, backend: str) -> str:
        if self.translated and backend in KUZU_DIALECT:
            return translate(self.cypher, backend).query  # type: ignore[arg-type]
        return self.neo4j if backend == "neo4j" and self.neo4j else self.cypher


@dataclass(frozen=True)
class CaseResult:
    name: str
    passed: bool
    cypher: str
    expected: list[list[Any]]
    actual: list[list[Any]] = field(default_factory=list)
    error: str | None = None


ROOM_OBJECT = "MATCH (r:Room)-[:CONTAINS]->(:Place)-[:CONTAINS]->(o:Object)"
TOP = "UNWIND [5, 3, 9, 1, 7] AS x WITH x ORDER BY x"

CASES: tuple[Case, ...] = (
    # ORDER BY + LIMIT/SKIP before an aggregation (the Ladybug 0.22.0 bug)
    Case("top2_then_sum", f"{TOP} DESC LIMIT 2 RETURN sum(x)", [[16]]),
    Case("top2_then_collect", f"{TOP} DESC LIMIT 2 RETURN collect(x)", [[{9, 7}]]),
    Case("bottom3_then_avg", f"{TOP} ASC LIMIT 3 RETURN avg(x)", [[3.0]]),
    Case("skip1_limit2_then_sum", f"{TOP} DESC SKIP 1 LIMIT 2 RETURN sum(x)", [[12]]),
    Case("top2_then_count", f"{TOP} DESC LIMIT 2 RETURN count(*)", [[2]]),
    Case("graph_top2_x_then_sum",
         "MATCH (o:Object) WITH o ORDER BY o.center.x DESC LIMIT 2 RETURN sum(o.center.x)",
         [[15.0]]),
    Case("graph_bottom3_then_collect",
         "MATCH (o:Object) WITH o ORDER BY o.center.x ASC LIMIT 3 RETURN collect(o.nodeSymbol)",
         [[{"O1", "O2", "O3"}]]),
    # plain counting and grouping
    Case("count_all_nodes", "MATCH (n) RETURN count(n)", [[13]]),
    Case("count_objects", "MATCH (o:Object) RETURN count(o)", [[5]]),
    Case("count_per_class", "MATCH (o:Object) RETURN o.class, count(*) ORDER BY o.class",
         [["bed", 1], ["chair", 2], ["lamp", 1], ["table", 1]], ordered=True),
    Case("group_then_filter",
         "MATCH (p:Place)-[:CONTAINS]->(o:Object) WITH p, count(o) AS c WHERE c > 1 "
         "RETURN p.nodeSymbol", [["P3"]]),
    # multi-parent paths: paths vs DISTINCT
    Case("paths_room_to_object", f"{ROOM_OBJECT} RETURN count(o)", [[5]]),
    Case("distinct_objects_in_rooms", f"{ROOM_OBJECT} RETURN count(DISTINCT o)", [[4]]),
    Case("distinct_per_room", f"{ROOM_OBJECT} RETURN r.nodeSymbol, count(DISTINCT o)",
         [["R1", 1], ["R2", 2], ["R3", 1]]),
    Case("rooms_per_object",
         "MATCH (o:Object)<-[:CONTAINS]-(:Place)<-[:CONTAINS]-(r:Room) "
         "RETURN o.nodeSymbol, count(DISTINCT r)",
         [["O1", 1], ["O2", 1], ["O3", 1], ["O5", 1]]),
    Case("parents_of_multi_parent",
         "MATCH (p:Place)-[:CONTAINS]->(o:Object {nodeSymbol: 'O2'}) RETURN p.nodeSymbol",
         [["P2"], ["P3"]]),
    # bounded variable-length paths
    Case("building_descendants",
         "MATCH (b:Building)-[:CONTAINS*1..3]->(o:Object) RETURN count(DISTINCT o)", [[4]]),
    Case("building_depth2_only",
         "MATCH (b:Building)-[:CONTAINS*2..2]->(n) RETURN count(DISTINCT n)", [[4]]),
    Case("hop_bound_respected",
         "MATCH (a:Place {nodeSymbol: 'P1'})-[:PLACE_CONNECTED*1..2]-(b:Place) WHERE b <> a "
         "RETURN DISTINCT b.nodeSymbol", [["P2"], ["P3"]]),
    # Same-layer edges exist both ways (Heracles' layout): R1-R2 is two relationships, so a
    # trail reaches R2 twice, comes back to R1 twice and reaches R3 four times.
    Case("trail_no_edge_reuse",
         "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* TRAIL 1..2]-(b:Room) "
         "RETURN b.nodeSymbol", [["R2"]] * 2 + [["R1"]] * 2 + [["R3"]] * 4,
         neo4j="MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*1..2]-(b:Room) "
               "RETURN b.nodeSymbol"),
    # shortest paths
    Case("shortest_length",
         "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* SHORTEST 1..5]-"
         "(b:Room {nodeSymbol: 'R3'}) RETURN length(p)", [[2]],
         neo4j="MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*..5]-"
               "(b:Room {nodeSymbol: 'R3'})) RETURN length(p)"),
    Case("shortest_nodes",
         "MATCH p = (a:Place {nodeSymbol: 'P1'})-[:PLACE_CONNECTED* SHORTEST 1..5]-"
         "(b:Place {nodeSymbol: 'P4'}) RETURN properties(nodes(p), 'nodeSymbol')",
         [[["P1", "P2", "P3", "P4"]]],
         neo4j="MATCH p = shortestPath((a:Place {nodeSymbol: 'P1'})-[:PLACE_CONNECTED*..5]-"
               "(b:Place {nodeSymbol: 'P4'})) RETURN [n IN nodes(p) | n.nodeSymbol]"),
    # OPTIONAL MATCH
    Case("optional_counts",
         "MATCH (o:Object) OPTIONAL MATCH (p:Place)-[:CONTAINS]->(o) "
         "RETURN o.nodeSymbol, count(p) ORDER BY o.nodeSymbol",
         [["O1", 1], ["O2", 2], ["O3", 1], ["O4", 0], ["O5", 1]], ordered=True),
    Case("optional_null",
         "MATCH (o:Object {nodeSymbol: 'O4'}) OPTIONAL MATCH (p:Place)-[:CONTAINS]->(o) "
         "RETURN p.nodeSymbol", [[None]]),
    # A field of a NULL point must be NULL. Kuzu 0.11.3 returns a value left over from another
    # row (0.0 here) without an error: a silent wrong answer, one reason Ladybug is the default.
    Case("optional_null_point_field",
         "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(p:Place {nodeSymbol: 'P4'}) "
         "RETURN r.nodeSymbol, p.center.x ORDER BY r.nodeSymbol",
         [["R1", None], ["R2", None], ["R3", 6.0]], ordered=True),
    Case("parentless_objects",
         "MATCH (o:Object) WHERE NOT EXISTS { MATCH (:Place)-[:CONTAINS]->(o) } "
         "RETURN o.nodeSymbol", [["O4"]]),
    # empty results
    Case("empty_rows", "MATCH (o:Object {class: 'piano'}) RETURN o.nodeSymbol", []),
    Case("empty_count", "MATCH (o:Object {class: 'piano'}) RETURN count(o)", [[0]]),
    # Kuzu's collect() and sum() of nothing are NULL (Neo4j: [] and 0); the schema notes
    # tell the model to wrap them, and these cases check that the wrapping works.
    Case("empty_collect_coalesce",
         "MATCH (o:Object {class: 'piano'}) RETURN coalesce(collect(o.nodeSymbol), [])", [[[]]]),
    Case("empty_sum_coalesce",
         "MATCH (o:Object {class: 'piano'}) RETURN coalesce(sum(o.center.x), 0)", [[0]]),
    Case("empty_label", "MATCH (m:MeshPlace) RETURN m.nodeSymbol", []),
    # ordering, undirected edges, predicates, positions
    Case("order_desc_limit",
         "MATCH (o:Object) RETURN o.nodeSymbol ORDER BY o.center.x DESC LIMIT 2",
         [["O4"], ["O5"]], ordered=True),
    Case("undirected_edge_count", "MATCH ()-[r:ROOM_CONNECTED]-() RETURN count(r)", [[8]]),
    Case("directed_edge_count", "MATCH ()-[r:ROOM_CONNECTED]->() RETURN count(r)", [[4]]),
    Case("neighbours_undirected",
         "MATCH (:Room {nodeSymbol: 'R2'})-[:ROOM_CONNECTED]-(n:Room) RETURN n.nodeSymbol",
         [["R1"], ["R1"], ["R3"], ["R3"]]),
    Case("neighbours_directed",
         "MATCH (:Room {nodeSymbol: 'R2'})-[:ROOM_CONNECTED]->(n:Room) RETURN n.nodeSymbol",
         [["R1"], ["R3"]]),
    Case("exists_subquery",
         "MATCH (r:Room) WHERE EXISTS { MATCH (r)-[:CONTAINS]->(:Place)-[:CONTAINS]->"
         "(:Object {class: 'chair'}) } RETURN r.nodeSymbol", [["R1"], ["R2"]]),
    Case("string_and_list_predicates",
         "MATCH (o:Object) WHERE o.class STARTS WITH 'ch' OR o.class IN ['bed'] "
         "RETURN count(*)", [[3]]),
    Case("union_distinct",
         "MATCH (r:Room) RETURN r.class AS c UNION MATCH (b:Building) RETURN b.class AS c",
         [["apartment"], ["bedroom"], ["kitchen"], ["living_room"]]),
    Case("min_max_avg",
         "MATCH (o:Object) RETURN min(o.center.x), max(o.center.x), avg(o.center.x)",
         [[1.0, 9.0, 4.2]]),
    Case("struct_distance",
         "MATCH (a:Object {nodeSymbol: 'O1'}), (b:Object {nodeSymbol: 'O5'}) "
         "RETURN sqrt((a.center.x - b.center.x)^2 + (a.center.y - b.center.y)^2 + "
         "(a.center.z - b.center.z)^2)", [[math.sqrt(29)]]),
    Case("nearest_object",
         "MATCH (a:Object {nodeSymbol: 'O3'}), (b:Object) WHERE b <> a "
         "RETURN b.nodeSymbol ORDER BY (a.center.x - b.center.x)^2 + "
         "(a.center.y - b.center.y)^2 LIMIT 1", [["O2"]], ordered=True),
)


def _neo4j(name: str, cypher: str, expected: list[list[Any]], ordered: bool = False) -> Case:
    return Case(name, cypher, expected, ordered=ordered, translated=True)


# Neo4j Cypher a model writes for Heracles, with the rows Neo4j gives on Heracles' layout: the
# embedded engines must give the same rows after translation.
DIALECT_CASES: tuple[Case, ...] = (
    _neo4j("neo4j_toInteger", "RETURN toInteger(3.7), toInteger(-3.7), toInteger('12')",
           [[3, -3, 12]]),
    _neo4j("neo4j_toFloat_toString", "RETURN toFloat('2.5'), toString(12)", [[2.5, "12"]]),
    _neo4j("neo4j_point_equality",
           "MATCH (o:Object) WHERE o.center = point({x: 2, y: 1, z: 0}) RETURN o.nodeSymbol",
           [["O2"]]),
    _neo4j("neo4j_point_distance",
           "MATCH (a:Object {nodeSymbol: 'O1'}), (b:Object {nodeSymbol: 'O5'}) "
           "RETURN point.distance(a.center, b.center)",   # (distance() left in Neo4j 5)
           [[math.sqrt(29)]]),
    _neo4j("neo4j_point_returned",
           "MATCH (o:Object {nodeSymbol: 'O4'}) RETURN o.center, o.center.x",
           [[{"x": 9.0, "y": 9.0, "z": 1.0}, 9.0]]),
    _neo4j("neo4j_shortestPath",
           "MATCH p = shortestPath((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*]-"
           "(b:Room {nodeSymbol: 'R3'})) RETURN length(p), [n IN nodes(p) | n.nodeSymbol]",
           [[2, ["R1", "R2", "R3"]]]),
    _neo4j("neo4j_allShortestPaths",
           "MATCH p = allShortestPaths((a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*]-"
           "(b:Room {nodeSymbol: 'R3'})) RETURN count(p)", [[4]]),
    _neo4j("neo4j_with_order_by_collect",
           "MATCH (o:Object) WITH o ORDER BY o.center.x DESC RETURN collect(o.nodeSymbol)",
           [[["O4", "O5", "O3", "O2", "O1"]]]),
    _neo4j("neo4j_type_labels",
           "MATCH (b:Building)-[r]->(n {nodeSymbol: 'R1'}) RETURN type(r), labels(n)",
           [["CONTAINS", ["Room"]]]),
    _neo4j("neo4j_empty_collect_sum",
           "MATCH (o:Object {class: 'piano'}) RETURN collect(o.nodeSymbol), sum(o.center.x)",
           [[[], 0]]),
    _neo4j("neo4j_list_index_0_based", "RETURN [10, 20, 30][0], substring('kitchen', 0, 3)",
           [[10, "kit"]]),
    _neo4j("neo4j_pattern_predicate",
           "MATCH (o:Object) WHERE NOT (o)<-[:CONTAINS]-(:Place) RETURN o.nodeSymbol",
           [["O4"]]),
    _neo4j("neo4j_var_length_trail",
           "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*2..2]-(b:Room) WHERE b = a "
           "RETURN count(*)", [[2]]),
    _neo4j("neo4j_case_coalesce_size",
           "MATCH (o:Object {nodeSymbol: 'O4'}) RETURN CASE WHEN o.center.x > 5 THEN 'far' "
           "ELSE 'near' END, coalesce(o.name, 'none'), size(o.class), size([1, 2])",
           [["far", "O4", 4, 2]]),
)
# The ORDER BY-before-aggregation probes above as a model's query: run through the translator,
# as the benchmark runs every query. Ladybug 0.22.0 fails the probes (its optimizer drops the
# ORDER BY) and must pass these (the `WITH ORDER BY->UNWIND barrier` pass); collect() in order.
ORDER_PROBE_TWINS: tuple[Case, ...] = (
    _neo4j("neo4j_top2_then_sum", f"{TOP} DESC LIMIT 2 RETURN sum(x)", [[16]]),
    # Kuzu 0.11.3's stale field of a NULL point, behind the translator's NULL-safe CASE.
    _neo4j("neo4j_optional_null_point_field",
           "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(p:Place {nodeSymbol: 'P4'}) "
           "RETURN r.nodeSymbol, p.center.x ORDER BY r.nodeSymbol",
           [["R1", None], ["R2", None], ["R3", 6.0]], ordered=True),
    _neo4j("neo4j_top2_then_collect", f"{TOP} DESC LIMIT 2 RETURN collect(x)", [[[9, 7]]]),
    _neo4j("neo4j_bottom3_then_avg", f"{TOP} ASC LIMIT 3 RETURN avg(x)", [[3.0]]),
    _neo4j("neo4j_skip1_limit2_then_sum", f"{TOP} DESC SKIP 1 LIMIT 2 RETURN sum(x)", [[12]]),
    _neo4j("neo4j_top2_then_count", f"{TOP} DESC LIMIT 2 RETURN count(*)", [[2]]),
    _neo4j("neo4j_graph_top2_x_then_sum",
           "MATCH (o:Object) WITH o ORDER BY o.center.x DESC LIMIT 2 RETURN sum(o.center.x)",
           [[15.0]]),
    _neo4j("neo4j_graph_bottom3_then_collect",
           "MATCH (o:Object) WITH o ORDER BY o.center.x ASC LIMIT 3 "
           "RETURN collect(o.nodeSymbol)", [[["O1", "O2", "O3"]]]),
)
CASES = CASES + DIALECT_CASES + ORDER_PROBE_TWINS


def _equal(expected: Any, actual: Any, tol: float = 1e-6) -> bool:
    if isinstance(expected, set):
        return isinstance(actual, list) and len(actual) == len(expected) \
            and set(map(repr, actual)) == set(map(repr, expected))
    if isinstance(expected, float) or (isinstance(expected, int) and isinstance(actual, float)):
        return isinstance(actual, int | float) and math.isclose(expected, actual, abs_tol=tol)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) \
            and all(_equal(e, a, tol) for e, a in zip(expected, actual, strict=True))
    return type(expected) is type(actual) and expected == actual


def rows_match(case: Case, rows: list[list[Any]]) -> bool:
    """Rows equal to the case's, in order if it says so, else as a multiset."""
    if case.ordered:
        return _equal(case.expected, rows)
    remaining = list(rows)
    if len(remaining) != len(case.expected):
        return False
    for want in case.expected:
        match = next((i for i, row in enumerate(remaining) if _equal(want, row)), None)
        if match is None:
            return False
        remaining.pop(match)
    return True


def run_conformance(backend: str, *, db_root: Path | None = None) -> list[CaseResult]:
    """Load the tiny graph into `backend` and run every case. For neo4j the server comes from
    NEO4J_URI / NEO4J_USERNAME / NEO4J_PASSWORD, and its content is replaced."""
    with tempfile.TemporaryDirectory(prefix="dsg-conformance-") as scratch:
        store = open_graph_store(
            backend, tiny_graph(), db_root=db_root or Path(scratch),
            neo4j_uri=os.environ.get("NEO4J_URI"), neo4j_user=os.environ.get("NEO4J_USERNAME"),
            neo4j_password=os.environ.get("NEO4J_PASSWORD"), memory_limit_mb=512,
        )
        try:
            return [_run_case(store, case, backend) for case in CASES]
        finally:
            store.close()


def _run_case(store: Any, case: Case, backend: str) -> CaseResult:
    try:
        cypher = case.query_for(backend)
    except (CypherSchemaError, CypherSyntaxError, DialectError) as exc:
        return CaseResult(case.name, False, case.cypher, case.expected, error=str(exc))
    result = store.query(cypher, timeout_s=10.0, max_rows=1000)
    if not result.valid:
        return CaseResult(case.name, False, cypher, case.expected, error=result.error)
    return CaseResult(case.name, rows_match(case, result.rows), cypher, case.expected,
                      actual=result.rows)


def check_engine_command(backend: str = DEFAULT_EMBEDDED_BACKEND,
                         scene_graph: Path | None = None, fidelity: bool = True) -> int:
    """`nlp-dsg-benchmark check-engine`: print a table of the cases, then the fidelity set's
    verdicts on the example Hydra graph when it is at hand. 0 if every case passes or fails only
    as a raw engine probe whose translated twin passes (the benchmark runs only translated
    queries, and the table names those engine bugs), and no fidelity question is answered
    wrongly (an honest `dialect` refusal is listed, not failed); else 1."""
    try:
        results = run_conformance(backend)
    except GraphStoreError as exc:
        print(f"check-engine: {exc}")
        return 1
    _print_table(backend, results)
    worked_around = set(worked_around_failures(results))
    ok = all(r.passed or r.name in worked_around for r in results)
    if fidelity:
        ok = fidelity_summary(backend, scene_graph) and ok
    return 0 if ok else 1


def fidelity_summary(backend: str, scene_graph: Path | None) -> bool:
    """Run the fidelity set (questions/fidelity/) through the benchmark's stages on `backend`
    and print its verdicts; False when a question got a wrong answer or a non-dialect error."""
    from dsgqa.fidelity_check import FIDELITY_QUESTIONS, check, example_graph

    graph = scene_graph or example_graph()
    if graph is None:
        print("fidelity set skipped: the example Hydra graph is not here (pass --scene-graph, "
              "set NLP_DSG_EXAMPLE_DSG, or run scripts/fetch-data.sh)")
        return True
    with tempfile.TemporaryDirectory(prefix="dsg-fidelity-") as scratch:
        verdicts = list(check(backend, FIDELITY_QUESTIONS, graph, Path(scratch)))
    refused = [v for v in verdicts if not v["passed"] and v["error_kind"] == "dialect"]
    wrong = [v for v in verdicts if not v["passed"] and v["error_kind"] != "dialect"]
    passed = len(verdicts) - len(refused) - len(wrong)
    print(f"fidelity set on {backend}: {passed}/{len(verdicts)} answered as Neo4j would, "
          f"{len(refused)} refused (no faithful form), {len(wrong)} wrong")
    for verdict in refused:
        print(f"  refused {verdict['uid']}: {verdict['error']}")
    for verdict in wrong:
        print(f"  WRONG {verdict['uid']}: {verdict['error'] or verdict['answer']} "
              f"(expected {verdict['solution']})")
    return not wrong


def _print_table(backend: str, results: list[CaseResult]) -> None:
    from rich.console import Console
    from rich.table import Table

    failed = [r for r in results if not r.passed]
    table = Table(title=f"Cypher conformance: {backend}")
    for column in ("case", "result", "expected", "got"):
        table.add_column(column, overflow="fold")
    for r in results:
        got = r.error if r.error else repr(r.actual)
        table.add_row(r.name, "pass" if r.passed else "[red]FAIL[/red]",
                      repr(r.expected), "" if r.passed else got)
    console = Console()
    console.print(table)
    console.print(f"{len(results) - len(failed)}/{len(results)} cases pass on {backend}"
                  + (f"; failing: {', '.join(r.name for r in failed)}" if failed else ""))
    worked_around = worked_around_failures(results)
    if worked_around:
        console.print(f"engine bugs the translator works around (the benchmark translates every "
                      f"query; the neo4j_ twins pass): {', '.join(worked_around)}")


def worked_around_failures(results: list[CaseResult]) -> list[str]:
    """Failing engine probes whose translated twin (`neo4j_<name>`) passes: the engine is wrong
    on the raw query, but the query the benchmark runs is right."""
    passed = {r.name for r in results if r.passed}
    return [r.name for r in results if not r.passed and f"neo4j_{r.name}" in passed]
