"""The schema text the model sees, generated from what the loaded database holds.

Built from `SchemaFacts` (read from the database, not from the loader's intentions), so prompt and
database never disagree. Counts are deliberately left out: they would answer counting questions.

Models write Neo4j Cypher for Heracles' graph on every backend: the embedded engines run it through
`dsgqa.dialect.translate`, so the prompt describes Heracles' Neo4j schema (points, Neo4j's
functions) whatever the backend, with Kuzu's column types shown as Neo4j types. `KUZU_NOTES`
describe Kuzu's own dialect for anyone writing native Kuzu Cypher (the demo's reference queries);
tests/test_graphstore_kuzu.py (`test_dialect_notes_hold`) checks them against the engine.
"""

from __future__ import annotations

from typing import TypeVar

from dsgqa.graphstore.base import SchemaFacts
from dsgqa.scene_graph import CONTAINS, EDGE_TYPES, LABELS

T = TypeVar("T")

KUZU_NOTES: tuple[str, ...] = (
    "The dialect is Kuzu's Cypher. The schema is declared up front (node tables, and rel tables "
    "with fixed FROM/TO label pairs); a pattern between labels that no rel table connects "
    "simply matches nothing.",
    "Positions are structs: use n.center.x, n.center.y, n.center.z (Object also has "
    "bbox_center and bbox_dim with x/y/z). There is no point() or distance() function: compute "
    "distances as sqrt((a.center.x-b.center.x)^2 + (a.center.y-b.center.y)^2 + "
    "(a.center.z-b.center.z)^2).",
    "Shortest paths: MATCH p = (a)-[:TYPE* SHORTEST 1..N]-(b) (or ALL SHORTEST), N at most 30; "
    "shortestPath() does not exist. length(p) is the hop count and "
    "properties(nodes(p), 'nodeSymbol') lists the symbols along the path.",
    "Variable-length patterns: give an upper bound, e.g. -[:CONTAINS*1..3]->; without one, "
    "Kuzu stops at 30 hops.",
    "Relationship type: label(r) (there is no type(r)); node label: label(n), a string.",
    "No list or pattern comprehensions ([x IN list | ...]): use list_transform(list, x -> expr), "
    "list_filter(list, x -> cond), list_reduce, size(); any/all/none(x IN list WHERE cond) work.",
    "No CALL { } subqueries: chain WITH clauses, or use OPTIONAL MATCH, EXISTS { MATCH ... } and "
    "COUNT { MATCH ... }.",
    "Lists and strings are 1-based: list[1] is the first element, list[-1] the last, "
    "substring(s, 1, n) takes the first n characters.",
    "Conversions: CAST(x AS INT64), CAST(x AS DOUBLE), CAST(x AS STRING) (no toInteger, "
    "toFloat). CAST to INT64 rounds (3.7 -> 4); to truncate write CAST(floor(x) AS INT64). "
    "round takes two arguments: round(x, 2).",
    "Aggregates over no values: collect() gives NULL (not []) and sum() gives NULL (not 0), also "
    "per group after OPTIONAL MATCH; write coalesce(collect(x), []) and coalesce(sum(x), 0).",
    "Variable-length patterns use walk semantics: an edge may be traversed twice, so "
    "(a)-[:ROOM_CONNECTED*1..2]-(b) also returns a itself; write -[:ROOM_CONNECTED* TRAIL 1..2]- "
    "to forbid repeated edges (as Neo4j does) and add WHERE b <> a when the start must not "
    "count. The same holds for fixed patterns: (a)-[:X]-(b)-[:X]-(c) can give c = a.",
    "ORDER BY inside WITH must be followed by SKIP or LIMIT "
    "(e.g. WITH n ORDER BY n.name SKIP 0); ORDER BY in RETURN is unrestricted.",
    "properties(n) does not work on a node (only properties(nodes(p), 'key') on a path's "
    "nodes); return the properties you need: n.nodeSymbol, n.class, ...",
)

NEO4J_NOTES: tuple[str, ...] = (
    "The dialect is Neo4j Cypher 5.",
    "Positions are points: n.center.x, n.center.y, n.center.z, and point.distance(a.center, "
    "b.center) gives the Euclidean distance (Object also has bbox_center and bbox_dim points: "
    "the box's centre and its size along x, y, z).",
)

