"""The scene graph as prompt text for the in-context pipeline."""

from __future__ import annotations

import pytest

from dsgqa.in_context import estimate_tokens, serialize
from dsgqa.scene_graph import load_scene_graph
from tests import external

EXAMPLE = external.path(external.EXAMPLE_DSG)


@pytest.fixture(scope="module")
def graph():
    return load_scene_graph(EXAMPLE)


@external.needs(external.EXAMPLE_DSG)
def test_compact_lists_every_object_with_its_room_and_every_room(graph) -> None:
    text = serialize(graph, "compact")
    objects = [n for n in graph.nodes if n.label == "Object"]
    rooms = [n for n in graph.nodes if n.label == "Room"]
    assert text.count("\n- (id=O") == len(objects)
    assert text.count("\n- (id=R") == len(rooms)
    assert "- (id=O0, class=seating, pos=(4.54, -7.55, 0.18), room=R1)" in text


@external.needs(external.EXAMPLE_DSG)
def test_full_keeps_every_layer_the_hierarchy_and_each_connection_once(graph) -> None:
    text = serialize(graph, "full")
    assert text.count("\n- (id=") == len(graph.nodes)
    undirected = {frozenset((e.source, e.target)) for e in graph.edges if e.type != "CONTAINS"}
    assert text.count(" -- ") == len(undirected)
    assert "- R1 -- R2" in text and "bbox_dim=" in text


@external.needs(external.EXAMPLE_DSG)
def test_serialization_is_deterministic_and_sized(graph) -> None:
    for variant in ("compact", "full"):
        assert serialize(graph, variant) == serialize(graph, variant)
    compact, full = serialize(graph, "compact"), serialize(graph, "full")
    assert estimate_tokens(compact) < estimate_tokens(full)
    with pytest.raises(ValueError, match="unknown in-context variant"):
        serialize(graph, "huge")  # type: ignore[arg-type]


@external.needs(external.EXAMPLE_DSG)
def test_the_in_context_stage_sends_the_graph_and_checks_the_context_limit(graph) -> None:
    from benchcore.llm import ModelConfig
    from benchcore.llm.scripted import ScriptedClient
    from dsgqa.questions import load_question_set
    from dsgqa.stages.in_context import ContextTooLarge, answer_in_context
    from tests.fake_model import DEMO_QUESTIONS

    question = load_question_set(DEMO_QUESTIONS).by_uid()["apt01"]
    text = serialize(graph, "compact")
    script = {"apt01": {"in_context": "There are:\n```\n8\n```"}}
    roomy = ScriptedClient(ModelConfig(name="s", provider="scripted", context_tokens=100_000),
                           script)
    answer = answer_in_context(question, roomy, text, "compact")
    assert answer.answer == "8" and answer.context_tokens > estimate_tokens(text)
    small = ScriptedClient(ModelConfig(name="small", provider="scripted", context_tokens=500),
                           script)
    with pytest.raises(ContextTooLarge, match=r"needs ~[\d,]+ tokens \(compact scene graph\), "
                       r"more than model small's context_tokens 500"):
        answer_in_context(question, small, text, "compact")


def test_pipelines_in_the_run_config() -> None:
    from benchcore.run_config import BenchmarkConfig

    qa = {"questions": "q.yaml", "scene_graph": "g.json"}
    models = [{"name": "a", "provider": "oracle"}, {"name": "b", "provider": "oracle"}]
    default = BenchmarkConfig(models=models, qa=qa)
    assert [p.label for p in default.qa.pipelines] == ["feedforward"]
    config = BenchmarkConfig(models=models, qa={**qa, "pipelines": [
        "feedforward", {"kind": "agentic", "models": ["b"], "max_iterations": 3},
        {"kind": "in_context", "variant": "full"}]})
    labels = {m.name: [p.label for p in config.qa.pipelines_for(m)] for m in config.models}
    assert labels == {"a": ["feedforward", "in_context_full"],
                      "b": ["feedforward", "agentic", "in_context_full"]}
    with pytest.raises(ValueError, match="pipeline 'agentic' is listed twice"):
        BenchmarkConfig(models=models, qa={**qa, "pipelines": ["agentic", "agentic"]})
    with pytest.raises(ValueError, match="names model 'c', which is not in models"):
        BenchmarkConfig(models=models, qa={**qa, "pipelines": [{"kind": "agentic",
                                                                 "models": ["c"]}]})


def test_a_bad_pipeline_in_a_config_file_is_one_line(tmp_path) -> None:
    from benchcore.run_config import ConfigError, load_config

    path = tmp_path / "run.yaml"
    path.write_text("models: [{name: a, provider: oracle}]\n"
                    "qa: {questions: q.yaml, scene_graph: g.json, pipelines: [code_gen]}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:2: field qa.pipelines.0.kind: unknown value "
                                        "'code_gen' (accepted: ")
    assert "\n" not in str(caught.value)
