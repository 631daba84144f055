"""Pulling the payload out of a chatty model reply.

Models wrap answers in prose and code fences. We take the first fenced block if there is one,
else an `Answer:` line, else the whole reply; whatever comes out is still untrusted and is
checked by the database or the SLDP parser, which score it as a failure if it is malformed.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
_ANSWER_LINE = re.compile(r"^\s*(?:final\s+)?answer\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)


def fenced_block(text: str) -> str | None:
    match = _FENCE.search(text)
    return match.group(2).strip() if match else None


def fenced_blocks(text: str, language: str) -> list[str]:
    """Every fenced block tagged `language` (case-insensitive), in order: an agent on the text
    protocol calls a tool with a ```cypher block, several blocks being several calls."""
    return [m.group(2).strip() for m in _FENCE.finditer(text)
            if m.group(1).lower() == language.lower()]


def extract_cypher(reply: str) -> str:
    """The query in a reply: its fenced block, or the reply without a trailing semicolon."""
    query = fenced_block(reply)
    if query is None:
        query = reply.strip()
    return query.strip().rstrip(";").strip()


def extract_answer(reply: str) -> str:
    """The answer in a reply: fenced block, else an `Answer:` line, else the whole text."""
    block = fenced_block(reply)
    if block is not None:
        return block
    line = _ANSWER_LINE.search(reply)
    if line:
        return line.group(1).strip()
    return reply.strip()
