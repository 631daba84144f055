"""SLDP equality with an absolute tolerance (the rules are in the package docstring)."""

from __future__ import annotations

import math
from typing import Any

from dsgqa.sldp.convert import as_value
from dsgqa.sldp.match import close, cover
from dsgqa.sldp.values import NUMBER_TYPES, Point, SLDPDict, SLDPList, SLDPSet, Value, norm

_REL_SLACK = 1 + 1e-6
#: Sets smaller than this (product of sizes) are compared pairwise; the index costs more.
_PAIRWISE_LIMIT = 64


def sldp_equals(a: Any, b: Any, tol: float = 0.01) -> bool:
    """Whether two answers are equal in the SLDP sense (package docstring).

    Each side is SLDP text (``str``), a parsed value, or plain data for :func:`from_python`."""
    return equal(as_value(a), as_value(b), effective_tol(tol))


def effective_tol(tol: float) -> float:
    """The tolerance with a relative slack of 1e-6, which absorbs binary rounding."""
    if not (tol >= 0 and math.isfinite(tol)):
        raise ValueError(f"tolerance must be a finite number >= 0, got {tol!r}")
    return tol * _REL_SLACK


def equal(a: Value, b: Value, tol: float) -> bool:
    """SLDP equality of two values (``tol`` already effective)."""
    kind = type(a)
    if kind is str:
        return type(b) is str and norm(a) == norm(b)
    if kind in NUMBER_TYPES:
        return type(b) in NUMBER_TYPES and close(a, b, tol)
    if kind is not type(b):
        return False
    if kind is Point:
        return len(a.coords) == len(b.coords) and all(
            close(x, y, tol) for x, y in zip(a.coords, b.coords, strict=True)
        )
    if kind is SLDPList:
        return len(a.items) == len(b.items) and all(
            equal(x, y, tol) for x, y in zip(a.items, b.items, strict=True)
        )
    if kind is SLDPSet:
        return _sets_equal(a.items, b.items, tol)
    return _dicts_equal(a, b, tol)


def _dicts_equal(a: SLDPDict, b: SLDPDict, tol: float) -> bool:
    if a.by_key.keys() != b.by_key.keys():
        return False
    return all(equal(v, b.by_key[k][1], tol) for k, (_, v) in a.by_key.items())


def _sets_equal(a: tuple[Value, ...], b: tuple[Value, ...], tol: float) -> bool:
    if len(a) * len(b) <= _PAIRWISE_LIMIT:
        return all(any(equal(x, y, tol) for y in b) for x in a) and all(
            any(equal(y, x, tol) for x in a) for y in b
        )
    return cover(a, b, tol, equal, stop_early=True) is not None
