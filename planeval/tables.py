"""Writing result tables: CSV for machines, Markdown for people, chosen by file extension."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from planeval.errors import PlanevalError

FORMATS = (".csv", ".md", ".json")


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write `frame` to `path` (.csv, .md or .json); list cells become comma-separated text."""
    path = Path(path)
    if path.suffix not in FORMATS:
        raise PlanevalError(f"{path}: unknown table format (use one of {', '.join(FORMATS)})")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".json":
        frame.to_json(path, orient="records", indent=2)
        return path
    flat = frame.apply(lambda column: column.map(_cell))
    if path.suffix == ".csv":
        flat.to_csv(path, index=False)
    else:
        path.write_text(to_markdown(flat) + "\n", encoding="utf-8")
    return path


def to_markdown(frame: pd.DataFrame) -> str:
    """A GitHub-style Markdown table; None/NaN shown as NA (AutoPlanBench's convention)."""
    shown = frame.astype(object).apply(lambda column: column.map(_cell))
    shown = shown.where(shown.notna(), "NA")
    return shown.to_markdown(index=False, floatfmt=".3f")


def _cell(value: object) -> object:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return value
