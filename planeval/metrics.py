"""Plan similarity (PlanningLCS, PlanningJaccard) and the plan-length factor.

A plan for these metrics is a sequence of elements; an element is one action (a string) or a
set of concurrent actions (a frozenset). The string form is the seed's: actions separated by
commas, `{a2, a3}` for a concurrent set, e.g. `"a1, {a2, a3}, a4"`. Unlike GAICo 0.4.0, commas
inside parentheses do not split an action, so `stack(A,B)` stays one action (GAICo splits it,
which is why it gives 0.8 and 0.6 on the seeds' examples instead of 0.75 and 0.5). Newlines
also separate actions, so a gold plan file (one action per line) can be passed as it is.

Elements compare as written (after stripping spaces), exactly as the seeds define it. With
`canonical=True` every action is first normalised to `(name arg1 arg2)` in lower case, so
`pick-up(A)` and `(pick-up a)` count as the same action (evaluation compares such canonical
forms, as read by `parse_plan`).

PlanningLCS = LCS length / length of the longer sequence (1.0 when both are empty). The LCS is
computed bit-parallel (Crochemore et al. 2001; Hyyrö 2004): one big-integer addition per
element of one sequence instead of a quadratic table, so 1,000-step plans cost milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from planeval.plan_text import PlanStep, parse_plan

Element = str | frozenset[str]
PlanLike = str | Sequence[Element] | Sequence[PlanStep]


def planning_lcs(generated: PlanLike, reference: PlanLike, canonical: bool = False) -> float:
    """Order-aware similarity in [0, 1]: LCS length over the longer plan's length."""
    gen, ref = _comparable(generated, reference, canonical)
    longest = max(len(gen), len(ref))
    if longest == 0:
        return 1.0
    return lcs_length(gen, ref) / longest


def planning_jaccard(generated: PlanLike, reference: PlanLike, canonical: bool = False) -> float:
    """Order-free similarity in [0, 1]: Jaccard index of the sets of actions (sets flattened)."""
    gen_elements, ref_elements = _comparable(generated, reference, canonical)
    gen, ref = _flatten(gen_elements), _flatten(ref_elements)
    union = gen | ref
    if not union:
        return 1.0
    return len(gen & ref) / len(union)


def plan_length_factor(plan_length: int | None, gold_length: int | None) -> float | None:
    """Plan length relative to the gold plan (1.0 = as long as gold); None without a gold length."""
    if plan_length is None or not gold_length:
        return None
    return plan_length / gold_length


def lcs_length(first: Sequence[Element], second: Sequence[Element]) -> int:
    """Length of a longest common subsequence.

    A common prefix and suffix are matched directly (plans compared with their gold plan share
    most of both); the middle goes to the bit-parallel core.
    """
    prefix = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        prefix += 1
    shorter = min(len(first), len(second))
    if prefix == shorter:
        return shorter
    suffix = 0
    for a, b in zip(reversed(first), reversed(second), strict=False):
        if a != b or suffix == shorter - prefix:
            break
        suffix += 1
    first, second = first[prefix : len(first) - suffix], second[prefix : len(second) - suffix]
    if len(first) > len(second):
        # The bit rows are as long as `first`: the shorter side keeps them short (a
        # 200,000-step reply against a 20-step gold plan built 200,000 masks of up to
        # 200,000 bits, gigabytes, the other way round).
        first, second = second, first
    return prefix + suffix + _lcs_bits(first, second)


def _lcs_bits(first: Sequence[Element], second: Sequence[Element]) -> int:
    """Bit-parallel LCS length over `first`.

    Bit i of `row` is 1 while position i of `first` is still unmatched; for each element of
    `second` the matching unmatched positions are carried upward by one addition. The number of
    zero bits at the end is the LCS length.
    """
    if not first or not second:
        return 0
    n = len(first)
    masks: dict[Element, int] = dict(zip(first, _powers(n), strict=False))
    if len(masks) != n:  # repeated elements: one mask with a bit for every position
        masks = {}
        for element, bit in zip(first, _powers(n), strict=False):
            masks[element] = masks.get(element, 0) | bit
    row = (1 << n) - 1
    for match in map(masks.get, second):
        if match:
            matched = row & match
            row = (row + matched) | (row - matched)  # carries only ever move upward
    return n - (row & ((1 << n) - 1)).bit_count()


