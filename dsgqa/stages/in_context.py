"""The in-context pipeline's stage: the scene graph itself, serialized to text, is in the prompt
and the model answers directly (heracles_agents' `feedforward_in_context` / `in_context_full`).
No database is involved.

The prompt's size is estimated before the call; a prompt larger than the model's configured
context window (`context_tokens`) fails the item with that reason instead of paying for a
request the server would reject or silently truncate.
"""

from __future__ import annotations

from benchcore.extract import extract_answer
from benchcore.llm.base import CallContext, LLMClient, LLMError
from dsgqa.in_context import estimate_tokens
from dsgqa.prompts import in_context_messages
from dsgqa.questions import Question
from dsgqa.records import LLMUsage, RefinedAnswer


class ContextTooLarge(LLMError):
    """The prompt would not fit in the model's context window."""


def answer_in_context(
    question: Question, client: LLMClient, graph_text: str, variant: str,
    oracle_rows: dict[str, object] | None = None,
) -> RefinedAnswer:
    messages = in_context_messages(question.prompt_text(), graph_text, variant,
                                   question.correctness_comparator.comparison_type)
    tokens = estimate_tokens("".join(str(m["content"]) for m in messages))
    limit = client.config.context_tokens
    if limit is not None and tokens > limit:
        raise ContextTooLarge(
            f"in-context prompt needs ~{tokens:,} tokens ({variant} scene graph), more than "
            f"model {client.config.name}'s context_tokens {limit:,}")
    reply = client.complete(messages, CallContext(uid=question.uid, stage="in_context",
                                                  extra=dict(oracle_rows or {})))
    return RefinedAnswer(uid=question.uid, answer=extract_answer(reply.text),
                         raw_reply=reply.text, usage=LLMUsage.of(reply), context_tokens=tokens)
