"""The codegen pipeline's first stage: the model writes `solve_task(scene_graph)` for a
question, told the spark_dsg API and the loaded graph's layers (`dsgqa.code_prompt`)."""

from __future__ import annotations

from benchcore.llm.base import CallContext, LLMClient
from dsgqa.code_extract import extract_python
from dsgqa.code_prompt import code_messages
from dsgqa.questions import Question
from dsgqa.records import CodeAttempt, LLMUsage


def generate_code(question: Question, client: LLMClient, graph_text: str) -> CodeAttempt:
    reply = client.complete(code_messages(question.prompt_text(), graph_text),
                            CallContext(uid=question.uid, stage="code"))
    return CodeAttempt(uid=question.uid, model=client.config.label,
                       code=extract_python(reply.text), raw_reply=reply.text,
                       usage=LLMUsage.of(reply))
