"""The agentic pipeline's stage: the model calls `run_cypher` in a loop, reads rows or errors,
and answers (heracles_agents' `agentic` pipeline).

Each call offers the tools (or, on the text protocol, reads fenced ```cypher blocks); each query
goes through the same path as the feed-forward one (`run_query`: write guard, dialect
translation, time limit, row cap, error kinds). The loop ends at an answer or after
`max_iterations` model calls; either way the item is scored and the reason kept. Every message is
kept as the transcript.
"""

from __future__ import annotations

from collections.abc import Callable

from benchcore.llm.base import CallContext, LLMClient, LLMReply, Message
from dsgqa.agent_tools import TOOLS, malformed_text, query_result_text, read_reply
from dsgqa.prompts import agent_messages
from dsgqa.questions import Question
from dsgqa.records import AgentRun, LLMUsage, QueryOutcome

RunCypher = Callable[[str], QueryOutcome]


def run_agent(
    question: Question, client: LLMClient, schema: str, run_cypher: RunCypher,
    max_iterations: int,
) -> AgentRun:
    native = client.config.tool_protocol == "tools"
    messages: list[Message] = agent_messages(
        question.question, schema, question.correctness_comparator.comparison_type,
        native_tools=native, max_iterations=max_iterations)
    replies: list[LLMReply] = []
    queries: list[QueryOutcome] = []
    answer: str | None = None
    for _ in range(max_iterations):
        reply = client.complete(messages, _context(question.uid, queries),
                                TOOLS if native else ())
        replies.append(reply)
        messages.append(reply.assistant_message())
        step = read_reply(reply, native)
        if step.answer is not None:
            answer = step.answer
            break
        for call_id, problem in step.malformed:
            messages.append(_result(call_id, malformed_text(problem)))
        for number, (call_id, cypher) in enumerate(step.queries, start=len(queries) + 1):
            outcome = run_cypher(cypher)
            queries.append(outcome)
            text = query_result_text(outcome)
            messages.append(_result(call_id, text if call_id else f"Result of query {number}:\n"
                                    f"{text}"))
    return AgentRun(
        uid=question.uid, answer=answer or "", raw_reply=replies[-1].text if replies else "",
        usage=LLMUsage.total(replies), calls=len(replies),
        fresh_calls=sum(not r.cached for r in replies), queries=queries,
        stop_reason="answered" if answer is not None else "max_iterations",
        transcript=messages,
    )


def _context(uid: str, queries: list[QueryOutcome]) -> CallContext:
    """For the oracle, the last query's rows (real providers ignore them; the scripted client
    reads its turn from the conversation itself)."""
    extra = {"columns": queries[-1].columns, "rows": queries[-1].rows} if queries else {}
    return CallContext(uid=uid, stage="agent", extra=extra)


def _result(call_id: str | None, text: str) -> Message:
    """A tool result: a `tool` message answering its call, or, on the text protocol, the next
    user message."""
    if call_id is None:
        return {"role": "user", "content": text}
    return {"role": "tool", "tool_call_id": call_id, "content": text}
