"""The trivial baselines as models: `provider: baseline`, named `zero`, `empty`, `ids` or
`common-class` (`dsgqa.baseline_answers` says what each answers).

They run through every pipeline as a model does, and are scored by the same scorer, so their
numbers are what the set gives away to guessing. In the feed-forward pipeline a baseline writes
no query (`common-class`: the one query that finds the most common class) and answers in the
refine step; as an agent it answers at once (`common-class`: after that one query); in context it
answers from the question (`common-class`: counting the classes in the scene graph text); writing
code it writes none (`common-class`: a fixed program that counts the classes) and answers in the
refine step.

Their token counts are estimates, as the oracle's are (`dsgqa.in_context.estimate_tokens`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from benchcore.llm.base import CallContext, LLMReply, Message, ModelConfig, ToolCall, ToolSpec
from benchcore.llm.providers import register_provider
from dsgqa.baseline_answers import (
    BASELINES,
    COMMON_CLASS,
    COMMON_CLASS_CODE,
    COMMON_CLASS_CYPHER,
    baseline_answer,
    common_class_in_text,
    common_class_of,
)
from dsgqa.in_context import estimate_tokens


class BaselineClient:
    """Answers every question the one trivial way its name says."""

    def __init__(self, config: ModelConfig, questions: Mapping[str, Any]) -> None:
        if config.name not in BASELINES:
            raise ValueError(f"unknown baseline {config.name!r}: provider baseline takes the "
                             f"model names {', '.join(BASELINES)}")
        self.config = config
        self.questions = questions
        self.reads_graph = config.name == COMMON_CLASS

    def complete(
        self, messages: list[Message], context: CallContext, tools: Sequence[ToolSpec] = ()
    ) -> LLMReply:
        reply = self._reply(messages, context, native_tools=bool(tools))
        said = reply.text + "".join(c.arguments for c in reply.tool_calls)
        prompt = "".join(str(m.get("content") or "") for m in messages)
        return replace(reply, prompt_tokens=estimate_tokens(prompt),
                       completion_tokens=estimate_tokens(said) if said else 0)

    def _reply(self, messages: list[Message], context: CallContext,
               native_tools: bool) -> LLMReply:
        question = self.questions.get(context.uid)
        if question is None:
            return LLMReply(text="")
        if context.stage == "cypher":
            return LLMReply(text=COMMON_CLASS_CYPHER if self.reads_graph else "")
        if context.stage == "code":
            return LLMReply(text=f"```python\n{COMMON_CLASS_CODE}```" if self.reads_graph
                            else "")
        if context.stage == "refine":
            return LLMReply(text=self._answer(question, common_class_of(
                context.extra.get("rows", []))))
        if context.stage == "in_context":
            text = "".join(str(m.get("content") or "") for m in messages)
            return LLMReply(text=self._answer(question, common_class_in_text(text)))
        if context.stage == "agent":
            return self._agent_turn(question, context.extra, native_tools)
        return LLMReply(text="")

    def _answer(self, question: Any, common_class: str | None) -> str:
        pddl = question.correctness_comparator.comparison_type == "PDDL"
        return baseline_answer(self.config.name, question.question, question.solution, pddl,
                               common_class)

    def _agent_turn(self, question: Any, extra: Mapping[str, Any],
                    native_tools: bool) -> LLMReply:
        """`common-class` runs its one query first; every baseline then answers."""
        if self.reads_graph and "rows" not in extra:
            if not native_tools:
                return LLMReply(text=f"```cypher\n{COMMON_CLASS_CYPHER}\n```")
            call = ToolCall(id="baseline_query", name="run_cypher",
                            arguments=json.dumps({"query": COMMON_CLASS_CYPHER}))
            return LLMReply(text="", tool_calls=(call,))
        answer = self._answer(question, common_class_of(extra.get("rows", [])))
        if not native_tools:
            return LLMReply(text=f"```\n{answer}\n```")
        call = ToolCall(id="baseline_answer", name="answer",
                        arguments=json.dumps({"answer": answer}))
        return LLMReply(text="", tool_calls=(call,))


def register_baseline_provider() -> None:
    """Let model configs name `provider: baseline`; the QA track's tasks call this on import."""
    register_provider("baseline", BaselineClient)
