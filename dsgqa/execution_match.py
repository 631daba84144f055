"""Execution accuracy, text2cypher's standard metric (CypherBench, Neo4j's text2cypher): does
the model's query return the rows the reference query returns?

The rules, so a model is not punished for what does not change the answer:
- column names are ignored (a model may alias differently); column order is kept;
- rows compare as a multiset, unless the reference orders its result (an `ORDER BY` in its
  final RETURN, read from the parse tree), then as a sequence;
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

from lark import Tree

from dsgqa.dialect import CypherSyntaxError
from dsgqa.dialect.parser import parse
from dsgqa.sldp import SLDPError, from_python
from dsgqa.sldp.equality import effective_tol, equal
from dsgqa.sldp.match import Index, signature
from dsgqa.sldp.values import Value

TOLERANCE = 0.01
# The grammar's ORDER keyword (`cypher.lark`: `_ORDER.2: /ORDER\b/i`): a query without it
# cannot order its result, and needs no parse to say so.
_ORDER_KEYWORD = re.compile(r"ORDER\b", re.IGNORECASE)


def reference_orders(reference_cypher: str) -> bool:
    """Whether the reference's final result is ordered (`_parsed_reference_orders`). Each
    model's answer to a question is compared with the same reference, on every run: parsing
    the reference each time was most of a fully cached rerun's run-query stage."""
    if not _ORDER_KEYWORD.search(reference_cypher):
        return False
    return _parsed_reference_orders(reference_cypher)


@functools.lru_cache(maxsize=16_384)
def _parsed_reference_orders(reference_cypher: str) -> bool:
    """Whether the reference's final result has a defined order: an ORDER BY in the RETURN
    that ends the query. An ORDER BY in a WITH (before an aggregation, say) orders what the
    next clause sees, not the rows; after a UNION no order is defined. A reference the grammar
    cannot read (Neo4j syntax beyond it, on the Neo4j backend) counts as unordered."""
    try:
        root = parse(reference_cypher)
    except CypherSyntaxError:
        return False
    query = root.children[0]
    parts = [c for c in query.children if isinstance(c, Tree)]
    if any(part.data == "union" for part in parts):
        return False
    last = parts[-1].children[-1]
    if not (isinstance(last, Tree) and last.data == "return_clause"):
        return False
    return any(isinstance(c, Tree) and c.data == "order" for c in last.children[0].children)


def rows_match(rows: Sequence[Sequence[Any]], reference: Sequence[Sequence[Any]],
               ordered: bool, tol: float = TOLERANCE) -> bool:
    """The model's rows equal the reference rows under the rules above."""
    if len(rows) != len(reference):
        return False
    tol = effective_tol(tol)
    given = [_row_value(row) for row in rows]
    wanted = [_row_value(row) for row in reference]
    if ordered:
        return all(equal(a, b, tol) for a, b in zip(given, wanted, strict=True))
    return _one_to_one(given, wanted, tol)


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
