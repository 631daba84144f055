"""SLDP: the answer language of the QA track, and how two answers are judged.

Syntax (grammar in ``sldp.lark``; whitespace between tokens is ignored)::

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
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import product
from numbers import Integral, Real
from pathlib import Path
from typing import Any, TypeAlias

from lark import Lark, LarkError, Token, Transformer, UnexpectedCharacters, UnexpectedInput

from dsgqa.nesting import deeper_than

Number: TypeAlias = int | float

#: Deepest nesting accepted; keeps the recursive comparison far from Python's recursion limit.
MAX_DEPTH = 64
#: Texts up to this length are memoized (LRU of ``_MEMO_SIZE`` entries); longer ones are not,
#: so a few huge answers cannot pin a lot of memory.
MEMO_MAX_CHARS = 4096
_MEMO_SIZE = 8192
_REL_SLACK = 1 + 1e-6
#: Sets smaller than this (product of sizes) are compared pairwise; the index costs more.
_PAIRWISE_LIMIT = 64


class SLDPError(ValueError):
    """Malformed SLDP text (with line, column and what was expected) or an unusable value."""


# ----------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Point:
    """A 2-D or 3-D point; equal to another point when every coordinate is within tolerance."""

    coords: tuple[Number, ...]


@dataclass(frozen=True, slots=True)
class SLDPList:
    """An ordered sequence: ``[a, b]``."""

    items: tuple[Value, ...] = ()

    def __iter__(self) -> Iterator[Value]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class SLDPSet:
    """An unordered collection: ``<a, b>``. Items are kept as written (duplicates included)
    because element equality has a tolerance, so no hash-based set could hold them."""

    items: tuple[Value, ...] = ()

    def __iter__(self) -> Iterator[Value]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class SLDPDict:
    """A mapping ``{k: v}`` as written; keys must be distinct after normalisation."""

    items: tuple[tuple[Number | str, Value], ...] = ()
    by_key: dict[Any, tuple[Number | str, Value]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        index: dict[Any, tuple[Number | str, Value]] = {}
        for key, value in self.items:
            key_id = _key_id(key)
            if key_id in index:
                raise SLDPError(f"duplicate dict key {format_sldp(key)}")
            index[key_id] = (key, value)
        object.__setattr__(self, "by_key", index)

    def __len__(self) -> int:
        return len(self.items)


class SLDPString(str):
    """A string *value* returned by :func:`parse_sldp` (when the whole answer is one string).

    The comparators read a plain ``str`` argument as SLDP *text*; this subclass marks text that
    was already parsed, so ``sldp_score(parse_sldp('"chair, red"'), ...)`` compares the string
    ``chair, red`` instead of parsing it again (which would fail on the comma)."""

    __slots__ = ()


Value: TypeAlias = int | float | str | Point | SLDPList | SLDPSet | SLDPDict
_NUMBER_TYPES = (int, float)


@dataclass(frozen=True, slots=True)
class Score:
    """A verdict with partial credit; ``reason`` is ``"equal"`` or names the first mismatch."""

    equal: bool
    precision: float
    recall: float
    f1: float
    reason: str


def _key_id(key: Number | str) -> Any:
    """The identity of a dict key: normalised text, or the number (3 and 3.0 are one key)."""
    if isinstance(key, str):
        return ("s", _norm(key))
    if type(key) in _NUMBER_TYPES and key == key:
        return ("n", key)
    raise SLDPError(f"dict keys must be numbers or strings, not {_kind(key)}")


def _norm(text: str) -> str:
    return text.strip().casefold()


# ----------------------------------------------------------------------------- parsing

_GRAMMAR = Path(__file__).with_name("sldp.lark")
_ESCAPE = re.compile(r"\\(.)", re.S)
_FRIENDLY = {
    "NUMBER": "a number",
    "NAME": "a word",
    "DQ_STRING": "a quoted string",
    "SQ_STRING": "a quoted string",
    "POINT_OPEN": "POINT(",
    "$END": "end of input",
}


def _number(text: str) -> Number:
    """Ints stay ints so they print back unchanged; anything with a point or exponent is float."""
    try:
        if "." in text or "e" in text or "E" in text:
            return float(text)
        return int(text)
    except ValueError as exc:  # e.g. more digits than int() accepts
        raise SLDPError(f"unusable number {text[:20]!r}...: {exc}") from None


def _unquote(token: str) -> str:
    r"""Drop the quotes; ``\\``, ``\"`` and ``\'`` stand for the character, other ``\x`` stay."""
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in "\\\"'" else m.group(0), token[1:-1])


