"""What the QA summary's scores count: built from real records of each pipeline's items (no
flow), so each rule is checked on its own. No metric may rise because work was skipped."""

from __future__ import annotations

import pandas as pd
import pytest

from benchcore.batch import Outcome
from benchcore.llm.base import ModelConfig
from dsgqa.lenient_answer import lenient_answer
from dsgqa.questions import load_question_set
from dsgqa.records import AgentRun, LLMUsage, QueryOutcome, RefinedAnswer
from dsgqa.results import (
    ItemResult,
    assemble_agent_items,
    assemble_in_context_items,
    results_table,
    summary_overall,
    tool_protocol_notes,
)
from dsgqa.stage_batches import compare_batch
from dsgqa.stages import compare
from tests.fake_model import DEMO_QUESTIONS

MODEL = ModelConfig(name="m", provider="oracle")


@pytest.fixture(scope="module")
def questions():
    return load_question_set(DEMO_QUESTIONS).questions[:4]


def _query(uid: str, match: bool) -> QueryOutcome:
    return QueryOutcome(uid=uid, backend="kuzu", cypher="MATCH (n) RETURN n", valid=True,
                        execution_match=match, columns=["n"], rows=[[1]])


def _agent(uid: str, answer: str, queries: list[QueryOutcome], reason: str,
           as_text: bool = False) -> AgentRun:
    return AgentRun(uid=uid, answer=answer, raw_reply=answer, usage=LLMUsage(), calls=1,
                    fresh_calls=1, queries=queries, stop_reason=reason, cypher_as_text=as_text)


def _agentic_items(questions) -> list[ItemResult]:
    """One agent that queried and matched, one that queried and missed, two that wrote their
    Cypher as text (tools protocol, no tool call) and so ran no query."""
    q1, q2, q3, q4 = questions
    runs = [
        _agent(q1.uid, q1.solution, [_query(q1.uid, True)], "answered_after_query"),
        _agent(q2.uid, "0", [_query(q2.uid, False)], "answered_after_query"),
        _agent(q3.uid, "MATCH (o) RETURN o", [], "answered_without_query", as_text=True),
        _agent(q4.uid, "MATCH (o) RETURN o", [], "answered_without_query", as_text=True),
    ]
    outcomes = [Outcome(uid=r.uid, value=r) for r in runs]
    return assemble_agent_items(questions, MODEL, "kuzu", "agentic", outcomes,
                                compare_batch(questions, outcomes))


def test_an_agent_that_ran_no_query_is_no_execution_match(questions) -> None:
    table = results_table(_agentic_items(questions))
    assert table["execution_match"].tolist() == [True, False, False, False]
    assert table["queries_run"].tolist() == [1, 1, 0, 0]
    assert table["cypher_as_text"].tolist() == [False, False, True, True]
    summary = summary_overall(table).iloc[0]
    # Every question with a reference query is in the denominator: 1 of 4, not 1 of 2.
    assert summary["execution_accuracy"] == 0.25
    assert summary["no_query_share"] == 0.5


def test_the_tool_protocol_hint_is_one_line_per_model(questions) -> None:
    notes = tool_protocol_notes(_agentic_items(questions))
    assert notes == ["oracle:m: 2 of 4 agentic answers ran no query; the server may not parse "
                     "tool calls: try `--tool-protocol text`"]
    queried = [i for i in _agentic_items(questions) if i.agent and i.agent.queries]
    assert tool_protocol_notes(queried) == []


def test_in_context_items_stay_out_of_query_scores(questions) -> None:
    answers = [Outcome(uid=q.uid, value=RefinedAnswer(uid=q.uid, answer=q.solution,
                                                      raw_reply="", usage=LLMUsage()))
               for q in questions]
    items = assemble_in_context_items(questions, MODEL, "in_context", answers,
                                      compare_batch(questions, answers))
    summary = summary_overall(results_table(items)).iloc[0]
    assert summary["accuracy"] == 1.0
    assert pd.isna(summary["execution_accuracy"]) and pd.isna(summary["no_query_share"])


