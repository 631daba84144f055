"""Writing result tables: CSV for machines, Markdown for people, chosen by file extension;
each written whole or not at all (`benchcore.atomic_files`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from tabulate import tabulate

from benchcore import atomic_files
from benchcore.markdown_text import markdown_text
from benchcore.spreadsheet_cells import spreadsheet_frame
from planeval.errors import PlanevalError

FORMATS = (".csv", ".md", ".json")


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write `frame` to `path` (.csv, .md or .json); list cells become comma-separated text."""
    path = Path(path)
    if path.suffix not in FORMATS:
        raise PlanevalError(f"{path}: unknown table format (use one of {', '.join(FORMATS)})")
    if path.suffix == ".json":
        with atomic_files.replacing(path) as scratch:
            frame.to_json(scratch, orient="records", indent=2)
        return path
    flat = frame.apply(lambda column: column.map(_cell))
    if path.suffix == ".csv":
        with atomic_files.replacing(path) as scratch:
            spreadsheet_frame(flat).to_csv(scratch, index=False)
    else:
        atomic_files.write_text(path, to_markdown(flat) + "\n")
    return path


def to_markdown(frame: pd.DataFrame) -> str:
    """A GitHub-style Markdown table; None/NaN shown as NA (AutoPlanBench's convention).

    Gaps stay gaps for tabulate (its missing value), so a number column with one is still a
    number column (right-aligned, three decimals); columns of text (names, lists) are shown as
    written, where tabulate would read an instance named `01` as the number 1."""
    rows = [[None if _missing(value) else _markdown_cell(value) for value in row]
            for row in frame.astype(object).itertuples(index=False)]
    text = [i for i in range(len(frame.columns)) if any(isinstance(row[i], str) for row in rows)]
    return tabulate(rows, headers=[markdown_text(c) for c in frame.columns], tablefmt="pipe",
                    floatfmt=".3f", missingval="NA", disable_numparse=text or False)


def _markdown_cell(value: object) -> object:
    """Text (model names, instance lists, errors) made inert for Markdown; numbers as they are."""
    value = _cell(value)
    return markdown_text(value) if isinstance(value, str) else value


def _cell(value: object) -> object:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return value


def _missing(value: object) -> bool:
    """None, NaN or pandas' NA: a gap, which tabulate shows as its missing value."""
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)
