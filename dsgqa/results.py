"""The QA track's results table and its summaries (the metrics, in inspect_ai's terms).

One row per (model, pipeline, question), with the columns the results contract
(`benchcore.run_folder`) names. Summaries are plain groupings of those rows: overall and by tag,
per model and pipeline; the report reuses them. Agent conversations go to
`transcripts/<model>__<pipeline>.jsonl`, one line per question. Writers produce CSV (for
machines) and Markdown (for people) under `results/<run-id>/`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from benchcore import atomic_files
from benchcore.batch import Outcome
from benchcore.failure_causes import top_causes
from benchcore.file_names import file_name
from benchcore.llm.base import ModelConfig
from benchcore.markdown_text import markdown_text
from benchcore.redact import secret_values
from benchcore.run_folder import (
    QA_COLUMNS,
    QA_MARKDOWN,
    QA_RESULTS,
    QA_SUMMARY,
    QA_SUMMARY_BY_TAG,
    TRANSCRIPTS_DIR,
    optional_bool,
)
from benchcore.spreadsheet_cells import spreadsheet_frame
from benchcore.tag_lists import tag_list, tags_as_json
from benchcore.text_safety import safe_record, safe_value
from benchcore.track_summary import TrackSummary
from dsgqa.code_rows import rows_of_result
from dsgqa.graphstore.error_kind import ERROR_KINDS
from dsgqa.questions import Question
from dsgqa.records import (
    AgentRun,
    CodeAttempt,
    CodeOutcome,
    CypherAttempt,
    LLMUsage,
    QueryOutcome,
    RefinedAnswer,
    Verdict,
    distinct,
)
from dsgqa.rows_json import capped_rows_json
from dsgqa.transcript_text import transcript_text


@dataclass(frozen=True)
class ItemResult:
    """Everything one question produced for one model; stages after a failure are None."""

    question: Question
    model: str
    backend: str
    pipeline: str = "feedforward"
    attempt: CypherAttempt | None = None
    outcome: QueryOutcome | None = None
    answer: RefinedAnswer | None = None
    verdict: Verdict | None = None
    error: str | None = None
    fresh_llm_calls: int = 0
    cached_stages: int = 0
    cost_usd: float = 0.0
    llm_calls: int = 0
    agent: AgentRun | None = None
    code_attempt: CodeAttempt | None = None
    code: CodeOutcome | None = None
    # False when a stage's result was used but not kept for the next run (see Outcome.settled).
    settled: bool = True


class QATrackError(RuntimeError):
    """The QA track could not run at all (its question file is unusable)."""


def failed_items(
    questions: Sequence[Question], models: Sequence[tuple[ModelConfig, str]], backend: str,
    error: str,
) -> list[ItemResult]:
    """Every item of the track failed before any stage ran (e.g. the database is unreachable);
    `models` are the (model, pipeline label) pairs the run would have answered with."""
    return [ItemResult(question=q, model=m.label, pipeline=pipeline, backend=backend,
                       error=error)
            for m, pipeline in models for q in questions]


def _first_error(stages: Sequence[Outcome]) -> str | None:
    return next((s.error for s in stages if s.error), None)


def _cost(model: ModelConfig, usages: Sequence[LLMUsage]) -> float:
    return model.cost(sum(u.prompt_tokens for u in usages),
                      sum(u.completion_tokens for u in usages))


def _stage_counts(stages: Sequence[Outcome[Any]], usages: Sequence[object]) -> dict[str, Any]:
    """What every pipeline's item says about its stages: the first error, fresh LLM calls,
    stages served from the cache, LLM calls made, and whether every stage settled."""
    return {"error": _first_error(stages),
            "fresh_llm_calls": sum(s.fresh_llm_calls for s in stages),
            "cached_stages": sum(s.from_cache for s in stages), "llm_calls": len(usages),
            "settled": all(s.settled for s in stages)}


def assemble_items(
    questions: Sequence[Question], model: ModelConfig, backend: str,
    attempts: Sequence[Outcome[CypherAttempt]], outcomes: Sequence[Outcome[QueryOutcome]],
    answers: Sequence[Outcome[RefinedAnswer]], verdicts: Sequence[Outcome[Verdict]],
    pipeline: str = "feedforward",
) -> list[ItemResult]:
    """Feed-forward: one result per question from the four stages' outcomes (by position)."""
    items = []
    for q, a, o, r, v in zip(questions, attempts, outcomes, answers, verdicts, strict=True):
        stages = (a, o, r, v)
        usages = [s.value.usage for s in (a, r) if s.value is not None]
        items.append(ItemResult(
            question=q, model=model.label, pipeline=pipeline, backend=backend,
            cost_usd=_cost(model, usages), attempt=a.value, outcome=o.value,
            answer=r.value, verdict=v.value, **_stage_counts(stages, usages),
        ))
    return items


