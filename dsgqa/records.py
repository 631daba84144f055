"""What each QA stage hands to the next. Plain pydantic records: they pickle for Prefect's result
store, dump to JSON for logs, and are the unit a cached stage returns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict

from benchcore.llm.base import LLMReply


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class LLMUsage(_Record):
    """A stage's calls: tokens, time, whether all came from the response cache, and what the
    server said answered (`served_model`, `system_fingerprint`; several calls' distinct values
    joined by `;`)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    served_model: str = ""
    system_fingerprint: str = ""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @classmethod
    def of(cls, reply: LLMReply) -> LLMUsage:
        return cls(prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
                   seconds=reply.seconds, cached=reply.cached, served_model=reply.served_model,
                   system_fingerprint=reply.system_fingerprint)

    @classmethod
    def total(cls, replies: list[LLMReply]) -> LLMUsage:
        """Several calls' usage (an agent's turns); cached only when every call was."""
        return cls(prompt_tokens=sum(r.prompt_tokens for r in replies),
                   completion_tokens=sum(r.completion_tokens for r in replies),
                   seconds=sum(r.seconds for r in replies),
                   cached=bool(replies) and all(r.cached for r in replies),
                   served_model=distinct(r.served_model for r in replies),
                   system_fingerprint=distinct(r.system_fingerprint for r in replies))


def distinct(values: Iterable[str]) -> str:
    """The non-empty values, each once in first-seen order, joined by `;`."""
    return ";".join(dict.fromkeys(v for part in values for v in part.split(";") if v))


class CypherAttempt(_Record):
    """The generate-cypher stage's output: the query the model wrote, as extracted."""

    uid: str
    model: str
    cypher: str
    raw_reply: str
    usage: LLMUsage


class QueryOutcome(_Record):
    """The run-query stage's output. Errors are data: an invalid query is a scored failure.

    `cypher` is the model's query, `cypher_executed` the one the engine ran (translated to its
    dialect; empty when nothing ran), `rewrites` the translation passes applied, and
    `query_error_kind` one of `graphstore.error_kind.ERROR_KINDS` ('' when valid)."""

    uid: str
    backend: str
    cypher: str
    valid: bool
    error: str | None = None
    cypher_executed: str = ""
    rewrites: list[str] = []
    query_error_kind: str = ""
    # Execution accuracy: do the rows equal the reference query's? None without a reference
    # (or when the reference itself failed). Computed after the cache, never cached.
    execution_match: bool | None = None
    columns: list[str] = []
    rows: list[list[Any]] = []
    truncated: bool = False
    seconds: float = 0.0

    @property
    def n_rows(self) -> int:
        return len(self.rows)


class RefinedAnswer(_Record):
    """The refine stage's output: the model's final answer text (SLDP or a PDDL goal).

    The in-context stage gives the same record plus the estimated size of its prompt
    (`context_tokens`, the scene graph included)."""

    uid: str
    answer: str
    raw_reply: str
    usage: LLMUsage
    context_tokens: int = 0


class CodeAttempt(_Record):
    """The generate-code stage's output: the Python the model wrote (its fenced ```python
    block; '' when the reply had none, which run-code scores as `no_code`)."""

    uid: str
    model: str
    code: str
    raw_reply: str
    usage: LLMUsage


class CodeOutcome(_Record):
    """The run-code stage's output. Errors are data, as a query's are: `kind` is one of
    `code_sandbox.FAILURE_KINDS` ('' when valid), `error` one line (an exception's last
    traceback line), `result` the JSON text of what solve_task returned, `output` the start of
    what the code printed. `execution_match`: do the result's rows (`code_rows`) equal the
    reference query's? None without a reference; computed after the cache, never cached."""

    uid: str
    code: str
    valid: bool
    kind: str = ""
    error: str | None = None
    result: str = ""
    output: str = ""
    execution_match: bool | None = None
    seconds: float = 0.0


# How an agent's loop ended. An answer given without running any query is told apart from one
# given after a query: a server that does not parse tool calls turns every query the model
# writes into a final answer, and only this split makes that visible.
ANSWERED_AFTER_QUERY = "answered_after_query"
ANSWERED_WITHOUT_QUERY = "answered_without_query"
MAX_ITERATIONS = "max_iterations"          # `max_iterations` model calls and no answer
TOOL_CALL_LIMIT = "tool_call_limit"        # more than `max_tool_calls` tool calls
STOP_REASONS = (ANSWERED_AFTER_QUERY, ANSWERED_WITHOUT_QUERY, MAX_ITERATIONS, TOOL_CALL_LIMIT)


class AgentRun(_Record):
    """The agent stage's output: the answer, every query the agent ran, and the conversation.

    `calls` counts model calls (fresh ones in `fresh_calls`), `stop_reason` says how the loop
    ended (one of `STOP_REASONS`), `cypher_as_text` that the final reply, on the tools
    protocol, held a fenced ```cypher block instead of a tool call, and `transcript` is every
    message, tool call and tool result, as kept in `results/<run>/transcripts/`."""

    uid: str
    answer: str
    raw_reply: str
    usage: LLMUsage
    calls: int
    fresh_calls: int
    queries: list[QueryOutcome] = []
    stop_reason: str
    cypher_as_text: bool = False
    transcript: list[dict[str, Any]] = []

    @property
    def last_query(self) -> QueryOutcome | None:
        return self.queries[-1] if self.queries else None


class Verdict(_Record):
    """The compare stage's output: correctness plus partial credit and the first mismatch.

    `correct` is the strict score (the answer as given must parse and be right).
    `answer_extracted` is what the lenient reading took from an answer that was not right as
    given ('' when it was right, or when the reading found nothing else), and `correct_lenient`
    that reading's verdict (True when `correct`); see `dsgqa.lenient_answer`."""

    uid: str
    valid_answer: bool
    correct: bool
    answer_extracted: str = ""
    correct_lenient: bool = False
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    mismatch: str = ""
