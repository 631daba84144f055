"""Partial credit: precision, recall and F1 of an answer against a solution, with the reason
for the first mismatch (rules in the package docstring)."""

from __future__ import annotations

import bisect
from typing import Any

from dsgqa.sldp.convert import as_value
from dsgqa.sldp.equality import effective_tol, equal
from dsgqa.sldp.format import format_sldp
from dsgqa.sldp.match import Index, cover, signature
from dsgqa.sldp.values import Number, Point, Score, SLDPDict, SLDPList, SLDPSet, Value, kind_of


def sldp_score(answer: Any, solution: Any, tol: float = 0.01) -> Score:
    """Equality plus partial credit (package docstring); ``answer`` first, text or values."""
    return _score(as_value(answer), as_value(solution), effective_tol(tol), "")


def _ratios(earned_a: float, size_a: int, earned_b: float, size_b: int) -> tuple[float, ...]:
    precision = earned_a / size_a if size_a else 1.0
    recall = earned_b / size_b if size_b else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _verdict(same: bool, counts: tuple[float, int, float, int], reason: str, path: str) -> Score:
    precision, recall, f1 = _ratios(*counts)
    if same:
        return Score(True, 1.0, 1.0, 1.0, "equal")
    return Score(False, precision, recall, f1, f"at {path}: {reason}" if path else reason)


def _show(value: Value, limit: int = 40) -> str:
    text = format_sldp(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _score(a: Value, b: Value, tol: float, path: str) -> Score:
    kind = kind_of(a)
    if kind != kind_of(b):
        return _verdict(
            False, (0, 1, 0, 1), f"{kind} {_show(a)} where a {kind_of(b)} was expected", path
        )
    if kind == "set":
        return _score_sets(a, b, tol, path)
    if kind == "list":
        return _score_lists(a, b, tol, path)
    if kind == "dict":
        return _score_dicts(a, b, tol, path)
    if equal(a, b, tol):
        return Score(True, 1.0, 1.0, 1.0, "equal")
    return _verdict(False, (0, 1, 0, 1), _scalar_mismatch(a, b), path)


def _scalar_mismatch(a: Value, b: Value) -> str:
    if isinstance(a, Point) and len(a.coords) != len(b.coords):
        return f"point {_show(a)} has {len(a.coords)} coordinates, expected {len(b.coords)}"
    if isinstance(a, Point):
        worst = max(abs(x - y) for x, y in zip(a.coords, b.coords, strict=True))
        return f"point {_show(a)} != {_show(b)} (largest coordinate error {worst:.4g})"
    if isinstance(a, str):
        return f"string {_show(a)} != {_show(b)}"
    return f"number {_show(a)} != {_show(b)} ({_relative_error(a, b)})"


def _relative_error(a: Number, b: Number) -> str:
    try:
        if b == 0:
            return f"absolute error {abs(a - b):.4g}"
        return f"relative error {abs(a - b) / abs(b):.2%}"
    except (OverflowError, ValueError):
        return "beyond float range"


def _dedupe(items: tuple[Value, ...]) -> tuple[Value, ...]:
    """Exact duplicates dropped (hash of the structural value), order kept."""
    return tuple(dict.fromkeys(items))


def _score_sets(a: SLDPSet, b: SLDPSet, tol: float, path: str) -> Score:
    items_a, items_b = _dedupe(a.items), _dedupe(b.items)
    found_a, found_b = cover(items_a, items_b, tol, equal)
    counts = (sum(found_a), len(found_a), sum(found_b), len(found_b))
    same = all(found_a) and all(found_b)
    missing = [v for v, hit in zip(items_b, found_b, strict=True) if not hit]
    extra = [v for v, hit in zip(items_a, found_a, strict=True) if not hit]
    reason = "; ".join(
        f"{len(group)} {label}, e.g. {_show(group[0])}"
        for label, group in (("missing from the set", missing), ("not in the solution", extra))
        if group
    )
    return _verdict(same, counts, reason, path)


def _score_lists(a: SLDPList, b: SLDPList, tol: float, path: str) -> Score:
    common = _lcs_length(a.items, b.items, tol)
    same = common == len(a.items) == len(b.items)
    counts = (common, len(a.items), common, len(b.items))
    return _verdict(same, counts, "" if same else _list_mismatch(a, b, tol, path), "")


def _list_mismatch(a: SLDPList, b: SLDPList, tol: float, path: str) -> str:
    sizes = f"{_at(path)}list has {len(a.items)} items, expected {len(b.items)}"
    for index, (x, y) in enumerate(zip(a.items, b.items, strict=False)):
        if not equal(x, y, tol):
            inner = _score(x, y, tol, f"{path}[{index}]").reason
            return inner if len(a.items) == len(b.items) else f"{sizes}; first difference {inner}"
    return sizes


def _lcs_length(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> int:
    """Longest common subsequence under tolerant equality (Hunt-Szymanski).

    Each answer item lists the solution positions it equals (found through the set index),
    and the LCS is the longest strictly increasing run through those positions."""
    start = 0
    while start < min(len(a), len(b)) and equal(a[start], b[start], tol):
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and equal(a[-1 - end], b[-1 - end], tol):
        end += 1
    middle_a, middle_b = a[start : len(a) - end], b[start : len(b) - end]
    if not middle_a or not middle_b:
        return start + end
    index = Index(middle_b, tol, equal)
    tails: list[int] = []
    for value in middle_a:
        for j in reversed(index.partners(value, signature(value))):
            at = bisect.bisect_left(tails, j)
            if at == len(tails):
                tails.append(j)
            else:
                tails[at] = j
    return start + end + len(tails)


def _score_dicts(a: SLDPDict, b: SLDPDict, tol: float, path: str) -> Score:
    earned = 0.0
    first_problem = ""
    for key_id, (key, value) in a.by_key.items():
        if key_id not in b.by_key:
            first_problem = first_problem or f"{_at(path)}key {_show(key)} is not in the solution"
            continue
        inner = _score(value, b.by_key[key_id][1], tol, f"{path}{{{_show(key)}}}")
        earned += inner.f1
        first_problem = first_problem or ("" if inner.equal else inner.reason)
    missing = [key for key_id, (key, _) in b.by_key.items() if key_id not in a.by_key]
    if missing and not first_problem:
        first_problem = f"{_at(path)}key {_show(missing[0])} is missing"
    same = not first_problem
    return _verdict(same, (earned, len(a), earned, len(b)), first_problem, "")


def _at(path: str) -> str:
    return f"at {path}: " if path else ""