def assemble_agent_items(
    questions: Sequence[Question], model: ModelConfig, backend: str, pipeline: str,
    runs: Sequence[Outcome[AgentRun]], verdicts: Sequence[Outcome[Verdict]],
) -> list[ItemResult]:
    """Agentic: the agent's last query fills the query columns, its answer the answer's."""
    items = []
    for q, r, v in zip(questions, runs, verdicts, strict=True):
        run = r.value
        last = run.last_query if run else None
        attempt = None if last is None else CypherAttempt(
            uid=q.uid, model=model.label, cypher=last.cypher, raw_reply="", usage=LLMUsage())
        answer = None if run is None else RefinedAnswer(
            uid=q.uid, answer=run.answer, raw_reply=run.raw_reply, usage=run.usage)
        items.append(ItemResult(
            question=q, model=model.label, pipeline=pipeline, backend=backend,
            cost_usd=_cost(model, [run.usage] if run else []), attempt=attempt, outcome=last,
            answer=answer, verdict=v.value, error=_first_error((r, v)),
            fresh_llm_calls=r.fresh_llm_calls, cached_stages=int(r.from_cache),
            llm_calls=run.calls if run else 0, agent=run, settled=r.settled and v.settled,
        ))
    return items


def assemble_in_context_items(
    questions: Sequence[Question], model: ModelConfig, pipeline: str,
    answers: Sequence[Outcome[RefinedAnswer]], verdicts: Sequence[Outcome[Verdict]],
) -> list[ItemResult]:
    """In-context: no query; one call per question, its answer scored."""
    items = []
    for q, a, v in zip(questions, answers, verdicts, strict=True):
        usages = [a.value.usage] if a.value else []
        items.append(ItemResult(
            question=q, model=model.label, pipeline=pipeline, backend=NO_DATABASE,
            cost_usd=_cost(model, usages), answer=a.value, verdict=v.value,
            error=_first_error((a, v)), fresh_llm_calls=a.fresh_llm_calls,
            cached_stages=int(a.from_cache), llm_calls=len(usages),
            settled=a.settled and v.settled,
        ))
    return items


def assemble_codegen_items(
    questions: Sequence[Question], model: ModelConfig, pipeline: str,
    attempts: Sequence[Outcome[CodeAttempt]], runs: Sequence[Outcome[CodeOutcome]],
    answers: Sequence[Outcome[RefinedAnswer]], verdicts: Sequence[Outcome[Verdict]],
) -> list[ItemResult]:
    """Codegen: the code's run fills the query columns (it is this pipeline's way to the
    graph: valid when it returned a result, its rows that result read as rows), plus the code
    and its failure kind; no database (backend `none`)."""
    items = []
    for q, a, o, r, v in zip(questions, attempts, runs, answers, verdicts, strict=True):
        stages = (a, o, r, v)
        usages = [s.value.usage for s in (a, r) if s.value is not None]
        items.append(ItemResult(
            question=q, model=model.label, pipeline=pipeline, backend=CODE_SANDBOX,
            cost_usd=_cost(model, usages), code_attempt=a.value, code=o.value,
            answer=r.value, verdict=v.value, **_stage_counts(stages, usages),
        ))
    return items


def _code_columns(item: ItemResult) -> dict[str, object]:
    """A codegen item's run in the query columns (see `assemble_codegen_items`)."""
    run = item.code
    ran = run is not None and run.valid
    rows = rows_of_result(run.result) if ran else []
    # As for a query: a run that returned nothing still has its (empty) rows.
    text, truncated = capped_rows_json(["result"], rows) if ran else ("", False)
    return {
        "valid_cypher": bool(run and run.valid), "n_rows": len(rows),
        "query_error": (run.error or "") if run else "",
        "rows_json": text, "rows_json_truncated": truncated,
        "code": item.code_attempt.code if item.code_attempt else "",
        "code_error_kind": run.kind if run else "",
    }


