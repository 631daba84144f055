"""What failed items have in common: an item's error text reduced to its cause, and the most
common causes with their counts, so a failed run says why in a line or three
(`28 × HTTP 401: bad or missing API key`) instead of only "28/28 items errored".

Error texts look like `generate-cypher: LLMError: model gpt-4o: HTTP 401: bad or missing API key
(set $OPENAI_API_KEY): Incorrect API key provided`: the stage, the exception class and the model
are where it happened, the part in parentheses and after the hint is detail that varies.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_WHERE = re.compile(
    r"^(?:[a-z][\w-]*(?:\[[^\]]*\])?: |\S+ batch failed: |batch failed: |[A-Z]\w*: |model \S+: )"
)
# A status with a known hint: the hint is the cause, the server's message detail.
_HTTP_HINT = re.compile(r"^(HTTP \d{3}: (?!request failed)[^:(]*[^:( ])")
_CAUSE_CHARS = 120


def cause_of(error: str) -> str:
    """The cause in an item's error text: without where it happened and without detail."""
    text = " ".join(error.split())
    while True:
        stripped = _WHERE.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    http = _HTTP_HINT.match(text)
    if http:
        return http.group(1)
    return text.split(" (", 1)[0][:_CAUSE_CHARS] or "unknown error"


def top_causes(errors: Iterable[str], n: int = 3) -> list[tuple[str, int]]:
    """The `n` most common causes among non-empty error texts, most common first."""
    counts = Counter(cause_of(e) for e in errors if e)
    return counts.most_common(n)


def describe_causes(causes: Iterable[tuple[str, int]]) -> list[str]:
    """`28 × HTTP 401: bad or missing API key`, one line per cause."""
    return [f"{count} × {cause}" for cause, count in causes]
