"""Execution accuracy, text2cypher's standard metric (CypherBench, Neo4j's text2cypher): does
the model's query return the rows the reference query returns?

The rules, so a model is not punished for what does not change the answer:
- column names are ignored (a model may alias differently); column order is kept;
- rows compare as a multiset, unless the reference orders its result (an `ORDER BY` in its
  final RETURN, read from the parse tree), then as a sequence; rows the reference's sort keys
  tie on have no defined order (Neo4j may return them either way), so when every sort key is a
  returned column, each run of tied reference rows compares as a multiset in its place;
- cells compare as SLDP values (`dsgqa.sldp`), numbers within the SLDP tolerance, so a float
  that differs in the last digits, or an integer returned as a float, still matches; a point
  (`{x, y, z}`) compares field by field.

Tolerance makes row equality non-transitive (0.995 is near both 0.99 and 1.0), so a multiset
match is a perfect matching of the model's rows to the reference rows, never a greedy pairing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from dsgqa.dialect import CypherSyntaxError, DialectError
from dsgqa.dialect.parser import parse
from dsgqa.dialect.result_order import ResultOrder, final_order
from dsgqa.sldp import SLDPError, from_python
from dsgqa.sldp.equality import effective_tol, equal
from dsgqa.sldp.match import Index, signature
from dsgqa.sldp.values import Value

TOLERANCE = 0.01
# The grammar's ORDER keyword (`cypher.lark`: `_ORDER.2: /ORDER\b/i`): a query without it
# cannot order its result, and needs no parse to say so.
_ORDER_KEYWORD = re.compile(r"ORDER\b", re.IGNORECASE)


def reference_order(reference_cypher: str) -> ResultOrder | None:
    """How the reference's final result is ordered (`dialect.result_order`), or None when it
    is not. A reference the grammar cannot read (Neo4j syntax beyond it, on the Neo4j backend)
    counts as unordered. Each model's answer to a question is compared with the same
    reference, on every run: parsing the reference each time was most of a fully cached
    rerun's run-query stage."""
    if not _ORDER_KEYWORD.search(reference_cypher):
        return None
    readable, order = _parsed_order(reference_cypher)
    return order if readable else None


def query_order(cypher: str) -> ResultOrder | None:
    """How a query's result is ordered, for keeping its rows as the engine gave them: as
    `reference_order`, except that a query the grammar cannot read but that says ORDER is
    taken as ordered with unknown keys (its rows are left in the engine's order, never
    reordered on a guess)."""
    if not _ORDER_KEYWORD.search(cypher):
        return None
    readable, order = _parsed_order(cypher)
    return order if readable else ResultOrder(keys=None)


@functools.lru_cache(maxsize=16_384)
def _parsed_order(cypher: str) -> tuple[bool, ResultOrder | None]:
    """Whether the grammar reads the query, and the order of its final result."""
    try:
        root = parse(cypher)
    except (CypherSyntaxError, DialectError):   # DialectError: Neo4j 5 syntax it does not read
        return False, None
    return True, final_order(root)


def rows_match(rows: Sequence[Sequence[Any]], reference: Sequence[Sequence[Any]],
               ordered: bool | ResultOrder | None, tol: float = TOLERANCE) -> bool:
    """The model's rows equal the reference rows under the rules above. `ordered`: the
    reference's `ResultOrder` (ties compare as multisets), True (strict order), or
    False/None (a multiset)."""
    if len(rows) != len(reference):
        return False
    if _same_rows(rows, reference):
        return True
    tol = effective_tol(tol)
    given = [_row_value(row) for row in rows]
    wanted = [_row_value(row) for row in reference]
    if not ordered:
        return _one_to_one(given, wanted, tol)
    keys = ordered.keys if isinstance(ordered, ResultOrder) else None
    if keys is None:
        return all(equal(a, b, tol) for a, b in zip(given, wanted, strict=True))
    return all(_one_to_one(given[start:end], wanted[start:end], tol)
               for start, end in _tie_runs(reference, keys))


