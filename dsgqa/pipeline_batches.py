"""The agentic and in-context pipelines' stages over batches of questions, with per-item cache
keys over their real inputs (the feed-forward stages are in `stage_batches`).

Keys:
- agent: question, model fingerprint, schema text, prompt templates, max_iterations,
  max_tool_calls, graph
  fingerprint, backend and query limits, stage code (the loop, its tools, the query path)
- in-context: question, model fingerprint, the serialized graph's text, variant, prompt
  templates, stage code; for the demo's oracle, also the reference rows it answers from (they
  come from the engine, so another engine's rows are another item)

An agent's turns are also response-cached one by one (keyed by the conversation so far, see
`benchcore.llm.cache`), so a run killed mid-conversation resumes at its first missing turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace

from benchcore.batch import Outcome, run_items
from benchcore.item_cache import ItemCache, item_key, source_version
from benchcore.llm.base import LLMClient
from benchcore.names import Stage
from dsgqa import agent_tools, in_context
from dsgqa.prompts import AGENT_TEMPLATES, IN_CONTEXT_TEMPLATES, prompt_hash
from dsgqa.questions import Question
from dsgqa.records import AgentRun, CypherAttempt, LLMUsage, QueryOutcome, RefinedAnswer
from dsgqa.stage_batches import (
    RECORDS_CODE,
    QueryRunner,
    fresh_calls,
    keep_query,
    reference_attempt,
    short_hash,
    with_execution_matches,
)
from dsgqa.stages import agent as agent_module
from dsgqa.stages import in_context as in_context_module


def agent_batch(
    questions: Sequence[Question], client: LLMClient, schema: str, run: QueryRunner,
    max_iterations: int, cache: ItemCache | None, refresh: bool = False,
    references: Mapping[str, str] | None = None, max_tool_calls: int = 10,
) -> list[Outcome[AgentRun]]:
    """Each question's agent run. `run` executes a query as the run-query stage does (its
    `version`, what shapes the rows, is part of the agent's key). With `references`, the
    agent's last query is compared with the reference's rows."""
    version = (source_version(agent_module, agent_tools), RECORDS_CODE,
               prompt_hash(*AGENT_TEMPLATES), short_hash(schema), client.config.fingerprint(),
               client.config.tool_protocol, max_iterations, max_tool_calls, *run.version)

    def compute(question: Question) -> AgentRun:
        def run_cypher(cypher: str) -> QueryOutcome:
            attempt = CypherAttempt(uid=question.uid, model=client.config.label, cypher=cypher,
                                    raw_reply="", usage=LLMUsage())
            outcome = run([Outcome(uid=question.uid, value=attempt)])[0]
            if outcome.value is None:  # the query path itself failed (not the query)
                return QueryOutcome(uid=question.uid, backend="", cypher=cypher, valid=False,
                                    error=outcome.error, query_error_kind="runtime")
            return outcome.value

        return agent_module.run_agent(question, client, schema, run_cypher, max_iterations,
                                      max_tool_calls)

    done = run_items(
        Stage.AGENT, questions, uid_of=lambda q: q.uid,
        key_of=lambda q: item_key(Stage.AGENT, q.fingerprint(), *version),
        compute=compute, cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=lambda r: r.fresh_calls,
        keep=lambda r: all(keep_query(o) for o in r.queries),
    )
    return _with_last_query_matched(done, run, references or {})


def _with_last_query_matched(
    done: list[Outcome[AgentRun]], run: QueryRunner, references: Mapping[str, str],
) -> list[Outcome[AgentRun]]:
    """Execution accuracy for agents: the last query the agent ran against the reference."""
    last = [Outcome(uid=o.uid, value=o.value.last_query) for o in done
            if o.ok and o.value is not None and o.value.last_query is not None]
    matched = {o.uid: o for o in with_execution_matches(last, run, references)}
    result = []
    for outcome in done:
        query = matched.get(outcome.uid)
        if query is not None and query.value is not None and outcome.value is not None:
            queries = [*outcome.value.queries[:-1], query.value]
            outcome = replace(outcome, value=outcome.value.model_copy(update={"queries": queries}),
                              settled=outcome.settled and query.settled)
        result.append(outcome)
    return result


def in_context_batch(
    questions: Sequence[Question], client: LLMClient, graph_text: str, variant: str,
    cache: ItemCache | None, refresh: bool = False,
    oracle_rows: Mapping[str, dict[str, object]] | None = None,
) -> list[Outcome[RefinedAnswer]]:
    """Each question answered from the serialized graph. `oracle_rows` (uid -> the reference
    query's columns and rows) is only for the demo's oracle client, which cannot read a graph
    from text; never part of the prompt, but part of the item's key when given (the oracle's
    answer is made from them: an answer made from rows in another order is not served)."""
    version = (source_version(in_context_module, in_context), RECORDS_CODE,
               prompt_hash(*IN_CONTEXT_TEMPLATES), short_hash(graph_text), variant,
               client.config.fingerprint(), client.config.context_tokens)
    hints = oracle_rows or {}

    def key_of(question: Question) -> str:
        hint = hints.get(question.uid)
        seen = () if hint is None else ({k: v for k, v in hint.items() if k != "settled"},)
        return item_key(Stage.IN_CONTEXT, question.fingerprint(), *version, *seen)

    return run_items(
        Stage.IN_CONTEXT, questions, uid_of=lambda q: q.uid,
        key_of=lambda q: item_key(Stage.IN_CONTEXT, q.fingerprint(), *version,
                                  *_hint_part(hints.get(q.uid))),
        compute=lambda q: in_context_module.answer_in_context(
            q, client, graph_text, variant, hints.get(q.uid)),
        cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=fresh_calls, one_core=True,
        keep=lambda answer: bool(hints.get(answer.uid, {}).get("settled", True)),
    )


def _hint_part(hint: Mapping[str, object] | None) -> tuple[str, ...]:
    """The oracle's rows of one question as a key part (nothing for a real model)."""
    if hint is None:
        return ()
    return (short_hash(json.dumps([hint.get("columns"), hint.get("rows"), hint.get("valid")],
                                  sort_keys=True, default=str)),)


def reference_rows(
    questions: Sequence[Question], run: QueryRunner,
) -> dict[str, dict[str, object]]:
    """uid -> the reference query's columns and rows, for the oracle's in-context answers,
    and whether they are settled (a reference that timed out under load is not: the answer
    made from it must not be kept either)."""
    attempts = [Outcome(uid=q.uid, value=reference_attempt(q.uid, q.cypher))
                for q in questions if q.cypher]
    return {o.uid: {"columns": o.value.columns, "rows": o.value.rows, "valid": o.value.valid,
                    "settled": o.settled}
            for o in run(attempts) if o.value is not None}


__all__ = ["agent_batch", "in_context_batch", "reference_rows"]