def test_an_errored_feedforward_item_is_no_match(questions) -> None:
    """The generate-cypher call failed (HTTP 401): no query ran, the question has a reference."""
    item = ItemResult(question=questions[0], model="m", backend="kuzu", error="HTTP 401")
    row = results_table([item]).iloc[0]
    assert (row["execution_match"], row["queries_run"]) == (False, 0)


@pytest.mark.parametrize(("reply", "pddl", "extracted"), [
    ("The answer is 0.", False, "0"),
    ("The rooms are <kitchen, office>.", False, "<kitchen, office>"),
    ('Answer: "living room".', False, "living room"),
    ("Here:\n```\n{a: 1}\n```\nDone.", False, "{a: 1}"),
    ("The answer is 2.5 m", False, "2.5"),
    ("There are 8 chairs in 3 rooms.", False, None),        # two numbers: no guess
    ("MATCH (o:Object) WHERE o.z > 3.0 RETURN count(o)", False, None),   # a query, no answer
    ("I ran:\n```cypher\nMATCH (n) RETURN 1\n```", False, None),
    ("The goal is (and (holding o1) (at r1)).", True, "(and (holding o1) (at r1))"),
])
def test_the_lenient_reading_takes_the_value_out_of_prose(reply, pddl, extracted) -> None:
    assert lenient_answer(reply, pddl) == extracted


def test_strict_stays_the_headline_and_lenient_sits_beside_it(questions) -> None:
    """apt01's solution is 8: prose around it is wrong strictly, right leniently; a bare
    wrong number is wrong both ways; a right answer is right both ways."""
    question = questions[0]
    verdicts = [compare(question, RefinedAnswer(uid=question.uid, answer=text, raw_reply=text,
                                                usage=LLMUsage()))
                for text in ("The answer is 8.", "There are 8 chairs.", "5", "8")]
    assert [(v.valid_answer, v.correct, v.answer_extracted, v.correct_lenient)
            for v in verdicts] == [(False, False, "8", True), (False, False, "8", True),
                                   (True, False, "", False), (True, True, "", True)]


def test_wrong_answers_are_counted_at_the_stage_that_lost_them(questions) -> None:
    """Feed-forward: rows matched but the answer was prose (lost at refine, invalid, right
    leniently); the query failed (lost at query); rows not the reference's (wrong rows); right."""
    q1, q2, q3, q4 = questions
    failed = QueryOutcome(uid=q2.uid, backend="kuzu", cypher="MATCH (o:Objekt) RETURN o",
                          valid=False, error="Binder exception", query_error_kind="schema")
    outcomes = [_query(q1.uid, True), failed, _query(q3.uid, False), _query(q4.uid, True)]
    texts = [f"The answer is {q1.solution}.", "I cannot tell.", "0", q4.solution]
    answers = [Outcome(uid=q.uid, value=RefinedAnswer(uid=q.uid, answer=t, raw_reply=t,
                                                      usage=LLMUsage()))
               for q, t in zip(questions, texts, strict=True)]
    items = [ItemResult(question=q, model="m", backend="kuzu", outcome=o, answer=a.value,
                        verdict=v.value)
             for q, o, a, v in zip(questions, outcomes, answers,
                                   compare_batch(questions, answers), strict=True)]
    summary = summary_overall(results_table(items)).iloc[0]
    assert summary[["correct", "correct_lenient", "lost_at_query", "wrong_rows",
                    "lost_at_refine", "invalid_answer"]].tolist() == [1, 2, 1, 1, 1, 1]
    assert (summary["accuracy"], summary["accuracy_lenient"]) == (0.25, 0.5)


def test_the_report_funnel_counts_each_step(questions) -> None:
    from reporting.metrics import qa_funnel

    funnel = qa_funnel(results_table(_agentic_items(questions))).iloc[0]
    assert funnel[["items", "ran_query", "valid_rows", "reference_rows", "valid_answer",
                   "correct", "correct_lenient", "lost_at_query"]].tolist() == [
        4, 2, 2, 1, 2, 1, 1, 2]
