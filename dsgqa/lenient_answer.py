"""The lenient reading of an answer: the SLDP value or PDDL goal inside a reply wrapped in prose.

The headline score is strict: the refine prompt (as Heracles' does) asks for SLDP alone, and an
answer that does not parse is wrong. But a model that says "The answer is 0." knew the answer;
a strict score alone then measures the refine step's formatting, not the model's reading of
the graph. So the compare stage also scores a lenient reading, in columns of its own
(`answer_extracted`, `correct_lenient`), and both numbers are shown side by side.

Candidates, tried in this order; the first that parses is the lenient answer:

1. every fenced block, the last first;
2. after the last answer marker (`answer is`, `answer:`, `answer =`, `answer would be`): the
   rest of that line;
3. balanced spans, the last first: `<...>`, `[...]`, `{...}` for SLDP; outermost `(...)` for
   a PDDL goal;
4. SLDP only: the number, when the text holds exactly one;
5. SLDP only: the whole text when it is one line.

Each candidate loses surrounding quotes, backticks, `*` and trailing `.`, `!` or `;` first. A
text holding Cypher (a fenced ```cypher block, or starting with MATCH and holding RETURN) has
no lenient answer: a query is not an answer, whatever number it contains.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from benchcore.extract import fenced_blocks
from dsgqa.pddl_goal import PDDLGoalError, parse_goal
from dsgqa.sldp import SLDPError, parse_sldp

_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_+-]*[ \t]*\n(.*?)```", re.DOTALL)
_MARKER = re.compile(r"\banswer(?:\s+would\s+be|\s+is|\s*[:=])\s*(.*)$",
                     re.IGNORECASE | re.MULTILINE)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\w)")
_CYPHER = re.compile(r"^\s*(?:OPTIONAL\s+)?MATCH\b.*\bRETURN\b", re.IGNORECASE | re.DOTALL)
_WRAPPING = " \t\n\"'`*"
SLDP_BRACKETS = {"<": ">", "[": "]", "{": "}"}
PDDL_BRACKETS = {"(": ")"}


def lenient_answer(text: str, pddl: bool) -> str | None:
    """The first candidate (module docstring) that parses as SLDP, or as a PDDL goal when
    `pddl`; None when none does."""
    if not text.strip() or fenced_blocks(text, "cypher") or _CYPHER.match(text):
        return None
    parses: Callable[[str], bool] = _is_goal if pddl else _is_sldp
    for candidate in _candidates(text, pddl):
        cleaned = _clean(candidate)
        if cleaned and parses(cleaned):
            return cleaned
    return None


def _candidates(text: str, pddl: bool) -> Iterator[str]:
    yield from reversed([m.group(1) for m in _FENCE.finditer(text)])
    markers = list(_MARKER.finditer(text))
    if markers:
        yield markers[-1].group(1)
    yield from reversed(balanced_spans(text, PDDL_BRACKETS if pddl else SLDP_BRACKETS))
    if pddl:
        return
    numbers = _NUMBER.findall(text)
    if len(numbers) == 1:
        yield numbers[0]
    if "\n" not in text.strip():
        yield text


def balanced_spans(text: str, brackets: dict[str, str]) -> list[str]:
    """Every outermost balanced bracketed span, in order (an unbalanced opening is skipped)."""
    spans: list[str] = []
    stack: list[str] = []
    start = 0
    for i, char in enumerate(text):
        if char in brackets:
            if not stack:
                start = i
            stack.append(brackets[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                spans.append(text[start:i + 1])
        elif stack and char in brackets.values():
            stack = []      # a mismatched closing: start over
    return spans


def _clean(candidate: str) -> str:
    text = candidate.strip(_WRAPPING)
    while text and text[-1] in ".!;":
        text = text[:-1].rstrip(_WRAPPING)
    return text


def _is_sldp(text: str) -> bool:
    try:
        parse_sldp(text)
    except SLDPError:
        return False
    return True


def _is_goal(text: str) -> bool:
    try:
        parse_goal(text)
    except PDDLGoalError:
        return False
    return True