_POWER_TABLE: list[int] = [1 << i for i in range(256)]


def _powers(n: int) -> list[int]:
    """1, 2, 4, ... (at least n of them), computed once and reused."""
    while len(_POWER_TABLE) < n:
        _POWER_TABLE.extend(1 << i for i in range(len(_POWER_TABLE), 2 * len(_POWER_TABLE)))
    return _POWER_TABLE


def to_elements(plan: PlanLike, canonical: bool = False) -> list[Element]:
    """The seed's parsed form: a list of action strings and frozensets of concurrent actions."""
    if isinstance(plan, str):
        return _canonical_elements(plan) if canonical else _split_elements(plan)
    elements: list[Element] = []
    for item in plan:
        if isinstance(item, PlanStep):
            elements.append(item.pddl)
        elif isinstance(item, frozenset):
            elements.append(frozenset(_canonical(a) for a in item) if canonical else item)
        else:
            elements.append(_canonical(item) if canonical else item.strip())
    return elements


def _comparable(
    generated: PlanLike, reference: PlanLike, canonical: bool
) -> tuple[Sequence[Element], Sequence[Element]]:
    """Both plans as sequences whose items compare like the seed's elements."""
    if not canonical and isinstance(generated, str) and isinstance(reference, str):
        gen, ref = _action_keys(generated), _action_keys(reference)
        if gen is not None and ref is not None:
            return gen, ref
    return to_elements(generated, canonical), to_elements(reference, canonical)


def _action_keys(text: str) -> list[str] | None:
    """The usual "(a x), (b y)" form, fast: the insides of the actions, or None.

    When the text starts with "(", ends with ")", every comma sits in a "), (" separator and
    every "(" starts an action, the seed's elements are exactly "(" + key + ")", so comparing
    keys is comparing elements (both plans must use this form, or neither).
    """
    if text[:1] != "(" or text[-1:] != ")" or "\n" in text:
        return None
    keys = text[1:-1].split("), (")
    n = len(keys)
    return keys if text.count(",") == n - 1 and text.count("(") == n else None


def _split_elements(text: str) -> list[Element]:
    if "{" not in text and "(" not in text:
        pieces = list(map(str.strip, text.replace("\n", ",").split(",")))
        return [p for p in pieces if p] if "" in pieces else pieces
    return [_set_or_action(piece) for piece in _top_level_pieces(text, "{", "}")]


def _top_level_pieces(text: str, open_set: str, close_set: str) -> list[str]:
    """Split at commas/newlines that are outside parentheses and outside `{...}`."""
    pieces: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char in "(" + open_set:
            depth += 1
        elif char in ")" + close_set:
            depth = max(depth - 1, 0)
        elif depth == 0 and char in ",\n":
            pieces.append(text[start:index])
            start = index + 1
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def _set_or_action(piece: str) -> Element:
    if piece.startswith("{") and piece.endswith("}"):
        return frozenset(_top_level_pieces(piece[1:-1], "", ""))
    return piece


def _canonical_elements(text: str) -> list[Element]:
    """Elements via the plan-text reader: every action as `(name args)`, groups as sets."""
    elements: list[Element] = []
    current_group: int | None = None
    for item in parse_plan(text).items:
        if not isinstance(item, PlanStep):
            elements.append(item.text)
            current_group = None
        elif item.group is None:
            elements.append(item.pddl)
            current_group = None
        elif item.group == current_group and isinstance(elements[-1], frozenset):
            elements[-1] = elements[-1] | {item.pddl}
        else:
            elements.append(frozenset({item.pddl}))
            current_group = item.group
    return elements


def _canonical(action: str) -> str:
    steps = parse_plan(action).steps
    return steps[0].pddl if len(steps) == 1 else action.strip().lower()


def _flatten(elements: Iterable[Element]) -> set[str]:
    flat: set[str] = set()
    for element in elements:
        if isinstance(element, frozenset):
            flat |= element
        else:
            flat.add(element)
    return flat
