"""Making outside text storable: replies, database rows and error messages may hold lone
surrogates (valid JSON `"\\udcff"` decodes to one), which UTF-8 writers (CSV, Parquet, JSON
files) refuse with `UnicodeEncodeError`. Every such code point becomes U+FFFD at the boundary
where the text enters the harness, so one odd reply is a scored item, never a lost run.

`safe_text` also masks secrets (`benchcore.redact`): it is what any outside string becomes
before the harness keeps or prints it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from benchcore.redact import holds_secret, redact, secret_values

if TYPE_CHECKING:
    import pandas as pd

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """`text` with every surrogate code point replaced by U+FFFD (a no-op for clean text)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(REPLACEMENT, text)
    return text


def safe_text(text: str, secrets: tuple[str, ...] | None = None) -> str:
    """Storable and free of secrets (`secrets`: precomputed `secret_values()`, for loops)."""
    return redact(storable(text), secrets)


def storable_value(value: Any) -> Any:
    """`storable` applied to every string inside lists, tuples and dicts (database rows)."""
    return _map_strings(value, storable)


def safe_value(value: Any, secrets: tuple[str, ...] | None = None) -> Any:
    """`safe_text` applied to every string inside lists, tuples and dicts (JSON records).
    `secrets`: precomputed `secret_values()`, for loops over many records (reading the
    environment for each of 10,000 result rows cost a second)."""
    secrets = secret_values() if secrets is None else secrets
    return _map_strings(value, lambda text: safe_text(text, secrets))


def safe_record(record: dict[str, Any], secrets: tuple[str, ...] | None = None
                ) -> dict[str, Any]:
    """`safe_value` of a flat record (text, numbers, None: a results-table row), checked in
    one pass when it is clean, which nearly every row is (see `already_safe`)."""
    secrets = secret_values() if secrets is None else secrets
    texts = [text for text in (*record, *record.values()) if isinstance(text, str)]
    if already_safe(texts, secrets):
        return dict(record)
    return safe_value(record, secrets)


def already_safe(texts: list[str], secrets: tuple[str, ...]) -> bool:
    """Whether every text is already storable and secret-free, in one encode and one regex
    search over the texts joined by NUL (30 calls per row cost more than the whole table).

    Exact: a match in the joined text is a match inside one text, since no pattern can span
    a NUL: environment values cannot hold one, and the key and bearer shapes match no NUL;
    a NUL before or after a text is a word boundary, as that text's start and end are."""
    joined = "\0".join(texts)
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not joined or not holds_secret(joined, secrets)


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of a table whose text cells are `safe_text`: the last check before a writer.
    A column whose texts are all clean is checked in one pass (`already_safe`)."""
    import pandas as pd

    secrets, frame = secret_values(), frame.copy()
    for column in frame.columns:
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            texts = [v for v in frame[column] if isinstance(v, str)]
            if already_safe(texts, secrets):
                continue
            frame[column] = frame[column].map(
                lambda v: safe_text(v, secrets) if isinstance(v, str) else v)
    return frame


def _map_strings(value: Any, apply: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return apply(value)
    if isinstance(value, list):
        return [_map_strings(v, apply) for v in value]
    if isinstance(value, tuple):
        return tuple(_map_strings(v, apply) for v in value)
    if isinstance(value, dict):
        return {_map_strings(k, apply): _map_strings(v, apply) for k, v in value.items()}
    return value
