"""Databases are built in a child process (`build_worker`): the harness process never imports
an engine, so one process holds a Kuzu and a Ladybug store side by side, and a failed build is
a one-line `GraphStoreError` that leaves nothing half-built behind."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dsgqa.graphstore import GraphStoreError, open_graph_store
from dsgqa.graphstore.build_worker import GRAPH_FILE, build_database
from dsgqa.scene_graph import load_scene_graph
from tests.conftest import PROJECT_ROOT
from tests.test_scene_graph import DEMO

BOTH_ENGINES = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from dsgqa.graphstore import open_graph_store
    from dsgqa.scene_graph import load_scene_graph

    graph = load_scene_graph(sys.argv[1])
    stores = [open_graph_store(b, graph, db_root=Path(sys.argv[2])) for b in ("kuzu", "ladybug")]
    rows = [s.query("MATCH (r:Room) RETURN count(r)").rows for s in stores]
    for store in stores:
        store.close()
    engines = sorted({m.split(".")[0] for m in sys.modules} & {"kuzu", "ladybug"})
    print(json.dumps({"rows": rows, "engines": engines}))
""")


def test_one_process_holds_a_store_of_each_engine_and_imports_neither(tmp_path):
    """In a fresh interpreter (this test process may have imported Kuzu for its own checks)."""
    run = subprocess.run([sys.executable, "-c", BOTH_ENGINES, str(DEMO), str(tmp_path)],
                         capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result == {"rows": [[[10]], [[10]]], "engines": []}
    assert sorted(p.name.split("-")[-1] for p in tmp_path.iterdir()
                  if p.is_dir()) == ["kuzu", "ladybug"]


@pytest.mark.parametrize("backend", ["kuzu", "ladybug"])
def test_an_engine_error_during_the_build_is_one_line(tmp_path, backend):
    (tmp_path / "graph.kz").mkdir()   # a directory where the database file must go
    with pytest.raises(GraphStoreError) as raised:
        build_database(backend, load_scene_graph(DEMO), tmp_path / "graph.kz")
    message = str(raised.value)
    assert message.startswith(f"cannot create a {backend} database at ")
    assert "\n" not in message and "Traceback" not in message
    assert not (tmp_path / GRAPH_FILE).exists()


def test_a_build_worker_that_dies_is_a_graph_store_error_and_leaves_nothing(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setattr(sys, "executable", "/bin/false")   # exits 1 without a word
    with pytest.raises(GraphStoreError, match="build worker exited with code 1: no output"):
        open_graph_store("ladybug", load_scene_graph(DEMO), db_root=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == []


def test_an_unknown_engine_in_the_worker_is_refused_in_one_line(tmp_path: Path):
    with pytest.raises(GraphStoreError, match="unknown embedded engine 'falkordb'"):
        build_database("falkordb", load_scene_graph(DEMO), tmp_path / "graph.kz")
