"""Executed rows kept as capped JSON beside the results."""

from __future__ import annotations

import json

from dsgqa.rows_json import capped_rows_json


def test_small_results_are_kept_whole_and_readable() -> None:
    text, truncated = capped_rows_json(["name", "center"], [["R1", {"x": 1.0, "y": 2.0}]])
    assert not truncated
    assert json.loads(text) == {"columns": ["name", "center"],
                                "rows": [["R1", {"x": 1.0, "y": 2.0}]]}


def test_more_than_fifty_rows_keep_the_first_fifty() -> None:
    text, truncated = capped_rows_json(["n"], [[i] for i in range(120)])
    assert truncated and json.loads(text)["rows"] == [[i] for i in range(50)]


def test_large_rows_are_cut_to_the_byte_cap() -> None:
    rows = [["x" * 1_000] for _ in range(40)]
    text, truncated = capped_rows_json(["blob"], rows)
    assert truncated and len(text.encode()) <= 20_000
    assert json.loads(text)["rows"] == rows[: len(json.loads(text)["rows"])]


def test_values_json_cannot_hold_are_written_as_text() -> None:
    class Point:
        def __str__(self) -> str:
            return "POINT(1 2 3)"

    text, _ = capped_rows_json(["p"], [[Point()]])
    assert json.loads(text)["rows"] == [["POINT(1 2 3)"]]
