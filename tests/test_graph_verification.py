"""A damaged cached database is rebuilt, never queried: a file cut short or overwritten in part
would answer every query with no rows and no error, and poison the item cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsgqa.graphstore import open_graph_store
from dsgqa.graphstore.kuzu_store import DB_FILE
from dsgqa.scene_graph import load_scene_graph

ROOT = Path(__file__).resolve().parent.parent
DEMO_GRAPH = ROOT / "questions/demo/apartment_dsg.json"
COUNT = "MATCH (o:Object) RETURN count(o)"


def _count(db_root: Path) -> tuple[int, str | None]:
    store = open_graph_store("ladybug", load_scene_graph(DEMO_GRAPH), db_root=db_root)
    try:
        result = store.query(COUNT)
        assert result.valid, result.error
        return result.rows[0][0], store.build_id
    finally:
        store.close()


def _database(db_root: Path) -> Path:
    (database,) = db_root.glob(f"*-ladybug/{DB_FILE}")
    return database


@pytest.mark.parametrize("damage", ["cut", "overwrite"])
def test_a_damaged_database_is_rebuilt(tmp_path: Path, damage: str) -> None:
    objects, build = _count(tmp_path)
    assert objects > 0 and build
    assert _count(tmp_path) == (objects, build)  # opened again as it is: no rebuild
    database = _database(tmp_path)
    if damage == "cut":
        database.write_bytes(b"")
    else:
        with open(database, "r+b") as handle:
            handle.seek(database.stat().st_size // 2)
            handle.write(b"\xff" * 4096)
    rebuilt_objects, rebuilt = _count(tmp_path)
    assert rebuilt_objects == objects  # rebuilt: the same rows ...
    assert rebuilt != build  # ... from a new build (builds are not byte for byte the same)


def test_query_results_are_keyed_to_the_database_build(tmp_path: Path) -> None:
    from dsgqa.stage_batches import QueryRunner

    store = open_graph_store("ladybug", load_scene_graph(DEMO_GRAPH), db_root=tmp_path)
    try:
        runner = QueryRunner(store, "fingerprint", 5.0, 100, cache=None)
        assert store.build_id in runner.version
    finally:
        store.close()


@pytest.mark.parametrize("damage", [b"\xff\xfe garbage \x00" * 256, b"", b"sha256:0\nNode labels"])
def test_a_damaged_schema_text_is_regenerated(tmp_path: Path, damage: bytes) -> None:
    """The kept schema text goes into every prompt and cache key: garbage, an empty file or a
    text that does not match its digest is generated again, never decoded into a prompt."""
    from benchcore.run_config import QAConfig
    from dsgqa.graph_handle import open_graph

    qa = QAConfig(questions="unused.yaml", scene_graph=str(DEMO_GRAPH), db_root=str(tmp_path))
    first = open_graph(qa)
    first.store.close()
    (kept,) = tmp_path.glob("*.schema.txt")
    kept.write_bytes(damage)
    again = open_graph(qa)
    again.store.close()
    assert again.schema == first.schema and "Object" in first.schema
    assert kept.read_bytes() != damage  # and the file is whole again
