"""The trivial baselines: each answers every question its one way, in the answer's kind, in every
pipeline; `common-class` finds the same class by query, by code and from the prompt's text."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchcore.llm.base import CallContext, ModelConfig
from benchcore.llm.providers import build_client
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.baseline_answers import (
    BASELINES,
    COMMON_CLASS_CODE,
    COMMON_CLASS_CYPHER,
    baseline_answer,
    common_class_in_text,
    named_ids,
)
from dsgqa.baseline_model import BaselineClient, register_baseline_provider
from dsgqa.graphstore import open_graph_store
from dsgqa.in_context import VARIANTS, serialize
from dsgqa.questions import Question
from dsgqa.records import CypherAttempt, LLMUsage
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages.run_query import run_query
from tests.test_scene_graph import DEMO


def question(text: str, solution: str, kind: str = "SLDP") -> Question:
    return Question.model_validate({"uid": "q1", "question": text, "solution": solution,
                                    "correctness_comparator": {"comparison_type": kind}})


def client(name: str, *questions: Question) -> BaselineClient:
    return BaselineClient(ModelConfig(name=name, provider="baseline"),
                          {q.uid: q for q in questions})


def test_named_ids_in_the_order_named_each_once() -> None:
    text = "Objects O12 and P1396 share room R1? Is O12 (x, y, z) = (1.5, 2.0, 0.0) tier 3?"
    assert named_ids(text) == ["O12", "P1396", "R1"]
    assert named_ids("How many objects of class 'seating' are there?") == []


@pytest.mark.parametrize(("baseline", "solution", "expected"), [
    ("zero", "<R1, R2>", "0"),
    ("zero", "(and (safe O1))", "0"),
    ("empty", "<R1, R2>", "<>"),
    ("empty", "[R1, R2]", "[]"),
    ("empty", "{seating: 3}", "{}"),
    ("empty", "7", "<>"),
    ("ids", "<R1, R2>", "<O12, R3>"),
    ("ids", "[R2, R1]", "[R3, O12]"),
    ("ids", "O7", "<O12, R3>"),
    ("common-class", "<storage>", "<seating>"),
    ("common-class", "[storage]", "[seating]"),
    ("common-class", "storage", "seating"),
])
def test_each_baseline_answers_in_the_answer_s_kind(baseline, solution, expected) -> None:
    text = "Which rooms lie between room R3 and object O12?"
    pddl = solution.startswith("(")
    assert baseline_answer(baseline, text, solution, pddl, "seating") == expected


def test_pddl_answers_are_goals_of_the_solution_s_shape() -> None:
    text = "Write a goal holding any object in room R2."
    like = "(or (holding O1) (holding O2))"
    assert baseline_answer("empty", text, like, True) == "(or)"
    assert baseline_answer("ids", text, like, True) == "(holding R2)"
    assert baseline_answer("common-class", text, like, True, "seating") == "(holding seating)"


def test_an_unknown_baseline_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="zero, empty, ids, common-class"):
        client("half")


def test_the_provider_builds_a_baseline_client() -> None:
    register_baseline_provider()
    built = build_client(ModelConfig(name="ids", provider="baseline"), cache_dir=None)
    assert isinstance(built, BaselineClient)
    assert built.config.label == "baseline:ids"


def test_stages_write_no_query_or_code_but_common_class_reads_the_graph() -> None:
    q = question("How many rooms are adjacent to room R2?", "3")
    for name in BASELINES:
        reads = name == "common-class"
        cypher = client(name, q).complete([], CallContext("q1", "cypher")).text
        code = client(name, q).complete([], CallContext("q1", "code")).text
        assert cypher == (COMMON_CLASS_CYPHER if reads else "")
        assert (COMMON_CLASS_CODE in code) if reads else code == ""


def test_refine_answers_from_the_rows_and_an_agent_queries_only_for_the_class() -> None:
    q = question("Which object classes occur in room R2?", "<decor, seating>")
    rows = {"columns": ["class", "objects"], "rows": [["seating", 22]]}
    common = client("common-class", q)
    assert common.complete([], CallContext("q1", "refine", rows)).text == "<seating>"
    first = common.complete([], CallContext("q1", "agent"), tools=[object()])
    assert json.loads(first.tool_calls[0].arguments) == {"query": COMMON_CLASS_CYPHER}
    last = common.complete([], CallContext("q1", "agent", rows), tools=[object()])
    assert json.loads(last.tool_calls[0].arguments) == {"answer": "<seating>"}
    ids = client("ids", q).complete([], CallContext("q1", "agent"))   # text protocol
    assert ids.text == "```\n<R2>\n```"
    assert ids.prompt_tokens == 1 and ids.completion_tokens > 0


def test_common_class_is_the_same_by_query_by_code_and_in_context(tmp_path) -> None:
    graph = load_scene_graph(DEMO)
    counts = Counter(n.class_name for n in graph.nodes if n.label == "Object")
    expected = min(counts, key=lambda c: (-counts[c], c))
    for variant in VARIANTS:
        assert common_class_in_text(serialize(graph, variant)) == expected
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, graph, db_root=tmp_path)
    try:
        outcome = run_query(store, CypherAttempt(uid="q1", model="baseline:common-class",
                                                 cypher=COMMON_CLASS_CYPHER, raw_reply="",
                                                 usage=LLMUsage()))
    finally:
        store.close()
    assert outcome.rows[0][0] == expected
    import spark_dsg

    namespace: dict = {}
    exec(COMMON_CLASS_CODE, namespace)   # the program a sandbox would run, here in process
    assert namespace["solve_task"](spark_dsg.DynamicSceneGraph.load(str(DEMO))) == expected
