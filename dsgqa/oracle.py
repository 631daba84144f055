"""The demo's oracle model: answers each question with its reference Cypher, then turns the rows
it gets back into SLDP (or, for a PDDL question, into a goal: `dsgqa.rows_to_pddl`).

It shows that the harness scores 100% when the answers are right, with no API key and no server.
It never reads the solution's *values*, only its shape (a number, a set of points, a dict of
lists...), which tells it how to print the rows (see `dsgqa.rows_to_sldp`); if a reference query
returns the wrong rows, the oracle scores wrong too, which is what makes the demo a real
end-to-end check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchcore.llm.base import CallContext, LLMReply, Message, ModelConfig
from benchcore.llm.providers import register_provider
from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.rows_to_sldp import rows_to_sldp


class OracleClient:
    """Knows every question's reference Cypher and the shape of its solution."""

    def __init__(self, config: ModelConfig, questions: Mapping[str, Any]) -> None:
        self.config = config
        self.questions = questions

    def complete(self, messages: list[Message], context: CallContext) -> LLMReply:
        question = self.questions.get(context.uid)
        if question is None:
            return LLMReply(text="")
        if context.stage == "cypher":
            text = question.cypher or ""
        elif context.stage == "refine" and _is_pddl(question):
            text = rows_to_pddl(context.extra.get("rows", []), like=question.solution)
        elif context.stage == "refine":
            text = rows_to_sldp(
                context.extra.get("columns", []),
                context.extra.get("rows", []),
                like=question.solution,
            )
        else:
            text = ""
        return LLMReply(text=text, prompt_tokens=0, completion_tokens=0)


def _is_pddl(question: Any) -> bool:
    comparator = getattr(question, "correctness_comparator", None)
    return str(getattr(comparator, "comparison_type", "")).upper() == "PDDL"


def register_oracle_provider() -> None:
    """Let model configs name `provider: oracle`; the QA track's tasks call this on import."""
    register_provider("oracle", OracleClient)
