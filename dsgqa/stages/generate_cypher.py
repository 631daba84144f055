"""Stage 1: the model writes a Cypher query for a question, given the generated schema."""

from __future__ import annotations

from benchcore.extract import extract_cypher
from benchcore.llm.base import CallContext, LLMClient
from dsgqa.prompts import cypher_messages
from dsgqa.questions import Question
from dsgqa.records import CypherAttempt, LLMUsage


def generate_cypher(question: Question, client: LLMClient, schema: str) -> CypherAttempt:
    reply = client.complete(
        cypher_messages(question.prompt_text(), schema),
        CallContext(uid=question.uid, stage="cypher"),
    )
    return CypherAttempt(
        uid=question.uid,
        model=client.config.label,
        cypher=extract_cypher(reply.text),
        raw_reply=reply.text,
        usage=LLMUsage.of(reply),
    )
