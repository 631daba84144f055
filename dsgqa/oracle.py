"""The demo's oracle model: answers each question with its reference Cypher, then turns the rows
it gets back into SLDP (or, for a PDDL question, into a goal: `dsgqa.rows_to_pddl`).

It shows that the harness scores 100% when the answers are right, with no API key and no server.
It never reads the solution's *values*, only its shape (a number, a set of points, a dict of
lists...), which tells it how to print the rows (see `dsgqa.rows_to_sldp`); if a reference query
returns the wrong rows, the oracle scores wrong too, which is what makes the demo a real
end-to-end check.

In the other pipelines it behaves as a perfect agent would: as an agent (`agent` stage) it runs
the reference query with one `run_cypher` call (a fenced ```cypher block on the text protocol)
and answers from the rows it got back; in context (`in_context` stage) it cannot read a graph from
text, so the stage hands it the reference query's rows; writing code (`code` stage) it replies
with the question's hand-written reference solution (the question set's `code:` field; none:
an empty reply, which the run-code stage scores as `no_code`), and refines from what that code
returned, read as rows (`dsgqa.code_rows`).

Its token counts are estimates of what its prompts and replies would cost a real model
(`dsgqa.in_context.estimate_tokens`), so the demo's pipelines compare by size, not by zeros.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from benchcore.llm.base import CallContext, LLMReply, Message, ModelConfig, ToolCall, ToolSpec
from benchcore.llm.providers import register_provider
from dsgqa.in_context import estimate_tokens
from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.rows_to_sldp import rows_to_sldp


class OracleClient:
    """Knows every question's reference Cypher and the shape of its solution."""

    def __init__(self, config: ModelConfig, questions: Mapping[str, Any]) -> None:
        self.config = config
        self.questions = questions

    def complete(
        self, messages: list[Message], context: CallContext, tools: Sequence[ToolSpec] = ()
    ) -> LLMReply:
        reply = self._reply(context, native_tools=bool(tools))
        said = reply.text + "".join(c.arguments for c in reply.tool_calls)
        return replace(reply, prompt_tokens=estimate_tokens(_prompt_text(messages)),
                       completion_tokens=estimate_tokens(said) if said else 0)

    def _reply(self, context: CallContext, native_tools: bool) -> LLMReply:
        question = self.questions.get(context.uid)
        if question is None:
            return LLMReply(text="")
        if context.stage == "cypher":
            return LLMReply(text=question.cypher or "")
        if context.stage == "code":
            code = getattr(question, "code", None)
            return LLMReply(text=f"```python\n{code.strip()}\n```" if code else "")
        if context.stage in ("refine", "in_context"):
            return LLMReply(text=_answer(question, context.extra))
        if context.stage == "agent":
            return _agent_turn(question, context.extra, native_tools)
        return LLMReply(text="")


def _prompt_text(messages: list[Message]) -> str:
    return "".join(str(m.get("content") or "") + json.dumps(m.get("tool_calls") or "")
                   for m in messages)


def _answer(question: Any, extra: Mapping[str, Any]) -> str:
    """The rows in hand, printed in the solution's shape."""
    if _is_pddl(question):
        return rows_to_pddl(extra.get("rows", []), like=question.solution)
    return rows_to_sldp(extra.get("columns", []), extra.get("rows", []), like=question.solution)


def _agent_turn(question: Any, extra: Mapping[str, Any], native_tools: bool) -> LLMReply:
    """First turn: run the reference query; once rows came back: answer from them."""
    if "rows" not in extra:
        query = question.cypher or ""
        if not native_tools:
            return LLMReply(text=f"```cypher\n{query}\n```")
        call = ToolCall(id="oracle_query", name="run_cypher",
                        arguments=json.dumps({"query": query}))
        return LLMReply(text="", tool_calls=(call,))
    answer = _answer(question, extra)
    if not native_tools:
        return LLMReply(text=f"```\n{answer}\n```")
    call = ToolCall(id="oracle_answer", name="answer", arguments=json.dumps({"answer": answer}))
    return LLMReply(text="", tool_calls=(call,))


def _is_pddl(question: Any) -> bool:
    comparator = getattr(question, "correctness_comparator", None)
    return str(getattr(comparator, "comparison_type", "")).upper() == "PDDL"


def register_oracle_provider() -> None:
    """Let model configs name `provider: oracle`; the QA track's tasks call this on import."""
    register_provider("oracle", OracleClient)
