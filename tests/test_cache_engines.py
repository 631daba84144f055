"""Cached graphs and results never cross engines: the same questions run on Kuzu and then on
Ladybug with one item cache are computed on each (the same engine again is a cache hit), and
each engine has its own database directory. Both stores live in this process: they build and
query in child processes."""

from __future__ import annotations

import json

import pytest

from benchcore.batch import Outcome
from benchcore.item_cache import ItemCache
from benchcore.llm.base import ModelConfig
from benchcore.names import Stage
from dsgqa.graphstore import open_graph_store
from dsgqa.graphstore.engine import engine_version
from dsgqa.graphstore.kuzu_store import MARKER
from dsgqa.oracle import OracleClient
from dsgqa.pipeline_batches import agent_batch, in_context_batch, reference_rows
from dsgqa.questions import load_question_set
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stage_batches import QueryRunner, reference_attempt
from tests.fake_model import DEMO_GRAPH, DEMO_QUESTIONS

ENGINES = ("kuzu", "ladybug")


@pytest.fixture(scope="module")
def graph():
    return load_scene_graph(DEMO_GRAPH)


@pytest.fixture(scope="module")
def questions():
    return load_question_set(DEMO_QUESTIONS).questions[:3]


@pytest.fixture(scope="module")
def stores(graph, tmp_path_factory):
    root = tmp_path_factory.mktemp("graphs")
    opened = {backend: open_graph_store(backend, graph, db_root=root) for backend in ENGINES}
    yield root, opened
    for store in opened.values():
        store.close()


def _runner(store, graph, cache_dir) -> QueryRunner:
    return QueryRunner(store, graph.fingerprint(), 10.0, 200, ItemCache(cache_dir, Stage.RUN_QUERY))


def test_each_engine_has_its_own_database_directory(stores, graph):
    root, _ = stores
    for backend in ENGINES:
        directory = root / f"{graph.fingerprint()[:16]}-{backend}"
        assert json.loads((directory / MARKER).read_text())["backend"] == backend


def test_run_query_and_agent_compute_again_on_the_other_engine(stores, graph, questions,
                                                               tmp_path):
    _, opened = stores
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"),
                          {q.uid: q for q in questions})
    attempts = [Outcome(uid=q.uid, value=reference_attempt(q.uid, q.cypher)) for q in questions]
    query_hits, agent_hits = [], []
    for backend in (*ENGINES, *ENGINES):   # kuzu, ladybug, then each again
        run = _runner(opened[backend], graph, tmp_path)
        done = run(attempts)
        assert all(o.ok and o.value.valid and o.value.backend == backend for o in done)
        query_hits.append([o.from_cache for o in done])
        agents = agent_batch(questions, oracle, "", run, 3, ItemCache(tmp_path, Stage.AGENT))
        assert all(a.ok for a in agents)
        agent_hits.append([a.from_cache for a in agents])
    n = len(questions)
    expected = [[False] * n, [False] * n, [True] * n, [True] * n]
    assert query_hits == expected   # kuzu computed, ladybug computed, then both cached
    assert agent_hits == expected


def test_the_oracles_in_context_answer_is_keyed_on_the_rows_it_was_made_from(
        stores, graph, questions, tmp_path):
    """The in-context prompt never sees the engine, but the demo's oracle answers from the
    reference rows: another engine's rows are another item, the same rows the same item."""
    _, opened = stores
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"),
                          {q.uid: q for q in questions})
    cache = ItemCache(tmp_path, Stage.IN_CONTEXT)
    hits = {}
    hints = {}
    for backend in ENGINES:
        hints[backend] = reference_rows(questions, _runner(opened[backend], graph, tmp_path))
        done = in_context_batch(questions, oracle, "graph text", "compact", cache,
                                oracle_rows=hints[backend])
        hits[backend] = [o.from_cache for o in done]
    assert hits["kuzu"] == [False] * len(questions)
    assert hits["ladybug"] == [hints["kuzu"][q.uid]["rows"] == hints["ladybug"][q.uid]["rows"]
                               for q in questions]
    changed = {q.uid: {**hints["ladybug"][q.uid], "rows": [["not", "these"]]} for q in questions}
    again = in_context_batch(questions, oracle, "graph text", "compact", cache,
                             oracle_rows=changed)
    assert not any(o.from_cache for o in again)


def test_a_database_another_engine_version_wrote_is_rebuilt(graph, tmp_path):
    store = open_graph_store("ladybug", graph, db_root=tmp_path)
    store.close()
    marker = tmp_path / f"{graph.fingerprint()[:16]}-ladybug" / MARKER
    written = json.loads(marker.read_text())
    assert written["engine_version"] == engine_version("ladybug") == "0.22.0"
    marker.write_text(json.dumps({**written, "engine_version": "0.21.0"}))
    store = open_graph_store("ladybug", graph, db_root=tmp_path)
    try:
        rebuilt = json.loads(marker.read_text())          # rebuilt by this version
        assert rebuilt.pop("database_sha256") and rebuilt == {
            key: value for key, value in written.items() if key != "database_sha256"}
        assert store.query("MATCH (r:Room) RETURN count(r)").rows == [[10]]
    finally:
        store.close()