class _Builder(Transformer):
    """Runs inside the LALR parser (no tree is built) and yields the immutable values."""

    def number(self, children: list[Token]) -> Number:
        return _number(children[0])

    def string(self, children: list[Token]) -> str:
        first = children[0]
        if first.type == "NAME":
            return " ".join(children)
        return _unquote(first)

    def point(self, children: list[Token]) -> Point:
        return Point(tuple(_number(tok) for tok in children[1:]))

    def list(self, children: list[Value]) -> SLDPList:
        return SLDPList(tuple(children))

    def set(self, children: list[Value]) -> SLDPSet:
        return SLDPSet(tuple(children))

    def pair(self, children: list[Value]) -> tuple[Value, Value]:
        return (children[0], children[1])

    def dict(self, children: list[tuple[Number | str, Value]]) -> SLDPDict:
        return SLDPDict(tuple(children))


@functools.cache
def _parser() -> Lark:
    """Built once per process: grammar analysis costs far more than a parse."""
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        transformer=_Builder(),
    )


@functools.cache
def _scalar_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Number and bare-word regexes taken from the grammar, so the fast path cannot drift."""
    parser = _parser()
    number, name = (parser.get_terminal(n).pattern.to_regexp() for n in ("NUMBER", "NAME"))
    return re.compile(rf"\s*({number})\s*"), re.compile(rf"\s*({name})\s*")


def describe_parse_error(exc: UnexpectedInput, friendly: Mapping[str, str], parser: Lark) -> str:
    """One line: where the input broke and what would have been accepted there.

    Shared by the SLDP and PDDL goal parsers; ``friendly`` names regex terminals."""
    where = f"line {exc.line}, column {exc.column}" if exc.line not in (None, -1) else "the end"
    char = getattr(exc, "char", None)
    if char in ('"', "'"):
        return f"at {where}: unterminated quoted string"
    if isinstance(exc, UnexpectedCharacters):
        return f"at {where}: unexpected character {char!r}"
    if getattr(getattr(exc, "token", None), "type", None) == "$END":
        found = "end of input"
    elif hasattr(exc, "token"):
        found = repr(str(exc.token)[:30])
    else:
        found = repr(char)
    # ``accepts`` is exact for the parser state; ``expected`` may include default reductions.
    expected = (
        getattr(exc, "accepts", None)
        or getattr(exc, "expected", None)
        or getattr(exc, "allowed", None)
        or ()
    )
    names = sorted({_terminal_name(t, friendly, parser) for t in expected})
    wanted = f"; expected {' or '.join(names)}" if names else ""
    return f"at {where}: unexpected {found}{wanted}"


def _terminal_name(name: str, friendly: Mapping[str, str], parser: Lark) -> str:
    if name in friendly:
        return friendly[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if pattern.type == "str" else name


def _parse_uncached(text: str) -> Value:
    if not text.strip():
        raise SLDPError("empty answer: expected an SLDP value")
    number, name = _scalar_patterns()
    if match := number.fullmatch(text):
        return _number(match.group(1))
    if match := name.fullmatch(text):
        return SLDPString(match.group(1))
    parser = _parser()
    try:
        value = parser.parse(text)
    except UnexpectedInput as exc:
        raise SLDPError(describe_parse_error(exc, _FRIENDLY, parser)) from None
    except LarkError as exc:
        raise SLDPError(f"malformed SLDP: {exc}") from None
    if isinstance(value, str):
        return SLDPString(value)
    if sum(text.count(c) for c in "[<{") > MAX_DEPTH:
        _check_depth(value)
    return value


_parse_cached = functools.lru_cache(maxsize=_MEMO_SIZE)(_parse_uncached)


def parse_sldp(text: str) -> Value:
    """Parse SLDP text into an immutable value; raises :class:`SLDPError` with the position.

    Repeated texts (answers and solutions recur across models and runs) come from a bounded
    LRU memo, which is safe because the values are immutable."""
    if not isinstance(text, str):
        raise TypeError(f"parse_sldp expects text, got {type(text).__name__}")
    if len(text) <= MEMO_MAX_CHARS:
        return _parse_cached(text)
    return _parse_uncached(text)


def _children(value: Value) -> tuple[Value, ...]:
    if isinstance(value, SLDPList | SLDPSet):
        return value.items
    if isinstance(value, SLDPDict):
        return tuple(v for _, v in value.items)
    return ()


def _check_depth(value: Value) -> None:
    if deeper_than(value, _children, MAX_DEPTH):
        raise SLDPError(f"value nested deeper than {MAX_DEPTH} levels")


# ----------------------------------------------------------------------------- printing

_INF_TEXT = "1e999"  # parses back to float('inf'); the word "inf" would be a string


def format_sldp(value: Value) -> str:
    """SLDP text for a value; parsing it gives back a structurally identical value."""
    if isinstance(value, str):
        return _format_string(value)
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is float:
        return _format_float(value)
    if kind is Point:
        return "POINT(" + " ".join(format_sldp(c) for c in value.coords) + ")"
    if kind is SLDPList:
        return "[" + ", ".join(format_sldp(v) for v in value.items) + "]"
    if kind is SLDPSet:
        return "<" + ", ".join(format_sldp(v) for v in value.items) + ">"
    if kind is SLDPDict:
        pairs = (f"{format_sldp(k)}: {format_sldp(v)}" for k, v in value.items)
        return "{" + ", ".join(pairs) + "}"
    raise SLDPError(f"not an SLDP value: {type(value).__name__} (use to_sldp for plain data)")


def _format_float(value: float) -> str:
    if math.isnan(value):
        raise SLDPError("NaN has no SLDP form")
    if math.isinf(value):
        return _INF_TEXT if value > 0 else "-" + _INF_TEXT
    return repr(value)


def _format_string(text: str) -> str:
    if _bare_word(text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bare_word(text: str) -> bool:
    match = _scalar_patterns()[1].fullmatch(text)
    return match is not None and match.group(1) == text


def from_python(data: Any, _depth: int = 0) -> Value:
    """Plain Python data as an SLDP value.

    lists/tuples -> lists, sets/frozensets -> sets, mappings -> dicts (so a ``{"x", "y", "z"}``
    row stays a dict), ints/floats (and other real numbers) -> numbers, ``True``/``False``/
    ``None`` -> the words ``true``/``false``/``null``; SLDP values pass through; anything else
    becomes its ``str()`` (dates, ids), because database rows carry such values."""
    if _depth > MAX_DEPTH:
        raise SLDPError(f"value nested deeper than {MAX_DEPTH} levels")
    if isinstance(data, str):
        return str(data)  # a plain str, whatever subclass came in
    if isinstance(data, Point | SLDPList | SLDPSet | SLDPDict):
        return data
    if data is None or isinstance(data, bool):
        return {None: "null", True: "true", False: "false"}[data]
    if isinstance(data, Integral):
        return int(data)
    if isinstance(data, Real | Decimal):
        number = float(data)
        if math.isnan(number):
            raise SLDPError("NaN has no SLDP form")
        return number
    if isinstance(data, Mapping):
        return SLDPDict(
            tuple((from_python(k, _depth + 1), from_python(v, _depth + 1)) for k, v in data.items())
        )
    if isinstance(data, list | tuple):
        return SLDPList(tuple(from_python(v, _depth + 1) for v in data))
    if isinstance(data, set | frozenset):
        return SLDPSet(tuple(from_python(v, _depth + 1) for v in data))
    return str(data)


def to_sldp(data: Any) -> str:
    """SLDP text for plain Python data (see :func:`from_python` for the mapping)."""
    return format_sldp(from_python(data))


def _as_value(data: Any) -> Value:
    """Text is parsed; parsed values pass; other plain data is converted.

    A plain ``str`` is SLDP text; a :class:`SLDPString` (what :func:`parse_sldp` returns for a
    lone string) is already a value."""
    if isinstance(data, str) and not isinstance(data, SLDPString):
        data = parse_sldp(data)
    return from_python(data)  # also turns an SLDPString into the plain str the comparison uses


def _effective_tol(tol: float) -> float:
    if not (tol >= 0 and math.isfinite(tol)):
        raise ValueError(f"tolerance must be a finite number >= 0, got {tol!r}")
    return tol * _REL_SLACK


# ----------------------------------------------------------------------------- equality


def sldp_equals(a: Any, b: Any, tol: float = 0.01) -> bool:
    """Whether two answers are equal in the SLDP sense (module docstring).

    Each side is SLDP text (``str``), a parsed value, or plain data for :func:`from_python`."""
    return _equal(_as_value(a), _as_value(b), _effective_tol(tol))


def _kind(value: Any) -> str:
    kind = type(value)
    if kind in _NUMBER_TYPES:
        return "number"
    return {str: "string", Point: "point", SLDPList: "list", SLDPSet: "set", SLDPDict: "dict"}.get(
        kind, kind.__name__
    )


def _close(a: Number, b: Number, tol: float) -> bool:
    if a == b:
        return True
    try:
        return abs(a - b) <= tol
    except OverflowError:  # an int beyond float range against a float: far apart
        return False


def _equal(a: Value, b: Value, tol: float) -> bool:
    kind = type(a)
    if kind is str:
        return type(b) is str and _norm(a) == _norm(b)
    if kind in _NUMBER_TYPES:
        return type(b) in _NUMBER_TYPES and _close(a, b, tol)
    if kind is not type(b):
        return False
    if kind is Point:
        return len(a.coords) == len(b.coords) and all(
            _close(x, y, tol) for x, y in zip(a.coords, b.coords, strict=True)
        )
    if kind is SLDPList:
        return len(a.items) == len(b.items) and all(
            _equal(x, y, tol) for x, y in zip(a.items, b.items, strict=True)
        )
    if kind is SLDPSet:
        return _sets_equal(a.items, b.items, tol)
    return _dicts_equal(a, b, tol)


def _dicts_equal(a: SLDPDict, b: SLDPDict, tol: float) -> bool:
    if a.by_key.keys() != b.by_key.keys():
        return False
    return all(_equal(v, b.by_key[k][1], tol) for k, (_, v) in a.by_key.items())


def _sets_equal(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> bool:
    if len(a) * len(b) <= _PAIRWISE_LIMIT:
        return all(any(_equal(x, y, tol) for y in b) for x in a) and all(
            any(_equal(y, x, tol) for x in a) for y in b
        )
    return _cover(a, b, tol, stop_early=True) is not None


# ----------------------------------------------------------------------------- set matching

Signature: TypeAlias = tuple[Any, tuple[Number, ...] | None]
_POINT_SHAPES = {2: "p2", 3: "p3"}


def _signature(value: Value) -> Signature:
    """(shape, numbers) of a value.

    The shape is everything tolerance cannot change (kinds, lengths, normalised strings and
    keys), so equal values always share it. The numbers are the numeric leaves in a canonical
    order, or ``None`` when a set with numbers inside makes the order ambiguous (the shape
    decides which case applies). Two values of one shape are equal exactly when their numbers
    are pairwise within tolerance, which turns set matching into a near-neighbour search."""
    kind = type(value)
    if kind is Point:
        return _POINT_SHAPES[len(value.coords)], value.coords
    if kind in _NUMBER_TYPES:
        return "n", (value,)
    if kind is str:
        return ("s", _norm(value)), ()
    if kind is SLDPDict:
        keyed = sorted(value.by_key.items())
        sigs = [_signature(v) for _, (_, v) in keyed]
        shape = ("d", tuple((k, s) for (k, _), (s, _) in zip(keyed, sigs, strict=True)))
        return shape, _concat(sigs)
    sigs = [_signature(v) for v in value.items]
    if kind is SLDPList:
        return ("l", tuple(s for s, _ in sigs)), _concat(sigs)
    shape = ("S", frozenset(s for s, _ in sigs))
    return shape, () if all(nums == () for _, nums in sigs) else None


def _concat(sigs: list[Signature]) -> tuple[Number, ...] | None:
    if any(nums is None for _, nums in sigs):
        return None
    return tuple(x for _, nums in sigs for x in nums)


class _Index:
    """The items of one side of a set comparison, indexed so partners are found fast.

    Exact hits (same shape, same numbers) are one dict lookup; that is the common case, since
    answers usually copy values from the database. Otherwise items are bucketed on a grid of
    cell size 4*tol over their first three numbers (built on first need), so a query visits
    the one to eight cells its tolerance box touches. Items whose numbers cannot be gridded
    (infinities, ints beyond float range) stay in a per-shape overflow list, and items with
    ambiguous numbers (sets of numbers inside) are compared in full within their shape."""

    def __init__(
        self, items: tuple[Value, ...], tol: float, sigs: list[Signature] | None = None
    ) -> None:
        self.items = items
        self.tol = tol
        self.cell = 4 * tol
        self.sigs = sigs if sigs is not None else [_signature(v) for v in items]
        self.exact: dict[Signature, list[int]] = {}
        for index, sig in enumerate(self.sigs):
            self.exact.setdefault(sig, []).append(index)
        self._grid: dict[Any, list[int]] | None = None
        self._overflow: dict[Any, list[int]] = {}

    def _cell(self, nums: tuple[Number, ...]) -> tuple[int, ...] | None:
        try:
            return tuple([math.floor(x / self.cell) for x in nums[:3]])
        except (OverflowError, ValueError):
            return None

    def _build_grid(self) -> dict[Any, list[int]]:
        grid: dict[Any, list[int]] = {}
        for index, (shape, nums) in enumerate(self.sigs):
            if not nums:  # None or (): never looked up on the grid
                continue
            cell = self._cell(nums)
            if cell is None:
                self._overflow.setdefault(shape, []).append(index)
            else:
                grid.setdefault((shape, cell), []).append(index)
        self._grid = grid
        return grid

    def _near(self, shape: Any, nums: tuple[Number, ...]) -> list[int]:
        """Indices on the grid cells around ``nums`` (a superset of the partners)."""
        grid = self._grid if self._grid is not None else self._build_grid()
        tol, cell = self.tol, self.cell
        try:
            spans = []
            for x in nums[:3]:
                low, high = math.floor((x - tol) / cell), math.floor((x + tol) / cell)
                spans.append((low,) if low == high else (low, high))
        except (OverflowError, ValueError):
            return [i for i, sig in enumerate(self.sigs) if sig[0] == shape]
        found = [i for key in product(*spans) for i in grid.get((shape, key), ())]
        return found + self._overflow.get(shape, [])

    def partners(self, value: Value, sig: Signature, exact_first: bool = False) -> list[int]:
        """Indices of the items equal to ``value``; with ``exact_first``, exact twins alone
        when there are any (enough to know ``value`` is covered, and the cheap common case)."""
        shape, nums = sig
        hits = self.exact.get(sig, [])
        if nums is None:
            return [i for i in hits if _equal(value, self.items[i], self.tol)]
        if (hits and exact_first) or not nums or self.tol == 0:
            return hits
        return self._near_partners(shape, nums, first_only=False)

    def has_partner(self, value: Value, sig: Signature) -> bool:
        shape, nums = sig
        hits = self.exact.get(sig, [])
        if nums is None:
            return any(_equal(value, self.items[i], self.tol) for i in hits)
        if hits or not nums or self.tol == 0:
            return bool(hits)
        return bool(self._near_partners(shape, nums, first_only=True))

    def _near_partners(self, shape: Any, nums: tuple[Number, ...], first_only: bool) -> list[int]:
        tol, sigs = self.tol, self.sigs
        found = []
        for i in self._near(shape, nums):
            if all(_close(x, y, tol) for x, y in zip(nums, sigs[i][1], strict=True)):
                if first_only:
                    return [i]
                found.append(i)
        return found


def _cover(
    a: tuple[Value, ...], b: tuple[Value, ...], tol: float, stop_early: bool = False
) -> tuple[list[bool], list[bool]] | None:
    """Which items of ``a`` have a partner in ``b``, and which of ``b`` in ``a``.

    One pass over ``a`` against an index of ``b`` marks both sides at once: an exact hit marks
    its twins, an inexact query marks every partner it finds. Only ``b`` items left unmarked
    are then looked up in an index of ``a``, built just if needed. With ``stop_early`` the
    result is ``None`` at the first item without a partner (equality needs every item)."""
    index_b = _Index(b, tol)
    sigs_a = [_signature(v) for v in a]
    found_a = [False] * len(a)
    found_b = [False] * len(b)
    for i, value in enumerate(a):
        partners = index_b.partners(value, sigs_a[i], exact_first=True)
        if not partners and stop_early:
            return None
        found_a[i] = bool(partners)
        for j in partners:
            found_b[j] = True
    if not all(found_b):
        index_a = _Index(a, tol, sigs_a)
        for j, value in enumerate(b):
            if found_b[j]:
                continue
            found_b[j] = index_a.has_partner(value, index_b.sigs[j])
            if not found_b[j] and stop_early:
                return None
    return found_a, found_b


# ----------------------------------------------------------------------------- scoring


def sldp_score(answer: Any, solution: Any, tol: float = 0.01) -> Score:
    """Equality plus partial credit (module docstring); ``answer`` first, text or values."""
    return _score(_as_value(answer), _as_value(solution), _effective_tol(tol), "")


def _ratios(earned_a: float, size_a: int, earned_b: float, size_b: int) -> tuple[float, ...]:
    precision = earned_a / size_a if size_a else 1.0
    recall = earned_b / size_b if size_b else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _verdict(equal: bool, counts: tuple[float, int, float, int], reason: str, path: str) -> Score:
    precision, recall, f1 = _ratios(*counts)
    if equal:
        return Score(True, 1.0, 1.0, 1.0, "equal")
    return Score(False, precision, recall, f1, f"at {path}: {reason}" if path else reason)


def _show(value: Value, limit: int = 40) -> str:
    text = format_sldp(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _score(a: Value, b: Value, tol: float, path: str) -> Score:
    kind = _kind(a)
    if kind != _kind(b):
        return _verdict(
            False, (0, 1, 0, 1), f"{kind} {_show(a)} where a {_kind(b)} was expected", path
        )
    if kind == "set":
        return _score_sets(a, b, tol, path)
    if kind == "list":
        return _score_lists(a, b, tol, path)
    if kind == "dict":
        return _score_dicts(a, b, tol, path)
    if _equal(a, b, tol):
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
    found_a, found_b = _cover(items_a, items_b, tol)
    counts = (sum(found_a), len(found_a), sum(found_b), len(found_b))
    equal = all(found_a) and all(found_b)
    missing = [v for v, hit in zip(items_b, found_b, strict=True) if not hit]
    extra = [v for v, hit in zip(items_a, found_a, strict=True) if not hit]
    reason = "; ".join(
        f"{len(group)} {label}, e.g. {_show(group[0])}"
        for label, group in (("missing from the set", missing), ("not in the solution", extra))
        if group
    )
    return _verdict(equal, counts, reason, path)


def _score_lists(a: SLDPList, b: SLDPList, tol: float, path: str) -> Score:
    common = _lcs_length(a.items, b.items, tol)
    equal = common == len(a.items) == len(b.items)
    counts = (common, len(a.items), common, len(b.items))
    return _verdict(equal, counts, "" if equal else _list_mismatch(a, b, tol, path), "")


def _list_mismatch(a: SLDPList, b: SLDPList, tol: float, path: str) -> str:
    sizes = f"{_at(path)}list has {len(a.items)} items, expected {len(b.items)}"
    for index, (x, y) in enumerate(zip(a.items, b.items, strict=False)):
        if not _equal(x, y, tol):
            inner = _score(x, y, tol, f"{path}[{index}]").reason
            return inner if len(a.items) == len(b.items) else f"{sizes}; first difference {inner}"
    return sizes


def _lcs_length(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> int:
    """Longest common subsequence under tolerant equality (Hunt-Szymanski).

    Each answer item lists the solution positions it equals (found through the set index),
    and the LCS is the longest strictly increasing run through those positions."""
    start = 0
    while start < min(len(a), len(b)) and _equal(a[start], b[start], tol):
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and _equal(a[-1 - end], b[-1 - end], tol):
        end += 1
    middle_a, middle_b = a[start : len(a) - end], b[start : len(b) - end]
    if not middle_a or not middle_b:
        return start + end
    index = _Index(middle_b, tol)
    tails: list[int] = []
    for value in middle_a:
        for j in reversed(index.partners(value, _signature(value))):
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
    equal = not first_problem
    return _verdict(equal, (earned, len(a), earned, len(b)), first_problem, "")


def _at(path: str) -> str:
    return f"at {path}: " if path else ""
