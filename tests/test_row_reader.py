"""The row cap counts distinct rows when the reader drops repeats (a translated UNION)."""

from __future__ import annotations

from dsgqa.graphstore.row_reader import RowReader


def _read(rows: list[list[object]], max_rows: int, distinct: bool) -> tuple[list[object], bool]:
    reader = RowReader(max_rows, distinct)
    for row in rows:
        if reader.full:
            break
        reader.add(row)
    return reader.kept, reader.truncated


def test_repeats_are_dropped_before_the_cap_counts_them() -> None:
    rows = [["a", None], ["a", None], ["b", 1], ["a", None], ["b", 1.5]]
    assert _read(rows, 3, distinct=True) == ([["a", None], ["b", 1], ["b", 1.5]], False)
    assert _read(rows, 2, distinct=True) == ([["a", None], ["b", 1]], True)


def test_without_distinct_every_row_counts() -> None:
    rows = [["a"], ["a"], ["b"]]
    assert _read(rows, 2, distinct=False) == ([["a"], ["a"]], True)
    assert _read(rows, 3, distinct=False) == (rows, False)