#: With hop limits: every bound the text suggests comes from the graph (`hop_limits.py`), so a
#: model that follows it never misses a path a question asks about.
BOUNDED_NOTES: tuple[str, ...] = (
    "Shortest paths: shortestPath((a)-[:TYPE*..N]-(b)), with N the type's hop limit above.",
    "Always bound variable-length patterns (-[:TYPE*1..N]-); when the path may be long, use the "
    "type's hop limit as N.",
)
#: Without hop limits (no relationships in the graph, or none could be read).
UNBOUNDED_NOTES: tuple[str, ...] = (
    "Shortest paths: shortestPath((a)-[:TYPE*]-(b)).",
)

HOP_LIMITS_HEADER = ("Hop limits (no shortest path over one relationship type takes more hops "
                     "in this graph):")

COMMON_NOTES: tuple[str, ...] = (
    "*_CONNECTED edges are stored in both directions (one relationship each way), so "
    "(a)-[:ROOM_CONNECTED]->(b) finds every neighbour once and an undirected match finds it "
    "twice; use DISTINCT or a direction.",
    "CONTAINS points from parent to child (Building -> Room -> Place/MeshPlace -> Object, "
    "sometimes skipping levels); a node may have several parents, or none, so count with "
    "DISTINCT when a path can reach a node twice.",
    "nodeSymbol identifies a node (O12 object, P5 place, R1 room, B0 building); class is its "
    "semantic class; name may be empty.",
    "Queries are read-only: CREATE, MERGE, SET, DELETE, REMOVE, DROP, COPY, LOAD and the like "
    "are rejected.",
)


def neo4j_type(kind: str) -> str:
    """A column type as Neo4j names it: the model is told Heracles' Neo4j schema."""
    if kind.upper().startswith("STRUCT(X DOUBLE, Y DOUBLE, Z DOUBLE"):
        return "POINT"
    return {"DOUBLE": "FLOAT", "INT64": "INTEGER", "BOOL": "BOOLEAN"}.get(kind.upper(), kind)


def _by_label(mapping: dict[str, T]) -> list[tuple[str, T]]:
    """Layer order (Object ... Building), then any other label by name. Database catalogues
    return labels in no fixed order, and the schema text is part of stage cache keys: it must
    be byte-identical for the same graph."""
    rank = {label: i for i, label in enumerate(LABELS)}
    return sorted(mapping.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def describe_schema(facts: SchemaFacts) -> str:
    """Plain text: labels with properties and classes, edge types with endpoints and hop
    limits, notes."""
    lines = ["Node labels (properties):"]
    for label, props in _by_label(facts.properties):
        fields = ", ".join(f"{name}: {neo4j_type(kind)}" for name, kind in props)
        empty = "  -- no nodes in this graph" if facts.node_counts.get(label, 0) == 0 else ""
        lines.append(f"- {label}({fields}){empty}")
    lines.append("")
    lines.append("Relationship types (from -> to, as present in this graph):")
    for edge_type in sorted({*EDGE_TYPES, *facts.edge_endpoints}, key=lambda t: (t != CONTAINS, t)):
        ends = facts.edge_endpoints.get(edge_type)
        pairs = ", ".join(f"{a} -> {b}" for a, b, _ in ends) if ends else "none in this graph"
        lines.append(f"- {edge_type}: {pairs}")
    if facts.classes:
        lines.append("")
        lines.append("Class names present (values of the class property):")
        for label, names in _by_label(facts.classes):
            lines.append(f"- {label}: {', '.join(names)}")
    if facts.hop_limits:
        lines.append("")
        lines.append(HOP_LIMITS_HEADER)
        lines.extend(f"- {t}: {n}" for t, n in sorted(facts.hop_limits.items()))
    path_notes = BOUNDED_NOTES if facts.hop_limits else UNBOUNDED_NOTES
    notes = NEO4J_NOTES + path_notes + COMMON_NOTES
    lines.append("")
    lines.append("Notes:")
    lines.extend(f"- {note}" for note in notes)
    return "\n".join(lines) + "\n"
