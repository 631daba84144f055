"""The code in a codegen reply: its first fenced ```python (or ```py) block.

Only a block tagged as Python counts: a reply of prose, or code in an untagged or other-language
block, is `no_code`, never run on a guess (prose run as Python would fail as `syntax` and blur
what went wrong)."""

from __future__ import annotations

from benchcore.extract import fenced_blocks


def extract_python(reply: str) -> str:
    """The code of the first Python block, '' when there is none."""
    for language in ("python", "py", "python3"):
        blocks = fenced_blocks(reply, language)
        if blocks:
            return blocks[0]
    return ""
