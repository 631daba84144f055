"""The report as data: sections of text, flags, figures and tables, rendered twice (HTML and
Markdown) from the same object, so the two versions can never say different things.

Cell formatting lives here for the same reason: a rate is "85.0%" and a count is "1,547" in both.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Table:
    """A table and how to show it; `percent` columns hold fractions shown as percentages.
    `collapsed`: a long table a reader opens on demand, so it does not bury what follows."""

    caption: str
    frame: pd.DataFrame
    percent: tuple[str, ...] = ()
    collapsed: bool = False


@dataclass(frozen=True)
class Figure:
    """A PNG plot; `filename` is where the Markdown version finds it beside the report."""

    caption: str
    png: bytes
    filename: str


@dataclass(frozen=True)
class DrillItem:
    """One item to open and read: a title line, whether it went wrong, and labelled texts."""

    title: str
    wrong: bool
    fields: list[tuple[str, str]]


@dataclass(frozen=True)
class DrillDown:
    """Per-item detail, collapsed by default; `note` says when items were left out."""

    caption: str
    items: list[DrillItem]
    note: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    drilldowns: list[DrillDown] = field(default_factory=list)


@dataclass(frozen=True)
class Document:
    title: str
    facts: list[tuple[str, str]]
    sections: list[Section]

    def figures(self) -> list[Figure]:
        return [f for s in self.sections for f in s.figures]

    def anchors(self) -> list[str]:
        """One link target per section, for the table of contents: GitHub's heading slugs
        (lower case, punctuation dropped, spaces as hyphens, repeats numbered), so the same
        links work in the HTML report and in the Markdown one rendered on GitHub."""
        seen: dict[str, int] = {}
        anchors = []
        for section in self.sections:
            slug = re.sub(r"[^\w\- ]", "", section.title.lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.append(f"{slug}-{count}" if count else slug)
        return anchors


# Columns that count things (tokens, LLM calls, questions, instances): whole numbers wherever
# they appear, even when a merge or a sum made them floats ("1,547", never "1,547.400").
COUNT_NAMES = frozenset({"items", "correct", "tokens", "llm_calls", "questions", "instances",
                         "qa_items", "plan_instances", "plan_errors", "tokens_per_question"})
COUNT_PREFIXES = ("n_", "fail_")
COUNT_SUFFIXES = ("_tokens", "_items", "_calls")


def is_count_column(name: object) -> bool:
    """Whether a column holds counts. Tokens per question count too (a tenth of a token says
    nothing); other per-question averages (LLM calls of an agent) keep their decimals."""
    text = str(name)
    if text.endswith("_per_question"):
        return text in COUNT_NAMES
    return text in COUNT_NAMES or text.startswith(COUNT_PREFIXES) or text.endswith(COUNT_SUFFIXES)


def cell_text(value: object, percent: bool = False, count: bool = False) -> str:
    """One cell as text: missing as "", rates as percentages, counts as whole numbers with
    thousands separators, other floats with 3 decimals."""
    value = _plain(value)
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float) and count and not percent:
        return f"{round(value):,}"
    if isinstance(value, float) and percent:
        return f"{value:.1%}"
    if isinstance(value, float):  # small amounts (cents, milliseconds) keep two digits
        return f"{value:.2g}" if 0 < abs(value) < 0.01 else f"{value:,.3f}"
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d %H:%M")
    return str(value)


def capped_text(value: object, limit: int) -> str:
    """A drill-down text: missing as "", and a long one (a runaway reply) cut to `limit`
    characters with a note saying how much is left out, so the report still opens."""
    text = "" if value is None or value is pd.NA or (isinstance(value, float)
                                                     and math.isnan(value)) else str(value)
    if len(text) <= limit:
        return text
    return text[:limit] + f" …(cut: the first {limit:,} of {len(text):,} characters)"


def sort_key(value: object) -> str | None:
    """The raw number behind a numeric cell (HTML tables sort on it), else None."""
    value = _plain(value)
    if isinstance(value, bool) or value is None or value is pd.NA:
        return None
    if isinstance(value, int | float) and not (isinstance(value, float) and math.isnan(value)):
        return repr(float(value))
    return None


def rows(table: Table) -> list[list[tuple[str, str | None]]]:
    """Every row as (text, sort key) cells."""
    frame = table.frame.astype(object)
    counted = {c for c in frame.columns if is_count_column(c)}
    return [
        [(cell_text(v, c in table.percent, c in counted), sort_key(v))
         for c, v in zip(frame.columns, row, strict=True)]
        for row in frame.itertuples(index=False)
    ]


def _plain(value: object) -> object:
    """NumPy scalars as Python ones, so the checks above see bools, ints and floats."""
    return value.item() if isinstance(value, np.generic) else value
