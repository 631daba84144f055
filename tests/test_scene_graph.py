"""Loading spark_dsg JSON into `SceneGraph`: real files, their oddities, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from dsgqa import demo_scene
from dsgqa.scene_graph import SceneGraphError, load_scene_graph
from tests import external

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = external.path(external.EXAMPLE_DSG)
DEMO = ROOT / "questions/demo/apartment_dsg.json"

# Independent of the loader: the file's own layer names -> our labels.
NAME_TO_LABEL = {"OBJECTS": "Object", "PLACES": "Place", "MESH_PLACES": "MeshPlace",
                 "ROOMS": "Room", "BUILDINGS": "Building"}


def raw_counts(path: Path) -> Counter:
    """Nodes per label and edges per type, computed from the raw JSON alone."""
    data = json.loads(path.read_text())
    key_label = {(k["layer"], k["partition"]): NAME_TO_LABEL[name]
                 for name, k in data["layer_names"].items() if name in NAME_TO_LABEL}
    label = {n["id"]: key_label[(n["layer"], n["partition"])] for n in data["nodes"]}
    counts = Counter(label.values())
    for edge in data["edges"]:
        a, b = label[edge["source"]], label[edge["target"]]
        if a == b:
            counts[{"MeshPlace": "MESH_PLACE"}.get(a, a.upper()) + "_CONNECTED"] += 1
        else:
            counts["CONTAINS"] += 1
    return counts


@pytest.fixture(scope="module")
def example():
    return load_scene_graph(EXAMPLE)


@external.needs(external.EXAMPLE_DSG)
def test_example_counts_match_the_file(example):
    expected = raw_counts(EXAMPLE)
    assert len(example.nodes) == 166 and len(example.edges) == 402
    assert {k: v for k, v in example.counts().items() if v} == dict(expected)
    assert example.counts()["Place"] == 0 and example.counts()["Building"] == 0


@external.needs(external.EXAMPLE_DSG)
def test_example_classes_come_from_per_layer_labelspaces(example):
    data = json.loads(EXAMPLE.read_text())
    objects = dict(data["metadata"]["labelspaces"]["_l2p0"])
    rooms = dict(data["metadata"]["labelspaces"]["_l4p0"])
    by_symbol = {n.symbol: n for n in example.nodes}
    for node in data["nodes"]:
        label = node["attributes"]["semantic_label"]
        symbol = node["attributes"]["name"] or None
        if node["layer"] == 4:
            assert by_symbol[symbol].class_name == rooms[label]
        if node["layer"] == 3:  # mesh places have no labelspace of their own
            assert by_symbol[symbol].class_name == objects[label]
    assert {n.class_name for n in example.nodes if n.label == "Room"} == {"lounge", "hallway"}


@external.needs(external.EXAMPLE_DSG)
def test_example_keeps_multi_parent_and_parentless_nodes(example):
    parents = Counter(e.target for e in example.edges if e.type == "CONTAINS")
    assert max(parents.values()) == 3
    assert sum(1 for n in example.nodes if n.symbol not in parents) == 13


@external.needs(external.EXAMPLE_DSG)
def test_contains_points_from_parent_to_child(example):
    rank = {"Object": 0, "MeshPlace": 1, "Room": 2}
    label = example.labels_by_symbol()
    for edge in example.edges:
        if edge.type == "CONTAINS":
            assert rank[label[edge.source]] > rank[label[edge.target]]


@external.needs(external.EXAMPLE_DSG)
def test_objects_carry_bounding_boxes(example):
    obj = next(n for n in example.nodes if n.symbol == "O0")
    assert obj.center == pytest.approx((4.535074, -7.546947, 0.178145), abs=1e-5)
    assert obj.bbox_size == pytest.approx((2.429063, 2.839031, 0.599575), abs=1e-5)
    assert all(n.bbox_center is None for n in example.nodes if n.label != "Object")


@external.needs(external.EXAMPLE_DSG)
def test_fingerprint_is_content_only(example):
    again = load_scene_graph(EXAMPLE)
    assert again.fingerprint() == example.fingerprint()
    shuffled = type(example)(tuple(reversed(example.nodes)), tuple(reversed(example.edges)),
                             source="elsewhere")
    assert shuffled.fingerprint() == example.fingerprint()
    moved = list(example.nodes)
    moved[0] = type(moved[0])(**{**moved[0].__dict__, "center": (0.0, 0.0, 0.0)})
    changed = type(example)(tuple(moved), example.edges)
    assert changed.fingerprint() != example.fingerprint()


@external.needs(external.EXAMPLE_DSG)
def test_fingerprint_is_stable_across_processes(example):
    code = ("from dsgqa.scene_graph import load_scene_graph as l; "
            f"print(l({str(EXAMPLE)!r}).fingerprint())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "123", "PATH": ""}, cwd=ROOT)
    assert out.stdout.strip() == example.fingerprint()


def test_demo_file_is_what_the_generator_writes(tmp_path):
    fresh = demo_scene.write(tmp_path / "apartment.json")
    assert fresh.read_text() == DEMO.read_text()


def test_demo_graph_shape():
    graph = load_scene_graph(DEMO)
    counts = graph.counts()
    assert 90 <= len(graph.nodes) <= 110
    assert counts == {**raw_counts(DEMO), "BUILDING_CONNECTED": 0}
    parents = Counter(e.target for e in graph.edges if e.type == "CONTAINS")
    assert {s for s, n in parents.items() if n > 1} == {"O17", "O29"}
    assert {n.symbol for n in graph.nodes if n.symbol not in parents} == {"B0", "O57"}


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("", "parse error"),
        ("not json", "parse error"),
        ('{"a": 1}', "layer_ids"),
        ("[]", "array"),
        (None, "no such scene-graph file"),
    ],
)
def test_bad_files_give_one_line_naming_the_file(tmp_path, content, fragment):
    path = tmp_path / "bad_dsg.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SceneGraphError) as caught:
        load_scene_graph(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert fragment in message


@external.needs(external.EXAMPLE_DSG)
def test_truncated_real_file_is_rejected(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(EXAMPLE.read_text()[:5000])
    with pytest.raises(SceneGraphError, match=r"cut\.json: not a spark_dsg scene graph"):
        load_scene_graph(path)


def test_a_graph_nested_too_deep_is_refused_before_spark_dsg_reads_it(tmp_path):
    """100,000 nested arrays in `metadata` crashed spark_dsg's reader (SIGSEGV, no message);
    the depth is checked first. In a subprocess, so a crash cannot take the test run along."""
    text = DEMO.read_text()
    data = json.loads(text)
    data["metadata"] = {"note": "[[[ brackets in a string do not count"}
    shallow = tmp_path / "shallow.json"
    shallow.write_text(json.dumps(data))
    assert load_scene_graph(shallow).counts() == load_scene_graph(DEMO).counts()
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps({**data, "metadata": "@"}).replace(
        '"metadata": "@"', '"metadata": ' + "[" * 100_000 + "]" * 100_000))
    code = ("from dsgqa.scene_graph import SceneGraphError, load_scene_graph\n"
            f"try:\n    load_scene_graph({str(deep)!r})\n"
            "except SceneGraphError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == (f"{deep}: JSON nested 100,001 levels deep (at most 256 "
                                   "accepted); not a scene graph")
