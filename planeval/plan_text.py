"""Plan text as LLMs write it -> `ParsedPlan` (ordered steps, plus the lines we could not read).

Accepted, per line (case-insensitive; everything is lower-cased):

* PDDL style `(pick-up a)`, bare `pick-up a`, call style `pick-up(a)` / `pickup(A, B)`;
* numbering, bullets and labels in front: `1. `, `2) `, `Step 3: `, `Action 3: `, `0: `,
  `0.000: `, `- `, `* `, and a short label before a PDDL action (`Next: (pick-up a)`);
* a duration or cost after the action: `0: (pick-up a) [1]`;
* `; comments` (whole lines or after the action), blank lines, markdown `**`/backticks;
* several actions on one line, separated by commas or just adjacent `(a x) (b y)`, including
  the GAICo form `a1, {a2, a3}, a4` (commas inside parentheses never split an action). A `{...}`
  set is a group of concurrent actions; the simulator applies them in the written order;
* a JSON list of steps, `[{"action": "left_grasp", "object": "candle_0"}, ...]`, with the
  arguments under `args`/`arguments`/`parameters`/`objects` (a list) or `object` (one), or a
  list of action strings, or an object holding such a list under `plan`/`actions`/`steps`.

If the reply contains fenced code blocks (```), only the blocks count and the prose around them
is ignored; the last block that yields at least one action is the plan. Without fences every
non-blank line must be an action, except a header line such as `Plan:` (words ending in a
colon), which is skipped and listed in `ParsedPlan.ignored`. Any other line is kept as a
`LineError` with its line number, in its place among the steps, so a validator can fail the plan
exactly there instead of silently executing a different plan.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from planeval.pddl import fact_to_pddl


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One action of a plan: lower-case name and arguments, and where it was written."""

    name: str
    args: tuple[str, ...]
    line: int = 0
    group: int | None = None

    @property
    def pddl(self) -> str:
        """Canonical text `(name arg1 arg2)`, used for comparisons and metrics."""
        return fact_to_pddl((self.name, *self.args))


@dataclass(frozen=True, slots=True)
class LineError:
    """A piece of the plan text that is not an action; `line` is 1-based."""

    line: int
    text: str
    message: str


@dataclass(frozen=True, slots=True)
class ParsedPlan:
    """Steps and unreadable pieces in plan order; `ignored` lists skipped header lines."""

    items: tuple[PlanStep | LineError, ...]
    ignored: tuple[int, ...] = ()
    fmt: str = "lines"

    @property
    def steps(self) -> tuple[PlanStep, ...]:
        return tuple(i for i in self.items if isinstance(i, PlanStep))

    @property
    def errors(self) -> tuple[LineError, ...]:
        return tuple(i for i in self.items if isinstance(i, LineError))

    @property
    def ok(self) -> bool:
        return not any(isinstance(i, LineError) for i in self.items)

    def actions(self) -> list[str]:
        """The steps in canonical PDDL text, e.g. for PlanningLCS."""
        return [s.pddl for s in self.items if isinstance(s, PlanStep)]


# The common case, one `(name args)` per line, gets a single regex; everything else the slow way.
_SIMPLE = re.compile(r"\s*\(\s*([^\s(){}\[\],;]+(?:\s+[^\s(){}\[\],;]+)*)\s*\)\s*")
_FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)
_PREFIX = re.compile(
    r"^(?:[-*•+]\s+"  # bullets
    r"|(?:(?:step|action)\s*)?\d+(?:\.\d+)?\s*[.):]\s*"  # 1.  2)  0:  0.000:  Step 3:
    r"|(?:step|action)\s*\d+\s*[.):-]?\s*"  # Step 3 -
    r"|[a-z][a-z ]{0,19}:\s*(?=\())",  # a short label before a PDDL action: "Plan: (a x)"
    re.IGNORECASE,
)
_SUFFIX = re.compile(r"\s*\[[\d.\s]*\]\s*$")
_HEADER = re.compile(r"^[a-z][\w\s'-]*:$")
_WORD = re.compile(r"[a-z_][a-z0-9_\-]*")
_BARE_ARG = re.compile(r"[a-z0-9_][a-z0-9_\-]*")
_ARG = re.compile(r"[^\s(){}\[\],;]+")
_CALL = re.compile(r"([^\s(){}\[\],;]+)\s*\(([^(){}]*)\)")
_PAREN = re.compile(r"\(([^(){}]*)\)")
_NAME_KEYS = ("action", "name", "act", "operator")
_ARG_KEYS = ("args", "arguments", "parameters", "params", "objects")
_LIST_KEYS = ("plan", "actions", "steps")


def parse_plan(text: str) -> ParsedPlan:
    """Read a plan (one reply of an LLM, a gold plan file, a GAICo string) into steps."""
    blocks = [(m.group(1), text.count("\n", 0, m.start(1))) for m in _FENCE.finditer(text)]
    if not blocks:
        return _parse_body(text, 0)
    parsed = [_parse_body(body, offset) for body, offset in blocks]
    with_steps = [p for p in parsed if p.steps]
    return with_steps[-1] if with_steps else parsed[-1]


def parse_action(text: str) -> PlanStep | LineError:
    """Exactly one action (incremental mode: one action per turn)."""
    plan = parse_plan(text)
    if len(plan.items) == 1:
        return plan.items[0]
    if not plan.items:
        return LineError(1, text.strip(), "no action found")
    return LineError(1, text.strip(), f"expected one action, found {len(plan.items)}")


