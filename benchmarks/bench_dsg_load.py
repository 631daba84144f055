"""How long it takes to get a scene graph into the embedded database, and to query it.

    .venv/bin/python benchmarks/bench_dsg_load.py [--nodes 100000] [--backend ladybug|kuzu]
        [--builds 5]

Measures, for the demo's apartment graph, example_dsg.json and a synthetic spark_dsg graph of
--nodes nodes (goal: a 100k-node graph loads in <= 30 s; --nodes 0 skips it):
  parse   spark_dsg JSON -> SceneGraph (load_scene_graph)
  build   SceneGraph -> fresh database (schema + COPY, in a child process: `build_worker`),
          including opening it read-only; median and range of --builds fresh builds
  reopen  open_graph_store on an already-built database (the normal case on reruns)
and the latency of a few typical queries (median of repeated runs, through the read-only
workers, i.e. including the process hop).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from benchcore import external_data
from benchcore.names import DEFAULT_EMBEDDED_BACKEND, EMBEDDED_BACKENDS
from dsgqa.graphstore import open_graph_store
from dsgqa.scene_graph import load_scene_graph

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = external_data.path_or_fetched(external_data.EXAMPLE_DSG)
DEMO = ROOT / "questions/demo/apartment_dsg.json"
T = TypeVar("T")

QUERIES = {
    "count objects": "MATCH (o:Object) RETURN count(o)",
    "objects per room (2 hops)": (
        "MATCH (r:Room)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
        "RETURN r.nodeSymbol, count(DISTINCT o) ORDER BY r.nodeSymbol LIMIT 20"
    ),
    "nearest 5 to a point": (
        "MATCH (o:Object) RETURN o.nodeSymbol ORDER BY (o.center.x - 1.0)^2 + "
        "(o.center.y - 2.0)^2 LIMIT 5"
    ),
    "rooms within 3 steps": (
        "MATCH (a:Room)-[:ROOM_CONNECTED* TRAIL 1..3]-(b:Room) WITH a LIMIT 1 "
        "MATCH (a)-[:ROOM_CONNECTED* TRAIL 1..3]-(b:Room) RETURN count(DISTINCT b)"
    ),
}


def synthetic_dsg(path: Path, n_nodes: int) -> None:
    """A spark_dsg JSON file: 1 building, rooms in a grid, 20 places and 5 mesh places per room,
    objects under places (every 50th object has a second parent), ~n_nodes nodes in all."""
    import spark_dsg as sd

    n_rooms = max(1, n_nodes // 100)
    graph = sd.DynamicSceneGraph()
    graph.add_layer(3, 1, "MESH_PLACES")
    graph.set_labelspace(sd.Labelspace({0: "chair", 1: "table", 2: "lamp", 3: "floor"}), 2, 0)
    graph.set_labelspace(sd.Labelspace({0: "room"}), 4, 0)

    def attrs(kind: Any, xyz: tuple[float, ...], label: int | None = None) -> Any:
        node = kind()
        node.position = list(xyz)
        if label is not None:
            node.semantic_label = label
        return node

    graph.add_node(5, sd.NodeSymbol("B", 0), attrs(sd.SemanticNodeAttributes, (0, 0, 0)))
    side = int(n_rooms ** 0.5) + 1
    obj = 0
    for r in range(n_rooms):
        x, y = 10.0 * (r % side), 10.0 * (r // side)
        graph.add_node(4, sd.NodeSymbol("R", r), attrs(sd.RoomNodeAttributes, (x, y, 1), 0))
        graph.insert_edge(sd.NodeSymbol("B", 0), sd.NodeSymbol("R", r))
        for neighbour in (r - 1, r - side):
            if neighbour >= 0 and (neighbour != r - 1 or r % side):
                graph.insert_edge(sd.NodeSymbol("R", r), sd.NodeSymbol("R", neighbour))
        for m in range(5):
            symbol = sd.NodeSymbol("P", 5 * r + m)
            graph.add_node(3, symbol, attrs(sd.Place2dNodeAttributes, (x + m, y, 0), 3), 1)
            graph.insert_edge(sd.NodeSymbol("R", r), symbol)
        for p in range(20):
            place = sd.NodeSymbol("p", 20 * r + p)
            graph.add_node(3, place, attrs(sd.PlaceNodeAttributes, (x + p / 2, y + 1, 0.5)))
            graph.insert_edge(sd.NodeSymbol("R", r), place)
            if p:
                graph.insert_edge(sd.NodeSymbol("p", 20 * r + p - 1), place)
        for _ in range(74):
            o = sd.NodeSymbol("O", obj)
            place = 20 * r + obj % 20
            node = attrs(sd.ObjectNodeAttributes, (x + obj % 10, y + obj % 7, 0.5), obj % 3)
            node.bounding_box = sd.BoundingBox([0.5, 0.5, 0.5], [x + obj % 10, y + obj % 7, 0.5])
            graph.add_node(2, o, node)
            graph.insert_edge(sd.NodeSymbol("p", place), o)
            if obj % 50 == 0 and place % 20:
                graph.insert_edge(sd.NodeSymbol("p", place - 1), o)
            obj += 1
    graph.save(str(path), include_mesh=False)


def timed(action: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    value = action()
    return value, time.perf_counter() - started


def build_seconds(graph: Any, backend: str, builds: int) -> list[float]:
    """Seconds of `builds` fresh builds of `graph`, each into an empty database root."""
    seconds = []
    for _ in range(builds):
        with tempfile.TemporaryDirectory(prefix="bench-build-") as root:
            store, build_s = timed(lambda r=root: open_graph_store(backend, graph, db_root=Path(r)))
            store.close()
            seconds.append(build_s)
    return seconds


def bench(path: Path, backend: str, repeats: int, builds: int) -> None:
    graph, parse_s = timed(lambda: load_scene_graph(path))
    print(f"\n{path.name} on {backend}: {len(graph.nodes)} nodes, {len(graph.edges)} edges")
    with tempfile.TemporaryDirectory(prefix="bench-dsg-") as root:
        store, first_s = timed(lambda: open_graph_store(backend, graph, db_root=Path(root)))
        store.close()
        store, reopen_s = timed(lambda: open_graph_store(backend, graph, db_root=Path(root)))
        more = build_seconds(graph, backend, builds - 1) if builds > 1 else []
        all_s = [first_s, *more]
        build_s = statistics.median(all_s)
        print(f"  parse {parse_s:7.2f} s   build {build_s:7.2f} s median of {len(all_s)} "
              f"({min(all_s):.2f}-{max(all_s):.2f})   "
              f"(parse + build {parse_s + build_s:.2f} s)   reopen {reopen_s:5.2f} s")
        try:
            for name, cypher in QUERIES.items():
                times = []
                for _ in range(repeats):
                    result = store.query(cypher, timeout_s=60)
                    if not result.valid:
                        print(f"  {name}: failed: {result.error}")
                        break
                    times.append(result.seconds)
                else:
                    print(f"  query {name:28s} median {1000 * statistics.median(times):8.1f} ms"
                          f"   max {1000 * max(times):8.1f} ms")
        finally:
            store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND, choices=EMBEDDED_BACKENDS)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--builds", type=int, default=5,
                        help="Fresh builds of the demo and example graphs (median printed).")
    args = parser.parse_args(argv)
    for path in (DEMO, EXAMPLE):
        bench(path, args.backend, args.repeats, args.builds)
    if args.nodes <= 0:
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-synthetic-") as scratch:
        path = Path(scratch) / f"synthetic_{args.nodes}.json"
        _, make_s = timed(lambda: synthetic_dsg(path, args.nodes))
        print(f"\n(synthetic file written in {make_s:.1f} s, not counted)")
        bench(path, args.backend, max(3, args.repeats // 4), builds=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
