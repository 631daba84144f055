"""What the QA summary's scores count: built from real records of each pipeline's items (no
flow), so each rule is checked on its own. No metric may rise because work was skipped."""

from __future__ import annotations

import pandas as pd
import pytest

from benchcore.batch import Outcome
from benchcore.llm.base import ModelConfig
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