def _same_rows(rows: Sequence[Sequence[Any]], reference: Sequence[Sequence[Any]]) -> bool:
    """The very rows of the reference, in its order: the usual case (a model's query equal to
    the reference, or one that returns the same rows), which then needs no SLDP conversion.
    Compared by `repr`, not `==`, so `True` and `1`, or `1` and `1.0`, are not taken for the
    same cell here: those go through the SLDP rules below."""
    return repr(rows) == repr(reference)


def _tie_runs(reference: Sequence[Sequence[Any]], keys: tuple[int, ...]
              ) -> list[tuple[int, int]]:
    """[start, end) of each run of consecutive reference rows with equal sort-key cells."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(reference) + 1):
        if i == len(reference) or _key_cells(reference[i], keys) != _key_cells(
                reference[start], keys):
            runs.append((start, i))
            start = i
    return runs


def _key_cells(row: Sequence[Any], keys: tuple[int, ...]) -> list[Any]:
    return [row[k] if k < len(row) else None for k in keys]


def _row_value(row: Sequence[Any]) -> Value:
    """A row as one SLDP list, so rows compare cell by cell (a different column count never
    matches). A row SLDP cannot hold (nested too deep) compares by its exact text."""
    try:
        return from_python(list(row))
    except (SLDPError, ValueError, TypeError, RecursionError):
        return f"\0row {row!r}"


def _one_to_one(given: list[Value], wanted: list[Value], tol: float) -> bool:
    """Whether each given row can be paired with its own equal reference row.

    Exact twins are paired first (one dict lookup each: the usual case, where the model's query
    returns the very rows of the reference). That pairing is only a start: augmenting paths from
    the rows left over may re-pair an exact twin when its partner is the only near one of
    another row, so the answer is the same as a full bipartite matching's. Near partners come
    from the SLDP tolerance grid (`sldp.match.Index`), computed only for rows a search reaches.
    """
    index = Index(tuple(wanted), tol, equal)
    sigs = [signature(value) for value in given]
    pairs = _Pairs(len(given), len(wanted))
    for i, sig in enumerate(sigs):
        if sig[1] is None:  # sets of numbers inside: a shared signature proves nothing
            continue
        twin = next((j for j in index.exact.get(sig, ()) if pairs.owner[j] < 0), None)
        if twin is not None:
            pairs.pair(i, twin)
    free = [i for i in range(len(given)) if pairs.partner[i] < 0]
    near: dict[int, list[int]] = {}

    def partners(i: int) -> list[int]:
        if i not in near:
            near[i] = index.partners(given[i], sigs[i])
        return near[i]

    return all(pairs.augment(start, partners) for start in free)


class _Pairs:
    """A matching between given rows and reference rows, grown by augmenting paths."""

    def __init__(self, given: int, wanted: int) -> None:
        self.partner = [-1] * given  # given row -> its reference row
        self.owner = [-1] * wanted  # reference row -> its given row

    def pair(self, i: int, j: int) -> None:
        self.partner[i], self.owner[j] = j, i

    def augment(self, start: int, partners: Callable[[int], list[int]]) -> bool:
        """Find an augmenting path from the unpaired row `start` breadth-first and flip it;
        False when there is none (then no perfect matching exists). Iterative, so a long chain
        of re-pairings cannot hit Python's recursion limit."""
        came_from: dict[int, int] = {}  # reference row -> the given row that reached it
        frontier = [start]
        while frontier:
            following = []
            for i in frontier:
                for j in partners(i):
                    if j in came_from:
                        continue
                    came_from[j] = i
                    if self.owner[j] < 0:
                        self._flip(j, came_from)
                        return True
                    following.append(self.owner[j])
            frontier = following
        return False

    def _flip(self, j: int, came_from: dict[int, int]) -> None:
        """Pair along the path that ends at the free reference row `j`."""
        while j >= 0:
            i = came_from[j]
            previous = self.partner[i]
            self.pair(i, j)
            j = previous
