"""The codegen pipeline's stages over batches of questions, with per-item cache keys over
their real inputs (as `stage_batches` does for the feed-forward ones).

Keys:
- generate-code: question, its reference solution (the oracle's reply), model fingerprint,
  the graph description, prompt templates, stage code (extraction and prompt included)
- run-code: the code text, graph fingerprint, sandbox limits, stage code (sandbox and runner
  included); a timeout or an unavailable sandbox is not kept (a retry may change it)
- refine: question, the code's outcome (code, kind, error, result), model, prompt templates,
  stage code

Execution accuracy: where the question has a reference query, the code's result read as rows
(`code_rows`) is compared with the reference rows by `stage_batches.matches_reference`, the
feed-forward rules, so the pipelines compare in one table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace

from benchcore.batch import Outcome, run_items
from benchcore.item_cache import ItemCache, item_key, source_version
from benchcore.llm.base import LLMClient
from benchcore.names import Stage
from dsgqa import code_extract, code_prompt, code_rows, code_runner, code_sandbox
from dsgqa.code_prompt import CODE_TEMPLATES, REFINE_CODE_TEMPLATES
from dsgqa.code_sandbox import SandboxLimits
from dsgqa.prompts import prompt_hash
from dsgqa.questions import Question
from dsgqa.records import CodeAttempt, CodeOutcome, RefinedAnswer
from dsgqa.stage_batches import (
    RECORDS_CODE,
    QueryRunner,
    _merge,
    fresh_calls,
    matches_reference,
    reference_attempt,
    short_hash,
)
from dsgqa.stages import generate_code as generate_module
from dsgqa.stages import refine_code as refine_module
from dsgqa.stages import run_code as run_module

# Sandboxes at once: each is a process doing CPU work (loading the graph, the model's code).
CODE_WORKERS = 2
# Outcomes a retry may change: used, never cached.
TRANSIENT_CODE_KINDS = ("timeout", "sandbox_unavailable")


def generate_code_batch(
    questions: Sequence[Question], client: LLMClient, graph_text: str, cache: ItemCache | None,
    refresh: bool = False,
) -> list[Outcome[CodeAttempt]]:
    version = (source_version(generate_module, code_extract, code_prompt), RECORDS_CODE,
               prompt_hash(*CODE_TEMPLATES), short_hash(graph_text), client.config.fingerprint())
    return run_items(
        Stage.GENERATE_CODE, questions, uid_of=lambda q: q.uid,
        key_of=lambda q: item_key(Stage.GENERATE_CODE, q.fingerprint(), q.code, *version),
        compute=lambda q: generate_module.generate_code(q, client, graph_text),
        cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=fresh_calls, one_core=True,
    )


def run_code_batch(
    attempts: Sequence[Outcome[CodeAttempt]], graph_path: str, graph_fingerprint: str,
    limits: SandboxLimits, cache: ItemCache | None, refresh: bool = False,
    references: Mapping[str, str] | None = None, query_runner: QueryRunner | None = None,
) -> list[Outcome[CodeOutcome]]:
    """Each attempt's run in the sandbox; with `references` (uid -> reference Cypher) and a
    `query_runner`, each outcome says whether its result matches the reference rows."""
    version = (source_version(run_module, code_sandbox, code_runner, code_rows), RECORDS_CODE,
               graph_fingerprint, json.dumps(asdict(limits), sort_keys=True))
    ready = [a for a in attempts if a.ok]
    done = run_items(
        Stage.RUN_CODE, ready, uid_of=lambda a: a.uid,
        key_of=lambda a: item_key(Stage.RUN_CODE, a.value.code, *version),
        compute=lambda a: run_module.run_code_stage(a.value, graph_path, limits),
        cache=cache, workers=CODE_WORKERS, refresh=refresh,
        keep=lambda o: o.kind not in TRANSIENT_CODE_KINDS,
    )
    if references and query_runner is not None:
        done = with_code_matches(done, query_runner, references)
    return _merge(attempts, done, Stage.RUN_CODE)


def with_code_matches(
    done: list[Outcome[CodeOutcome]], run: QueryRunner, references: Mapping[str, str],
) -> list[Outcome[CodeOutcome]]:
    """`execution_match` set where the item has a reference query whose rows are
    trustworthy; a reference that failed or timed out leaves the item unsettled."""
    wanted = {o.uid: references[o.uid] for o in done if references.get(o.uid)}
    if not wanted:
        return done
    ran = {o.uid: o for o in run([Outcome(uid=uid, value=reference_attempt(uid, cypher))
                                  for uid, cypher in wanted.items()])}
    matched = []
    for outcome in done:
        reference = ran.get(outcome.uid)
        if reference is not None and not (reference.ok and reference.settled):
            outcome = replace(outcome, settled=False)
        rows = reference.value if reference is not None and reference.ok else None
        if outcome.ok and outcome.value is not None and rows is not None and rows.valid \
                and not rows.truncated:
            value = outcome.value
            read = code_rows.rows_of_result(value.result, code_rows.point_columns(rows.rows)) \
                if value.valid else []
            match = value.valid and matches_reference(read, rows.rows, wanted[outcome.uid])
            outcome = replace(outcome,
                              value=value.model_copy(update={"execution_match": match}))
        matched.append(outcome)
    return matched


def refine_code_batch(
    questions: Sequence[Question], outcomes: Sequence[Outcome[CodeOutcome]],
    client: LLMClient, cache: ItemCache | None, refresh: bool = False,
) -> list[Outcome[RefinedAnswer]]:
    version = (source_version(refine_module, code_rows), RECORDS_CODE,
               prompt_hash(*REFINE_CODE_TEMPLATES), client.config.fingerprint())
    pairs = [(q, o) for q, o in zip(questions, outcomes, strict=True) if o.ok]

    def key(pair: tuple[Question, Outcome[CodeOutcome]]) -> str:
        q, o = pair
        seen = o.value.model_dump(include={"code", "valid", "kind", "error", "result"})
        return item_key(Stage.REFINE, "code", q.fingerprint(), seen, *version)

    done = run_items(
        Stage.REFINE, pairs, uid_of=lambda p: p[0].uid, key_of=key,
        compute=lambda p: refine_module.refine_code(p[0], p[1].value, client),
        cache=cache, workers=client.config.max_connections, refresh=refresh,
        fresh_calls_of=fresh_calls, one_core=True,
    )
    return _merge(outcomes, done, Stage.REFINE)
