"""Tables that fit the terminal's width without breaking a header word.

Rich shrinks a table that is too wide by narrowing every column evenly, which at 80 columns cuts
headers into fragments (`executi` / `on_accu` / `racy`). Here the widths are decided before rich
sees the table, and each column gets a fixed width:

- headers are shown with spaces for underscores, so a header wraps between its words and a
  column is never narrower than its longest header word;
- numbers and other short values are never split; long text (answers, model names) wraps;
- a key column holding one value on every one of several rows moves into the title (a run of
  one model does not repeat the model's name on every line);
- when the table is still too wide, the caller's optional columns are left out (least useful
  first, and named so the reader knows where to find them), then the remaining columns are
  split into several tables that each repeat the key columns, and when even one column beside
  the keys does not fit, every row is printed as a list of `field  value` lines.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import pandas as pd
from rich.console import Group, RenderableType
from rich.table import Column, Table
from rich.text import Text

from benchcore.terminal_text import printable
from benchcore.text_safety import safe_text

# A column's padding (a space each side) and its right border; the table's left border.
COLUMN_EXTRA = 3
EDGE = 1
# Text that may wrap is given at least this many characters (when its values are that long),
# and optional columns are dropped before it gets fewer than `WRAP_COMFORT`.
WRAP_FLOOR = 12
WRAP_COMFORT = 30


@dataclass(frozen=True)
class FittedTables:
    """What to print for one frame, and which columns were left out to make it fit."""

    tables: list[RenderableType]   # each a title line above its table
    dropped: list[str] = field(default_factory=list)


def header_label(column: str) -> str:
    """A column's header as shown: words separated by spaces, so it wraps between words."""
    return printable(str(column)).replace("_", " ")


def cell_text(value: object) -> str:
    """A value as one printable cell: NA for missing, three decimals for floats."""
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return "NA"
    if isinstance(value, float):
        return f"{value:.3f}"
    return printable(safe_text(str(value)))


def fit_tables(frame: pd.DataFrame, title: str, width: int, *, keys: Sequence[str] = (),
               wrap: Collection[str] = (), optional: Sequence[str] = ()) -> FittedTables:
    """`frame` as tables no wider than `width`. `keys` identify a row (kept in every part of a
    split table), `wrap` are text columns whose values may wrap, `optional` may be left out,
    first ones first."""
    cells = {str(c): [cell_text(v) for v in frame[c]] for c in frame.columns}
    keys = [k for k in keys if k in cells]
    title, keys, cells = _constant_keys_in_title(title, keys, cells, len(frame))
    measure = _Measure(cells, set(wrap))
    shown = list(cells)
    dropped: list[str] = []
    for column in [c for c in optional if c in shown and c not in keys]:
        widths = _widths(shown, measure, width)
        if widths is not None and _comfortable(shown, widths, measure):
            break
        shown.remove(column)
        dropped.append(column)
    widths = _widths(shown, measure, width)
    if widths is not None:
        return FittedTables([_table(title, shown, widths, cells)], dropped)
    measure = measure.pinned(keys, width)   # the same key widths in every part
    groups = _column_groups(shown, keys, measure, width)
    if groups is None:
        return FittedTables(_vertical(title, shown, keys, cells, width), dropped)
    tables = []
    for index, group in enumerate(groups, start=1):
        columns = [*keys, *group]
        part = f"{title} ({index}/{len(groups)})"
        tables.append(_table(part, columns, _widths(columns, measure, width) or [], cells))
    return FittedTables(tables, dropped)


def _constant_keys_in_title(title: str, keys: list[str], cells: dict[str, list[str]],
                            rows: int) -> tuple[str, list[str], dict[str, list[str]]]:
    constant = [k for k in keys if rows > 1 and len(set(cells[k])) == 1]
    if not constant or len(constant) == len(cells):
        return title, keys, cells
    named = ", ".join(f"{header_label(k)} {cells[k][0]}" for k in constant)
    rest = {c: v for c, v in cells.items() if c not in constant}
    return f"{title} ({named})", [k for k in keys if k not in constant], rest


