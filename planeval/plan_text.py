"""Plan text as LLMs write it -> `ParsedPlan` (ordered steps, plus the lines we could not read).

Accepted action forms, per line (case-insensitive; everything is lower-cased):

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

Where the plan is in a reply (the extraction rules). Replies mix a plan with prose, and prose
read as an action would be scored as a hallucinated action instead of a parsing error (the EAI
error taxonomy keeps the two apart), so the plan is found first and only then read:

1. Fenced code blocks (```) come first. The plan is the first block *tagged* `pddl` that parses
   as actions, else the first block that parses as actions. A block parses as actions when
   every line of it reads as an action and, when the domain's action names are given, at least
   one of them names a known action: a later block of final-state facts (`(on a b)`) or a
   draft after the plan never replaces it.
2. Inside the chosen block every non-blank line must be an action (a header such as `Plan:` is
   skipped); any other line is kept as a `LineError` in its place, so the validator fails the
   plan exactly there (a parsing error) instead of silently executing a different plan.
3. Without such a block (no fences, or none parses as actions) the text outside the fences is
   read line by line. Given the domain's action names, a line is an action when it is
   parenthesised, `(name args)`, whatever the name (an unknown name is then a hallucinated
   action), or when it is `name(args)` / `name arg ...` with a known action name. A line that
   is neither but starts with a known action name or holds `(known-name ...` is a malformed
   action (`LineError`); every other line is prose and is skipped (listed in `ignored`).
   Without action names (gold plans, GAICo strings) every non-blank line must be an action.
4. If that finds no action but a fenced block has some, the first such block is the plan, with
   its unreadable lines as `LineError`s.
5. A reply with no action at all gives an empty plan; `validate_plan` scores it as a parsing
   error unless the goal already holds in the initial state.
6. At most `MAX_PLAN_STEPS` steps are read. A reply with more is `cut` (the plan keeps the
   first `MAX_PLAN_STEPS`), and `validate_plan` fails it there with the kind `too_long`: a
   hostile or runaway reply of a million steps costs a bounded amount of work, and a plan
   that long is no answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from planeval.pddl import fact_to_pddl

#: Most steps read from one plan text; 100 times the longest gold plan of the shared data.
MAX_PLAN_STEPS = 10_000


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
    """Steps and unreadable pieces in plan order; `ignored` lists skipped header and prose lines."""

    items: tuple[PlanStep | LineError, ...]
    ignored: tuple[int, ...] = ()
    fmt: str = "lines"
    cut: bool = False   # the text held more than MAX_PLAN_STEPS items; these are the first

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
_FENCE = re.compile(r"^[ \t]*```([^\n]*)\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)
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
_OPEN = re.compile(r"\(\s*([^\s(){}\[\],;]+)")
_NAME_KEYS = ("action", "name", "act", "operator")
_ARG_KEYS = ("args", "arguments", "parameters", "params", "objects")
_LIST_KEYS = ("plan", "actions", "steps")


def parse_plan(text: str, actions: Collection[str] | None = None) -> ParsedPlan:
    """Read a plan (one reply of an LLM, a gold plan file, a GAICo string) into steps.

    `actions` are the domain's action names: with them, prose outside fenced blocks is told
    apart from actions (the extraction rules in the module docstring); without them every
    non-blank line must be an action.
    """
    return _capped(_find_plan(text, actions))


def _capped(plan: ParsedPlan) -> ParsedPlan:
    """`plan` with at most `MAX_PLAN_STEPS` items, marked `cut` when it had more."""
    if len(plan.items) <= MAX_PLAN_STEPS:
        return plan
    return ParsedPlan(plan.items[:MAX_PLAN_STEPS], plan.ignored, plan.fmt, cut=True)


def _find_plan(text: str, actions: Collection[str] | None) -> ParsedPlan:
    """The plan of a reply by the extraction rules, before the step cap."""
    known = None if actions is None else frozenset(a.lower() for a in actions)
    fences = list(_FENCE.finditer(text))
    if not fences:
        return _parse_body(text, 0, known)
    blocks = [
        (m.group(1).strip().lower(), _parse_body(m.group(2), _line_of(text, m.start(2)), None))
        for m in fences
    ]
    clean = [(tag, plan) for tag, plan in blocks if _parses_as_actions(plan, known)]
    tagged = [plan for tag, plan in clean if tag.split()[:1] == ["pddl"]]
    if tagged or clean:
        return (tagged or [plan for _tag, plan in clean])[0]
    outside = _parse_body(_without_fences(text, fences), 0, known)
    if outside.steps:
        return outside
    with_steps = [plan for _tag, plan in blocks if plan.steps]
    return with_steps[0] if with_steps else outside


def parse_action(text: str, actions: Collection[str] | None = None) -> PlanStep | LineError:
    """Exactly one action (incremental mode: one action per turn); prose around it is read by
    the same rules as in `parse_plan`."""
    plan = parse_plan(text, actions)
    if len(plan.items) == 1:
        return plan.items[0]
    if not plan.items:
        return LineError(1, text.strip(), "no action found")
    return LineError(1, text.strip(), f"expected one action, found {len(plan.items)}")


def _parses_as_actions(plan: ParsedPlan, known: frozenset[str] | None) -> bool:
    if not plan.steps or not plan.ok:
        return False
    return known is None or any(step.name in known for step in plan.steps)


def _line_of(text: str, position: int) -> int:
    """Lines before `position`: the offset that keeps line numbers counted from the reply."""
    return text.count("\n", 0, position)


def _without_fences(text: str, fences: list[re.Match[str]]) -> str:
    """The text outside the fenced blocks, each block blanked to as many empty lines."""
    parts, start = [], 0
    for match in fences:
        parts.append(text[start : match.start()])
        parts.append("\n" * match.group(0).count("\n"))
        start = match.end()
    parts.append(text[start:])
    return "".join(parts)


def _parse_body(text: str, line_offset: int, known: frozenset[str] | None) -> ParsedPlan:
    """Strict when `known` is None (every line is an action); else prose lines are skipped."""
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
        words = simple.group(1).split() if simple is not None else []
        if words and _WORD.fullmatch(words[0]):
            items.append(PlanStep(words[0], tuple(words[1:]), number))
            if len(items) > MAX_PLAN_STEPS:
                break
            continue
        line = _clean_line(raw)
        if not line:
            continue
        if _HEADER.match(line):
            ignored.append(number)
            continue
        read = list(_parse_line(line, number, group_counter, known))
        if known is None or all(isinstance(item, PlanStep) for item in read):
            items.extend(read)  # type: ignore[arg-type]  # strict mode has no _Prose
        elif _mentions_action(line, known):
            items.extend(_as_error(item) for item in read)
        else:
            ignored.append(number)
        if len(items) > MAX_PLAN_STEPS:   # enough to know the plan is cut (`_capped`)
            break
    return ParsedPlan(tuple(items), tuple(ignored), "lines")


@dataclass(frozen=True, slots=True)
class _Prose:
    """A piece that is only an action if its name is known (`name arg`, `name(args)`)."""

    line: int
    text: str


def _as_error(item: PlanStep | LineError | _Prose) -> PlanStep | LineError:
    if isinstance(item, _Prose):
        return LineError(item.line, item.text, f"line {item.line}: '{item.text}' is no action")
    return item


def _mentions_action(line: str, known: frozenset[str]) -> bool:
    """Does a line that is not an action look like a malformed one (not like prose)?"""
    first = _WORD.match(line)
    if first is not None and first.group(0) in known:
        return True
    return any(match.group(1) in known for match in _OPEN.finditer(line))


def _clean_line(raw: str) -> str:
    """Drop comments, markdown decoration, numbering and trailing durations."""
    line = raw.split(";", 1)[0].replace("**", "").replace("`", "").strip()
    line = _PREFIX.sub("", line, count=1).strip()
    line = _SUFFIX.sub("", line)
    return line.rstrip(".").strip()


def _parse_line(
    line: str, number: int, group_counter: list[int], known: frozenset[str] | None = None
) -> Iterator[PlanStep | LineError | _Prose]:
    for element, in_group in _split_elements(line):
        group = None
        if in_group:
            group = group_counter[0]
        if element is None:
            group_counter[0] += 1
            continue
        yield from _parse_element(element, number, group, known)


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


def _parse_element(
    element: str, number: int, group: int | None, known: frozenset[str] | None
) -> Iterator[PlanStep | LineError | _Prose]:
    """One comma-free piece: `(a x y)`, several `(a x) (b y)`, `a(x, y)` or bare `a x y`.

    With `known` action names, the call and bare forms are actions only under a known name;
    otherwise they are `_Prose` (the parenthesised form is an action whatever its name).
    """
    if element.startswith("("):
        groups = list(_PAREN.finditer(element))
        covered = "".join(m.group(0) for m in groups)
        if groups and covered.replace(" ", "") == element.replace(" ", ""):
            for match in groups:
                yield _from_words(_ARG.findall(match.group(1)), number, group, element)
            return
    call = _CALL.fullmatch(element)
    if call is not None and _WORD.fullmatch(call.group(1)):
        step = _from_words([call.group(1), *_ARG.findall(call.group(2))], number, group, element)
        yield _Prose(number, element) if _unknown(step, known) else step
        return
    words = element.split()
    if words and _WORD.fullmatch(words[0]) and all(_BARE_ARG.fullmatch(w) for w in words[1:]):
        step = PlanStep(words[0], tuple(words[1:]), number, group)
        yield _Prose(number, element) if _unknown(step, known) else step
        return
    if known is not None:
        yield _Prose(number, element)
        return
    yield LineError(number, element, f"line {number}: cannot read an action in '{element}'")


def _unknown(step: PlanStep | LineError, known: frozenset[str] | None) -> bool:
    return known is not None and isinstance(step, PlanStep) and step.name not in known


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
