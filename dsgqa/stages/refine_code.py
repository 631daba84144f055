"""The codegen pipeline's refine stage: the model turns what its code returned into the final
answer (SLDP, or a PDDL goal), as the feed-forward refine does with rows."""

from __future__ import annotations

from benchcore.extract import extract_answer
from benchcore.llm.base import CallContext, LLMClient
from dsgqa.code_prompt import refine_code_messages
from dsgqa.code_rows import rows_of_result
from dsgqa.questions import Question
from dsgqa.records import CodeOutcome, LLMUsage, RefinedAnswer


def refine_code(question: Question, outcome: CodeOutcome, client: LLMClient) -> RefinedAnswer:
    status = "ok" if outcome.valid else f"failed ({outcome.kind}): {outcome.error}"
    messages = refine_code_messages(question.prompt_text(), outcome.code, status, outcome.result,
                                    question.correctness_comparator.comparison_type)
    # The demo's oracle prints rows in the solution's shape; a real model ignores `extra`.
    rows = rows_of_result(outcome.result) if outcome.valid else []
    context = CallContext(uid=question.uid, stage="refine",
                          extra={"columns": [f"c{i}" for i in range(len(rows[0]) if rows
                                                                    else 0)],
                                 "rows": rows, "valid": outcome.valid})
    reply = client.complete(messages, context)
    return RefinedAnswer(uid=question.uid, answer=extract_answer(reply.text),
                         raw_reply=reply.text, usage=LLMUsage.of(reply))
