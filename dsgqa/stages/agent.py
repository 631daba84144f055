"""The agentic pipeline's stage: the model calls `run_cypher` in a loop, reads rows or errors,
and answers (heracles_agents' `agentic` pipeline).

Each call offers the tools (or, on the text protocol, reads fenced ```cypher blocks); each query
goes through the same path as the feed-forward one (`run_query`: write guard, dialect
translation, time limit, row cap, error kinds). The loop ends at an answer, after
`max_iterations` model calls, or when the model makes more than `max_tool_calls` tool calls (a
model calling tools in parallel could otherwise run dozens a turn, a hostile server thousands).
Every call counts, a malformed one too, and a reply is read only up to its first
`max_tool_calls` calls (the rest are neither parsed nor answered, and the transcript keeps one
note for them). In every case the item is scored and the reason kept (`records.STOP_REASONS`).
Every message is kept as the transcript.
"""

from __future__ import annotations

from collections.abc import Callable

from benchcore.llm.base import CallContext, LLMClient, LLMReply, Message
from dsgqa.agent_tools import (
    TOOLS,
    dropped_text,
    limit_text,
    malformed_text,
    query_result_text,
    read_reply,
)
from dsgqa.prompts import agent_messages
from dsgqa.questions import Question
from dsgqa.records import (
    ANSWERED_AFTER_QUERY,
    ANSWERED_WITHOUT_QUERY,
    MAX_ITERATIONS,
    TOOL_CALL_LIMIT,
    AgentRun,
    LLMUsage,
    QueryOutcome,
)

RunCypher = Callable[[str], QueryOutcome]


def run_agent(
    question: Question, client: LLMClient, schema: str, run_cypher: RunCypher,
    max_iterations: int, max_tool_calls: int = 10,
) -> AgentRun:
    native = client.config.tool_protocol == "tools"
    messages: list[Message] = agent_messages(
        question.prompt_text(), schema, question.correctness_comparator.comparison_type,
        native_tools=native, max_iterations=max_iterations)
    replies: list[LLMReply] = []
    queries: list[QueryOutcome] = []
    answer: str | None = None
    stop_reason, cypher_as_text = MAX_ITERATIONS, False
    used = 0   # tool calls answered so far: queries run, malformed calls, refused calls
    for _ in range(max_iterations):
        reply = client.complete(messages, _context(question.uid, queries),
                                TOOLS if native else ())
        replies.append(reply)
        step = read_reply(reply, native, limit=max_tool_calls)
        messages.append(_assistant_message(reply, max_tool_calls))
        if step.answer is not None:
            answer, cypher_as_text = step.answer, step.cypher_as_text
            stop_reason = ANSWERED_AFTER_QUERY if queries else ANSWERED_WITHOUT_QUERY
            break
        for call_id, problem in step.malformed:
            refused = used >= max_tool_calls
            used += 1
            messages.append(_result(call_id, limit_text(max_tool_calls) if refused
                                    else malformed_text(problem)))
            if refused:
                stop_reason = TOOL_CALL_LIMIT
        for number, (call_id, cypher) in enumerate(step.queries, start=len(queries) + 1):
            if used >= max_tool_calls:   # not run; the loop ends after this turn
                stop_reason, text = TOOL_CALL_LIMIT, limit_text(max_tool_calls)
            else:
                outcome = run_cypher(cypher)
                queries.append(outcome)
                text = query_result_text(outcome)
            used += 1
            messages.append(_result(call_id, text if call_id else f"Result of query {number}:\n"
                                    f"{text}"))
        if step.dropped:
            stop_reason = TOOL_CALL_LIMIT
            messages.append({"role": "user", "content": dropped_text(step.dropped,
                                                                     max_tool_calls)})
        if stop_reason == TOOL_CALL_LIMIT:
            break
    return AgentRun(
        uid=question.uid, answer=answer or "", raw_reply=replies[-1].text if replies else "",
        usage=LLMUsage.total(replies), calls=len(replies),
        fresh_calls=sum(not r.cached for r in replies), queries=queries,
        stop_reason=stop_reason, cypher_as_text=cypher_as_text, transcript=messages,
    )


def _assistant_message(reply: LLMReply, max_tool_calls: int) -> Message:
    """The reply as the conversation keeps it, with no more tool calls than were read."""
    message = reply.assistant_message()
    if len(reply.tool_calls) > max_tool_calls:
        message["tool_calls"] = message["tool_calls"][:max_tool_calls]
    return message


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
