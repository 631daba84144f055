"""Outside text in a Markdown table cell or list item, shown as written.

Markdown files and the Prefect artifacts are rendered: a uid, model name, tag or answer holding
`|` or a newline breaks the table it sits in, raw HTML (`<img src=x onerror=...>`, `<details>`)
is rendered as HTML, and `[text](url)` becomes a link. Every such cell goes through
`markdown_text`: whitespace runs (newlines included) become one space, and the characters that
Markdown or HTML would act on are backslash-escaped, which CommonMark renders as the character
itself.
"""

from __future__ import annotations

import re

# Punctuation that starts inline HTML, entities, links, code or emphasis, and the table's `|`.
# `_` is left alone: it is common inside names (`sets_dicts`), where it is no emphasis.
_ACTIVE = re.compile(r"([\\`*\[\]<>&|])")


def markdown_text(text: object, limit: int | None = None) -> str:
    """`text` on one line with Markdown and HTML inert, cut to `limit` characters (before
    escaping, so an escape is never cut in half; `…` marks a cut)."""
    flat = " ".join(str(text).split())
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return _ACTIVE.sub(r"\\\1", flat)
