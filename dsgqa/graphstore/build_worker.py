"""Build an embedded database from a scene graph in a child process.

Why a process: Kuzu and Ladybug ship C++ libraries with the same symbols and must never be
loaded into one process (`engine.py` refuses the second). Queries already run in child processes
(`query_worker`); building here too means the harness process never imports an engine, so one
process can hold a Kuzu store and a Ladybug store side by side, and an engine that crashes
during a load cannot take the run down with it.

Protocol: the parent pickles the `SceneGraph` into the build's scratch directory and runs
`python -m dsgqa.graphstore.build_worker BACKEND GRAPH_PICKLE DB_PATH`; the child creates the
database at DB_PATH (schema + bulk COPY, `kuzu_load.load_into`), closes it and prints one JSON
line, `{"ok": true}` or `{"ok": false, "error": "<one line>"}`. The parent turns an error, or a
child that died without answering, into a one-line `GraphStoreError`.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

from dsgqa.graphstore.base import GraphStoreError, one_line
from dsgqa.graphstore.worker_pool import worker_env
from dsgqa.scene_graph import SceneGraph

GRAPH_FILE = "graph.pickle"


def build_database(backend: str, graph: SceneGraph, db_path: Path) -> None:
    """Create the database at `db_path` (whose directory exists and is the build's scratch
    directory) in a child process; raise `GraphStoreError` with its one-line reason."""
    graph_file = Path(db_path).parent / GRAPH_FILE
    with graph_file.open("wb") as handle:
        pickle.dump(graph, handle, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        child = subprocess.run(
            [sys.executable, "-m", "dsgqa.graphstore.build_worker", backend, str(graph_file),
             str(db_path)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, env=worker_env(),
        )
    finally:
        graph_file.unlink(missing_ok=True)
    answer = _answer(child.stdout)
    if answer is None:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        raise GraphStoreError(f"cannot build the {backend} database: build worker exited with "
                              f"code {child.returncode}: {one_line(last)}")
    if not answer.get("ok"):
        raise GraphStoreError(str(answer.get("error") or f"cannot build the {backend} database"))


def _answer(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def build(backend: str, graph: SceneGraph, db_path: Path) -> None:
    """Schema and bulk load into a fresh database at `db_path`, then close it. Runs in the
    child: this is the only place outside the query workers that imports an engine."""
    from dsgqa.graphstore.engine import import_engine
    from dsgqa.graphstore.kuzu_load import load_into

    engine = import_engine(backend)
    try:
        database = engine.Database(str(db_path))
    except Exception as exc:
        raise GraphStoreError(f"cannot create a {backend} database at {db_path}: "
                              f"{one_line(exc)}") from exc
    conn = engine.Connection(database)
    try:
        load_into(conn, graph)
    except Exception as exc:
        source = graph.source or "scene graph"
        raise GraphStoreError(f"cannot load {source} into {backend}: {one_line(exc)}") from exc
    finally:
        conn.close()
        database.close()


def main(argv: list[str] | None = None) -> int:
    backend, graph_file, db_path = argv if argv is not None else sys.argv[1:]
    # The answer gets its own copy of stdout; fd 1 then points at stderr, so anything the
    # engine prints cannot be mistaken for it.
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    try:
        with open(graph_file, "rb") as handle:
            graph = pickle.load(handle)  # written by our parent, in its own scratch directory
        build(backend, graph, Path(db_path))
        answer: dict[str, Any] = {"ok": True}
    except Exception as exc:  # every failure is one line for the parent
        answer = {"ok": False, "error": one_line(exc)}
    channel.write(json.dumps(answer) + "\n")
    channel.flush()
    return 0 if answer["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