def result_row(item: ItemResult) -> dict[str, object]:
    q, attempt, outcome, answer, verdict = (
        item.question, item.attempt, item.outcome, item.answer, item.verdict,
    )
    usages = [r.usage for r in (attempt, answer, item.code_attempt) if r is not None]
    seconds = sum(u.seconds for u in usages)
    seconds += outcome.seconds if outcome else 0.0
    seconds += item.code.seconds if item.code else 0.0
    row = _query_row(item, q, attempt, outcome, answer, verdict, usages, seconds)
    if item.code_attempt is not None or item.code is not None:
        row.update(_code_columns(item))
    return row


def _query_row(item: ItemResult, q: Question, attempt: CypherAttempt | None,
               outcome: QueryOutcome | None, answer: RefinedAnswer | None,
               verdict: Verdict | None, usages: list[LLMUsage],
               seconds: float) -> dict[str, object]:
    return {
        "uid": q.uid,
        "name": q.name,
        "tags": list(q.tags),
        "question": markdown_free(q.question),
        "solution": q.solution,
        "model": item.model,
        "pipeline": item.pipeline,
        "backend": item.backend,
        "cypher": attempt.cypher if attempt else "",
        "valid_cypher": bool(outcome and outcome.valid),
        "n_rows": outcome.n_rows if outcome else 0,
        "truncated": bool(outcome and outcome.truncated),
        "query_error": (outcome.error or "") if outcome else "",
        "query_error_kind": outcome.query_error_kind if outcome else "",
        "cypher_executed": outcome.cypher_executed if outcome else "",
        "rewrites": ";".join(outcome.rewrites) if outcome else "",
        **_rows_columns(outcome),
        "answer": answer.answer if answer else "",
        "refine_reply": answer.raw_reply[:REPLY_CHARS] if answer else "",
        "valid_answer": bool(verdict and verdict.valid_answer),
        "correct": bool(verdict and verdict.correct),
        "answer_extracted": verdict.answer_extracted if verdict else "",
        "correct_lenient": bool(verdict and verdict.correct_lenient),
        "execution_match": _execution_match(item),
        "score_precision": verdict.precision if verdict else 0.0,
        "score_recall": verdict.recall if verdict else 0.0,
        "score_f1": verdict.f1 if verdict else 0.0,
        "mismatch": verdict.mismatch if verdict else "",
        "prompt_tokens": sum(u.prompt_tokens for u in usages),
        "completion_tokens": sum(u.completion_tokens for u in usages),
        "tokens": sum(u.tokens for u in usages),
        "cost_usd": round(item.cost_usd, 6),
        "served_model": distinct(u.served_model for u in usages),
        "system_fingerprint": distinct(u.system_fingerprint for u in usages),
        "seconds": round(seconds, 4),
        "llm_calls": item.llm_calls,
        "stop_reason": item.agent.stop_reason if item.agent else "",
        "queries_run": queries_run(item),
        "cypher_as_text": bool(item.agent and item.agent.cypher_as_text),
        "transcript": transcript_text(item.agent.transcript) if item.agent else "",
        "context_tokens": answer.context_tokens if answer else 0,
        "error": item.error or "",
        "code": "",
        "code_error_kind": "",
    }


def queries_run(item: ItemResult) -> int:
    """How many queries reached the database: an agent's every query, the feed-forward
    pipeline's one (0 when its Cypher was never written), none in context."""
    if item.agent is not None:
        return len(item.agent.queries)
    if item.code is not None:   # the code ran (an empty reply's `no_code` never did)
        return int(item.code.kind != "no_code")
    return int(item.outcome is not None)


def _execution_match(item: ItemResult) -> bool | None:
    """Whether the item's (last) query returned the reference query's rows. Every question
    with a reference query counts in a querying pipeline: an item that ran no query (the agent
    answered without one, or an earlier stage failed) is no match, never left out, or skipping
    the database would raise the score. None only without a reference, in context (no
    database), or when the reference itself gave no trustworthy rows."""
    if item.outcome is not None:
        return item.outcome.execution_match
    if item.code is not None:
        return item.code.execution_match
    if not item.question.cypher or item.backend == NO_DATABASE:
        return None
    return False


