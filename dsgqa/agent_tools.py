"""The agent's tools: `run_cypher` (a read-only query) and `answer` (the final answer), their
argument checking, and how a query's outcome is shown back to the model.

A tool call is model output, so it is untrusted: unknown tool names, arguments that are not JSON
or lack the field, are answered with an error the model can read and correct, never raised.
The text protocol (for servers without tool calling) spells a `run_cypher` call as a fenced
```cypher block; its final answer is any other reply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from benchcore.extract import extract_answer, fenced_blocks
from benchcore.llm.base import LLMReply, ToolCall, ToolSpec
from dsgqa.records import QueryOutcome
from dsgqa.rows_json import capped_rows_json

RUN_CYPHER = ToolSpec(
    name="run_cypher",
    description="Run one read-only Cypher query (Neo4j dialect) on the scene graph database and "
    "get its rows as JSON, or the database's error.",
    parameters={"type": "object", "properties": {
        "query": {"type": "string", "description": "The Cypher query."}},
        "required": ["query"], "additionalProperties": False},
)
ANSWER = ToolSpec(
    name="answer",
    description="Give the final answer to the question, in the answer format the instructions "
    "name, and end the conversation.",
    parameters={"type": "object", "properties": {
        "answer": {"type": "string", "description": "The final answer alone."}},
        "required": ["answer"], "additionalProperties": False},
)
TOOLS: tuple[ToolSpec, ...] = (RUN_CYPHER, ANSWER)


@dataclass(frozen=True)
class Step:
    """What one model reply asks for: queries to run (each with its call id, None on the text
    protocol), a final answer, or malformed calls to report back (call id, complaint)."""

    queries: list[tuple[str | None, str]]
    answer: str | None
    malformed: list[tuple[str, str]]
    # On the tools protocol: the reply called no tool but held a fenced ```cypher block. It is
    # still the final answer (that is the protocol's meaning), but a server that does not parse
    # the model's tool calls produces exactly this, so it is counted and reported.
    cypher_as_text: bool = False
    # Calls past the first `limit` of the reply: neither read nor answered (`read_reply`).
    dropped: int = 0


def read_reply(reply: LLMReply, native_tools: bool, limit: int | None = None) -> Step:
    """The reply as tool calls (native protocol) or fenced blocks (text protocol). A reply that
    calls nothing is the final answer. Only the first `limit` calls (or blocks) are read: one
    reply of 2,000 calls must not cost 2,000 parses, results and transcript entries; how many
    were left is `dropped`."""
    if not native_tools:
        blocks = fenced_blocks(reply.text, "cypher")
        if blocks:
            kept = blocks if limit is None else blocks[:limit]
            return Step([(None, q) for q in kept], None, [], dropped=len(blocks) - len(kept))
        return Step([], extract_answer(reply.text), [])
    if not reply.tool_calls:
        return Step([], extract_answer(reply.text), [],
                    cypher_as_text=bool(fenced_blocks(reply.text, "cypher")))
    queries: list[tuple[str | None, str]] = []
    malformed: list[tuple[str, str]] = []
    answer = None
    calls = reply.tool_calls if limit is None else reply.tool_calls[:limit]
    for call in calls:
        value, problem = _argument(call)
        if problem:
            malformed.append((call.id, problem))
        elif call.name == ANSWER.name:
            answer = extract_answer(value) if answer is None else answer
        else:
            queries.append((call.id, value))
    return Step(queries, answer, malformed, dropped=len(reply.tool_calls) - len(calls))


def _argument(call: ToolCall) -> tuple[str, str]:
    """The call's one string argument, or what is wrong with the call."""
    field = {RUN_CYPHER.name: "query", ANSWER.name: "answer"}.get(call.name)
    if field is None:
        known = ", ".join(t.name for t in TOOLS)
        return "", f"unknown tool {call.name!r}: the tools are {known}"
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError as error:
        return "", f"arguments of {call.name} are not JSON: {error}"
    value = arguments.get(field) if isinstance(arguments, dict) else None
    if not isinstance(value, str):
        return "", f"{call.name} needs a string argument {field!r}"
    return value, ""


def query_result_text(outcome: QueryOutcome) -> str:
    """A query's outcome as the model reads it: rows as capped JSON, or the error and its kind."""
    if not outcome.valid:
        return json.dumps({"status": "error", "error_kind": outcome.query_error_kind,
                           "error": outcome.error or ""}, ensure_ascii=False)
    # Rows shown to the model: the same cap as the results' rows JSON.
    rows, cut = capped_rows_json(outcome.columns, outcome.rows)
    shown = len(json.loads(rows)["rows"])
    note = {"status": "ok", "rows_total": outcome.n_rows, "rows_shown": shown,
            "row_cap_reached": outcome.truncated}
    return json.dumps(note) + "\n" + rows + ("\n(rows cut)" if cut else "")


def malformed_text(problem: str) -> str:
    return json.dumps({"status": "error", "error_kind": "malformed_call", "error": problem})


def limit_text(limit: int) -> str:
    """The result of a tool call past the question's budget (not run)."""
    return json.dumps({"status": "error", "error_kind": "tool_call_limit",
                       "error": f"not run: the limit of {limit} tool calls per question is "
                       "reached"})


def dropped_text(dropped: int, limit: int) -> str:
    """What the transcript says in place of a reply's calls past the first `limit`."""
    return json.dumps({"status": "error", "error_kind": "tool_call_limit",
                       "error": f"{dropped} more tool call(s) in this reply were not read: at "
                       f"most {limit} per reply and per question"})
