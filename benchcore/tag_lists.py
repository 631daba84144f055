"""A question's tags as a list in every table.

Tags used to be joined with `;` into one text cell and split again when summarising per tag,
so a tag holding a `;` counted as two tags. In memory and in the Parquet store `tags` is a
list of strings; a CSV cell holds that list as JSON text (`["counting", "a;b"]`), and reading
gives the list back. A cell of an older run (`counting;paths`) is still read as its `;` parts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pandas as pd

TAGS = "tags"


def tag_list(value: object) -> list[str]:
    """The tags a cell holds: a list (or array) as it is, JSON list text, or older `;` text."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                decoded = json.loads(text)
            except ValueError:
                decoded = None
            if isinstance(decoded, list):
                return [str(tag) for tag in decoded]
        return [tag for tag in text.split(";") if tag.strip()]
    if isinstance(value, Iterable):
        return [str(tag) for tag in value]
    return [str(value)]


def tags_as_json(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its `tags` column as JSON text, for a CSV cell."""
    if TAGS not in frame.columns:
        return frame
    text = frame[TAGS].map(lambda v: json.dumps(tag_list(v), ensure_ascii=False))
    return frame.assign(**{TAGS: text})


def tags_as_lists(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its `tags` column as lists (from any of the forms `tag_list` reads)."""
    if TAGS not in frame.columns:
        return frame
    return frame.assign(**{TAGS: frame[TAGS].map(tag_list)})
