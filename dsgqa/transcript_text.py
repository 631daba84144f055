"""An agent's conversation as short readable text, for the results table and the report's
drill-down (the whole conversation is in `transcripts/*.jsonl`).

The system prompt and the question are left out (the row has the question; the prompt is the
same for every item); every model turn and tool result is kept, each cut to a few hundred
characters, and the whole to `MAX_CHARS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TURN_CHARS = 600
MAX_CHARS = 8_000


def transcript_text(messages: Sequence[dict[str, Any]]) -> str:
    lines: list[str] = []
    turn = 0
    for message in messages:
        role = message.get("role")
        content = str(message.get("content") or "")
        if role == "assistant":
            turn += 1
            calls = message.get("tool_calls") or []
            said = [f"{_call_name(c)}({_cut(_call_arguments(c))})" for c in calls]
            if content.strip():
                said.insert(0, _cut(content))
            lines.append(f"[{turn}] model: " + (" ; ".join(said) or "(empty reply)"))
        elif role == "tool" or (role == "user" and turn > 0):
            lines.append(f"    result: {_cut(content)}")
    text = "\n".join(lines)
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + " …(cut)"


def _call_name(call: dict[str, Any]) -> str:
    return str((call.get("function") or {}).get("name", "?"))


def _call_arguments(call: dict[str, Any]) -> str:
    return str((call.get("function") or {}).get("arguments", ""))


def _cut(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= TURN_CHARS else flat[:TURN_CHARS] + " …"
