"""SLDP: the answer language of the QA track, and how two answers are judged.

Syntax (grammar in ``dsgqa/sldp.lark``; whitespace between tokens is ignored)::

    3   -2.5   1e-3            numbers (ints, floats, sign, scientific notation)
    kitchen   "dining table"   strings: bare words, or quoted ('...' or "...") with \\" and \\\\
    dining table               several bare words in a row are one string, joined by one space
    [a, b]                     list (ordered)
    <a, b>                     set (unordered, duplicates irrelevant)
    {k: v, k2: v2}             dict; keys are numbers or strings
    POINT(1 2 3)  POINT(1 2)   3-D or 2-D point, coordinates separated by spaces
    [] <> {}                   empty containers; everything nests arbitrarily

Python values: numbers are ``int``/``float``, strings ``str``, and the containers are the
immutable types below (:class:`SLDPList`, :class:`SLDPSet`, :class:`SLDPDict`, :class:`Point`).
They are immutable because parses are memoized and shared. Their ``==`` is exact structural
equality; SLDP equality is :func:`sldp_equals`. The comparators take SLDP text (``str``) or
values; a lone parsed string comes back as :class:`SLDPString` (a ``str``) so that passing it
on is not mistaken for text. :func:`to_sldp` prints plain Python data (database rows).

Equality, with an absolute tolerance ``tol`` (default 0.01):

* numbers: ``|a - b| <= tol`` (inclusive; an int equals a float, ``3 == 3.0``). A relative slack
  of 1e-6 on ``tol`` absorbs binary rounding, so ``1.00`` vs ``1.01`` is inside at 0.01.
* strings: equal after ``strip()`` + ``casefold()``.
* lists: same length and equal element by element.
* sets: mutual inclusion: every element of each side equals some element of the other.
  Duplicates are irrelevant. Tolerance makes element equality non-transitive, so partners are
  never consumed greedily: each element is checked against every candidate near it (found by
  bucketing on a tolerance grid, so the usual case is O(n log n) rather than O(n^2)).
* dicts: the same key set and equal values per key. Keys are matched exactly after
  normalisation (strings stripped + casefolded, numbers by value): keys identify, values measure.
* points: same dimension and every coordinate within ``tol``.
* different kinds are never equal: a list is not a set, a number is not a string.

Partial credit (:func:`sldp_score`; the first argument is the answer, the second the solution):

* precision is the share of the answer that is right, recall the share of the solution that
  was found, F1 their harmonic mean (0 when both are 0). An empty side scores 1 on its own
  ratio (an empty answer claims nothing false), so an empty answer to a non-empty question
  gets precision 1, recall 0, F1 0.
* sets: over the distinct elements (exact duplicates dropped), precision = matched answer
  elements / answer elements, recall = matched solution elements / solution elements.
* lists: from the longest common subsequence under element equality: LCS / len(answer) and
  LCS / len(solution), so one missing or extra item costs little and order still counts.
* dicts: per key; each shared key earns the F1 of its two values (recursively), precision =
  earned / answer keys, recall = earned / solution keys.
* numbers, strings, points, and values of different kinds: 1 if equal, else 0. For numbers the
  reason reports the relative error.

``Score.reason`` names the first mismatch with its path (``[2]`` list index, ``{key}`` dict key).

Modules, one job each: ``values`` (types), ``parse`` (text -> values), ``format`` (values ->
text), ``convert`` (plain Python data), ``equality``, ``grid`` (which tolerance-grid cells may
hold partners), ``match`` (the partner index behind sets and lists), ``point_join`` (the same
search vectorised, for large sets of numbers or points) and ``score`` (partial credit). Import
the public names from ``dsgqa.sldp``.
"""

from __future__ import annotations

from dsgqa.sldp.convert import from_python, to_sldp
from dsgqa.sldp.equality import sldp_equals
from dsgqa.sldp.format import format_sldp
from dsgqa.sldp.parse import MEMO_MAX_CHARS, parse_sldp
from dsgqa.sldp.score import sldp_score
from dsgqa.sldp.values import (
    MAX_DEPTH,
    Number,
    Point,
    Score,
    SLDPDict,
    SLDPError,
    SLDPList,
    SLDPSet,
    SLDPString,
    Value,
)

__all__ = [
    "MAX_DEPTH",
    "MEMO_MAX_CHARS",
    "Number",
    "Point",
    "SLDPDict",
    "SLDPError",
    "SLDPList",
    "SLDPSet",
    "SLDPString",
    "Score",
    "Value",
    "format_sldp",
    "from_python",
    "parse_sldp",
    "sldp_equals",
    "sldp_score",
    "to_sldp",
]
