"""Execution accuracy, text2cypher's standard metric (CypherBench, Neo4j's text2cypher): does
the model's query return the rows the reference query returns?

The rules, so a model is not punished for what does not change the answer:
- column names are ignored (a model may alias differently); column order is kept;
- rows compare as a multiset, unless the reference orders its result (an `ORDER BY` in its
  final RETURN), then as a sequence;
- cells compare as SLDP values (`dsgqa.sldp`), numbers within the SLDP tolerance, so a float
  that differs in the last digits, or an integer returned as a float, still matches; a point
  (`{x, y, z}`) compares field by field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from dsgqa.sldp import SLDPError, from_python, sldp_equals

TOLERANCE = 0.01
_FINAL_RETURN = re.compile(r"\bRETURN\b(?!.*\bRETURN\b)", re.IGNORECASE | re.DOTALL)


def reference_orders(reference_cypher: str) -> bool:
    """Whether the reference's final RETURN has an ORDER BY (then row order is the answer)."""
    match = _FINAL_RETURN.search(reference_cypher)
    return bool(match) and re.search(r"\bORDER\s+BY\b", reference_cypher[match.end():],
                                     re.IGNORECASE) is not None


def rows_match(rows: Sequence[Sequence[Any]], reference: Sequence[Sequence[Any]],
               ordered: bool, tol: float = TOLERANCE) -> bool:
    """The model's rows equal the reference rows under the rules above."""
    if len(rows) != len(reference):
        return False
    if any(len(row) != len(ref) for row in rows for ref in reference[:1]):
        return False
    if ordered:
        return all(_row_equal(a, b, tol) for a, b in zip(rows, reference, strict=True))
    unmatched = list(reference)
    for row in rows:
        index = next((i for i, ref in enumerate(unmatched) if _row_equal(row, ref, tol)), None)
        if index is None:
            return False
        unmatched.pop(index)
    return True


def _row_equal(a: Sequence[Any], b: Sequence[Any], tol: float) -> bool:
    return len(a) == len(b) and all(_cell_equal(x, y, tol) for x, y in zip(a, b, strict=True))


def _cell_equal(a: Any, b: Any, tol: float) -> bool:
    try:
        return sldp_equals(from_python(a), from_python(b), tol)
    except (SLDPError, ValueError, TypeError):
        return a == b