class _Measure:
    """Each column's natural width (header and values on one line) and its floor (the
    narrowest it may be: its longest header word, and its longest value unless it wraps)."""

    def __init__(self, cells: dict[str, list[str]], wrap: set[str]) -> None:
        self.natural: dict[str, int] = {}
        self.floor: dict[str, int] = {}
        self.wraps: set[str] = set()
        for column, values in cells.items():
            label = header_label(column)
            longest = max((len(line) for v in values for line in v.splitlines() or [""]),
                          default=0)
            word = max((len(w) for w in label.split()), default=1)
            self.natural[column] = max(len(label), longest, 1)
            if column in wrap:
                self.wraps.add(column)
                self.floor[column] = max(word, min(longest, WRAP_FLOOR))
            else:
                self.floor[column] = max(word, longest, 1)

    def pinned(self, columns: Sequence[str], width: int) -> _Measure:
        """A copy in which `columns` have one width each (their natural width up to a quarter
        of the table), so that they line up in every part of a split table."""
        copy = _Measure({}, set())
        copy.natural, copy.floor, copy.wraps = dict(self.natural), dict(self.floor), self.wraps
        for column in columns:
            fixed = max(self.floor[column], min(self.natural[column], width // 4))
            copy.natural[column] = copy.floor[column] = fixed
        return copy


def _widths(columns: Sequence[str], measure: _Measure, width: int) -> list[int] | None:
    """Content widths of `columns` in a table of at most `width` characters, or None when
    their floors do not fit. Spare room goes to the column furthest from its natural width."""
    budget = width - EDGE - COLUMN_EXTRA * len(columns)
    natural = [measure.natural[c] for c in columns]
    if sum(natural) <= budget:
        return natural
    widths = [measure.floor[c] for c in columns]
    if sum(widths) > budget:
        return None
    for _ in range(budget - sum(widths)):
        short = [n - w for n, w in zip(natural, widths, strict=True)]
        widths[short.index(max(short))] += 1
    return widths


def _comfortable(columns: Sequence[str], widths: Sequence[int], measure: _Measure) -> bool:
    """Whether every wrapping column gets enough room to be read without dropping another."""
    return all(w >= min(measure.natural[c], WRAP_COMFORT)
               for c, w in zip(columns, widths, strict=True) if c in measure.wraps)


def _column_groups(columns: Sequence[str], keys: Sequence[str], measure: _Measure,
                   width: int) -> list[list[str]] | None:
    """The non-key columns in order, packed into groups that fit beside the keys."""
    groups: list[list[str]] = []
    def fits(group: list[str]) -> bool:
        return _widths([*keys, *group], measure, width) is not None

    for column in [c for c in columns if c not in keys]:
        if groups and fits([*groups[-1], column]):
            groups[-1].append(column)
        elif fits([column]):
            groups.append([column])
        else:
            return None
    return groups or None


def _table(title: str, columns: Sequence[str], widths: Sequence[int],
           cells: dict[str, list[str]]) -> RenderableType:
    table = Table(*(Column(header_label(c), width=w, overflow="fold")
                    for c, w in zip(columns, widths, strict=True)))
    for row in zip(*(cells[c] for c in columns), strict=True):
        table.add_row(*(Text(v) for v in row))
    return _titled(title, table)


def _titled(title: str, table: Table) -> RenderableType:
    """The title as its own line, as wide as the terminal (a table's own title is only as
    wide as the table, and a narrow part of a split table would wrap it)."""
    return Group(Text(title, style="italic"), table)


def _vertical(title: str, columns: Sequence[str], keys: Sequence[str],
              cells: dict[str, list[str]], width: int) -> list[RenderableType]:
    """One two-column table (field, value) per row: readable at any width."""
    labels = [header_label(c) for c in columns]
    longest_word = max(len(w) for label in labels for w in label.split())
    label_width = min(max(len(label) for label in labels), max(longest_word, width // 3))
    value_width = max(width - EDGE - 2 * COLUMN_EXTRA - label_width, 1)
    rows = len(next(iter(cells.values()), []))
    tables = []
    for index in range(rows):
        named = ", ".join(cells[k][index] for k in keys) or f"row {index + 1}"
        table = Table(Column(width=label_width, overflow="fold"),
                      Column(width=value_width, overflow="fold"), show_header=False)
        for column, label in zip(columns, labels, strict=True):
            table.add_row(Text(label), Text(cells[column][index]))
        tables.append(_titled(f"{title}: {named}", table))
    return tables