def _parse_body(text: str, line_offset: int) -> ParsedPlan:
    stripped = text.lstrip()
    if stripped[:1] in "[{":
        parsed = _parse_json(text, line_offset)
        if parsed is not None:
            return parsed
    items: list[PlanStep | LineError] = []
    ignored: list[int] = []
    group_counter = [0]
    for number, raw in enumerate(text.lower().splitlines(), line_offset + 1):
        simple = _SIMPLE.fullmatch(raw)
        if simple is not None:
            words = simple.group(1).split()
            items.append(PlanStep(words[0], tuple(words[1:]), number))
            continue
        line = _clean_line(raw)
        if not line:
            continue
        if _HEADER.match(line):
            ignored.append(number)
            continue
        items.extend(_parse_line(line, number, group_counter))
    return ParsedPlan(tuple(items), tuple(ignored), "lines")


def _clean_line(raw: str) -> str:
    """Drop comments, markdown decoration, numbering and trailing durations."""
    line = raw.split(";", 1)[0].replace("**", "").replace("`", "").strip()
    line = _PREFIX.sub("", line, count=1).strip()
    line = _SUFFIX.sub("", line)
    return line.rstrip(".").strip()


def _parse_line(line: str, number: int, group_counter: list[int]) -> Iterator[PlanStep | LineError]:
    for element, in_group in _split_elements(line):
        group = None
        if in_group:
            group = group_counter[0]
        if element is None:
            group_counter[0] += 1
            continue
        yield from _parse_element(element, number, group)


def _split_elements(line: str) -> Iterator[tuple[str | None, bool]]:
    """Split at commas outside parentheses; `{`...`}` marks a concurrent group.

    Yields (element, inside_group); (None, False) marks the end of a group.
    """
    depth = 0
    in_group = False
    start = 0
    for index, char in enumerate(line):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in ",{}":
            piece = line[start:index].strip()
            if piece:
                yield piece, in_group
            if char == "{":
                in_group = True
            elif char == "}" and in_group:
                in_group = False
                yield None, False
            start = index + 1
    piece = line[start:].strip()
    if piece:
        yield piece, in_group


def _parse_element(element: str, number: int, group: int | None) -> Iterator[PlanStep | LineError]:
    """One comma-free piece: `(a x y)`, several `(a x) (b y)`, `a(x, y)` or bare `a x y`."""
    if element.startswith("("):
        groups = list(_PAREN.finditer(element))
        covered = "".join(m.group(0) for m in groups)
        if groups and covered.replace(" ", "") == element.replace(" ", ""):
            for match in groups:
                yield _from_words(_ARG.findall(match.group(1)), number, group, element)
            return
    call = _CALL.fullmatch(element)
    if call is not None and _WORD.fullmatch(call.group(1)):
        yield _from_words([call.group(1), *_ARG.findall(call.group(2))], number, group, element)
        return
    words = element.split()
    if words and _WORD.fullmatch(words[0]) and all(_BARE_ARG.fullmatch(w) for w in words[1:]):
        yield PlanStep(words[0], tuple(words[1:]), number, group)
        return
    yield LineError(number, element, f"line {number}: cannot read an action in '{element}'")


def _from_words(
    words: list[str], number: int, group: int | None, text: str
) -> PlanStep | LineError:
    if not words or not _WORD.fullmatch(words[0]):
        return LineError(number, text, f"line {number}: no action name in '{text}'")
    return PlanStep(words[0], tuple(words[1:]), number, group)


# ---------------------------------------------------------------- JSON plans
def _parse_json(text: str, line_offset: int) -> ParsedPlan | None:
    """A JSON plan, or None when the text is not JSON (then it is read line by line)."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(value, dict):
        value = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
    if not isinstance(value, list):
        return None
    lines = _element_lines(text, line_offset, len(value))
    items: list[PlanStep | LineError] = []
    for element, number in zip(value, lines, strict=True):
        items.extend(_json_step(element, number))
    return ParsedPlan(tuple(items), (), "json")


def _json_step(element: object, number: int) -> Iterator[PlanStep | LineError]:
    if isinstance(element, str):
        cleaned = _clean_line(element.lower())
        yield from _parse_line(cleaned, number, [0]) if cleaned else ()
        return
    if isinstance(element, list) and element and all(isinstance(w, str) for w in element):
        yield _from_words([str(w).lower().strip() for w in element], number, None, str(element))
        return
    if isinstance(element, dict):
        lowered = {str(k).lower(): v for k, v in element.items()}
        name = next((lowered[k] for k in _NAME_KEYS if isinstance(lowered.get(k), str)), None)
        args: object = next((lowered[k] for k in _ARG_KEYS if k in lowered), None)
        if args is None and "object" in lowered:
            args = [lowered["object"]]
        if args is None:
            args = []
        if name is not None and isinstance(args, list) and all(isinstance(a, str) for a in args):
            words = [name.lower().strip(), *(a.lower().strip() for a in args)]
            yield _from_words(words, number, None, json.dumps(element))
            return
    shown = json.dumps(element)[:80]
    yield LineError(number, shown, f"line {number}: cannot read an action in {shown}")


def _element_lines(text: str, line_offset: int, count: int) -> list[int]:
    """Line number of each top-level list element (where its text starts)."""
    decoder = json.JSONDecoder()
    start = text.find("[")
    if start < 0 or count == 0:
        return [line_offset + 1] * count
    lines: list[int] = []
    position = start + 1
    for _ in range(count):
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        lines.append(line_offset + text.count("\n", 0, position) + 1)
        try:
            _value, position = decoder.raw_decode(text, position)
        except ValueError:
            lines.extend([lines[-1]] * (count - len(lines)))
            break
    return lines