# The refine reply is kept for reading why an answer is wrong, not in full: a runaway reply would
# bloat every table and the report.
REPLY_CHARS = 4_000


def markdown_free(text: str) -> str:
    """The question on one line (YAML folded text may keep newlines)."""
    return " ".join(text.split())


def _rows_columns(outcome: QueryOutcome | None) -> dict[str, object]:
    if outcome is None or not outcome.valid:
        return {"rows_json": "", "rows_json_truncated": False}
    text, truncated = capped_rows_json(outcome.columns, outcome.rows)
    return {"rows_json": text, "rows_json_truncated": truncated}


def results_table(items: list[ItemResult]) -> pd.DataFrame:
    """Rows made storable and secret-free first: a reply, row or error text may come from
    anywhere, including item-cache entries written before that rule."""
    secrets = secret_values()
    return pd.DataFrame([safe_record(result_row(i), secrets) for i in items],
                        columns=list(QA_COLUMNS))


# The summary's count of failed queries per error kind, one column each.
ERROR_KIND_COLUMNS = tuple(f"query_{kind}" for kind in ERROR_KINDS)
# Where wrong answers were lost, one count per stage (`loss_per_stage`).
LOSS_COLUMNS = ("lost_at_query", "wrong_rows", "lost_at_refine", "invalid_answer")
SUMMARY_COLUMNS = [
    "items", "correct", "accuracy", "correct_lenient", "accuracy_lenient", "execution_accuracy",
    "mean_f1", "valid_cypher", "no_query_share", *LOSS_COLUMNS, "errored_items", "tokens",
    "cost_usd", "seconds", "llm_calls", *ERROR_KIND_COLUMNS,
]
# Results written before pipelines existed were all feed-forward.
DEFAULT_PIPELINE = "feedforward"
# The backend of an in-context row: it asked no database.
NO_DATABASE = "none"
# The backend of a codegen row: its code read the scene graph in the sandbox.
CODE_SANDBOX = "sandbox"


