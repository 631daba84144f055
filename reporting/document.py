"""The report as data: sections of text, flags, figures and tables, rendered twice (HTML and
Markdown) from the same object, so the two versions can never say different things.

Cell formatting lives here for the same reason: a rate is "85.0%" and a count is "12" in both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Table:
    """A table and how to show it; `percent` columns hold fractions shown as percentages."""

    caption: str
    frame: pd.DataFrame
    percent: tuple[str, ...] = ()


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


def cell_text(value: object, percent: bool = False) -> str:
    """One cell as text: missing as "", rates as percentages, other floats with 3 decimals."""
    value = _plain(value)
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and percent:
        return f"{value:.1%}"
    if isinstance(value, float):  # small amounts (cents, milliseconds) keep two digits
        return f"{value:.2g}" if 0 < abs(value) < 0.01 else f"{value:,.3f}"
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d %H:%M")
    return str(value)


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
    return [
        [(cell_text(v, c in table.percent), sort_key(v)) for c, v in zip(frame.columns, row,
                                                                       strict=True)]
        for row in frame.itertuples(index=False)
    ]


def _plain(value: object) -> object:
    """NumPy scalars as Python ones, so the checks above see bools, ints and floats."""
    return value.item() if isinstance(value, np.generic) else value
