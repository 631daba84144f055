"""What a planning instance's generation log says, per instance, for the report's drill-down:
the model's reply, the plan read from it, and the feedback it was given.

The evaluation table has the verdict (`failure_kind`, `failure_detail`) but not the texts behind
it; those live only in the run folder's `plans/*.jsonl`, which the store does not keep. Copying
them into the stored rows lets a report, rebuilt later from the store alone, show why a plan
failed. Logs are read leniently: a line that is not a record is skipped (the evaluation has
already judged the logs; these texts are for reading, not scoring).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from planeval.plan_text import parse_plan

KEYS = ["experiment", "domain", "instance"]
DETAIL_COLUMNS = ("reply", "plan", "feedback")
# Per text in the store; the report cuts further. A reply is seldom longer, a runaway one is.
STORED_CHARS = 20_000


def log_records(plans_dir: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every JSON object line of every log under `plans_dir`, with its file."""
    for path in sorted(plans_dir.rglob("*.jsonl")) if plans_dir.is_dir() else []:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield path, record


def plan_details(plans_dir: Path) -> pd.DataFrame:
    """Per (experiment, domain, instance): `reply`, `plan` and `feedback` as text."""
    rows = []
    for path, record in log_records(plans_dir):
        try:
            key = {"experiment": str(record.get("experiment") or path.parent.name),
                   "domain": str(record["domain"]), "instance": str(record["instance"])}
        except KeyError:
            continue
        texts = (_incremental(record.get("events") or []) if record.get("events")
                 else _attempts(record.get("attempts") or []))
        rows.append(key | {c: _stored(t) for c, t in zip(DETAIL_COLUMNS, texts, strict=True)})
    if not rows:
        return pd.DataFrame(columns=[*KEYS, *DETAIL_COLUMNS])
    # A rerun appends: the last record of an instance is the one evaluated.
    return pd.DataFrame(rows).drop_duplicates(KEYS, keep="last")


def _attempts(attempts: list[Any]) -> tuple[str, str, str]:
    """Whole plans: the last attempt's reply and plan (the one that counts for a failed
    instance), every attempt's feedback numbered when there were several."""
    attempts = [a for a in attempts if isinstance(a, dict)]
    if not attempts:
        return "", "", ""
    last = attempts[-1]
    reply = str(last.get("raw_reply") or "")
    actions = last.get("actions")
    plan = "\n".join(map(str, actions)) if isinstance(actions, list) else _read_plan(reply)
    feedback = [str(a.get("feedback") or "") for a in attempts]
    if len(attempts) > 1:
        reply = f"(attempt {len(attempts)} of {len(attempts)})\n{reply}"
        feedback = [f"attempt {n}: {text}" for n, text in enumerate(feedback, 1) if text]
    return reply, plan, "\n".join(t for t in feedback if t)


def _incremental(events: list[Any]) -> tuple[str, str, str]:
    """One turn at a time: every turn's reply and feedback, numbered; the plan is the actions
    proposed, in order."""
    events = [e for e in events if isinstance(e, dict)]
    replies, plan, feedback = [], [], []
    for turn, event in enumerate(events, 1):
        kind, reply = str(event.get("type") or ""), str(event.get("raw_reply") or "")
        replies.append(f"turn {turn} ({kind}): {reply}")
        if kind == "action":
            plan.append(str(event.get("action") or reply.strip()))
        if event.get("feedback"):
            feedback.append(f"turn {turn}: {event['feedback']}")
    return "\n".join(replies), "\n".join(plan), "\n".join(feedback)


def _read_plan(reply: str) -> str:
    """The plan as the evaluation reads a reply: its actions, and the pieces it could not
    read, marked."""
    parsed = parse_plan(reply)
    lines = [getattr(item, "pddl", None) or f"(unreadable: {getattr(item, 'text', item)})"
             for item in parsed.items]
    return "\n".join(lines)


def _stored(text: str) -> str:
    if len(text) <= STORED_CHARS:
        return text
    return text[:STORED_CHARS] + f" …(cut at {STORED_CHARS:,} of {len(text):,} characters)"