def summarize(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per group: items, correct, accuracy (strict and lenient), execution accuracy, mean F1,
    share of queries that ran, items that ran none, wrong answers by the stage that lost them,
    errored items, tokens and cost (docs/results.md defines each). Reads fresh tables and
    stored ones alike (a missing boolean, from a stage
    that never ran, counts as False), so the report shows exactly these numbers. Grouping by
    `pipeline` needs the rows through `with_pipeline` first, as both summaries below do."""
    if rows.empty:
        return pd.DataFrame(columns=[*keys, *SUMMARY_COLUMNS])
    # In-context rows ran no query (backend "none"): out of the valid-Cypher share.
    queried = rows["backend"].fillna("").astype(str) != NO_DATABASE if "backend" in rows \
        else pd.Series(True, index=rows.index)
    rows = rows.assign(**loss_per_stage(rows, queried))
    rows = rows.assign(
        _correct=_truthy(rows["correct"]),
        _lenient=_truthy(rows["correct_lenient"]).astype("Float64") if "correct_lenient" in rows
        else pd.Series(pd.NA, index=rows.index, dtype="Float64"),
        _valid=_truthy(rows["valid_cypher"]).astype("Float64").where(queried),
        _no_query=_ran_no_query(rows).astype("Float64").where(queried),
        _error=rows["error"].fillna("").astype(str) != "",
        _f1=_numbers(rows, "score_f1"), _tokens=_numbers(rows, "tokens"),
        _cost=_numbers(rows, "cost_usd"), _seconds=_numbers(rows, "seconds"),
        _calls=_numbers(rows, "llm_calls"),
    )
    kinds = rows["query_error_kind"].fillna("").astype(str) if "query_error_kind" in rows \
        else pd.Series("", index=rows.index)
    rows = rows.assign(**{f"_query_{kind}": kinds == kind for kind in ERROR_KINDS})
    # Execution accuracy counts only items whose question has a reference query (NA otherwise).
    matched = rows["execution_match"] if "execution_match" in rows \
        else pd.Series(pd.NA, index=rows.index)
    rows = rows.assign(_executed=matched.map(optional_bool).astype("boolean").astype("Float64"))
    grouped = rows.groupby(keys, sort=True)
    return pd.DataFrame({
        "items": grouped.size(),
        "correct": grouped["_correct"].sum().astype(int),
        "accuracy": grouped["_correct"].mean(),
        "correct_lenient": grouped["_lenient"].sum(min_count=1).astype("Int64"),
        "accuracy_lenient": grouped["_lenient"].mean().astype(float),
        "execution_accuracy": grouped["_executed"].mean().astype(float),
        "mean_f1": grouped["_f1"].mean(),
        "valid_cypher": grouped["_valid"].mean().astype(float),
        "no_query_share": grouped["_no_query"].mean().astype(float),
        **{c: grouped[f"_{c}"].sum(min_count=1).astype("Int64") for c in LOSS_COLUMNS},
        # Items with no answer at all (a call or stage failed), not wrong answers: a query the
        # database refused is a scored failure, counted under `query_<kind>`.
        "errored_items": grouped["_error"].sum().astype(int),
        "tokens": grouped["_tokens"].sum().astype(int),
        "cost_usd": grouped["_cost"].sum(),
        "seconds": grouped["_seconds"].sum(),
        "llm_calls": grouped["_calls"].sum().astype(int),
        # Why queries failed: "dialect" is what the engine lost, not the model.
        **{f"query_{kind}": grouped[f"_query_{kind}"].sum().astype(int) for kind in ERROR_KINDS},
    }).reset_index()[[*keys, *SUMMARY_COLUMNS]]


def loss_per_stage(rows: pd.DataFrame, queried: pd.Series) -> dict[str, pd.Series]:
    """Where each wrong answer was lost, as `_<column>` indicators for `LOSS_COLUMNS`:

    - `lost_at_query`: wrong, and the (last) query gave no valid rows (none ran, or it failed);
    - `wrong_rows`: wrong, with valid rows that are not the reference query's;
    - `lost_at_refine`: wrong although the rows equalled the reference query's;
    - `invalid_answer`: the answer (right stage or not) does not parse, errored items aside.

    The query stages are NA in context (no database); errored items count in `errors` only."""
    errored = rows["error"].fillna("").astype(str) != ""
    wrong = ~_truthy(rows["correct"]) & ~errored
    valid_rows = _truthy(rows["valid_cypher"])
    matched = rows["execution_match"].map(optional_bool) if "execution_match" in rows \
        else pd.Series(None, index=rows.index)
    by_query = {
        "lost_at_query": wrong & ~valid_rows,
        "wrong_rows": wrong & valid_rows & (matched == False),  # noqa: E712 (None stays out)
        "lost_at_refine": wrong & (matched == True),  # noqa: E712
    }
    losses = {f"_{k}": v.astype("Float64").where(queried) for k, v in by_query.items()}
    invalid = ~_truthy(rows["valid_answer"]) & ~errored if "valid_answer" in rows \
        else pd.Series(pd.NA, index=rows.index)
    return {**losses, "_invalid_answer": invalid.astype("Float64")}


def _ran_no_query(rows: pd.DataFrame) -> pd.Series:
    """Items whose query never reached the database. Tables written before `queries_run`
    existed: an item with no Cypher ran none."""
    if "queries_run" in rows:
        return _numbers(rows, "queries_run") == 0
    return rows["cypher"].fillna("").astype(str) == "" if "cypher" in rows \
        else pd.Series(False, index=rows.index)


def with_pipeline(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows with a `pipeline` everywhere (older tables have none: feed-forward)."""
    pipeline = rows["pipeline"] if "pipeline" in rows else pd.Series("", index=rows.index)
    pipeline = pipeline.fillna("").astype(str).replace("", DEFAULT_PIPELINE)
    return rows.assign(pipeline=pipeline)


def _numbers(rows: pd.DataFrame, column: str) -> pd.Series:
    if column not in rows:
        return pd.Series(0.0, index=rows.index)
    return pd.to_numeric(rows[column], errors="coerce").fillna(0)


def _truthy(values: pd.Series) -> pd.Series:
    """True where the cell says true in any way the tables write it; missing is False."""
    if values.dtype == bool:
        return values
    return values.map(optional_bool).astype("boolean").fillna(False).astype(bool)


def summary_overall(table: pd.DataFrame) -> pd.DataFrame:
    """Per model and pipeline."""
    return summarize(with_pipeline(table), ["model", "pipeline"])


def summary_by_tag(table: pd.DataFrame) -> pd.DataFrame:
    """Per model, pipeline and tag (a question counts once under each of its tags)."""
    exploded = with_pipeline(table)
    exploded = exploded.assign(tag=exploded["tags"].map(lambda v: list(dict.fromkeys(
        tag_list(v)))))
    exploded = exploded.explode("tag")
    exploded = exploded[exploded["tag"].fillna("").str.strip() != ""]
    return summarize(exploded, ["model", "pipeline", "tag"])


def _rounded(summary: pd.DataFrame) -> pd.DataFrame:
    return summary.round({"accuracy": 3, "accuracy_lenient": 3, "execution_accuracy": 3,
                          "mean_f1": 3,
                          "valid_cypher": 3, "no_query_share": 3, "cost_usd": 4, "seconds": 3})


def summaries(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Accuracy per (model, pipeline), overall and per tag, rounded as the tables show them."""
    return _rounded(summary_overall(table)), _rounded(summary_by_tag(table))


def write_results(table: pd.DataFrame, out_dir: Path,
                  tables: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> dict[str, Path]:
    """Write rows and summaries as CSV and one Markdown report; return the paths. `tables`:
    the `summaries` of `table` when the caller has them already (0.1 s at 10,000 rows)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    overall, by_tag = tables or summaries(table)
    paths = {
        "rows_csv": out_dir / QA_RESULTS,
        "summary_csv": out_dir / QA_SUMMARY,
        "by_tag_csv": out_dir / QA_SUMMARY_BY_TAG,
        "markdown": out_dir / QA_MARKDOWN,
    }
    # Spreadsheet-facing: no cell a spreadsheet would run as a formula (read back raw).
    for frame, name in ((tags_as_json(table), "rows_csv"), (overall, "summary_csv"),
                        (by_tag, "by_tag_csv")):
        with atomic_files.replacing(paths[name]) as scratch:
            spreadsheet_frame(frame).to_csv(scratch, index=False)
    atomic_files.write_text(paths["markdown"], _summaries_markdown(overall, by_tag)
                            + "\n\n## Per question\n\n" + _markdown(_shown(table)) + "\n")
    return paths


# Rows of the per-question table the run's Prefect artifact shows (the file has them all).
ARTIFACT_ROWS = 50


def artifact_markdown(table: pd.DataFrame, overall: pd.DataFrame, by_tag: pd.DataFrame,
                      notes: Sequence[str] = ()) -> str:
    """The QA tables as the run's Prefect artifact: the summaries, and the first wrong or
    errored questions. The whole per-question table of 10,000 items is 3 MB, which the Prefect
    API refuses to publish as an event and its UI cannot show usefully; it stays in the file."""
    right = table["correct"].astype("boolean").fillna(False).astype(bool)
    wrong = table[~right | (table["error"] != "")]
    note = (f"{len(wrong):,} of {len(table):,} rows wrong or errored"
            + (f"; the first {ARTIFACT_ROWS} shown, all rows in {QA_MARKDOWN}"
               if len(wrong) > ARTIFACT_ROWS else ""))
    said = "".join(f"\n\n**Note:** {markdown_cell(n, 400)}" for n in notes)
    return (_summaries_markdown(overall, by_tag) + said
            + f"\n\n## Wrong or errored\n\n{note}\n\n"
            + (_markdown(_shown(wrong.head(ARTIFACT_ROWS))) if len(wrong) else "") + "\n")


def _summaries_markdown(overall: pd.DataFrame, by_tag: pd.DataFrame) -> str:
    return ("# Scene-graph QA results\n\n## Overall\n\n" + _markdown(overall)
            + "\n\n## By tag\n\n" + _markdown(by_tag))


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    """The per-question columns of the Markdown tables, answers cut to one short line."""
    return table[["uid", "model", "pipeline", "valid_cypher", "n_rows", "answer", "correct",
                  "score_f1"]]


def _markdown(frame: pd.DataFrame) -> str:
    """A Markdown table whose text columns are shown as written: tabulate would otherwise read
    a column of number-like text as numbers and print a model's answer `0.10` as `0.1`, `1e3`
    as `1000`. Skipping that parsing also halves the time of a 10,000-row table."""
    if frame.empty:   # tabulate then counts no columns, and an index list would not fit
        return frame.to_markdown(index=False)
    text = [i for i, column in enumerate(frame.columns)
            if not pd.api.types.is_numeric_dtype(frame[column])
            or pd.api.types.is_bool_dtype(frame[column])]
    # Every text cell (uid, model, pipeline, tag, answer) is outside text: made inert.
    cells = frame.assign(**{
        str(frame.columns[i]): frame.iloc[:, i].map(
            lambda v: v if not isinstance(v, str) else markdown_cell(v))
        for i in text if frame.iloc[:, i].map(lambda v: isinstance(v, str)).any()})
    cells.columns = [markdown_cell(c) for c in frame.columns]
    return cells.to_markdown(index=False, disable_numparse=text)


MARKDOWN_CELL_CHARS = 200


def markdown_cell(text: object, limit: int = MARKDOWN_CELL_CHARS) -> str:
    """A table cell of at most `limit` characters on one line (a 1 MB reply must not make the
    Markdown report 18 MB), with Markdown and HTML inert (`markdown_text`)."""
    return markdown_text(text, limit)


def write_transcripts(items: Sequence[ItemResult], out_dir: Path) -> list[Path]:
    """Every agent conversation (messages, tool calls, tool results with rows or errors), one
    JSON line per question in `transcripts/<model>__<pipeline>.jsonl`; rewritten whole, so a
    rerun's file holds that run's conversations."""
    by_file: dict[Path, list[str]] = {}
    secrets = secret_values()
    for item in items:
        if item.agent is None:
            continue
        path = out_dir / TRANSCRIPTS_DIR / transcript_file(item.model, item.pipeline)
        line = {"uid": item.question.uid, "model": item.model, "pipeline": item.pipeline,
                "stop_reason": item.agent.stop_reason, "calls": item.agent.calls,
                "answer": item.agent.answer, "messages": item.agent.transcript}
        by_file.setdefault(path, []).append(json.dumps(safe_value(line, secrets),
                                                       ensure_ascii=False))
    for path, lines in by_file.items():
        atomic_files.write_text(path, "\n".join(lines) + "\n")
    return sorted(by_file)


def transcript_file(model: str, pipeline: str) -> str:
    """`<model>__<pipeline>.jsonl`, a name not a file name already being made one with a
    hash of it (`benchcore.file_names`): `a/b` and `a:b` must not share a transcript."""
    return file_name(model, pipeline, suffix=".jsonl")


def tool_protocol_notes(items: Sequence[ItemResult]) -> list[str]:
    """One line per model whose agent, on the tools protocol, ended at least once with a
    fenced Cypher block and no tool call: the protocol makes that reply the answer, so the
    question is answered without a query, which is what a server that does not parse the
    model's tool calls produces. The text protocol runs such blocks."""
    agentic: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.agent is not None:
            agentic.setdefault(item.model, []).append(item)
    notes = []
    for model, runs in agentic.items():
        if any(i.agent is not None and i.agent.cypher_as_text for i in runs):
            no_query = sum(queries_run(i) == 0 for i in runs)
            notes.append(f"{model}: {no_query} of {len(runs)} agentic answers ran no query; the "
                         "server may not parse tool calls: try `--tool-protocol text`")
    return notes


def summarize_qa_run(items: list[ItemResult], out_dir: Path) -> TrackSummary:
    """Write the tables and return the summary the flow turns into artifacts."""
    table = results_table(items)
    overall, by_tag = summaries(table)
    notes = tool_protocol_notes(items)
    paths = write_results(table, out_dir, (overall, by_tag))
    write_transcripts(items, out_dir)
    return TrackSummary(
        paths={k: str(v) for k, v in paths.items()},
        units=table["uid"].nunique(),
        items=len(table),
        errors=int((table["error"] != "").sum()),
        unsettled=sum(not i.settled for i in items),
        overall_records=overall.to_dict(orient="records"),
        markdown=artifact_markdown(table, overall, by_tag, notes),
        llm_calls={
            "fresh": sum(i.fresh_llm_calls for i in items),
            "cached_stages": sum(i.cached_stages for i in items),
        },
        error_causes=top_causes(table["error"]),
        notes=notes,
    )
