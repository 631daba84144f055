"""Stage 3: the model turns the raw rows into the final answer (SLDP, or a PDDL goal)."""

from __future__ import annotations

from benchcore.extract import extract_answer
from benchcore.llm.base import CallContext, LLMClient
from dsgqa.prompts import refine_messages
from dsgqa.questions import Question
from dsgqa.records import LLMUsage, QueryOutcome, RefinedAnswer


def refine(question: Question, outcome: QueryOutcome, client: LLMClient) -> RefinedAnswer:
    status = "ok" if outcome.valid else f"error: {outcome.error}"
    messages = refine_messages(
        question=question.prompt_text(),
        cypher=outcome.cypher,
        status=status,
        columns=outcome.columns,
        rows=outcome.rows,
        truncated=outcome.truncated,
        comparison_type=question.correctness_comparator.comparison_type,
    )
    context = CallContext(
        uid=question.uid,
        stage="refine",
        extra={"columns": outcome.columns, "rows": outcome.rows, "valid": outcome.valid},
    )
    reply = client.complete(messages, context)
    return RefinedAnswer(
        uid=question.uid,
        answer=extract_answer(reply.text),
        raw_reply=reply.text,
        usage=LLMUsage.of(reply),
    )
